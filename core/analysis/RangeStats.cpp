#include "analysis/RangeStats.h"

#include "util/Parallel.h"

#include <QCoreApplication>

#include <algorithm>
#include <limits>
#include <optional>

namespace dspark {

StatsGroup statsGroupOf(LaneKind kind)
{
    switch (kind) {
    case LaneKind::NpuStream:
    case LaneKind::GpuStream: return StatsGroup::Device;
    case LaneKind::Host: return StatsGroup::Host;
    case LaneKind::Comm: return StatsGroup::Comm;
    case LaneKind::Overlap:
    case LaneKind::Counter: return StatsGroup::Other;
    }
    return StatsGroup::Other;
}

const char* statsGroupKey(StatsGroup group)
{
    switch (group) {
    case StatsGroup::Device: return "device";
    case StatsGroup::Host: return "host";
    case StatsGroup::Comm: return "comm";
    case StatsGroup::Other: return "other";
    }
    return "other";
}

QString statsGroupLabel(StatsGroup group)
{
    switch (group) {
    case StatsGroup::Device: return QCoreApplication::translate("RangeStats", "Device tasks");
    case StatsGroup::Host: return QCoreApplication::translate("RangeStats", "Host calls");
    case StatsGroup::Comm: return QCoreApplication::translate("RangeStats", "Communication");
    case StatsGroup::Other: return QCoreApplication::translate("RangeStats", "Other");
    }
    return {};
}

namespace {

// The lanes a query covers, counter lanes apart.
std::vector<uint32_t> queryLanes(const Profile& profile, const RangeQuery& query)
{
    if (!query.lanes.empty())
        return query.lanes;
    std::vector<uint32_t> lanes;
    for (uint32_t l = 0; l < profile.lanes.size(); ++l)
        if (query.rankIndex < 0 || profile.lanes[l].info.rankIndex == query.rankIndex)
            lanes.push_back(l);
    return lanes;
}

// [first, last) of the events that may belong to [t0, t1): those overlapping it and the instants in it.
std::pair<size_t, size_t> candidates(const Lane& lane, TimeNs t0, TimeNs t1)
{
    auto [first, last] = lane.overlapping(t0, t1);
    first = std::min(first, lane.firstStartingAtOrAfter(t0));
    return {first, std::max(first, last)};
}

// The part of [s, e) inside [t0, t1), or -1 when the event does not belong to the range.
inline TimeNs clippedIn(TimeNs s, TimeNs e, TimeNs t0, TimeNs t1)
{
    if (s >= t1 || (e <= t0 && !(s == e && s >= t0)))
        return -1;
    return std::min(e, t1) - std::max(s, t0);
}

// `child`: the parts of nested children inside each event, summed (self = total − child).
struct Accumulator {
    uint64_t count = 0;
    TimeNs total = 0;
    TimeNs min = std::numeric_limits<TimeNs>::max(), max = 0;
    TimeNs child = 0;
};

// The accumulators by (group, name id), created on first use: slotOf is one flat array of 4 × names.
class NameAccumulators {
public:
    explicit NameAccumulators(uint32_t names) : m_names(names), m_slotOf(size_t(names) * kStatsGroupCount, kNone) {}
    // The slots of one group, by name id.
    uint32_t* slotsOf(StatsGroup group) { return m_slotOf.data() + size_t(group) * m_names; }
    uint32_t add(StatsGroup group, uint32_t nameId)
    {
        m_acc.emplace_back();
        m_keys.push_back({group, nameId});
        return slotsOf(group)[nameId] = static_cast<uint32_t>(m_acc.size() - 1);
    }
    Accumulator& operator[](uint32_t slot) { return m_acc[slot]; }
    // Adds another thread's accumulators to these.
    void merge(const NameAccumulators& other)
    {
        for (size_t i = 0; i < other.m_acc.size(); ++i) {
            const auto [group, name] = other.m_keys[i];
            uint32_t slot = slotsOf(group)[name];
            if (slot == kNone)
                slot = add(group, name);
            Accumulator& a = m_acc[slot];
            const Accumulator& b = other.m_acc[i];
            a.count += b.count;
            a.total += b.total;
            a.child += b.child;
            a.min = std::min(a.min, b.min);
            a.max = std::max(a.max, b.max);
        }
    }
    std::vector<RangeNameStats> rows() const
    {
        std::vector<RangeNameStats> out;
        out.reserve(m_acc.size());
        for (size_t i = 0; i < m_acc.size(); ++i) {
            const Accumulator& a = m_acc[i];
            out.push_back({m_keys[i].second, m_keys[i].first, a.count, a.total, std::max<TimeNs>(0, a.total - a.child),
                           a.count ? a.min : 0, a.max});
        }
        return out;
    }
    static constexpr uint32_t kNone = UINT32_MAX;

private:
    uint32_t m_names;
    std::vector<uint32_t> m_slotOf;
    std::vector<Accumulator> m_acc;
    std::vector<std::pair<StatsGroup, uint32_t>> m_keys;
};

// One lane's events in the range into the accumulators; returns each visited event's slot through
// `visited(i, slot, s, e)` (the nested lanes' bookkeeping). The hot loop of the range table: no
// hash, no string, one flat slot look-up per event.
template <typename Visited>
void accumulateEvents(const Lane& lane, StatsGroup group, TimeNs t0, TimeNs t1, NameAccumulators& acc,
                      Visited&& visited)
{
    uint32_t* slots = acc.slotsOf(group);
    const auto [first, last] = candidates(lane, t0, t1);
    for (size_t i = first; i < last; ++i) {
        const TimeNs s = lane.startNs[i];
        const TimeNs e = s + lane.durationNs[i];
        const TimeNs part = std::min(e, t1) - std::max(s, t0);
        // Overlapping (part > 0), or an instant inside the range (s < t1 holds for i < last).
        if (part <= 0 && !(part == 0 && s == e && s >= t0))
            continue;
        const uint32_t name = lane.nameId[i];
        uint32_t slot = slots[name];
        if (slot == NameAccumulators::kNone)
            slot = acc.add(group, name);
        Accumulator& a = acc[slot];
        ++a.count;
        a.total += part;
        a.min = std::min(a.min, part);
        a.max = std::max(a.max, part);
        visited(i, slot, s, e);
    }
}

// A nested lane: the open event of each depth (its slot and end) takes its children's overlap
// into its `child` sum.
void accumulateLane(const Lane& lane, StatsGroup group, TimeNs t0, TimeNs t1, NameAccumulators& acc)
{
    if (lane.maxDepth == 0) {
        accumulateEvents(lane, group, t0, t1, acc, [](size_t, uint32_t, TimeNs, TimeNs) {});
        return;
    }
    struct Open {
        uint32_t slot = NameAccumulators::kNone;
        TimeNs end = 0;
    };
    std::vector<Open> open(lane.maxDepth + 1u);
    accumulateEvents(lane, group, t0, t1, acc, [&](size_t i, uint32_t slot, TimeNs s, TimeNs e) {
        const int d = lane.depth[i];
        if (d > 0 && open[d - 1].slot != NameAccumulators::kNone) {
            const Open& parent = open[d - 1];
            const TimeNs inParent = std::min({e, parent.end, t1}) - std::max(s, t0);
            if (inParent > 0)
                acc[parent.slot].child += inParent;
        }
        if (e > s) // an instant never holds children (Lane::finalize does not open it)
            open[d] = {slot, e};
    });
}

// One counter lane's series over [t0, t1): each sample holds until the series' next one, the last until
// `endNs`. The value in effect at t0 is found by looking back (at most kLookBack samples).
void accumulateCounters(const Lane& lane, uint32_t laneIndex, TimeNs t0, TimeNs t1, TimeNs endNs,
                        std::vector<RangeCounterStats>& out)
{
    constexpr size_t kLookBack = 4096;
    struct Series {
        RangeCounterStats stats;
        bool has = false;
        TimeNs t = 0;
        double v = 0;
        bool any = false; // a value took part
    };
    std::vector<Series> series; // few per lane: a linear look-up
    auto seriesOf = [&](uint32_t name) -> Series& {
        for (Series& s : series)
            if (s.stats.nameId == name)
                return s;
        series.emplace_back();
        series.back().stats.lane = laneIndex;
        series.back().stats.nameId = name;
        return series.back();
    };
    auto close = [&](Series& s, TimeNs until) {
        const TimeNs a = std::max(s.t, t0), b = std::min(until, t1);
        const bool inside = s.t >= t0 && s.t < t1;
        if (b <= a && !inside)
            return;
        RangeCounterStats& c = s.stats;
        c.min = s.any ? std::min(c.min, s.v) : s.v;
        c.max = s.any ? std::max(c.max, s.v) : s.v;
        s.any = true;
        ++c.samples;
        if (b > a) {
            c.integral += s.v * static_cast<double>(b - a) * 1e-9;
            c.coveredNs += b - a;
        }
    };
    const size_t begin = lane.firstStartingAtOrAfter(t0);
    const size_t end = lane.firstStartingAtOrAfter(t1);
    // The sample in effect at t0 of each series: the latest before it (the earliest seen wins).
    for (size_t k = 0; k < std::min(begin, kLookBack); ++k) {
        const size_t i = begin - 1 - k;
        Series& s = seriesOf(lane.nameId[i]);
        if (!s.has) {
            s.has = true;
            s.t = lane.startNs[i];
            s.v = lane.value.empty() ? 0.0 : lane.value[i];
        }
    }
    for (size_t i = begin; i < end; ++i) {
        Series& s = seriesOf(lane.nameId[i]);
        if (s.has)
            close(s, lane.startNs[i]);
        s.has = true;
        s.t = lane.startNs[i];
        s.v = lane.value.empty() ? 0.0 : lane.value[i];
    }
    for (Series& s : series) {
        if (s.has)
            close(s, std::max(endNs, s.t));
        if (!s.any)
            continue;
        s.stats.mean = s.stats.coveredNs ? s.stats.integral * 1e9 / static_cast<double>(s.stats.coveredNs) : s.v;
        out.push_back(s.stats);
    }
}

} // namespace

std::pair<TimeNs, TimeNs> eventExtentNs(const Profile& profile)
{
    TimeNs first = INT64_MAX, last = INT64_MIN;
    for (const Lane& lane : profile.lanes)
        if (!lane.empty() && lane.info.kind != LaneKind::Counter && lane.info.kind != LaneKind::Overlap) {
            first = std::min(first, lane.firstNs());
            last = std::max(last, lane.lastNs());
        }
    return first <= last ? std::pair{first, last} : std::pair<TimeNs, TimeNs>{0, 0};
}

RangeStats computeRangeStats(const Profile& profile, const RangeQuery& query)
{
    RangeStats out;
    out.fromNs = query.fromNs;
    out.toNs = query.toNs;
    // The event lanes split in two halves of about as many candidate events, one per thread when
    // there are enough of them to pay for a second set of accumulators.
    std::vector<uint32_t> lanes;
    std::vector<size_t> weight;
    size_t total = 0;
    for (uint32_t l : queryLanes(profile, query)) {
        if (l >= profile.lanes.size())
            continue;
        const Lane& lane = profile.lanes[l];
        if (lane.info.kind == LaneKind::Counter) {
            accumulateCounters(lane, l, query.fromNs, query.toNs, profile.lastNs(), out.counters);
            continue;
        }
        const auto [first, last] = candidates(lane, query.fromNs, query.toNs);
        lanes.push_back(l);
        weight.push_back(last - first);
        total += last - first;
    }
    size_t split = 0;
    for (size_t half = 0; split < lanes.size() && half + weight[split] / 2 < total / 2; ++split)
        half += weight[split];
    constexpr size_t kParallelEvents = 200'000;
    const bool parallel = total >= kParallelEvents && defaultLoaderThreads() > 1 && split > 0 && split < lanes.size();
    NameAccumulators acc(profile.strings.size());
    std::optional<NameAccumulators> second;
    if (parallel)
        second.emplace(profile.strings.size());
    auto run = [&](size_t begin, size_t end, NameAccumulators& into) {
        for (size_t k = begin; k < end; ++k) {
            const Lane& lane = profile.lanes[lanes[k]];
            accumulateLane(lane, statsGroupOf(lane.info.kind), query.fromNs, query.toNs, into);
        }
    };
    if (parallel) {
        runBoth(
            true, [&] { run(split, lanes.size(), *second); }, [&] { run(0, split, acc); });
        acc.merge(*second);
    } else
        run(0, lanes.size(), acc);
    out.rows = acc.rows();
    std::sort(out.rows.begin(), out.rows.end(), [](const RangeNameStats& a, const RangeNameStats& b) {
        if (a.group != b.group)
            return a.group < b.group;
        if (a.totalNs != b.totalNs)
            return a.totalNs > b.totalNs;
        return a.nameId < b.nameId;
    });
    return out;
}

std::vector<EventRef> rangeInstances(const Profile& profile, const RangeQuery& query, uint32_t nameId, StatsGroup group)
{
    std::vector<EventRef> out;
    for (uint32_t l : queryLanes(profile, query)) {
        if (l >= profile.lanes.size())
            continue;
        const Lane& lane = profile.lanes[l];
        if (lane.info.kind == LaneKind::Counter || statsGroupOf(lane.info.kind) != group)
            continue;
        const auto [first, last] = candidates(lane, query.fromNs, query.toNs);
        for (size_t i = first; i < last; ++i)
            if (lane.nameId[i] == nameId && clippedIn(lane.startNs[i], lane.endNs(i), query.fromNs, query.toNs) >= 0)
                out.push_back({l, static_cast<uint32_t>(i)});
    }
    std::sort(out.begin(), out.end(), [&](EventRef a, EventRef b) {
        const TimeNs da = profile.lanes[a.lane].durationNs[a.index], db = profile.lanes[b.lane].durationNs[b.index];
        if (da != db)
            return da > db;
        const TimeNs sa = profile.startNs(a), sb = profile.startNs(b);
        return sa != sb ? sa < sb : a < b;
    });
    return out;
}

} // namespace dspark
