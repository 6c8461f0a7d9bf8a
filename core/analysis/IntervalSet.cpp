#include "analysis/IntervalSet.h"

#include <algorithm>

namespace dspark {

IntervalSet IntervalSet::fromUnsorted(std::vector<Interval> intervals)
{
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval& a, const Interval& b) { return a.startNs < b.startNs; });
    IntervalSet set;
    set.m_intervals.reserve(intervals.size());
    for (const Interval& i : intervals)
        set.addSorted(i.startNs, i.endNs);
    return set;
}

void IntervalSet::addSorted(TimeNs startNs, TimeNs endNs)
{
    if (endNs <= startNs)
        return;
    if (!m_intervals.empty() && startNs <= m_intervals.back().endNs) {
        m_intervals.back().endNs = std::max(m_intervals.back().endNs, endNs);
        return;
    }
    m_intervals.push_back({startNs, endNs});
}

TimeNs IntervalSet::totalNs() const
{
    TimeNs total = 0;
    for (const Interval& i : m_intervals)
        total += i.endNs - i.startNs;
    return total;
}

IntervalSet IntervalSet::unitedWith(const IntervalSet& other) const
{
    IntervalSet out;
    out.m_intervals.reserve(m_intervals.size() + other.m_intervals.size());
    size_t a = 0, b = 0;
    while (a < m_intervals.size() || b < other.m_intervals.size()) {
        const bool takeA = b >= other.m_intervals.size() ||
                           (a < m_intervals.size() && m_intervals[a].startNs <= other.m_intervals[b].startNs);
        const Interval& i = takeA ? m_intervals[a++] : other.m_intervals[b++];
        out.addSorted(i.startNs, i.endNs);
    }
    return out;
}

IntervalSet IntervalSet::minus(const IntervalSet& other) const
{
    IntervalSet out;
    size_t b = 0;
    for (const Interval& i : m_intervals) {
        TimeNs cursor = i.startNs;
        while (b < other.m_intervals.size() && other.m_intervals[b].endNs <= cursor)
            ++b;
        size_t k = b;
        while (k < other.m_intervals.size() && other.m_intervals[k].startNs < i.endNs) {
            out.addSorted(cursor, std::min(i.endNs, other.m_intervals[k].startNs));
            cursor = std::max(cursor, other.m_intervals[k].endNs);
            if (other.m_intervals[k].endNs > i.endNs)
                break;
            ++k;
        }
        out.addSorted(cursor, i.endNs);
    }
    return out;
}

IntervalSet IntervalSet::clipped(TimeNs t0, TimeNs t1) const
{
    IntervalSet out;
    auto it = std::lower_bound(m_intervals.begin(), m_intervals.end(), t0,
                               [](const Interval& i, TimeNs t) { return i.endNs <= t; });
    for (; it != m_intervals.end() && it->startNs < t1; ++it)
        out.addSorted(std::max(it->startNs, t0), std::min(it->endNs, t1));
    return out;
}

TimeNs IntervalSet::intersectionNs(const IntervalSet& other) const
{
    TimeNs total = 0;
    size_t a = 0, b = 0;
    while (a < m_intervals.size() && b < other.m_intervals.size()) {
        const Interval& x = m_intervals[a];
        const Interval& y = other.m_intervals[b];
        const TimeNs s = std::max(x.startNs, y.startNs);
        const TimeNs e = std::min(x.endNs, y.endNs);
        if (e > s)
            total += e - s;
        if (x.endNs < y.endNs)
            ++a;
        else
            ++b;
    }
    return total;
}

TimeNs IntervalSet::coveredNs(TimeNs t0, TimeNs t1) const
{
    TimeNs total = 0;
    auto it = std::lower_bound(m_intervals.begin(), m_intervals.end(), t0,
                               [](const Interval& i, TimeNs t) { return i.endNs <= t; });
    for (; it != m_intervals.end() && it->startNs < t1; ++it)
        total += std::min(it->endNs, t1) - std::max(it->startNs, t0);
    return total;
}

} // namespace dspark
