#include "timeline/LaneLayout.h"

#include <QCoreApplication>

#include <algorithm>

namespace dspark::ui {

LaneLayout::LaneLayout(QObject* parent) : QObject(parent)
{
}

void LaneLayout::reset(const Profile* profile, const TimelineStyle* style)
{
    m_profile = profile;
    m_style = style;
    m_groups.clear();
    m_pinned.clear();
    const size_t laneCount = profile ? profile->lanes.size() : 0;
    m_groupOfLane.assign(laneCount, -1);
    m_hidden.assign(laneCount, false);
    m_unfolded.assign(laneCount, false);
    m_filterKeep.clear();
    m_rankCollapsed.assign(profile ? std::max<size_t>(profile->ranks.size(), 1) : 0, false);
    if (profile) {
        // Profile::finalize() already ordered lanes by rank and kind; groups keep that order.
        for (uint32_t i = 0; i < laneCount; ++i) {
            const LaneInfo& info = profile->lanes[i].info;
            int g = -1;
            for (int k = int(m_groups.size()) - 1; k >= 0; --k)
                if (m_groups[k].rankIndex == info.rankIndex && m_groups[k].process == info.process) {
                    g = k;
                    break;
                }
            if (g < 0) {
                m_groups.push_back({info.rankIndex, info.process, {}, false});
                g = int(m_groups.size()) - 1;
            }
            m_groups[g].lanes.push_back(i);
            m_groupOfLane[i] = g;
            if (info.rankIndex >= int(m_rankCollapsed.size()))
                m_rankCollapsed.resize(info.rankIndex + 1, false);
        }
        orderGroupsDeviceFirst();
    }
    Q_EMIT profileReset();
    rebuildRows();
}

// Display rank of a process group within its rank: device streams, then communication, then host
// threads (their stacks are deep), then the summary tracks and counters.
static int groupOrderKey(const Profile& profile, const LaneLayout::ProcessGroup& group)
{
    int key = 5;
    for (uint32_t lane : group.lanes) {
        switch (profile.lanes[lane].info.kind) {
        case LaneKind::NpuStream:
        case LaneKind::GpuStream: key = std::min(key, 0); break;
        case LaneKind::Comm: key = std::min(key, 1); break;
        case LaneKind::Host: key = std::min(key, 2); break;
        case LaneKind::Overlap: key = std::min(key, 3); break;
        case LaneKind::Counter: key = std::min(key, 4); break;
        }
    }
    return key;
}

void LaneLayout::orderGroupsDeviceFirst()
{
    // Groups of one rank are contiguous (lanes are ordered by rank); keep the profile's order otherwise.
    std::stable_sort(m_groups.begin(), m_groups.end(), [this](const ProcessGroup& a, const ProcessGroup& b) {
        if (a.rankIndex != b.rankIndex)
            return a.rankIndex < b.rankIndex;
        return groupOrderKey(*m_profile, a) < groupOrderKey(*m_profile, b);
    });
    for (int g = 0; g < int(m_groups.size()); ++g)
        for (uint32_t lane : m_groups[g].lanes)
            m_groupOfLane[lane] = g;
}

bool LaneLayout::isFoldable(uint32_t lane) const
{
    if (!m_profile || lane >= m_profile->lanes.size())
        return false;
    const Lane& l = m_profile->lanes[lane];
    return l.info.kind != LaneKind::Counter && int(l.maxDepth) >= kFoldedDepths;
}

int LaneLayout::foldedDepths(uint32_t lane) const
{
    return isFolded(lane) ? int(m_profile->lanes[lane].maxDepth) + 1 - shownDepths(lane) : 0;
}

QString LaneLayout::foldedText(uint32_t lane) const
{
    const int hidden = foldedDepths(lane);
    return hidden > 0 ? QCoreApplication::translate("TimelineRenderer", "+%1 levels folded").arg(hidden) : QString();
}

void LaneLayout::setUnfolded(uint32_t lane, bool unfolded)
{
    if (lane >= m_unfolded.size() || m_unfolded[lane] == unfolded)
        return;
    m_unfolded[lane] = unfolded;
    rebuildRows();
}

int LaneLayout::shownDepths(uint32_t lane) const
{
    if (!m_profile || lane >= m_profile->lanes.size())
        return 0;
    const Lane& l = m_profile->lanes[lane];
    if (l.info.kind == LaneKind::Counter)
        return 1;
    const int depths = std::min<int>(l.maxDepth, m_style->maxVisibleDepth - 1) + 1;
    return isFolded(lane) ? std::min(depths, kFoldedDepths) : depths;
}

void LaneLayout::relayout()
{
    rebuildRows();
}

double LaneLayout::laneHeight(uint32_t lane) const
{
    if (!m_profile || lane >= m_profile->lanes.size())
        return 0;
    if (m_profile->lanes[lane].info.kind == LaneKind::Counter)
        return m_style->counterHeight;
    return 2 * m_style->lanePadding + shownDepths(lane) * m_style->depthRowHeight;
}

// Whether the rank of group `first` (its first group) has a lane that is shown, from `first` on.
bool LaneLayout::rankHasShownLane(int first) const
{
    const int rank = m_groups[first].rankIndex;
    for (int g = first; g < int(m_groups.size()) && m_groups[g].rankIndex == rank; ++g)
        for (uint32_t lane : m_groups[g].lanes)
            if (isShown(lane) && !isPinned(lane))
                return true;
    return false;
}

void LaneLayout::rebuildRows()
{
    m_rows.clear();
    m_rowOfLane.assign(m_groupOfLane.size(), -1);
    double y = 0;
    auto addLaneRow = [&](uint32_t lane, bool pinned) {
        Row r;
        r.kind = RowKind::Lane;
        r.lane = lane;
        r.rankIndex = m_profile->lanes[lane].info.rankIndex;
        r.group = m_groupOfLane[lane];
        r.pinned = pinned;
        r.y = y;
        r.height = laneHeight(lane);
        y += r.height;
        m_rowOfLane[lane] = int(m_rows.size());
        m_rows.push_back(r);
    };
    for (uint32_t lane : m_pinned)
        if (isShown(lane))
            addLaneRow(lane, true);
    m_pinnedRows = int(m_rows.size());
    m_pinnedHeight = y;

    int lastRank = -1;
    for (int g = 0; g < int(m_groups.size()); ++g) {
        const ProcessGroup& group = m_groups[g];
        if (group.rankIndex != lastRank && hasLaneFilter() && !rankHasShownLane(g))
            continue; // a filtered view lists only the ranks with a lane left
        if (group.rankIndex != lastRank) {
            lastRank = group.rankIndex;
            Row r;
            r.kind = RowKind::Rank;
            r.rankIndex = group.rankIndex;
            r.group = g;
            r.collapsed = isRankCollapsed(group.rankIndex);
            r.y = y;
            r.height = m_style->rankHeaderHeight;
            y += r.height;
            m_rows.push_back(r);
        }
        if (isRankCollapsed(group.rankIndex))
            continue;
        const bool anyVisible =
            std::any_of(group.lanes.begin(), group.lanes.end(), [&](uint32_t l) { return isShown(l) && !isPinned(l); });
        if (!anyVisible)
            continue;
        Row r;
        r.kind = RowKind::Process;
        r.rankIndex = group.rankIndex;
        r.group = g;
        r.collapsed = group.collapsed;
        r.y = y;
        r.height = m_style->processHeaderHeight;
        y += r.height;
        m_rows.push_back(r);
        if (group.collapsed)
            continue;
        for (uint32_t lane : group.lanes)
            if (isShown(lane) && !isPinned(lane))
                addLaneRow(lane, false);
    }
    m_contentHeight = y;
    Q_EMIT changed();
}

int LaneLayout::displayRowOfLane(uint32_t lane) const
{
    const int own = rowOfLane(lane);
    if (own >= 0 || lane >= m_groupOfLane.size() || !isShown(lane))
        return own;
    const int g = m_groupOfLane[lane];
    int rankRow = -1;
    for (int i = m_pinnedRows; i < int(m_rows.size()); ++i) {
        const Row& r = m_rows[i];
        if (r.kind == RowKind::Process && r.group == g)
            return i;
        if (r.kind == RowKind::Rank && r.rankIndex == m_groups[g].rankIndex)
            rankRow = i;
    }
    return rankRow;
}

int LaneLayout::rowAt(double y) const
{
    // Pinned rows and scrolling rows are each sorted by y.
    auto find = [&](int first, int last) -> int {
        auto it = std::upper_bound(m_rows.begin() + first, m_rows.begin() + last, y,
                                   [](double v, const Row& r) { return v < r.y; });
        if (it == m_rows.begin() + first)
            return -1;
        --it;
        return y < it->bottom() ? int(it - m_rows.begin()) : -1;
    };
    const int pinned = find(0, m_pinnedRows);
    return pinned >= 0 ? pinned : find(m_pinnedRows, int(m_rows.size()));
}

QString LaneLayout::rowTitle(const Row& row) const
{
    if (!m_profile)
        return {};
    switch (row.kind) {
    case RowKind::Rank: {
        if (row.rankIndex >= 0 && row.rankIndex < int(m_profile->ranks.size())) {
            const RankInfo& info = m_profile->ranks[row.rankIndex];
            QString title = QString::fromStdString(info.label);
            if (info.deviceId >= 0 && !title.contains(QLatin1String("device")))
                title += QCoreApplication::translate("LaneLayout", " · device %1").arg(info.deviceId);
            return title;
        }
        return QCoreApplication::translate("LaneLayout", "rank %1").arg(row.rankIndex);
    }
    case RowKind::Process: {
        const ProcessGroup& g = m_groups[row.group];
        return g.process.empty() ? QCoreApplication::translate("LaneLayout", "(unnamed process)")
                                 : QString::fromStdString(g.process);
    }
    case RowKind::Lane: {
        const LaneInfo& info = m_profile->lanes[row.lane].info;
        const QString name = info.name.empty() ? QCoreApplication::translate("LaneLayout", "(unnamed lane)")
                                               : QString::fromStdString(info.name);
        // A pinned lane has left its group's header behind: it carries the group's name.
        if (row.pinned && !info.process.empty())
            return QString::fromStdString(info.process) + QStringLiteral(" › ") + name;
        return name;
    }
    }
    return {};
}

int LaneLayout::lanesUnder(const Row& row) const
{
    if (row.kind == RowKind::Lane)
        return 1;
    int lanes = 0;
    for (size_t g = 0; g < m_groups.size(); ++g)
        if (row.kind == RowKind::Rank ? m_groups[g].rankIndex == row.rankIndex : int(g) == row.group)
            lanes += int(m_groups[g].lanes.size());
    return lanes;
}

bool LaneLayout::isRankCollapsed(int rankIndex) const
{
    return rankIndex >= 0 && rankIndex < int(m_rankCollapsed.size()) && m_rankCollapsed[rankIndex];
}

void LaneLayout::setRankCollapsed(int rankIndex, bool collapsed)
{
    if (rankIndex < 0 || rankIndex >= int(m_rankCollapsed.size()) || m_rankCollapsed[rankIndex] == collapsed)
        return;
    m_rankCollapsed[rankIndex] = collapsed;
    rebuildRows();
}

void LaneLayout::setGroupCollapsed(int group, bool collapsed)
{
    if (group < 0 || group >= int(m_groups.size()) || m_groups[group].collapsed == collapsed)
        return;
    m_groups[group].collapsed = collapsed;
    rebuildRows();
}

void LaneLayout::toggleRow(int row)
{
    if (row < 0 || row >= int(m_rows.size()))
        return;
    const Row& r = m_rows[row];
    if (r.kind == RowKind::Rank)
        setRankCollapsed(r.rankIndex, !isRankCollapsed(r.rankIndex));
    else if (r.kind == RowKind::Process)
        setGroupCollapsed(r.group, !m_groups[r.group].collapsed);
}

void LaneLayout::setAllCollapsed(bool collapsed)
{
    for (ProcessGroup& g : m_groups)
        g.collapsed = collapsed;
    if (!collapsed)
        std::fill(m_rankCollapsed.begin(), m_rankCollapsed.end(), false);
    rebuildRows();
}

void LaneLayout::setHidden(uint32_t lane, bool hidden)
{
    if (lane >= m_hidden.size() || m_hidden[lane] == hidden)
        return;
    m_hidden[lane] = hidden;
    rebuildRows();
}

void LaneLayout::showAllLanes()
{
    std::fill(m_hidden.begin(), m_hidden.end(), false);
    rebuildRows();
}

std::vector<uint32_t> LaneLayout::hiddenLanes() const
{
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < m_hidden.size(); ++i)
        if (m_hidden[i])
            out.push_back(i);
    return out;
}

