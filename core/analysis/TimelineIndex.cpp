#include "analysis/TimelineIndex.h"

#include <algorithm>
#include <limits>

namespace dspark {

TimelineIndex::TimelineIndex(const Profile& profile, const AnalysisRules& rules)
    : m_profile(profile), m_names(profile.strings, rules)
{
    const size_t laneCount = profile.lanes.size();
    m_ranks.resize(profile.ranks.size());
    m_launch.resize(laneCount);
    m_op.resize(laneCount);
    m_comm.resize(laneCount);
    for (uint32_t l = 0; l < laneCount; ++l) {
        const Lane& lane = profile.lanes[l];
        const int rank = lane.info.rank;
        if (rank < 0)
            continue;
        if (rank >= static_cast<int>(m_ranks.size()))
            m_ranks.resize(rank + 1);
        switch (lane.info.kind) {
        case LaneKind::NpuStream:
        case LaneKind::GpuStream: m_ranks[rank].device.push_back(l); break;
        case LaneKind::Host: m_ranks[rank].host.push_back(l); break;
        case LaneKind::Comm: m_ranks[rank].comm.push_back(l); break;
        default: break;
        }
        if (!isDeviceLane(lane.info.kind))
            continue;
        m_launch[l].assign(lane.size(), EventRef{});
        m_op[l].assign(lane.size(), EventRef{});
        std::vector<uint8_t>& comm = m_comm[l];
        comm.assign(lane.size(), 0);
        const bool commStream = std::find(rules.commStreams.begin(), rules.commStreams.end(), lane.info.streamId) !=
                                rules.commStreams.end();
        for (size_t i = 0; i < lane.size(); ++i) {
            const EventKind k = lane.kind[i];
            if (k == EventKind::CommTask || k == EventKind::CommOp)
                comm[i] = 1;
            else if (k == EventKind::EventRecord || k == EventKind::EventWait)
                comm[i] = 0;
            else if (commStream || m_names.matches(lane.nameId[i], RuleId::CommKernels) ||
                     m_names.matches(lane.nameId[i], RuleId::DeepepDispatch) ||
                     m_names.matches(lane.nameId[i], RuleId::DeepepCombine))
                comm[i] = 1;
        }
    }

    // Launch links: keep, per task, the HostToDevice source that ends last (the call closest to the
    // task); the OpToDevice source separately.
    for (const Link& link : profile.links) {
        if (link.kind != LinkKind::HostToDevice && link.kind != LinkKind::OpToDevice)
            continue;
        if (link.to.lane >= laneCount || m_launch[link.to.lane].empty())
            continue;
        if (link.from.lane >= laneCount || profile.lanes[link.from.lane].info.kind != LaneKind::Host)
            continue;
        auto& slot = (link.kind == LinkKind::HostToDevice ? m_launch : m_op)[link.to.lane][link.to.index];
        if (!slot.valid() || profile.endNs(link.from) > profile.endNs(slot))
            slot = link.from;
    }

    m_byEnd.resize(m_ranks.size());
    for (size_t r = 0; r < m_ranks.size(); ++r) {
        std::vector<EndEntry>& byEnd = m_byEnd[r];
        for (uint32_t l : m_ranks[r].device) {
            const Lane& lane = profile.lanes[l];
            for (uint32_t i = 0; i < lane.size(); ++i)
                byEnd.push_back({lane.endNs(i), {l, i}});
        }
        std::sort(byEnd.begin(), byEnd.end(), [](const EndEntry& a, const EndEntry& b) {
            return a.endNs != b.endNs ? a.endNs < b.endNs : a.task < b.task;
        });
    }
}

const TimelineIndex::RankLanes& TimelineIndex::lanesOf(int rank) const
{
    static const RankLanes none;
    return rank >= 0 && rank < static_cast<int>(m_ranks.size()) ? m_ranks[rank] : none;
}

EventRef TimelineIndex::launchOf(EventRef task) const
{
    if (task.lane >= m_launch.size() || task.index >= m_launch[task.lane].size())
        return {};
    const EventRef launch = m_launch[task.lane][task.index];
    return launch.valid() ? launch : m_op[task.lane][task.index];
}

EventRef TimelineIndex::opOf(EventRef task) const
{
    if (task.lane >= m_op.size() || task.index >= m_op[task.lane].size())
        return {};
    return m_op[task.lane][task.index];
}

TimeNs TimelineIndex::launchReadyNs(EventRef task) const
{
    const EventRef launch = launchOf(task);
    return launch.valid() ? end(launch) : std::numeric_limits<TimeNs>::min();
}

bool TimelineIndex::isComm(EventRef task) const
{
    return task.lane < m_comm.size() && task.index < m_comm[task.lane].size() && m_comm[task.lane][task.index];
}

EventRef TimelineIndex::previousOnStream(EventRef task) const
{
    if (!task.valid() || task.index == 0)
        return {};
    return {task.lane, task.index - 1};
}

EventRef TimelineIndex::nextOnStream(EventRef task) const
{
    if (!task.valid() || task.index + 1 >= m_profile.lanes[task.lane].size())
        return {};
    return {task.lane, task.index + 1};
}

bool TimelineIndex::isHostSync(EventRef hostEvent) const
{
    return hostEvent.valid() && m_names.matches(nameId(hostEvent), RuleId::HostSyncCalls);
}

EventRef TimelineIndex::lastEndingIn(int rank, TimeNs afterNs, TimeNs atOrBeforeNs) const
{
    if (rank < 0 || rank >= static_cast<int>(m_byEnd.size()))
        return {};
    const std::vector<EndEntry>& byEnd = m_byEnd[rank];
    auto it = std::upper_bound(byEnd.begin(), byEnd.end(), atOrBeforeNs,
                               [](TimeNs t, const EndEntry& e) { return t < e.endNs; });
    if (it == byEnd.begin())
        return {};
    --it;
    return it->endNs > afterNs ? it->task : EventRef{};
}

std::vector<uint32_t> TimelineIndex::threadLanes(uint32_t lane) const
{
    std::vector<uint32_t> out;
    const LaneInfo& info = m_profile.lanes[lane].info;
    for (uint32_t l : lanesOf(info.rank).host) {
        const LaneInfo& other = m_profile.lanes[l].info;
        if (l == lane || (info.threadId >= 0 && other.threadId == info.threadId))
            out.push_back(l);
    }
    return out;
}

} // namespace dspark
