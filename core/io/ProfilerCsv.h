#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dspark {

// One row of torch_npu's kernel_details.csv (text export, ASCEND_PROFILER_OUTPUT): times in ns on the
// trace's clock (the file writes µs with three decimals).
struct KernelDetailRow {
    std::optional<int64_t> step; // "Step Id" (absent or not a number: nullopt)
    std::string name;
    std::string type;            // "Type" (the operator type)
    std::string acceleratorCore; // "Accelerator Core": AI_CORE, AI_VECTOR_CORE, MIX_AIV, HCCL, ...
    int64_t startNs = 0;
    int64_t durationNs = 0;
};

// One row of step_trace_time.csv: the profiler's own overlap figures per step, in ns.
struct StepTraceRow {
    std::optional<int64_t> step;
    int64_t computingNs = 0, communicationNotOverlappedNs = 0, overlappedNs = 0, communicationNs = 0, freeNs = 0,
            stageNs = 0;
};

// Reads the file; on a problem returns an empty list and sets `error` to one line naming the file.
std::vector<KernelDetailRow> readKernelDetailsCsv(const QString& path, QString* error);
std::vector<StepTraceRow> readStepTraceTimeCsv(const QString& path, QString* error);
// How many times readKernelDetailsCsv ran in this process (tests check that a file is read once).
uint64_t kernelDetailsReadCount();

// The fields of one CSV line (RFC 4180 quoting; surrounding spaces and tabs of a field dropped).
std::vector<std::string> splitCsvLine(const std::string& line);

} // namespace dspark
