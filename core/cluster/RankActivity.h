#pragma once

#include "cluster/RankSummary.h"

#include <vector>

namespace dspark {

// What a rank's folded row shows along time, read from its summary alone (so that a rank whose events
// are not loaded shows it too), on the rank's own clock. Measured when the summary carries activity
// bins (version 3, RankActivityBins): busy = computing, comm = communicating while not computing, each
// bin's shares spread evenly over it; idle the rest, and outside the bins' range.
// Estimated from an older summary (estimated() true):
// - communicating: inside one of its collectives (issue → end, overlaps merged);
// - busy: inside a step, weighted by the part of the step its critical path did not spend idle, spread
//   evenly over the step, less the communication;
// - idle: the rest (outside the steps, or the idle part of a step).
// A summary without steps counts its whole time range as a step that is never idle.
class RankActivity {
public:
    RankActivity() = default;
    explicit RankActivity(const RankSummary& summary);

    struct Share {
        double busy = 0; // fractions of the interval, busy + comm ≤ 1
        double comm = 0;
    };
    // The shares of [aNs, bNs) (rank time); zero for an empty interval.
    Share share(TimeNs aNs, TimeNs bNs) const;
    // True when the shares are the estimate (the summary has no activity bins).
    bool estimated() const { return m_estimated; }

private:
    // Disjoint weighted intervals by start, with the running integral of weight × length before each.
    struct Density {
        std::vector<TimeNs> start, end;
        std::vector<double> weight, before;
        void add(TimeNs s, TimeNs e, double w); // s ≥ the last end (callers merge or clip)
        double integral(TimeNs t) const;        // ∫ weight over (−∞, t)
    };
    void estimate(const RankSummary& summary);
    Density m_steps, m_comm; // measured: busy and comm-only; estimated: the weighted steps and comm
    bool m_estimated = false;
};

} // namespace dspark
