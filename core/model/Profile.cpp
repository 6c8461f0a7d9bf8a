#include "model/Profile.h"
#include "model/TaskNames.h"

#include "util/Parallel.h"
#include "util/StepTimer.h"

#include <QCoreApplication>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <numeric>
#include <utility>
#include <vector>

namespace dspark {

const char* linkKindName(LinkKind kind)
{
    switch (kind) {
    case LinkKind::HostToDevice: return "host_to_device";
    case LinkKind::OpToDevice: return "op_to_device";
    case LinkKind::CommOpToTask: return "comm_op_to_task";
    case LinkKind::Flow: return "flow";
    }
    return "flow";
}

uint64_t PackedArgs::add(const std::vector<std::pair<uint32_t, uint32_t>>& keyValues)
{
    const uint64_t ref = m_data.size();
    m_data.push_back(static_cast<uint32_t>(keyValues.size()));
    for (const auto& [k, v] : keyValues) {
        m_data.push_back(k);
        m_data.push_back(v);
    }
    return ref;
}

std::vector<EventArg> PackedArgs::args(uint64_t localRef) const
{
    std::vector<EventArg> out;
    if (localRef == 0 || localRef >= m_data.size())
        return out;
    const uint32_t count = m_data[localRef];
    out.reserve(count);
    for (uint32_t i = 0; i < count && localRef + 2 + 2 * i < m_data.size(); ++i)
        out.push_back({std::string(m_strings->view(m_data[localRef + 1 + 2 * i])),
                       std::string(m_strings->view(m_data[localRef + 2 + 2 * i]))});
    return out;
}

Profile::Profile()
{
    m_argSources.emplace_back(); // id 0 means "no args"
}

Profile::~Profile() = default;

// Appends a rank, labelled "rank N" when `label` is empty; returns its index.
static int addRank(std::vector<RankInfo>& ranks, int rankNumber, int deviceId, const std::string& label)
{
    RankInfo rank;
    rank.rankNumber = rankNumber;
    rank.deviceId = deviceId;
    rank.label = label.empty() ? "rank " + std::to_string(rankNumber) : label;
    ranks.push_back(std::move(rank));
    return static_cast<int>(ranks.size() - 1);
}

int Profile::ensureRank(int rankNumber, int deviceId, const std::string& label)
{
    for (size_t i = 0; i < ranks.size(); ++i)
        if (ranks[i].rankNumber == rankNumber) {
            if (ranks[i].deviceId < 0)
                ranks[i].deviceId = deviceId;
            return static_cast<int>(i);
        }
    return addRank(ranks, rankNumber, deviceId, label);
}

int Profile::ensureRunRank(int rankNumber, int deviceId, const std::vector<int64_t>& pids, const std::string& file,
                           std::string& otherRun)
{
    otherRun.clear();
    const auto shares = [&pids](const RankInfo& r) {
        return r.runPids.empty() || pids.empty() || std::any_of(pids.begin(), pids.end(), [&r](int64_t p) {
                   return std::find(r.runPids.begin(), r.runPids.end(), p) != r.runPids.end();
               });
    };
    int index = -1;
    for (size_t i = 0; i < ranks.size() && index < 0; ++i)
        if (ranks[i].rankNumber == rankNumber) {
            if (shares(ranks[i]))
                index = static_cast<int>(i);
            else if (otherRun.empty())
                otherRun = ranks[i].runFile;
        }
    if (index < 0) {
        const std::string label = otherRun.empty() ? std::string()
                                                   : "rank " + std::to_string(rankNumber) + " (" +
                                                         std::filesystem::path(file).filename().string() + ")";
        index = addRank(ranks, rankNumber, deviceId, label);
    }
    RankInfo& r = ranks[static_cast<size_t>(index)];
    if (r.deviceId < 0)
        r.deviceId = deviceId;
    if (r.runFile.empty() && !pids.empty())
        r.runFile = file;
    for (int64_t p : pids)
        if (std::find(r.runPids.begin(), r.runPids.end(), p) == r.runPids.end())
            r.runPids.push_back(p);
    return index;
}

uint32_t Profile::laneFor(const LaneInfo& info)
{
    for (size_t i = 0; i < lanes.size(); ++i) {
        const LaneInfo& l = lanes[i].info;
        if (l.rankIndex == info.rankIndex && l.kind == info.kind && l.process == info.process && l.name == info.name &&
            l.deviceId == info.deviceId)
            return static_cast<uint32_t>(i);
    }
    lanes.emplace_back();
    lanes.back().info = info;
    return static_cast<uint32_t>(lanes.size() - 1);
}

ArgsSourceId Profile::addArgsSource(std::unique_ptr<ArgsSource> source)
{
    if (m_argSources.size() > kMaxArgsSources)
        return 0;
    m_argSources.push_back(std::move(source));
    return static_cast<ArgsSourceId>(m_argSources.size() - 1);
}

PackedArgs& Profile::packedArgs()
{
    if (m_packedArgsId < 0)
        m_packedArgsId = addArgsSource(std::make_unique<PackedArgs>(&strings));
    return static_cast<PackedArgs&>(*m_argSources[m_packedArgsId]);
}

void Profile::addLink(EventRef from, EventRef to, LinkKind kind, uint32_t categoryId)
{
    links.push_back({from, to, kind, categoryId});
}

void Profile::warn(const QString& message)
{
    warnings.push_back(message);
}

Profile::Contents Profile::contents() const
{
    Contents c;
    c.lanes = lanes.size();
    c.links = links.size();
    c.ranks = ranks.size();
    c.argsSources = m_argSources.size();
    for (const Lane& lane : lanes)
        c.laneSizes.push_back(lane.size());
    return c;
}

void Profile::restore(const Contents& before)
{
    lanes.resize(before.lanes);
    for (size_t i = 0; i < before.lanes; ++i)
        lanes[i].resize(before.laneSizes[i]);
    links.resize(before.links);
    ranks.resize(before.ranks);
    m_argSources.resize(std::max<size_t>(before.argsSources, 1)); // (id 0 is never used)
    if (m_packedArgsId >= static_cast<int>(m_argSources.size()))
        m_packedArgsId = -1;
}

// Display order of a lane within its rank: host first, then device streams, comm, overlap, counters.
static int kindOrder(LaneKind kind)
{
    switch (kind) {
    case LaneKind::Host: return 0;
    case LaneKind::NpuStream: return 1;
    case LaneKind::GpuStream: return 1;
    case LaneKind::Comm: return 2;
    case LaneKind::Overlap: return 3;
    case LaneKind::Counter: return 4;
    }
    return 5;
}

// "Stream 10" after "Stream 9": compare embedded numbers by value.
static bool naturalLess(const std::string& a, const std::string& b)
{
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
            size_t ie = i, je = j;
            while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie])))
                ++ie;
            while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je])))
                ++je;
            const std::string na = a.substr(i, ie - i), nb = b.substr(j, je - j);
            if (na.size() != nb.size())
                return na.size() < nb.size();
            if (na != nb)
                return na < nb;
            i = ie;
            j = je;
        } else {
            if (a[i] != b[j])
                return a[i] < b[j];
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

// A stable counting sort of items [0, n) by bucket, on both cores when `parallel`: each half of the
// items is counted, then written from its own cursors (the first half's items of a bucket before the
// second half's). bucket(i) < buckets; write(i, position) puts item i at its place. Returns where each
// bucket starts (buckets + 1 values).
template <typename Bucket, typename Write>
static std::vector<size_t> countOut(bool parallel, size_t n, size_t buckets, Bucket bucket, Write write)
{
    const size_t half = parallel && n >= 65536 ? n / 2 : n;
    std::vector<size_t> low(buckets, 0), high(buckets, 0);
    runBoth(
        half < n,
        [&] {
            for (size_t i = half; i < n; ++i)
                ++high[bucket(i)];
        },
        [&] {
            for (size_t i = 0; i < half; ++i)
                ++low[bucket(i)];
        });
    std::vector<size_t> start(buckets + 1, 0);
    for (size_t b = 0; b < buckets; ++b) {
        start[b + 1] = start[b] + low[b] + high[b];
        high[b] = start[b] + low[b]; // the cursors of the second half
        low[b] = start[b];           // and of the first
    }
    runBoth(
        half < n,
        [&] {
            for (size_t i = half; i < n; ++i)
                write(i, high[bucket(i)]++);
        },
        [&] {
            for (size_t i = 0; i < half; ++i)
                write(i, low[bucket(i)]++);
        });
    return start;
}

// Sorts [first, last) by `less`, a total order: a few ascending runs are merged pairwise through
// `buffer`, many are sorted (on both cores when `parallel`).
template <typename T, typename Less>
static void sortRuns(bool parallel, T* first, T* last, Less less, LargeVector<T>& buffer)
{
    const size_t n = static_cast<size_t>(last - first);
    std::vector<size_t> runs{0};
    for (size_t i = 1; i < n && runs.size() <= 16; ++i)
        if (less(first[i], first[i - 1]))
            runs.push_back(i);
    if (runs.size() == 1)
        return;
    if (runs.size() > 16) {
        sortParallel(parallel, first, last, less);
        return;
    }
    runs.push_back(n);
    if (buffer.size() < n)
        buffer.resize(n);
    T* from = first;
    T* to = buffer.data();
    while (runs.size() > 2) {
        std::vector<size_t> next{0};
        for (size_t r = 0; r + 1 < runs.size(); r += 2) {
            const size_t a = runs[r], b = runs[r + 1], c = r + 2 < runs.size() ? runs[r + 2] : b;
            std::merge(from + a, from + b, from + b, from + c, to + a, less);
            next.push_back(c);
        }
        std::swap(from, to);
        runs.swap(next);
    }
    if (from != first)
        std::copy(from, from + n, first);
}

// Times are held within ±(2^62 − 1) ns (146 years around the epoch) so that the sum or the difference of
// two never overflows; a damaged file's times past it are held at it. Returns how many events moved.
// All durations are read before any is set: a set between two reads of wide durations would make each
// read sort the column's wide values again (a 130-byte fuzz input took 26 s).
static size_t holdTimesInRange(Lane& lane)
{
    constexpr TimeNs kLimit = (TimeNs(1) << 62) - 1;
    std::vector<std::pair<uint32_t, TimeNs>> shortened;
    size_t held = 0;
    for (size_t i = 0; i < lane.size(); ++i) {
        TimeNs& start = lane.startNs[i];
        const TimeNs duration = lane.durationNs[i];
        if (start >= -kLimit && start <= kLimit && duration <= kLimit - start)
            continue;
        start = std::clamp(start, -kLimit, kLimit);
        if (duration > kLimit - start)
            shortened.emplace_back(static_cast<uint32_t>(i), kLimit - start);
        ++held;
    }
    for (const auto& [row, duration] : shortened)
        lane.durationNs.set(row, duration);
    return held;
}

void Profile::finalize()
{
    // A worker only for a large profile: starting a thread costs more than sorting a few thousand rows
    // (a fuzzer loads millions of small ones). The result does not depend on it.
    size_t events = 0;
    for (const Lane& lane : lanes)
        events += lane.size();
    const bool parallel = defaultLoaderThreads() > 1 && events >= 65536;
    StepTimer timer("finalize");
    // 1. Sort each lane's columns (largest lanes first, on both cores); remember how rows moved.
    std::vector<LargeVector<uint32_t>> rowMap(lanes.size());
    std::vector<size_t> laneRows(lanes.size());
    std::vector<uint32_t> bySize(lanes.size());
    std::iota(bySize.begin(), bySize.end(), 0u);
    std::sort(bySize.begin(), bySize.end(), [&](uint32_t a, uint32_t b) {
        return lanes[a].size() != lanes[b].size() ? lanes[a].size() > lanes[b].size() : a < b;
    });
    std::vector<size_t> held(lanes.size());
    forEachParallel(parallel, bySize.size(), [&](size_t k) {
        const uint32_t i = bySize[k];
        laneRows[i] = lanes[i].size();
        held[i] = holdTimesInRange(lanes[i]);
        rowMap[i] = lanes[i].finalize();
    });
    if (const size_t n = std::accumulate(held.begin(), held.end(), size_t(0)); n > 0) {
        const int events = static_cast<int>(std::min<size_t>(n, INT32_MAX));
        warn(QCoreApplication::translate(
            "Profile", "%n event(s) have times beyond 146 years from the epoch; held at that limit", nullptr, events));
    }

    timer.lap("lanes");
    // 2. Order lanes: rank, kind group, source sort index, process, natural name.
    std::vector<uint32_t> order(lanes.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
        const LaneInfo& a = lanes[x].info;
        const LaneInfo& b = lanes[y].info;
        if (a.rankIndex != b.rankIndex)
            return a.rankIndex < b.rankIndex;
        if (kindOrder(a.kind) != kindOrder(b.kind))
            return kindOrder(a.kind) < kindOrder(b.kind);
        if (a.process != b.process)
            return naturalLess(a.process, b.process);
        if (a.sortIndex != b.sortIndex)
            return a.sortIndex < b.sortIndex;
        return naturalLess(a.name, b.name);
    });
    std::vector<uint32_t> laneMap(lanes.size());
    std::vector<Lane> sorted;
    sorted.reserve(lanes.size());
    for (uint32_t k = 0; k < order.size(); ++k) {
        laneMap[order[k]] = k;
        sorted.push_back(std::move(lanes[order[k]]));
    }
    lanes.swap(sorted);

    // 3. Remap links; drop any whose ends are out of range (a loader bug must not crash the UI).
    const auto remap = [&](EventRef& e) {
        if (e.lane >= laneMap.size() || e.index >= laneRows[e.lane])
            return false;
        const LargeVector<uint32_t>& rows = rowMap[e.lane];
        e = {laneMap[e.lane], rows.empty() ? e.index : rows[e.index]};
        return true;
    };
    const auto remapRange = [&](size_t first, size_t last) {
        for (size_t i = first; i < last; ++i)
            if (!remap(links[i].from) || !remap(links[i].to))
                links[i].from = EventRef{};
    };
    const size_t half = links.size() / 2;
    runBoth(
        parallel && links.size() >= 65536, [&] { remapRange(0, half); }, [&] { remapRange(half, links.size()); });
    std::erase_if(links, [](const Link& l) { return !l.from.valid(); });
    timer.lap("remap");
    // Total orders: the same links come out in the same order however they were added. Counted out
    // by source lane (which keeps link order), then each lane's run merged from its few ascending
    // runs (a matcher emits its links in file order) or, when there are many, sorted.
    {
        LargeVector<Link> bySource(links.size());
        const std::vector<size_t> fromStart = countOut(
            parallel, links.size(), lanes.size(), [&](size_t i) { return links[i].from.lane; },
            [&](size_t i, size_t at) { bySource[at] = links[i]; });
        links.swap(bySource);
        LargeVector<Link>& buffer = bySource; // reused as the merge buffer
        const auto linkLess = [](const Link& a, const Link& b) {
            if (a.from != b.from)
                return a.from < b.from;
            if (a.to != b.to)
                return a.to < b.to;
            if (a.kind != b.kind)
                return a.kind < b.kind;
            return a.categoryId < b.categoryId;
        };
        for (size_t lane = 0; lane + 1 < fromStart.size(); ++lane)
            sortRuns(parallel, links.data() + fromStart[lane], links.data() + fromStart[lane + 1], linkLess, buffer);
    }
    timer.lap("sort");
    // Links by their target, ties in link order: counted out by target lane (which keeps link order),
    // then each lane's run sorted by row unless it already is (it mostly is: links come sorted by
    // source, and a lane's tasks were launched in order).
    m_linksByTo.resize(links.size());
    const std::vector<size_t> laneStart = countOut(
        parallel, links.size(), lanes.size(), [&](size_t i) { return links[i].to.lane; },
        [&](size_t i, size_t at) { m_linksByTo[at] = static_cast<uint32_t>(i); });
    std::vector<uint32_t> laneOrder(lanes.size());
    std::iota(laneOrder.begin(), laneOrder.end(), 0u);
    std::sort(laneOrder.begin(), laneOrder.end(), [&](uint32_t a, uint32_t b) {
        const size_t na = laneStart[a + 1] - laneStart[a], nb = laneStart[b + 1] - laneStart[b];
        return na != nb ? na > nb : a < b;
    });
    // (row << 32 | link) keys sort in exactly that order, on both cores; one buffer, reused.
    LargeVector<uint64_t> keys, merged;
    for (const uint32_t lane : laneOrder) {
        uint32_t* first = m_linksByTo.data() + laneStart[lane];
        const size_t n = laneStart[lane + 1] - laneStart[lane];
        bool sorted = true;
        for (size_t i = 1; i < n && sorted; ++i)
            sorted = links[first[i - 1]].to.index <= links[first[i]].to.index; // ties are in link order
        if (sorted)
            continue;
        keys.resize(n);
        for (size_t i = 0; i < n; ++i)
            keys[i] = uint64_t(links[first[i]].to.index) << 32 | first[i];
        // Usually a few ascending runs (one per lane the links come from): merged, else sorted.
        sortRuns(parallel, keys.data(), keys.data() + n, std::less<uint64_t>(), merged);
        for (size_t i = 0; i < n; ++i)
            first[i] = static_cast<uint32_t>(keys[i]);
    }
    releaseUnusedPages(links);
    releaseUnusedPages(m_linksByTo);
    timer.lap("byTo");
    // 4. Profile time range.
    bool any = false;
    for (const Lane& lane : lanes) {
        if (lane.empty())
            continue;
        m_firstNs = any ? std::min(m_firstNs, lane.firstNs()) : lane.firstNs();
        m_lastNs = any ? std::max(m_lastNs, lane.lastNs()) : lane.lastNs();
        any = true;
    }
    m_finalized = true;
}

