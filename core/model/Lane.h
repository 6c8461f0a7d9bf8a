#pragma once

#include "util/LargeAlloc.h"

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dspark {

using TimeNs = int64_t;

// The kind of a lane. The lowercase names (laneKindName) are a contract of `info --json`.
enum class LaneKind : uint8_t {
    Host,      // host thread: Python, CANN API, PyTorch ops, CPU threads of Kineto traces
    NpuStream, // Ascend device stream ("Stream N", TASK.streamId)
    GpuStream, // CUDA/HIP stream of a Kineto trace
    Comm,      // communication group (HCCL ops) or plane (HCCL sub-tasks)
    Overlap,   // msprof "Overlap Analysis" track
    Counter,   // sampled values (HBM, AI Core freq, ...)
};
const char* laneKindName(LaneKind kind);

// What one event is. Loaders set it; analyses read it (never the source format).
enum class EventKind : uint8_t {
    Other = 0,     // any other device task (SDMA, STARS_COMMON, PROFILING_ENABLE, ...)
    Kernel,        // compute kernel (COMPUTE_TASK_INFO row / AI_CORE... / CUDA kernel)
    CommOp,        // a collective (COMMUNICATION_OP, "Group g Communication" slice, NCCL kernel op)
    CommTask,      // an HCCL sub-task (Notify_Wait, Memcpy, RDMASend, ...)
    EventRecord,   // device EVENT_RECORD task
    EventWait,     // device EVENT_WAIT task
    Memcpy,        // MEMCPY_ASYNC / gpu_memcpy / gpu_memset
    HostApi,       // CANN API call (launch, aclrtRecordEvent, ...) / cuda runtime call
    TorchOp,       // PyTorch op or python function on the host
    Annotation,    // user annotation / MSTX range / scheduler span
    Instant,       // zero-length marker (ph i/I)
    OverlapSpan,   // Computing / Communication / Free slice of the Overlap Analysis track
    CounterSample, // one sample of a counter lane (value in Lane::value)
};
const char* eventKindName(EventKind kind);
bool isDeviceLane(LaneKind kind);

// Static description of a lane: where it sits in the tree profile → rank → process → lane.
struct LaneInfo {
    LaneKind kind = LaneKind::Host;
    int rankIndex = 0;          // index into Profile::ranks
    int deviceId = -1;          // NPU/GPU device, -1 for host lanes
    int64_t streamId = -1;      // device stream id / comm plane id, -1 when not applicable
    int64_t threadId = -1;      // host thread id, -1 when not applicable
    std::string process;        // e.g. "Ascend Hardware", "CANN", "Python", "HCCL"
    std::string name;           // e.g. "Stream 2", "Group 0 Communication", "Thread 1234"
    int sortIndex = 0;          // display order hint from the source
    bool profilerSteps = false; // the profiler's own step boundaries (STEP_TIME), one span per step
};

// An int64 column in 4 bytes a row: the rare value outside the narrow type's range (or equal to its
// sentinel) is kept beside, by row. Rows are set while loading, from any thread (each row from one
// thread); a row set twice keeps its last value. finish() (Lane::finalize) orders the values kept
// beside for look-up. A row never set reads as its narrow bits (resize(n) leaves them unwritten).
template <typename Narrow> class NarrowColumn {
public:
    static_assert(sizeof(Narrow) == 4);
    int64_t operator[](size_t i) const
    {
        const Narrow v = m_narrow[i];
        return v != kWide ? static_cast<int64_t>(v) : wide(i);
    }
    void set(size_t i, int64_t v)
    {
        if (fits(v))
            m_narrow[i] = static_cast<Narrow>(v);
        else
            setWide(i, v);
    }
    void push_back(int64_t v)
    {
        m_narrow.push_back(0);
        set(m_narrow.size() - 1, v);
    }
    size_t size() const { return m_narrow.size(); }
    bool empty() const { return m_narrow.empty(); }
    size_t capacity() const { return m_narrow.capacity(); }
    void reserve(size_t n) { m_narrow.reserve(n); }
    // New rows are unset (like LargeVector's resize): every one must be set() before it is read.
    void resize(size_t n);
    void resize(size_t n, int64_t v);
    // Reorders the rows: row order[i] becomes row i (newIndex is its inverse).
    void permute(const LargeVector<uint32_t>& order, const LargeVector<uint32_t>& newIndex);
    void finish();
    void releaseUnusedPages() { dspark::releaseUnusedPages(m_narrow); }
    size_t bytesUsed() const
    {
        return m_narrow.capacity() * sizeof(Narrow) + (m_wide.capacity() + m_lookup.capacity()) * sizeof(Wide);
    }
    size_t wideCount() const { return m_wide.size(); }

private:
    // The sentinel: int32's minimum, uint32's maximum.
    static constexpr Narrow kWide = std::is_signed_v<Narrow> ? INT32_MIN : UINT32_MAX;
    static bool fits(int64_t v)
    {
        if constexpr (std::is_signed_v<Narrow>)
            return v > INT32_MIN && v <= INT32_MAX;
        else
            return v >= 0 && v < int64_t(UINT32_MAX);
    }
    struct Wide {
        uint32_t row;
        int64_t value;
    };
    int64_t wide(size_t i) const;
    void setWide(size_t i, int64_t v);
    LargeVector<Narrow> m_narrow;
    std::vector<Wide> m_wide; // by row while m_wideSorted; else in the order set (the last one counts)
    bool m_wideSorted = true;
    // Unordered values ordered for reading on the first read (or each read would scan them all), made
    // anew after any change (m_changes counts them).
    mutable std::vector<Wide> m_lookup;
    mutable uint64_t m_lookupAt = 0;
    uint64_t m_changes = 0;
};
// Correlation ids (-1: none) and durations (>= 0; longer than ~4.3 s kept beside).
using CorrColumn = NarrowColumn<int32_t>;
using DurationColumn = NarrowColumn<uint32_t>;

// Args references (Profile::makeArgsRef: the source id above bit 44; 0 = no args; source 0 is no
// source) in 4 bytes an event: a reference within 4 GB past the column's base (a source's reference 0)
// is kept as its distance from it, which covers files under 4 GB; any other reference is kept beside,
// by row, whole. The base is set once: by setBase() before rows are set in parallel, else by the first
// non-zero push_back. A source's local reference 0 means "no args" and reads back as 0.
class ArgsColumn {
public:
    // 20 bits of source id (a million files) above 44 bits of a source's own reference (16 TB).
    static constexpr int kSourceShift = 44;
    uint64_t operator[](size_t i) const
    {
        const int64_t n = m_rows[i];
        if (n == 0)
            return 0;
        return n > 0 && n < int64_t(UINT32_MAX) ? m_base + static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
    }
    void set(size_t i, uint64_t ref) { m_rows.set(i, encode(ref)); }
    void push_back(uint64_t ref)
    {
        if (ref != 0 && !m_hasBase)
            setBase(ref >> kSourceShift << kSourceShift);
        m_rows.push_back(encode(ref));
    }
    // The base of a source's references; only the first call counts.
    void setBase(uint64_t base)
    {
        if (m_hasBase)
            return;
        m_base = base;
        m_hasBase = true;
    }
    size_t size() const { return m_rows.size(); }
    bool empty() const { return m_rows.empty(); }
    void reserve(size_t n) { m_rows.reserve(n); }
    void resize(size_t n) { m_rows.resize(n); } // new rows unset, as NarrowColumn's
    void resize(size_t n, uint64_t ref) { m_rows.resize(n, encode(ref)); }
    void permute(const LargeVector<uint32_t>& order, const LargeVector<uint32_t>& newIndex)
    {
        m_rows.permute(order, newIndex);
    }
    void finish() { m_rows.finish(); }
    void releaseUnusedPages() { m_rows.releaseUnusedPages(); }
    size_t bytesUsed() const { return m_rows.bytesUsed(); }
    size_t wideCount() const { return m_rows.wideCount(); }

private:
    // The distance from the base when it fits the narrow rows, else the reference itself (a source's
    // reference is 2^44 or more: never taken for a distance).
    int64_t encode(uint64_t ref) const
    {
        if (ref == 0)
            return 0;
        const uint64_t d = ref - m_base;
        return static_cast<int64_t>(m_hasBase && d > 0 && d < UINT32_MAX ? d : ref);
    }
    NarrowColumn<uint32_t> m_rows;
    uint64_t m_base = 0;
    bool m_hasBase = false;
};

// One lane's events as flat, sorted struct-of-arrays columns (no object per event).
// Filled by loaders through append*(), then finalize() sorts by (start, longer first), computes
// nesting depth and the running maximum of end times that makes range look-ups a binary search.
// After finalize() a lane is immutable.
class Lane {
public:
    LaneInfo info;

    LargeVector<TimeNs> startNs;
    DurationColumn durationNs;    // >= 0
    LargeVector<uint32_t> nameId; // into Profile::strings
    LargeVector<EventKind> kind;
    // Nesting depth (0 = top level), set by finalize(): empty when no event nests (maxDepth 0), which
    // saves a lane of flat device tasks 2 bytes an event, never touched. Read it through depthOf().
    LargeVector<uint16_t> depth;
    CorrColumn corrId;         // connection / correlation id of the source, -1 if none
    ArgsColumn argsRef;        // Profile::args reference, 0 = no args
    LargeVector<double> value; // counter lanes only: the sample value (empty otherwise)
    // The running maximum of start+duration at the end of each block of kEndBlock events (computed
    // by finalize): range look-ups binary-search it, then scan one block. One value per block, not
    // per event: 8 bytes an event less to hold, and to touch while loading.
    static constexpr size_t kEndBlock = 64;
    std::vector<TimeNs> blockMaxEndNs;
    uint16_t maxDepth = 0;
    // For nested lanes (maxDepth > 0): the event indices of each depth, in start order. Within one
    // depth events do not overlap, so a visible range is two binary searches even when a long
    // outer span covers the whole lane. Empty when maxDepth == 0 (depth 0 is then every event).
    std::vector<LargeVector<uint32_t>> byDepth;

    size_t size() const { return startNs.size(); }
    int depthOf(size_t i) const { return depth.empty() ? 0 : depth[i]; }
    bool empty() const { return startNs.empty(); }
    TimeNs endNs(size_t i) const { return startNs[i] + durationNs[i]; }

    // Appends one event and returns its (pre-finalize) index.
    uint32_t append(TimeNs start, TimeNs duration, uint32_t name, EventKind eventKind, int64_t corr = -1,
                    uint64_t args = 0);
    uint32_t appendSample(TimeNs time, double sampleValue, uint32_t name);
    void reserve(size_t n);
    // Sets every per-event column to n rows (`value` too when the lane holds samples): a loader's
    // rollback after a failed file, or pre-sizing for placement by index. Before finalize() only.
    void resize(size_t n);

    // Sorts the columns; returns newIndex[oldIndex] so that references can be remapped, or an empty
    // vector when the rows were already in order (none moved).
    LargeVector<uint32_t> finalize();

    // Indices [first, last) of events that may overlap [t0, t1): every event that does lies inside.
    std::pair<size_t, size_t> overlapping(TimeNs t0, TimeNs t1) const;
    // Events of one depth overlapping [t0, t1): calls visit(index) in start order.
    template <typename Visit> void forEachAtDepth(int d, TimeNs t0, TimeNs t1, Visit&& visit) const;
    // Index of the first event starting at or after t.
    size_t firstStartingAtOrAfter(TimeNs t) const;
    // Index of the deepest event covering t, or size() if none.
    size_t eventAt(TimeNs t, int depthWanted = -1) const;

    TimeNs firstNs() const { return empty() ? 0 : startNs.front(); }
    TimeNs lastNs() const { return empty() ? 0 : blockMaxEndNs.back(); }
    size_t bytesUsed() const;
};

template <typename Visit> void Lane::forEachAtDepth(int d, TimeNs t0, TimeNs t1, Visit&& visit) const
{
    if (maxDepth == 0) {
        if (d != 0)
            return;
        auto [first, last] = overlapping(t0, t1);
        for (size_t i = first; i < last; ++i)
            if (startNs[i] + durationNs[i] >= t0)
                visit(i);
        return;
    }
    if (d < 0 || d >= static_cast<int>(byDepth.size()))
        return;
    const LargeVector<uint32_t>& ids = byDepth[d];
    // At one depth ends are non-decreasing with starts (no overlap), so binary search on the end.
    size_t lo = 0, hi = ids.size();
    while (lo < hi) {
        const size_t mid = (lo + hi) / 2;
        if (startNs[ids[mid]] + durationNs[ids[mid]] < t0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k < ids.size() && startNs[ids[k]] < t1; ++k)
        visit(static_cast<size_t>(ids[k]));
}

} // namespace dspark
