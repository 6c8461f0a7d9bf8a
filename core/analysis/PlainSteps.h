#pragma once

#include "analysis/AnalysisRules.h"
#include "analysis/KernelSummary.h"
#include "analysis/StepWindow.h"

#include <QString>

#include <array>
#include <vector>

namespace dspark {

// Steps of a profile without DSpark step records, and what gave them.
enum class StepSource : uint8_t {
    None,
    ProfilerStep, // torch profiler's ProfilerStep#N spans (its schedule)
    StepTime,     // the profiler's own step lane (STEP_TIME, LaneInfo::profilerSteps)
    StepSpans,    // SGLang's scheduler iterations: step_span rule (scheduler.run_batch), else step[...] spans
};
const char* stepSourceKey(StepSource source); // "none", "profiler_step", "step_time", "step_spans"
QString stepSourceText(StepSource source);    // translated, for tables

// The critical path of a plain step in four categories (the DSpark categories folded: every stage's
// device work is compute).
enum class PlainPathCategory : uint8_t { Compute, Communication, Host, Idle, Count };
constexpr size_t kPlainPathCategoryCount = static_cast<size_t>(PlainPathCategory::Count);
const char* plainPathKey(PlainPathCategory c); // "compute", "communication", "host", "idle"

struct PlainStep {
    StepWindow window;  // forwardCt = the step's number (ProfilerStep#N: N; else its order on the rank)
    EventRef span;      // the span that gave the step
    TimeNs deviceEndNs; // device work of the step is counted up to here (the next step's start)
    // Over [window.startNs, deviceEndNs), for the rank's first device (msprof's definitions):
    TimeNs deviceBusyNs = 0; // computing ∪ communication
    TimeNs computingNs = 0;
    TimeNs commNotOverlappedNs = 0;
    TimeNs freeNs = 0;
    std::array<TimeNs, kPlainPathCategoryCount> criticalPathNs{}; // Σ == wall time
    std::vector<KernelRow> topKernels;                            // at most kTopKernels, total descending
    QString anomaly; // empty, or why the step is far from the rank's other steps
    static constexpr size_t kTopKernels = 5;
};

struct PlainSteps {
    StepSource source = StepSource::None;
    std::vector<PlainStep> steps; // by rank, then time
};

// The job's rank number of a Profile::ranks index (the index itself when out of range).
int rankNumberOf(const Profile& profile, int rankIndex);
// Another rank of the profile has the same number as this Profile::ranks index (another run of Kineto
// traces, Profile::ensureRunRank): the number alone does not tell them apart, their labels do.
bool sharesRankNumber(const Profile& profile, int rankIndex);
// What a table's Rank column shows for a Profile::ranks index: the rank number, or the rank's label
// ("rank 0 (x2.json)") where the number is shared.
QString rankColumnText(const Profile& profile, int rankIndex);

// The step windows only (cheap): ProfilerStep#N spans, else the profiler's step lane, else the
// scheduler iterations of the step_span rule / step[...] spans.
PlainSteps findPlainSteps(const Profile& profile, const AnalysisRules& rules);
// The windows with every figure: overlap, critical path, top kernels, anomalies. Wall times more than
// `robustZ` robust σ (1.4826 × MAD, floored at 0.2 % of the median) from the median of the rank's steps
// (at least 5) are anomalies.
PlainSteps analyzePlainSteps(const Profile& profile, const AnalysisRules& rules, double robustZ = 3.5);

} // namespace dspark
