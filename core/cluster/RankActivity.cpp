#include "cluster/RankActivity.h"

#include <algorithm>

namespace dspark {

void RankActivity::Density::add(TimeNs s, TimeNs e, double w)
{
    if (e <= s)
        return;
    const double prior = before.empty() ? 0.0 : before.back() + weight.back() * double(end.back() - start.back());
    start.push_back(s);
    end.push_back(e);
    weight.push_back(w);
    before.push_back(prior);
}

double RankActivity::Density::integral(TimeNs t) const
{
    // The last interval starting before t: everything before it counts whole, it counts up to t.
    const auto it = std::upper_bound(start.begin(), start.end(), t);
    if (it == start.begin())
        return 0.0;
    const size_t i = size_t(it - start.begin()) - 1;
    return before[i] + weight[i] * double(std::min(t, end[i]) - start[i]);
}

RankActivity::RankActivity(const RankSummary& summary)
{
    const RankActivityBins& bins = summary.activity;
    if (bins.empty()) {
        estimate(summary);
        return;
    }
    for (size_t i = 0; i < bins.size(); ++i) {
        m_steps.add(bins.edgeNs(i), bins.edgeNs(i + 1), double(bins.busy[i]) / RankActivityBins::kUnit);
        m_comm.add(bins.edgeNs(i), bins.edgeNs(i + 1), double(bins.comm[i]) / RankActivityBins::kUnit);
    }
}

void RankActivity::estimate(const RankSummary& summary)
{
    m_estimated = true;
    if (summary.steps.empty())
        m_steps.add(summary.firstNs, summary.lastNs, 1.0);
    TimeNs stepsEnd = INT64_MIN; // steps by start; an overlap is clipped so the density stays ≤ 1
    for (const RankStep& s : summary.steps) {
        const TimeNs a = std::max(s.startNs, stepsEnd);
        const TimeNs span = s.endNs - s.startNs;
        const TimeNs idle = s.pathNs[static_cast<size_t>(PathCategory::Idle)];
        m_steps.add(a, s.endNs, span > 0 ? std::clamp(1.0 - double(idle) / double(span), 0.0, 1.0) : 0.0);
        stepsEnd = std::max(stepsEnd, s.endNs);
    }
    std::vector<std::pair<TimeNs, TimeNs>> comm;
    comm.reserve(summary.collectives.size());
    for (const CollectiveTiming& c : summary.collectives)
        comm.emplace_back(c.issueNs, c.endNs);
    std::sort(comm.begin(), comm.end());
    TimeNs runStart = 0, runEnd = INT64_MIN;
    for (const auto& [s, e] : comm) {
        if (s > runEnd) {
            m_comm.add(runStart, runEnd, 1.0);
            runStart = s;
        }
        runEnd = std::max(runEnd, e);
    }
    m_comm.add(runStart, runEnd, 1.0);
}

RankActivity::Share RankActivity::share(TimeNs aNs, TimeNs bNs) const
{
    if (bNs <= aNs)
        return {};
    const double span = double(bNs - aNs);
    Share s;
    s.comm = std::clamp((m_comm.integral(bNs) - m_comm.integral(aNs)) / span, 0.0, 1.0);
    const double inSteps = (m_steps.integral(bNs) - m_steps.integral(aNs)) / span;
    // Measured busy and comm are disjoint already; the estimate's steps include the communication.
    s.busy = std::clamp(m_estimated ? inSteps - s.comm : inSteps, 0.0, 1.0 - s.comm);
    return s;
}

} // namespace dspark
