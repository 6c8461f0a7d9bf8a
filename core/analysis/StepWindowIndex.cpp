#include "analysis/StepWindowIndex.h"

#include <algorithm>
#include <tuple>

namespace dspark {

void StepWindowIndex::build(const std::vector<RecordWindow>& windows)
{
    clear();
    const auto n = static_cast<uint32_t>(windows.size());
    m_start.resize(n);
    m_maxHorizon.resize(n);
    m_byForwardCt.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
        const StepWindow& w = windows[i].window;
        if (m_ranks.empty() || m_ranks.back().rankIndex != w.rankIndex)
            m_ranks.push_back({w.rankIndex, i, i});
        const bool first = m_ranks.back().begin == i;
        m_ranks.back().end = i + 1;
        m_start[i] = w.startNs;
        m_maxHorizon[i] = first ? w.horizonNs() : std::max(m_maxHorizon[i - 1], w.horizonNs());
        m_byForwardCt.push_back({w.forwardCt, w.rankIndex, i});
        const size_t row = windows[i].row;
        if (row >= m_windowOfRow.size())
            m_windowOfRow.resize(row + 1, 0);
        if (m_windowOfRow[row] == 0)
            m_windowOfRow[row] = i + 1;
    }
    std::sort(m_byForwardCt.begin(), m_byForwardCt.end(), [](const ByForwardCt& a, const ByForwardCt& b) {
        return std::tie(a.forwardCt, a.rankIndex, a.window) < std::tie(b.forwardCt, b.rankIndex, b.window);
    });
}

std::optional<size_t> StepWindowIndex::ofRecordRow(size_t row) const
{
    if (row >= m_windowOfRow.size() || m_windowOfRow[row] == 0)
        return std::nullopt;
    return m_windowOfRow[row] - 1;
}

std::optional<size_t> StepWindowIndex::of(int rankIndex, int64_t forwardCt) const
{
    // Windows are sorted by rankIndex first, so the lowest (rankIndex, window) of a forward_ct is the first one.
    const auto it = std::lower_bound(
        m_byForwardCt.begin(), m_byForwardCt.end(), std::pair{forwardCt, rankIndex},
        [any = rankIndex < 0](const ByForwardCt& e, const std::pair<int64_t, int>& key) {
            return any ? e.forwardCt < key.first : std::tie(e.forwardCt, e.rankIndex) < std::tie(key.first, key.second);
        });
    if (it == m_byForwardCt.end() || it->forwardCt != forwardCt || (rankIndex >= 0 && it->rankIndex != rankIndex))
        return std::nullopt;
    return it->window;
}

std::vector<size_t> StepWindowIndex::overlapping(const std::vector<RecordWindow>& windows, int rankIndex,
                                                 TimeNs startNs, TimeNs endNs) const
{
    std::vector<size_t> out;
    for (const RankSegment& s : m_ranks) {
        if (rankIndex >= 0 && s.rankIndex != rankIndex)
            continue;
        const auto start = m_start.begin();
        // Windows from `hi` on start at or after endNs; before `lo` every horizon ends by startNs.
        const auto hi = std::lower_bound(start + s.begin, start + s.end, endNs) - start;
        const auto lo =
            std::upper_bound(m_maxHorizon.begin() + s.begin, m_maxHorizon.begin() + hi, startNs) - m_maxHorizon.begin();
        for (auto i = lo; i < hi; ++i)
            if (windows[size_t(i)].window.horizonNs() > startNs)
                out.push_back(size_t(i));
    }
    return out;
}

} // namespace dspark
