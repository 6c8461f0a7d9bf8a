#include "io/FileFormat.h"

namespace dspark {

const char* fileFormatName(FileFormat format)
{
    switch (format) {
    case FileFormat::Unknown: return "unknown";
    case FileFormat::TorchNpuDb: return "torch_npu_db";
    case FileFormat::MsprofDb: return "msprof_db";
    case FileFormat::TraceViewJson: return "trace_view_json";
    case FileFormat::MsprofJson: return "msprof_json";
    case FileFormat::KinetoJson: return "kineto_json";
    case FileFormat::ServerInfoJson: return "server_info_json";
    case FileFormat::DsparkRecordJson: return "dspark_record_json";
    case FileFormat::StepRecordsJsonl: return "step_records_jsonl";
    case FileFormat::SpsRecordsJsonl: return "sps_records_jsonl";
    case FileFormat::ProfilerInfoJson: return "profiler_info_json";
    case FileFormat::ProfilerMetadataJson: return "profiler_metadata_json";
    }
    return "unknown";
}

bool isTimelineFormat(FileFormat format)
{
    return format == FileFormat::TorchNpuDb || format == FileFormat::MsprofDb || format == FileFormat::TraceViewJson ||
           format == FileFormat::MsprofJson || format == FileFormat::KinetoJson;
}

bool isStepRecordFormat(FileFormat format)
{
    return format == FileFormat::ServerInfoJson || format == FileFormat::DsparkRecordJson ||
           format == FileFormat::StepRecordsJsonl || format == FileFormat::SpsRecordsJsonl;
}

} // namespace dspark
