#include "io/trace/FlowMatcher.h"

#include "util/IndexOrder.h"
#include "util/Parallel.h"

#include <algorithm>
#include <bit>

namespace dspark::trace {

void SliceLocator::setTrack(uint32_t track, uint32_t lane, uint32_t first, uint32_t count)
{
    if (track >= m_ranges.size())
        m_ranges.resize(track + 1);
    m_ranges[track] = Range{lane, first, count, {}};
}

void SliceLocator::prepare(const Profile& profile, bool parallel)
{
    std::vector<uint32_t> largestFirst;
    for (uint32_t i = 0; i < m_ranges.size(); ++i)
        if (m_ranges[i].lane != UINT32_MAX && m_ranges[i].count > 0)
            largestFirst.push_back(i);
    std::sort(largestFirst.begin(), largestFirst.end(),
              [&](uint32_t a, uint32_t b) { return m_ranges[a].count > m_ranges[b].count; });
    forEachParallel(parallel, largestFirst.size(), [&](size_t k) {
        Range& r = m_ranges[largestFirst[k]];
        const Lane& lane = profile.lanes[r.lane];
        const TimeNs* start = lane.startNs.data() + r.first;
        const auto dur = [&, first = r.first](uint32_t i) { return lane.durationNs[first + i]; };
        const auto before = [&](uint32_t a, uint32_t b) {
            return start[a] != start[b] ? start[a] < start[b] : dur(a) > dur(b);
        };
        bool sorted = true;
        for (uint32_t i = 1; i < r.count && sorted; ++i)
            sorted = !before(i, i - 1);
        if (!sorted)
            orderRows(r.order, r.count, before); // (ties in file order)
    });
}

EventRef SliceLocator::bind(const Profile& profile, uint32_t track, int64_t ts, bool enclosing,
                            std::vector<uint32_t>* hints) const
{
    if (track >= m_ranges.size() || m_ranges[track].lane == UINT32_MAX || m_ranges[track].count == 0)
        return {};
    const Range& r = m_ranges[track];
    const Lane& lane = profile.lanes[r.lane];
    const TimeNs* start = lane.startNs.data() + r.first;
    const auto dur = [&](size_t k) { return lane.durationNs[r.first + k]; };
    const bool direct = r.order.empty();
    const auto row = [&](size_t k) -> uint32_t { return direct ? static_cast<uint32_t>(k) : r.order[k]; };
    // First position whose start is after ts. Points of one track mostly come in time order: search
    // forward from where the last one landed (galloping), else the whole range.
    size_t lo = 0, hi = r.count;
    uint32_t* hint = hints && track < hints->size() ? &(*hints)[track] : nullptr;
    if (hint && *hint <= r.count && (*hint == 0 || start[row(*hint - 1)] <= ts)) {
        lo = *hint;
        size_t step = 1;
        hi = lo;
        while (hi < r.count && start[row(hi)] <= ts) {
            lo = hi + 1;
            hi = std::min<size_t>(r.count, hi + step);
            step *= 2;
        }
    }
    while (lo < hi) {
        const size_t mid = (lo + hi) / 2;
        if (start[row(mid)] <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (hint)
        *hint = static_cast<uint32_t>(lo);
    if (enclosing) {
        // The deepest slice containing ts has the latest start among those that do (ties: the
        // shorter one, which sorts later). Walk back a bounded distance from the last start <= ts.
        constexpr size_t kMaxWalk = 512;
        for (size_t k = lo, steps = 0; k > 0 && steps < kMaxWalk; --k, ++steps) {
            const uint32_t i = row(k - 1);
            if (start[i] + dur(i) >= ts)
                return {r.lane, r.first + i};
        }
        return {};
    }
    // The next slice: the first starting at or after ts.
    size_t first = lo;
    while (first > 0 && start[row(first - 1)] == ts)
        --first;
    if (first >= r.count)
        return {};
    return {r.lane, r.first + row(first)};
}

FlowMatcher::FlowMatcher(size_t expectedStarts, std::vector<uint8_t> idShifts) : m_shifts(std::move(idShifts))
{
    size_t size = 16;
    while (size < expectedStarts + expectedStarts / 2 + 1)
        size *= 2;
    m_table.assign(size, Entry{});
}

// Slot of a flow id. Ids of one category usually count up and a flow's finish follows its start
// closely, so 8 consecutive ids share one run of slots (two cache lines) and recent flows stay cached;
// the runs are spread by a full mix. Longer runs cluster, shorter ones miss the cache (docs/performance.md,
// "History"). Ids that count in larger steps (async_npu: nanoseconds) are first shifted to count by ~one.
uint64_t FlowMatcher::hash(uint32_t category, uint8_t kind, uint64_t id, uint8_t shift)
{
    const uint64_t scaled = id >> shift;
    uint64_t h = (scaled >> 3) * 0x9E3779B97F4A7C15ull ^ (uint64_t(category) << 32 | kind);
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return (h << 3) | (scaled & 7);
}

uint8_t FlowMatcher::idShift(const std::vector<uint64_t>& startIds)
{
    if (startIds.size() < kMinSamples)
        return 0;
    std::vector<uint64_t> steps(startIds.size() - 1);
    for (size_t i = 1; i < startIds.size(); ++i)
        steps[i - 1] = startIds[i] - startIds[i - 1]; // (a decrease wraps to a huge step)
    std::vector<uint64_t> sorted = steps;
    std::nth_element(sorted.begin(), sorted.begin() + ptrdiff_t(sorted.size() / 2), sorted.end());
    const uint64_t median = sorted[sorted.size() / 2];
    if (median < 2 || median >= (uint64_t(1) << 48))
        return 0;
    // Counting up steadily: three steps in four between 1 and 16 times the median.
    const size_t steady =
        size_t(std::count_if(steps.begin(), steps.end(), [&](uint64_t s) { return s >= 1 && s < median * 16; }));
    if (steady * 4 < steps.size() * 3)
        return 0;
    return static_cast<uint8_t>(std::bit_width(median) - 1);
}

void FlowMatcher::grow()
{
    LargeVector<Entry> old;
    old.swap(m_table);
    m_table.assign(old.size() * 2, Entry{});
    m_used = 0;
    for (const Entry& e : old)
        if (e.point != kEmpty)
            *find(e.key >> 3, uint8_t(e.key & 7), e.id, true) = e;
}

FlowMatcher::Entry* FlowMatcher::find(uint32_t category, uint8_t idKind, uint64_t id, bool insert)
{
    if (insert && (m_used + 1) * 4 > m_table.size() * 3)
        grow();
    const uint32_t key = keyOf(category, idKind);
    const size_t mask = m_table.size() - 1;
    for (size_t i = hash(category, idKind, id, shiftOf(category)) & mask;; i = (i + 1) & mask) {
        Entry& e = m_table[i];
        if (e.point == kEmpty) {
            if (!insert)
                return nullptr;
            e.id = id;
            e.key = key;
            ++m_used;
            return &e; // (the caller sets its point)
        }
        if (e.id == id && e.key == key)
            return &e;
    }
}

uint64_t FlowMatcher::lookup(uint32_t category, uint8_t idKind, uint64_t id) const
{
    const Entry* e = const_cast<FlowMatcher*>(this)->find(category, idKind, id, false); // (no insert: no change)
    return e ? uint64_t(e->point) : kNoStart;
}

uint64_t FlowMatcher::add(char ph, uint32_t category, uint8_t idKind, uint64_t id, uint64_t point)
{
    if (ph == 's') {
        find(category, idKind, id, true)->point = uint32_t(point); // a reused id starts a new flow
        return kNoStart;
    }
    Entry* start = find(category, idKind, id, false);
    if (!start) {
        m_waiting.push_back({id, category, idKind, ph, point});
        return kNoStart;
    }
    const uint64_t from = start->point;
    if (ph == 't')
        start->point = uint32_t(point); // a step continues the flow from here
    return from;
}

} // namespace dspark::trace