bool LaneLayout::isPinned(uint32_t lane) const
{
    return std::find(m_pinned.begin(), m_pinned.end(), lane) != m_pinned.end();
}

void LaneLayout::setPinned(uint32_t lane, bool pinned)
{
    if (lane >= m_groupOfLane.size() || isPinned(lane) == pinned)
        return;
    if (pinned)
        m_pinned.push_back(lane);
    else
        std::erase(m_pinned, lane);
    rebuildRows();
}

bool LaneLayout::moveLane(uint32_t lane, int delta)
{
    if (lane >= m_groupOfLane.size() || delta == 0)
        return false;
    std::vector<uint32_t>& order = isPinned(lane) ? m_pinned : m_groups[m_groupOfLane[lane]].lanes;
    const auto it = std::find(order.begin(), order.end(), lane);
    const int from = int(it - order.begin());
    const int to = std::clamp(from + delta, 0, int(order.size()) - 1);
    if (to == from)
        return false;
    order.erase(order.begin() + from);
    order.insert(order.begin() + to, lane);
    rebuildRows();
    return true;
}

int LaneLayout::orderIndexOf(uint32_t lane) const
{
    if (lane >= m_groupOfLane.size())
        return -1;
    const std::vector<uint32_t>& order = isPinned(lane) ? m_pinned : m_groups[m_groupOfLane[lane]].lanes;
    const auto it = std::find(order.begin(), order.end(), lane);
    return it == order.end() ? -1 : int(it - order.begin());
}

