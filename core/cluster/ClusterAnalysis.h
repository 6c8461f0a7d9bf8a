#pragma once

#include "cluster/RankSummary.h"

#include <QString>

#include <string>
#include <vector>

namespace dspark {

// One collective matched across its member ranks: the same (group, ordinal within the group after the
// window start) on every member, checked by name kind and size (docs/cluster.md "Matching").
struct MatchedCollective {
    std::string group;
    std::string kind;
    size_t ordinal = 0;          // within the group, from the window start
    int64_t stepId = -1;         // the step of the first member that holds it, -1 outside steps
    std::vector<size_t> members; // indices into the cluster's ranks
    std::vector<size_t> timing;  // per member: index into that rank's collectives
    bool mismatch = false;       // the members disagree on kind or size: not used for the clocks
    // On the cluster clock (after the offsets):
    size_t lastMember = SIZE_MAX; // index into members of the rank that arrived last
    TimeNs lastIssueNs = 0;
    TimeNs lateByNs = 0;            // last issue − the one before it: what that rank alone held the others
    std::vector<TimeNs> waitNs;     // per member: this rank's issue → the last member's issue (≤ its time in it)
    std::vector<TimeNs> transferNs; // per member: the rest of its time in the collective
    size_t votedSlow = SIZE_MAX;    // index into members: the outlier with the shortest time (slow_rank vote)
    std::vector<size_t> slowVotes;  // every member voted slow (several only above 100 members: the 3σ rule)
};

// A rank's clock offset to the reference rank: cluster time = rank time + offsetNs.
struct RankClock {
    TimeNs offsetNs = 0;
    TimeNs spreadNs = 0;       // max − min of the end differences it rests on
    TimeNs madNs = 0;          // their median absolute deviation
    size_t collectives = 0;    // the matched collectives its offset rests on; the reference: those it shares
    size_t viaRank = SIZE_MAX; // the rank it was measured against (SIZE_MAX: the reference itself)
    bool estimated = false;    // false: no shared collective, offset 0
    bool overridden = false;   // set by the user
};

struct RankVerdict {
    size_t rank = 0;         // index into the cluster's ranks
    size_t votes = 0;        // collectives where it was the slow outlier
    size_t lastArrivals = 0; // collectives it reached last
    TimeNs latenessNs = 0;   // Σ lateByNs over those
    TimeNs waitNs = 0;       // Σ its own wait for late peers
    TimeNs transferNs = 0;   // Σ the rest of its time in collectives
    QString explanation;     // one line
};

struct ClusterAnalysis {
    size_t referenceRank = 0;
    std::vector<RankClock> clocks; // per rank
    std::vector<MatchedCollective> collectives;
    std::vector<RankVerdict> ranking; // most votes first, then most lateness
    int64_t firstStepId = -1;         // the window's first step (common to every rank), -1 when none
    QStringList warnings;
    // The collectives that more than one rank took part in (a group of one rank's own matches nobody).
    size_t acrossRanks() const;
};

struct ClusterOptions {
    // Per rank (by index), a user's offset that replaces the estimate.
    std::vector<std::optional<TimeNs>> offsetOverrides;
};

// Matches the collectives, estimates the clocks (median of end differences), then finds per collective
// the last rank, everyone's wait and transfer, and the slow-rank votes.
ClusterAnalysis analyzeCluster(const std::vector<RankSummary>& ranks, const ClusterOptions& options = {});

} // namespace dspark
