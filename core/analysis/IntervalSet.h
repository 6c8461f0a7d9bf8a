#pragma once

#include "model/Lane.h"

#include <vector>

namespace dspark {

// A half-open time interval [startNs, endNs) on the profile's clock.
struct Interval {
    TimeNs startNs = 0;
    TimeNs endNs = 0;
    TimeNs lengthNs() const { return endNs > startNs ? endNs - startNs : 0; }
    friend bool operator==(const Interval&, const Interval&) = default;
};

// A union of intervals kept as sorted, disjoint, non-touching intervals (what msprof's Overlap
// Analysis calls "Computing" / "Communication"). Built once, then queried; all operations are linear.
class IntervalSet {
public:
    IntervalSet() = default;
    // Any order, overlaps allowed; empty intervals are dropped.
    static IntervalSet fromUnsorted(std::vector<Interval> intervals);

    // Appends an interval whose start is >= the start of every interval added before (merges on the fly).
    void addSorted(TimeNs startNs, TimeNs endNs);

    const std::vector<Interval>& intervals() const& { return m_intervals; }
    // On a temporary (`a.minus(b).intervals()` in a range-for) the intervals are moved out, not
    // referenced: a reference would dangle once the temporary is gone.
    std::vector<Interval> intervals() && { return std::move(m_intervals); }
    bool empty() const { return m_intervals.empty(); }
    TimeNs totalNs() const;
    TimeNs firstNs() const { return empty() ? 0 : m_intervals.front().startNs; }
    TimeNs lastNs() const { return empty() ? 0 : m_intervals.back().endNs; }

    IntervalSet unitedWith(const IntervalSet& other) const;
    IntervalSet minus(const IntervalSet& other) const;
    IntervalSet clipped(TimeNs t0, TimeNs t1) const;
    TimeNs intersectionNs(const IntervalSet& other) const;
    // Length of the set inside [t0, t1).
    TimeNs coveredNs(TimeNs t0, TimeNs t1) const;

private:
    std::vector<Interval> m_intervals;
};

} // namespace dspark