std::vector<EventArg> Profile::args(EventRef e) const
{
    if (!e.valid() || e.lane >= lanes.size() || e.index >= lanes[e.lane].size())
        return {};
    const uint64_t ref = lanes[e.lane].argsRef[e.index];
    const auto sourceId = static_cast<size_t>(ref >> ArgsColumn::kSourceShift);
    if (ref == 0 || sourceId == 0 || sourceId >= m_argSources.size() || !m_argSources[sourceId])
        return {};
    return m_argSources[sourceId]->args(ref & ((uint64_t(1) << ArgsColumn::kSourceShift) - 1));
}

std::vector<const Link*> Profile::linksFrom(EventRef e) const
{
    std::vector<const Link*> out;
    auto it = std::lower_bound(links.begin(), links.end(), e, [](const Link& l, EventRef v) { return l.from < v; });
    for (; it != links.end() && it->from == e; ++it)
        out.push_back(&*it);
    return out;
}

std::vector<const Link*> Profile::linksTo(EventRef e) const
{
    std::vector<const Link*> out;
    auto it = std::lower_bound(m_linksByTo.begin(), m_linksByTo.end(), e,
                               [&](uint32_t l, EventRef v) { return links[l].to < v; });
    for (; it != m_linksByTo.end() && links[*it].to == e; ++it)
        out.push_back(&links[*it]);
    return out;
}

