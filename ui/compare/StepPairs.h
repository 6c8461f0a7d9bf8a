#pragma once

#include <cstddef>
#include <vector>

namespace dspark {
class ProfileSession;
}

namespace dspark::ui {

// A baseline step and the changed run's step it is compared with (indices into each session's
// StepAnalyses).
struct StepPair {
    size_t baselineStep = 0;
    size_t changedStep = 0;
    friend bool operator==(const StepPair&, const StepPair&) = default;
};

// The matched step pairs of two runs, in the baseline's time order: what `[` / `]` walk through and
// what the comparison timelines line up. Steps on the timeline are matched by workload class (mode,
// bs, verify tokens; core/compare StepClass) inside each run's stable windows (anywhere when no step of
// a stable window is on the timeline), the k-th of a class in one run with the k-th in the other.
std::vector<StepPair> matchStepPairs(const ProfileSession& baseline, const ProfileSession& changed);

} // namespace dspark::ui
