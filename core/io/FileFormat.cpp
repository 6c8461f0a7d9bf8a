#include "io/FileFormat.h"

#include <QCoreApplication>

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
    case FileFormat::AnalysisDb: return "analysis_db";
    case FileFormat::ProfilerCsv: return "profiler_csv";
    case FileFormat::CommunicationJson: return "communication_json";
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

bool isCompanionFormat(FileFormat format)
{
    return format == FileFormat::AnalysisDb || format == FileFormat::ProfilerCsv ||
           format == FileFormat::CommunicationJson;
}

// Readable words for a file format identifier of `info --json` (which keeps the identifiers).
QString fileFormatDisplayName(const std::string& id)
{
    struct Name {
        FileFormat format;
        const char* text;
    };
    static const Name names[] = {
        {FileFormat::TorchNpuDb, QT_TRANSLATE_NOOP("cli", "torch_npu database")},
        {FileFormat::MsprofDb, QT_TRANSLATE_NOOP("cli", "msprof database")},
        {FileFormat::TraceViewJson, QT_TRANSLATE_NOOP("cli", "torch_npu trace_view.json")},
        {FileFormat::MsprofJson, QT_TRANSLATE_NOOP("cli", "msprof JSON timeline")},
        {FileFormat::KinetoJson, QT_TRANSLATE_NOOP("cli", "PyTorch/Kineto trace")},
        {FileFormat::ServerInfoJson, QT_TRANSLATE_NOOP("cli", "SGLang /server_info")},
        {FileFormat::DsparkRecordJson, QT_TRANSLATE_NOOP("cli", "DSpark info record")},
        {FileFormat::StepRecordsJsonl, QT_TRANSLATE_NOOP("cli", "DSpark step records")},
        {FileFormat::SpsRecordsJsonl, QT_TRANSLATE_NOOP("cli", "dspark_sps_profiler records")},
        {FileFormat::ProfilerInfoJson, QT_TRANSLATE_NOOP("cli", "profiler_info.json")},
        {FileFormat::ProfilerMetadataJson, QT_TRANSLATE_NOOP("cli", "profiler_metadata.json")},
        {FileFormat::AnalysisDb, QT_TRANSLATE_NOOP("cli", "torch_npu analysis.db")},
        {FileFormat::ProfilerCsv, QT_TRANSLATE_NOOP("cli", "profiler CSV table")},
        {FileFormat::CommunicationJson, QT_TRANSLATE_NOOP("cli", "communication summary")},
    };
    for (const Name& n : names)
        if (id == fileFormatName(n.format))
            return QCoreApplication::translate("cli", n.text);
    return QCoreApplication::translate("cli", "unknown format");
}

} // namespace dspark
