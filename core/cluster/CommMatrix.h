#pragma once

#include "cluster/ClusterAnalysis.h"

#include <map>
#include <string>
#include <vector>

namespace dspark {

// Source → destination over the whole capture: the HCCL sub-tasks that moved data on that link
// (COMMUNICATION_TASK_INFO rows with a size), as reported by the source rank.
struct CommMatrixCell {
    int64_t srcRank = -1; // ranks within the group, as the rows give them
    int64_t dstRank = -1;
    int srcGlobal = -1; // their global ranks from the group's members (GroupCommMatrix::globalOf), -1 unknown
    int dstGlobal = -1;
    std::string transport;
    uint64_t tasks = 0;
    int64_t bytes = 0;
    TimeNs timeNs = 0;
    // GB/s (10^9 bytes per second) = bytes per ns; 0 without time.
    double bandwidthGBps() const { return timeNs > 0 ? static_cast<double>(bytes) / static_cast<double>(timeNs) : 0; }
};

// A member rank's time in the group's matched collectives (issue → end), split as in ClusterAnalysis.
struct CommMatrixMember {
    size_t rank = 0; // index into the cluster's ranks
    size_t collectives = 0;
    TimeNs timeNs = 0;
    TimeNs waitNs = 0;
    TimeNs transferNs = 0;
};

struct GroupCommMatrix {
    std::string group;
    // In-group rank → global rank: the group's global_ranks where a rank's summary has them, else each
    // captured member's own place (its group_rank → its rank number). Unknown members are absent.
    std::map<int64_t, int> globalOf;
    int globalRank(int64_t inGroup) const
    {
        const auto it = globalOf.find(inGroup);
        return it == globalOf.end() ? -1 : it->second;
    }
    std::vector<CommMatrixCell> cells;     // by (src, dst, transport); empty when no rank had the rows
    std::vector<CommMatrixMember> members; // by rank index: always (from the matched collectives)
    bool fromTasks() const { return !cells.empty(); }
};

// Per communication group (by name), the source → destination matrix where the ranks' summaries carry
// COMMUNICATION_TASK_INFO links, with the global rank of each end where the group's members are known,
// and each member's collective time in any case (docs/cluster.md "Communication matrix"). Groups in name
// order.
std::vector<GroupCommMatrix> commMatrices(const std::vector<RankSummary>& ranks, const ClusterAnalysis& analysis);

} // namespace dspark
