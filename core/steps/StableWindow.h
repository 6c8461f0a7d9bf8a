#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace dspark {

struct StepRecordSet;

struct StableWindowOptions {
    size_t minSteps = 3;     // shorter runs are not proposed
    int64_t bsTolerance = 0; // largest |bs − bs of the run's first step| still called steady
};

// The longest run of one rank's decode steps with consecutive forward_ct (no prefill / idle step in
// between: SGLang counts those too, so a gap in forward_ct is a non-decode step) and a steady
// workload (bs within bsTolerance of the run's first step, where bs is recorded).
struct StableWindow {
    int dpRank = 0;
    size_t firstRow = 0; // index into StepRecordSet::rows
    size_t lastRow = 0;  // inclusive
    int64_t firstForwardCt = 0;
    int64_t lastForwardCt = 0;
    size_t steps = 0;
    std::optional<int64_t> bs; // bs of the first step of the run, when recorded
};

// One window per rank that has a run of at least minSteps steps; ascending rank.
std::vector<StableWindow> findStableWindows(const StepRecordSet& set, const StableWindowOptions& options = {});

} // namespace dspark
