#pragma once

#include "cluster/ClusterAnalysis.h"

#include <string>
#include <vector>

namespace dspark {

// One piece of a step's cross-rank critical path, on the cluster clock.
struct CrossRankSegment {
    size_t rank = 0; // index into the cluster's ranks
    PathCategory category = PathCategory::Idle;
    TimeNs startNs = 0;
    TimeNs endNs = 0;
    std::string what;        // the task's or collective's name, empty for a gap
    bool collective = false; // a collective's time after its last member arrived (the transfer)
};

struct CrossRankTotal {
    size_t rank = 0;
    PathCategory category = PathCategory::Idle;
    TimeNs ns = 0;
};

// The path of one step (docs/cluster.md "Cross-rank critical path"): it spans [startNs, endNs], from the
// step's end on the rank whose step ended last back to the step's start on the rank where the walk
// stopped; the segments tile it and the totals add up to its length.
struct CrossRankStepPath {
    int64_t stepId = -1;
    TimeNs startNs = 0, endNs = 0;
    size_t endRank = 0;                     // the rank whose step ended last: where the walk starts
    size_t jumps = 0;                       // times the walk went to a later peer through a collective
    bool complete = true;                   // false: a rank on the path had no per-step path (a version-1 summary)
    std::vector<CrossRankSegment> segments; // in time order
    std::vector<CrossRankTotal> totals;     // per (rank, category), largest first
    TimeNs lengthNs() const { return endNs - startNs; }
};

// The per-rank critical paths (RankStep::path) joined through the collectives: walking back from the
// step's end, where a rank's path waits (exposed communication or idle) inside a matched collective
// whose last member is another rank, the time after that member's issue stays with the collective and
// the walk goes on from that issue on the late member's own path. Ranks on the clocks of `analysis`.
CrossRankStepPath crossRankCriticalPath(const std::vector<RankSummary>& ranks, const ClusterAnalysis& analysis,
                                        int64_t stepId);

// Every step that some rank has, from the window's first step on, by step id.
std::vector<CrossRankStepPath> crossRankCriticalPaths(const std::vector<RankSummary>& ranks,
                                                      const ClusterAnalysis& analysis);

// The totals of several steps' paths added up, largest first.
std::vector<CrossRankTotal> addTotals(const std::vector<CrossRankStepPath>& paths);

} // namespace dspark
