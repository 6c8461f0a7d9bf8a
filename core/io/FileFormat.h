#pragma once

#include <QString>

#include <string>

namespace dspark {

// Every input format the viewer recognises (formats.md §1-§4).
enum class FileFormat {
    Unknown,
    TorchNpuDb,           // ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler[_<rank>].db
    MsprofDb,             // PROF_*/msprof_<ts>.db or mindstudio_profiler_output/msprof_<ts>.db
    TraceViewJson,        // ASCEND_PROFILER_OUTPUT/trace_view.json (top-level array)
    MsprofJson,           // mindstudio_profiler_output/msprof_<ts>.json
    KinetoJson,           // *.trace.json(.gz): {"traceEvents": [...]}
    ServerInfoJson,       // saved GET /server_info response
    DsparkRecordJson,     // a bare dspark_info_record object
    StepRecordsJsonl,     // JSON Lines of DecodeStepRecord (optional envelope first line)
    SpsRecordsJsonl,      // dspark_sps_profiler <out>.records.jsonl (step_time in seconds)
    ProfilerInfoJson,     // profiler_info[_<rank>].json
    ProfilerMetadataJson, // profiler_metadata.json
    // Recognised companions, listed but not loaded (the timeline comes from the exports above):
    AnalysisDb,       // ASCEND_PROFILER_OUTPUT/analysis.db (StepTraceTime, CommAnalyzer* summaries)
    ProfilerCsv,      // kernel_details.csv, step_trace_time.csv, op_summary_*.csv, ... (by their header)
    CommunicationJson // ASCEND_PROFILER_OUTPUT/communication.json (per-step communication summary)
};

// Stable lowercase name used in `info --json` ("torch_npu_db", "trace_view_json", ...).
const char* fileFormatName(FileFormat format);
// Readable words for an identifier of fileFormatName() (translated; `info` and the window's file list).
QString fileFormatDisplayName(const std::string& id);
bool isTimelineFormat(FileFormat format);
bool isStepRecordFormat(FileFormat format);
bool isCompanionFormat(FileFormat format); // recognised, never loaded

} // namespace dspark
