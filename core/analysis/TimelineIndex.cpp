#include "analysis/TimelineIndex.h"

#include "util/Saturating.h"

#include <algorithm>
#include <limits>
#include <map>

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
        const int rank = lane.info.rankIndex;
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

    estimateLaunchTiming();
    locateTransfers();

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

const TimelineIndex::RankLanes& TimelineIndex::lanesOf(int rankIndex) const
{
    static const RankLanes none;
    return rankIndex >= 0 && rankIndex < static_cast<int>(m_ranks.size()) ? m_ranks[rankIndex] : none;
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

TimeNs TimelineIndex::callEndNs(EventRef task) const
{
    const EventRef launch = launchOf(task);
    return launch.valid() ? end(launch) : std::numeric_limits<TimeNs>::min();
}

TimeNs TimelineIndex::launchReadyNs(EventRef task) const
{
    const TimeNs callEnd = callEndNs(task);
    if (callEnd == std::numeric_limits<TimeNs>::min())
        return callEnd;
    return std::max(callEnd, std::min(addSaturating(callEnd, m_timing[task.lane].latency), start(task)));
}

bool TimelineIndex::launchBound(EventRef task) const
{
    const TimeNs callEnd = callEndNs(task);
    if (callEnd == std::numeric_limits<TimeNs>::min())
        return false;
    const EventRef prev = previousOnStream(task);
    if (!prev.valid())
        return true;
    const LaunchTiming& t = m_timing[task.lane];
    const TimeNs s = start(task), prevEnd = end(prev);
    if (t.sampled) {
        // How far each explanation is beyond its usual range (≤ 0: usual).
        const TimeNs streamExcess = subSaturating(subSaturating(s, prevEnd), t.gapHigh);
        const TimeNs launchExcess = subSaturating(subSaturating(s, callEnd), t.latencyHigh);
        if ((streamExcess <= 0) != (launchExcess <= 0) || (streamExcess > 0 && launchExcess > 0))
            return launchExcess < streamExcess;
    }
    return launchReadyNs(task) > addSaturating(prevEnd, t.gap);
}

TimeNs TimelineIndex::launchLatencyNs(uint32_t lane) const
{
    return lane < m_timing.size() ? m_timing[lane].latency : 0;
}

TimeNs TimelineIndex::streamGapNs(uint32_t lane) const
{
    return lane < m_timing.size() ? m_timing[lane].gap : 0;
}

void TimelineIndex::estimateLaunchTiming()
{
    constexpr TimeNs kIdle = 50'000;   // a stream idle this long before a task was not busy
    constexpr TimeNs kAhead = 100'000; // a launch this far ahead of the stream did not hold it back
    constexpr TimeNs kMaxLatency = 200'000;
    constexpr size_t kMinSamples = 16; // fewer: only the medians are used
    m_timing.assign(m_profile.lanes.size(), LaunchTiming{});
    const auto quantile = [](std::vector<TimeNs>& v, double q) -> TimeNs {
        if (v.empty())
            return 0;
        const auto k = static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
        std::nth_element(v.begin(), v.begin() + k, v.end());
        return v[k];
    };
    for (const RankLanes& rank : m_ranks) {
        std::map<int, std::vector<uint32_t>> byDevice;
        for (uint32_t l : rank.device)
            byDevice[m_profile.lanes[l].info.deviceId].push_back(l);
        for (const auto& [device, lanes] : byDevice) {
            std::vector<TimeNs> latencies, gaps;
            for (uint32_t l : lanes) {
                const Lane& lane = m_profile.lanes[l];
                for (uint32_t i = 0; i < lane.size(); ++i) {
                    const TimeNs callEnd = callEndNs({l, i});
                    // A wait starts when its record completes, not when its stream or launch allows.
                    if (callEnd == std::numeric_limits<TimeNs>::min() || lane.kind[i] == EventKind::EventWait)
                        continue;
                    const TimeNs s = lane.startNs[i];
                    const TimeNs idle = i > 0 ? subSaturating(s, lane.endNs(i - 1)) : kIdle + 1;
                    const TimeNs latency = subSaturating(s, callEnd);
                    if (idle > kIdle && latency >= 0 && latency < kMaxLatency)
                        latencies.push_back(latency);
                    else if (i > 0 && addSaturating(callEnd, kAhead) < lane.endNs(i - 1) && idle >= 0)
                        gaps.push_back(idle);
                }
            }
            LaunchTiming t;
            t.latency = quantile(latencies, 0.5);
            t.latencyHigh = quantile(latencies, 0.99);
            t.gap = quantile(gaps, 0.5);
            t.gapHigh = quantile(gaps, 0.99);
            t.sampled = latencies.size() >= kMinSamples && gaps.size() >= kMinSamples;
            for (uint32_t l : lanes)
                m_timing[l] = t;
        }
    }
}

static uint64_t refKey(EventRef e)
{
    return (uint64_t(e.lane) << 32) | e.index;
}

void TimelineIndex::locateTransfers()
{
    for (const RankLanes& rank : m_ranks) {
        std::vector<uint32_t> opLanes = rank.comm;
        opLanes.insert(opLanes.end(), rank.device.begin(), rank.device.end());
        for (uint32_t l : opLanes) {
            const Lane& lane = m_profile.lanes[l];
            for (uint32_t i = 0; i < lane.size(); ++i) {
                if (lane.kind[i] != EventKind::CommOp)
                    continue;
                const EventRef op{l, i};
                Transfer t;
                if (isDeviceLane(lane.info.kind)) { // an op drawn on a device stream (an NCCL kernel)
                    m_transfers[refKey(op)] = {op, op};
                    continue;
                }
                // Sub-task links: the device lane holding most of them.
                std::unordered_map<uint32_t, std::pair<size_t, Transfer>> byLane;
                for (const Link* link : m_profile.linksFrom(op)) {
                    if (link->kind != LinkKind::CommOpToTask || !isDevice(link->to.lane))
                        continue;
                    auto& [count, tr] = byLane[link->to.lane];
                    if (count++ == 0)
                        tr = {link->to, link->to};
                    tr.first.index = std::min(tr.first.index, link->to.index);
                    tr.last.index = std::max(tr.last.index, link->to.index);
                }
                size_t best = 0;
                for (const auto& [subLane, entry] : byLane)
                    if (entry.first > best || (entry.first == best && subLane < t.first.lane)) {
                        best = entry.first;
                        t = entry.second;
                    }
                if (best == 0) {
                    // No links: the stream with the most non-compute tasks inside the op's interval.
                    const TimeNs s = lane.startNs[i], e = lane.endNs(i);
                    for (uint32_t d : rank.device) {
                        const Lane& dev = m_profile.lanes[d];
                        size_t count = 0;
                        Transfer found;
                        for (size_t k = dev.firstStartingAtOrAfter(s); k < dev.size() && dev.startNs[k] < e; ++k) {
                            const EventKind kind = dev.kind[k];
                            if (dev.endNs(k) > e || kind == EventKind::Kernel || kind == EventKind::EventRecord ||
                                kind == EventKind::EventWait)
                                continue;
                            if (count++ == 0)
                                found.first = {d, static_cast<uint32_t>(k)};
                            found.last = {d, static_cast<uint32_t>(k)};
                        }
                        if (count > best) {
                            best = count;
                            t = found;
                        }
                    }
                    // Those tasks are communication even where the source did not say so.
                    if (best > 0)
                        for (uint32_t k = t.first.index; k <= t.last.index; ++k) {
                            const EventKind kind = m_profile.lanes[t.first.lane].kind[k];
                            if (kind != EventKind::Kernel && kind != EventKind::EventRecord &&
                                kind != EventKind::EventWait)
                                m_comm[t.first.lane][k] = 1;
                        }
                }
                if (best > 0)
                    m_transfers[refKey(op)] = t;
            }
        }
    }
}

TimelineIndex::Transfer TimelineIndex::transferOf(EventRef op) const
{
    auto it = m_transfers.find(refKey(op));
    return it == m_transfers.end() ? Transfer{} : it->second;
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

EventRef TimelineIndex::lastEndingIn(int rankIndex, TimeNs afterNs, TimeNs atOrBeforeNs) const
{
    if (rankIndex < 0 || rankIndex >= static_cast<int>(m_byEnd.size()))
        return {};
    const std::vector<EndEntry>& byEnd = m_byEnd[rankIndex];
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
    for (uint32_t l : lanesOf(info.rankIndex).host) {
        const LaneInfo& other = m_profile.lanes[l].info;
        if (l == lane || (info.threadId >= 0 && other.threadId == info.threadId))
            out.push_back(l);
    }
    return out;
}

} // namespace dspark