void LaneLayout::setLaneFilter(std::vector<bool> keep)
{
    keep.resize(m_groupOfLane.size(), true);
    m_filterKeep = std::move(keep);
    rebuildRows();
}

void LaneLayout::clearLaneFilter()
{
    if (m_filterKeep.empty())
        return;
    m_filterKeep.clear();
    rebuildRows();
}

int LaneLayout::shownLaneCount() const
{
    int n = 0;
    for (uint32_t lane = 0; lane < m_groupOfLane.size(); ++lane)
        n += isShown(lane);
    return n;
}

LaneLayout::State LaneLayout::state() const
{
    State s;
    for (size_t g = 0; g < m_groups.size(); ++g) {
        s.groupOrder.push_back(m_groups[g].lanes);
        if (m_groups[g].collapsed)
            s.collapsedGroups.push_back(int(g));
    }
    s.hidden = hiddenLanes();
    s.pinned = m_pinned;
    for (uint32_t lane = 0; lane < m_unfolded.size(); ++lane)
        if (m_unfolded[lane])
            s.unfolded.push_back(lane);
    for (size_t r = 0; r < m_rankCollapsed.size(); ++r)
        if (m_rankCollapsed[r])
            s.collapsedRanks.push_back(int(r));
    return s;
}

void LaneLayout::setState(const State& state)
{
    const size_t laneCount = m_groupOfLane.size();
    for (size_t g = 0; g < state.groupOrder.size() && g < m_groups.size(); ++g) {
        // The saved order first (lanes of this group only), then the group's other lanes as they were.
        std::vector<uint32_t> order;
        std::vector<bool> placed(laneCount, false);
        for (uint32_t lane : state.groupOrder[g])
            if (lane < laneCount && m_groupOfLane[lane] == int(g) && !placed[lane]) {
                order.push_back(lane);
                placed[lane] = true;
            }
        for (uint32_t lane : m_groups[g].lanes)
            if (!placed[lane])
                order.push_back(lane);
        m_groups[g].lanes = std::move(order);
    }
    std::fill(m_hidden.begin(), m_hidden.end(), false);
    for (uint32_t lane : state.hidden)
        if (lane < laneCount)
            m_hidden[lane] = true;
    m_pinned.clear();
    for (uint32_t lane : state.pinned)
        if (lane < laneCount && !isPinned(lane))
            m_pinned.push_back(lane);
    std::fill(m_unfolded.begin(), m_unfolded.end(), false);
    for (uint32_t lane : state.unfolded)
        if (lane < laneCount)
            m_unfolded[lane] = true;
    for (ProcessGroup& g : m_groups)
        g.collapsed = false;
    for (int g : state.collapsedGroups)
        if (g >= 0 && g < int(m_groups.size()))
            m_groups[g].collapsed = true;
    std::fill(m_rankCollapsed.begin(), m_rankCollapsed.end(), false);
    for (int r : state.collapsedRanks)
        if (r >= 0 && r < int(m_rankCollapsed.size()))
            m_rankCollapsed[r] = true;
    rebuildRows();
}

} // namespace dspark::ui
