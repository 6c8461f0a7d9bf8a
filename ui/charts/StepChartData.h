#pragma once

#include "analysis/CriticalPath.h"

#include <QString>

#include <array>
#include <optional>
#include <vector>

namespace dspark {
struct StepRecordSet;
}

namespace dspark {
class StepAnalyses;
}

namespace dspark::ui {

// One step record of the charts (ms as in the step table; nullopt = not recorded).
struct StepChartRecord {
    size_t recordRow = 0;     // StepRecordSet::rows index (of a bin of steps: its anomalous or slowest step)
    size_t lastRecordRow = 0; // a bin of steps stands for the rows recordRow's first .. this (see stepsPerBar)
    size_t firstRecordRow = 0;
    int64_t forwardCt = 0;
    std::optional<double> draftMs;        // draft_gpu_ms
    std::optional<double> verifyMs;       // target_verify_gpu_ms
    std::optional<double> outOfSegmentMs; // unattributed_ms (step − draft − verify)
    std::optional<double> stepMs;         // step_gpu_ms, or step_cpu_ms when the set has no GPU times
    std::optional<double> tpotMs;         // effective TPOT (on the same step time as stepMs)
    std::optional<double> meanCommitLen;
    QString anomaly; // empty = ordinary
    // Of a bin: the step time and TPOT of its anomalous step (where its marker goes; the bin's values
    // are means, which hide it). Of a single step: its own.
    std::optional<double> anomalyStepMs, anomalyTpotMs;
};

// One analysed (aligned) step of the charts.
struct StepChartAnalysis {
    size_t recordRow = 0;                         // (of a bin: its anomalous or longest step)
    size_t firstRecordRow = 0, lastRecordRow = 0; // the rows it stands for
    size_t step = 0;                              // StepAnalyses index
    int64_t forwardCt = 0;
    double commInflightMs = 0; // T_comm_total
    double commExposedMs = 0;  // T_comm_exposed
    double commHiddenMs = 0;   // Σ hidden
    double wallMs = 0;
    std::array<double, kPathCategoryCount> pathMs{};
    bool anomalous = false;
};

struct StepTimeBin {
    double loMs = 0, hiMs = 0;
    int ordinary = 0, anomalous = 0;
    std::vector<size_t> recordRows; // by forward_ct
};

// What the step charts show for one rank of the records: the records by forward_ct, the analysed
// steps, and the histogram of step times. Built from the model only (no Qt Charts), so the figures
// are tested without drawing anything.
struct StepChartData {
    std::vector<int> dpRanks; // the records' DP ranks present
    int dpRank = 0;
    bool gpuStepTimes = true; // stepMs is step_gpu_ms (else step_cpu_ms)
    std::vector<StepChartRecord> records;
    std::vector<StepChartAnalysis> analysed; // aligned steps with their analyses (computed ones only)
    std::vector<StepTimeBin> histogram;      // of every step, binned or not: ceil(sqrt(n)) bins, at most 30
    // A long run has more steps than a chart can draw as bars (Qt Charts makes an item of each, and a
    // bar narrower than a pixel shows nothing): past kMaxBars, consecutive steps are binned, each bar
    // the mean of its steps (anomalous when any of them is). 1 = a bar per step.
    static constexpr size_t kMaxBars = 1000;
    size_t stepsPerBar = 1;
    size_t analysedPerBar = 1;

    // dpRank < 0: the first DP rank of the set.
    static StepChartData build(const StepRecordSet* set, const StepAnalyses* analyses, int dpRank);
};

} // namespace dspark::ui
