#pragma once

#include "cluster/RankSummary.h"

#include <vector>

namespace dspark {

// What a rank's folded row shows along time, read from its summary alone (so that a rank whose events
// are not loaded shows it too), on the rank's own clock:
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

private:
    // Disjoint weighted intervals by start, with the running integral of weight × length before each.
    struct Density {
        std::vector<TimeNs> start, end;
        std::vector<double> weight, before;
        void add(TimeNs s, TimeNs e, double w); // s ≥ the last end (callers merge or clip)
        double integral(TimeNs t) const;        // ∫ weight over (−∞, t)
    };
    Density m_steps, m_comm;
};

} // namespace dspark
