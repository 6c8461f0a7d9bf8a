#include "model/Lane.h"

#include "util/IndexOrder.h"

#include <algorithm>
#include <mutex>

namespace dspark {

const char* laneKindName(LaneKind kind)
{
    switch (kind) {
    case LaneKind::Host: return "host";
    case LaneKind::NpuStream: return "npu_stream";
    case LaneKind::GpuStream: return "gpu_stream";
    case LaneKind::Comm: return "comm";
    case LaneKind::Overlap: return "overlap";
    case LaneKind::Counter: return "counter";
    }
    return "host";
}

const char* eventKindName(EventKind kind)
{
    switch (kind) {
    case EventKind::Other: return "task";
    case EventKind::Kernel: return "kernel";
    case EventKind::CommOp: return "comm_op";
    case EventKind::CommTask: return "comm_task";
    case EventKind::EventRecord: return "event_record";
    case EventKind::EventWait: return "event_wait";
    case EventKind::Memcpy: return "memcpy";
    case EventKind::HostApi: return "host_api";
    case EventKind::TorchOp: return "torch_op";
    case EventKind::Annotation: return "annotation";
    case EventKind::Instant: return "instant";
    case EventKind::OverlapSpan: return "overlap";
    case EventKind::CounterSample: return "counter";
    }
    return "task";
}

bool isDeviceLane(LaneKind kind)
{
    return kind == LaneKind::NpuStream || kind == LaneKind::GpuStream;
}

// Reorders a column: row order[i] becomes row i.
template <typename Column> static void permute(Column& column, const LargeVector<uint32_t>& order)
{
    if (column.empty())
        return;
    Column sorted(column.size());
    for (size_t i = 0; i < order.size(); ++i)
        sorted[i] = column[order[i]];
    column.swap(sorted);
}

// ---- NarrowColumn
namespace {
std::mutex& wideMutex() // (wide values are rare: one lock for all columns)
{
    static std::mutex m;
    return m;
}
} // namespace

// The values kept beside ordered by row, the last one set for each row.
template <typename Wide> static std::vector<Wide> lastOfEachRow(std::vector<Wide> wide)
{
    std::stable_sort(wide.begin(), wide.end(), [](const Wide& a, const Wide& b) { return a.row < b.row; });
    size_t kept = 0;
    for (size_t k = 0; k < wide.size(); ++k)
        if (k + 1 == wide.size() || wide[k + 1].row != wide[k].row)
            wide[kept++] = wide[k];
    wide.resize(kept);
    return wide;
}

template <typename Narrow> void NarrowColumn<Narrow>::setWide(size_t i, int64_t v)
{
    m_narrow[i] = kWide;
    std::lock_guard<std::mutex> lock(wideMutex());
    // Rows set in increasing order (appending) keep the values beside ordered: look-ups stay binary.
    m_wideSorted = m_wideSorted && (m_wide.empty() || m_wide.back().row < i);
    m_wide.push_back({static_cast<uint32_t>(i), v});
    ++m_changes;
}

template <typename Narrow> int64_t NarrowColumn<Narrow>::wide(size_t i) const
{
    const auto find = [i](const std::vector<Wide>& byRow) -> int64_t {
        const auto it =
            std::lower_bound(byRow.begin(), byRow.end(), i, [](const Wide& w, size_t row) { return w.row < row; });
        return it != byRow.end() && it->row == i ? it->value : -1;
    };
    if (m_wideSorted)
        return find(m_wide);
    if (m_wide.size() <= 16) {
        for (auto it = m_wide.rbegin(); it != m_wide.rend(); ++it)
            if (it->row == i)
                return it->value;
        return -1;
    }
    // (Read from several threads at once: the look-up is made under the lock.)
    std::lock_guard<std::mutex> lock(wideMutex());
    if (m_lookupAt != m_changes) {
        m_lookup = lastOfEachRow(m_wide);
        m_lookupAt = m_changes;
    }
    return find(m_lookup);
}

template <typename Narrow> void NarrowColumn<Narrow>::resize(size_t n)
{
    m_narrow.resize(n);
    std::erase_if(m_wide, [&](const Wide& w) { return w.row >= n; });
    ++m_changes;
}

template <typename Narrow> void NarrowColumn<Narrow>::resize(size_t n, int64_t v)
{
    const size_t old = m_narrow.size();
    resize(n);
    for (size_t i = old; i < n; ++i)
        set(i, v);
}

template <typename Narrow>
void NarrowColumn<Narrow>::permute(const LargeVector<uint32_t>& order, const LargeVector<uint32_t>& newIndex)
{
    dspark::permute(m_narrow, order);
    for (Wide& w : m_wide)
        w.row = newIndex[w.row];
    m_wideSorted = m_wide.empty();
    ++m_changes;
}

template <typename Narrow> void NarrowColumn<Narrow>::finish()
{
    std::vector<Wide>().swap(m_lookup);
    if (m_wideSorted)
        return;
    // By row; of several values set for one row, the last; none for a row set to a narrow value since.
    m_wide = lastOfEachRow(std::move(m_wide));
    std::erase_if(m_wide, [&](const Wide& w) { return m_narrow[w.row] != kWide; });
    m_wideSorted = true;
    ++m_changes;
}

template class NarrowColumn<int32_t>;
template class NarrowColumn<uint32_t>;

// ---- Lane
uint32_t Lane::append(TimeNs start, TimeNs duration, uint32_t name, EventKind eventKind, int64_t corr, uint64_t args)
{
    const auto index = static_cast<uint32_t>(startNs.size());
    startNs.push_back(start);
    durationNs.push_back(duration < 0 ? 0 : duration);
    nameId.push_back(name);
    kind.push_back(eventKind);
    corrId.push_back(corr);
    argsRef.push_back(args);
    return index;
}

uint32_t Lane::appendSample(TimeNs time, double sampleValue, uint32_t name)
{
    const uint32_t index = append(time, 0, name, EventKind::CounterSample);
    value.push_back(sampleValue);
    return index;
}

void Lane::reserve(size_t n)
{
    startNs.reserve(n);
    durationNs.reserve(n);
    nameId.reserve(n);
    kind.reserve(n);
    corrId.reserve(n);
    argsRef.reserve(n);
}

void Lane::resize(size_t n)
{
    const bool samples = !value.empty() || info.kind == LaneKind::Counter;
    startNs.resize(n, 0);
    durationNs.resize(n, 0);
    nameId.resize(n, 0);
    kind.resize(n, EventKind::Other);
    corrId.resize(n, -1);
    argsRef.resize(n, 0);
    if (samples)
        value.resize(n, 0.0);
}

LargeVector<uint32_t> Lane::finalize()
{
    const size_t n = startNs.size();
    // The order reads durations: their wide values ordered in place first (reads need no lock or copy).
    durationNs.finish();
    // Parents before children: earlier start first, then the longer event first.
    const auto before = [&](uint32_t a, uint32_t b) {
        if (startNs[a] != startNs[b])
            return startNs[a] < startNs[b];
        return durationNs[a] > durationNs[b];
    };
    bool sorted = true;
    for (size_t i = 1; i < n && sorted; ++i)
        sorted = !before(static_cast<uint32_t>(i), static_cast<uint32_t>(i - 1));
    LargeVector<uint32_t> newIndex; // empty: no row moved
    if (!sorted) {
        LargeVector<uint32_t> order;
        orderRows(order, n, before); // (ties in row order)
        permute(startNs, order);
        permute(nameId, order);
        permute(kind, order);
        permute(value, order);
        newIndex.resize(n);
        for (uint32_t i = 0; i < n; ++i)
            newIndex[order[i]] = i;
        corrId.permute(order, newIndex);
        durationNs.permute(order, newIndex);
        argsRef.permute(order, newIndex);
    }
    corrId.finish();
    durationNs.finish();
    argsRef.finish();

    // Nesting depth with a stack of open ends. Partially overlapping slices (not properly nested)
    // go one level below the slice they overlap, so nothing is drawn on top of anything else.
    // The column is made at the first event that nests (the ones before it are at depth 0).
    LargeVector<uint16_t>().swap(depth);
    blockMaxEndNs.assign((n + kEndBlock - 1) / kEndBlock, 0);
    maxDepth = 0;
    std::vector<TimeNs> openEnds;
    TimeNs runningMax = INT64_MIN;
    const bool nests = info.kind != LaneKind::Counter;
    for (size_t i = 0; i < n; ++i) {
        const TimeNs end = startNs[i] + durationNs[i];
        if (nests) {
            while (!openEnds.empty() && openEnds.back() <= startNs[i])
                openEnds.pop_back();
            if (!openEnds.empty()) {
                if (depth.empty())
                    depth.assign(n, 0);
                depth[i] = static_cast<uint16_t>(std::min<size_t>(openEnds.size(), 0xffff));
                maxDepth = std::max(maxDepth, depth[i]);
            }
            if (durationNs[i] > 0)
                openEnds.push_back(end);
        }
        runningMax = std::max(runningMax, end);
        if ((i + 1) % kEndBlock == 0 || i + 1 == n)
            blockMaxEndNs[i / kEndBlock] = runningMax;
    }

    byDepth.clear();
    if (maxDepth > 0) {
        byDepth.resize(maxDepth + 1);
        std::vector<uint32_t> count(maxDepth + 1, 0);
        for (size_t i = 0; i < n; ++i)
            ++count[depth[i]];
        for (size_t d = 0; d <= maxDepth; ++d)
            byDepth[d].reserve(count[d]);
        for (uint32_t i = 0; i < n; ++i)
            byDepth[depth[i]].push_back(i);
    }
    // The lane is done growing: the unused end of each column's last 2 MB page goes back.
    releaseUnusedPages(startNs);
    durationNs.releaseUnusedPages();
    releaseUnusedPages(nameId);
    releaseUnusedPages(kind);
    releaseUnusedPages(depth);
    corrId.releaseUnusedPages();
    argsRef.releaseUnusedPages();
    releaseUnusedPages(value);
    for (LargeVector<uint32_t>& ids : byDepth)
        releaseUnusedPages(ids);
    return newIndex;
}

std::pair<size_t, size_t> Lane::overlapping(TimeNs t0, TimeNs t1) const
{
    // The running maximum of ends is non-decreasing: the first block that reaches past t0 is found by
    // binary search, and in it the first event that does (every block before it ends by t0).
    const size_t block = std::upper_bound(blockMaxEndNs.begin(), blockMaxEndNs.end(), t0) - blockMaxEndNs.begin();
    size_t first = size();
    for (size_t i = block * kEndBlock, end = std::min(size(), i + kEndBlock); i < end; ++i)
        if (startNs[i] + durationNs[i] > t0) {
            first = i;
            break;
        }
    const size_t last = std::lower_bound(startNs.begin(), startNs.end(), t1) - startNs.begin();
    return {first, std::max(first, last)};
}

size_t Lane::firstStartingAtOrAfter(TimeNs t) const
{
    return std::lower_bound(startNs.begin(), startNs.end(), t) - startNs.begin();
}

size_t Lane::eventAt(TimeNs t, int depthWanted) const
{
    size_t best = size();
    for (int d = 0; d <= maxDepth; ++d) {
        if (depthWanted >= 0 && d != depthWanted)
            continue;
        forEachAtDepth(d, t, t + 1, [&](size_t i) {
            if (startNs[i] <= t && t < startNs[i] + std::max<TimeNs>(durationNs[i], 1))
                best = i;
        });
    }
    return best;
}

size_t Lane::bytesUsed() const
{
    return startNs.capacity() * sizeof(TimeNs) + durationNs.bytesUsed() + nameId.capacity() * sizeof(uint32_t) +
           kind.capacity() + depth.capacity() * sizeof(uint16_t) + corrId.bytesUsed() + argsRef.bytesUsed() +
           value.capacity() * sizeof(double) + blockMaxEndNs.capacity() * sizeof(TimeNs) +
           (maxDepth > 0 ? size() * sizeof(uint32_t) : 0);
}

} // namespace dspark
