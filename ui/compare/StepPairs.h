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
// what the comparison timelines line up. Steps are taken from each run's stable window (the first
// rank's; every aligned step of that rank when the run has none) and paired by their order there.
std::vector<StepPair> matchStepPairs(const ProfileSession& baseline, const ProfileSession& changed);

} // namespace dspark::ui