bool isTaskTypeName(std::string_view name)
{
    static const std::string_view mixedCase[] = {"Notify Wait", "Notify Record", "Write Value",
                                                 "Memcpy",      "Reduce Inline", "Other"};
    if (name.empty() || std::find(std::begin(mixedCase), std::end(mixedCase), name) != std::end(mixedCase))
        return true;
    bool letter = false;
    for (const char c : name) {
        if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == ' '))
            return false;
        letter = letter || (c >= 'A' && c <= 'Z');
    }
    return letter;
}

ProfileStats Profile::stats() const
{
    ProfileStats s;
    std::vector<int8_t> kernelName(strings.size(), -1); // per name id: 1 a kernel name, 0 a task type
    const auto isKernelName = [&](uint32_t id) {
        if (id >= kernelName.size())
            return false;
        if (kernelName[id] < 0)
            kernelName[id] = isTaskTypeName(strings.view(id)) ? 0 : 1;
        return kernelName[id] == 1;
    };
    for (const Lane& lane : lanes) {
        s.events += lane.size();
        switch (lane.info.kind) {
        case LaneKind::Host: s.hostEvents += lane.size(); break;
        case LaneKind::Counter: s.counters += lane.size(); break;
        case LaneKind::NpuStream:
        case LaneKind::GpuStream:
            s.deviceTasks += lane.size();
            // A kernel named only by its task type has no name.
            for (size_t i = 0; i < lane.size(); ++i)
                if (lane.kind[i] == EventKind::Kernel && isKernelName(lane.nameId[i]))
                    ++s.namedKernels;
            break;
        default: break;
        }
        for (EventKind k : lane.kind) {
            if (k == EventKind::CommOp)
                ++s.commOps;
            else if (k == EventKind::CommTask)
                ++s.commTasks;
        }
    }
    for (const Link& l : links) {
        if (l.kind == LinkKind::CommOpToTask)
            continue;
        ++s.flows;
        if (l.kind == LinkKind::HostToDevice)
            ++s.hostToDevice;
    }
    return s;
}

size_t Profile::bytesUsed() const
{
    size_t bytes = strings.bytesUsed() + links.capacity() * sizeof(Link) + m_linksByTo.capacity() * 4;
    for (const Lane& lane : lanes)
        bytes += lane.bytesUsed();
    for (const auto& source : m_argSources)
        if (source)
            bytes += source->bytesUsed();
    return bytes;
}

} // namespace dspark
