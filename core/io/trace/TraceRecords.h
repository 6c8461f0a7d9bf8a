#pragma once

// What one parsing thread extracts from its part of a Chrome-trace events array, before lanes exist
// (lanes depend on metadata that may come anywhere in the file). Everything refers to the thread's own
// string table and track table; TraceBuilder merges the threads' records in file order.
#include "util/LargeAlloc.h"

#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace dspark::trace {

// A JSON scalar used as an identifier (pid, tid, flow id): an integer, a string, or anything else.
struct RawId {
    enum Kind : uint8_t { None, Int, String, Other, BigUInt };
    Kind kind = None;
    uint64_t value = 0; // Int: two's-complement bits; BigUInt: a value above INT64_MAX; else a string id
    friend bool operator==(const RawId&, const RawId&) = default;
};

struct TrackKey {
    RawId pid;
    RawId tid;
    friend bool operator==(const TrackKey&, const TrackKey&) = default;
};

struct TrackKeyHash {
    size_t operator()(const TrackKey& k) const
    {
        uint64_t h = k.pid.value * 0x9E3779B97F4A7C15ull ^ (uint64_t(k.pid.kind) << 60);
        h ^= (k.tid.value + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2)) ^ (uint64_t(k.tid.kind) << 56);
        return static_cast<size_t>(h * 0xBF58476D1CE4E5B9ull >> 7);
    }
};

// Classification hints read while parsing (the lane kind is only known after the merge).
// Low 4 bits: the event's category; high 3 bits: the Ascend "Task Type" class.
enum CatClass : uint8_t {
    CatNone = 0,
    CatKernel,
    CatNcclKernel,
    CatGpuMemcpy,
    CatGpuMemset,
    CatGpuUserAnnotation,
    CatCudaRuntime,
    CatCudaDriver,
    CatCudaSync,       // cuda_sync other than a stream waiting on an event (Event/Stream/Context Sync)
    CatCudaStreamWait, // cuda_sync "Stream Wait Event": the stream waits on a recorded event
    CatCpuOp,
    CatPythonFunction,
    CatUserAnnotation,
    CatInstant,
    CatOther,
};
enum TaskClass : uint8_t {
    TaskNone = 0,
    TaskCompute,     // AI_CORE, AI_VECTOR_CORE, MIX_AIC, MIX_AIV, AI_CPU, DSA_SQE, FFTS_PLUS...
    TaskEventRecord, // EVENT_RECORD (Task Type EVENT_RECORD_SQE or a task named EVENT_RECORD)
    TaskEventWait,
    TaskMemcpy, // MEMCPY_ASYNC
    TaskOther,
};
inline uint8_t makeHint(CatClass cat, TaskClass task)
{
    return static_cast<uint8_t>(cat | (task << 4));
}
inline CatClass hintCat(uint8_t hint)
{
    return static_cast<CatClass>(hint & 0x0F);
}
inline TaskClass hintTask(uint8_t hint)
{
    return static_cast<TaskClass>(hint >> 4);
}

// Records are trivial types (no member initialisers): their blocks are allocated without an
// initialisation pass; creators value-initialise them (`SliceRecord s{}`).

// A complete slice (ph X) or an instant (ph i/I, duration 0), as the builder reads it.
struct SliceRecord {
    static constexpr int64_t kCorrNone = INT64_MIN; // no correlation id
    int64_t startNs;
    int64_t durationNs; // >= 0
    uint64_t offset;    // byte offset of the event object + 1 (0: no args)
    int64_t corr;       // the connection / correlation id, or kCorrNone
    uint32_t track;
    uint32_t name;
    uint8_t hint; // makeHint(): 7 bits
};

// Half of a slice: ph B/E (per thread, nested) or b/e (async, matched by cat/id/name).
struct MarkRecord {
    int64_t tsNs = 0;
    uint64_t offset = 0;
    RawId id;
    uint32_t track = 0;
    uint32_t name = 0;
    uint32_t cat = 0;
    char ph = 0;
    uint8_t hint = 0;
};

// One flow point: ph s (start), t (step) or f (finish), as parsed (stored packed, in a FlowStream).
struct FlowRecord {
    int64_t tsNs;
    uint64_t id;       // RawId::value
    uint32_t track;    // the part's track
    uint32_t category; // index into the part's flowCategories
    RawId::Kind idKind;
    char ph;
    bool enclosing; // f with "bp":"e": the enclosing slice
};

// One counter sample (ph C), one per (event, series).
struct CounterRecord {
    int64_t tsNs;
    double value;
    uint64_t offset;
    uint32_t series;
};

struct CounterSeriesKey {
    RawId pid;
    uint32_t name = 0; // the event name
    uint32_t key = 0;  // the args key when one event carries several series, else 0
    friend bool operator==(const CounterSeriesKey&, const CounterSeriesKey&) = default;
};

static_assert(std::is_trivial_v<SliceRecord> && std::is_trivial_v<FlowRecord> && std::is_trivial_v<CounterRecord>);

// Metadata (ph M) in file order.
struct MetaRecord {
    enum Kind : uint8_t { ProcessName, ThreadName, ProcessSortIndex, ThreadSortIndex, ProcessLabels };
    Kind kind = ProcessName;
    uint32_t track = 0; // (pid, tid); process metadata use the pid part only
    uint32_t text = 0;  // string id (names, labels)
    int64_t number = 0; // sort index
};

// GPU placement of a track, from the args of its first device event (Kineto: `device`, `stream`).
struct TrackGpu {
    static constexpr int64_t kAbsent = INT64_MIN;
    bool known = false;       // the track holds device activity (kernel, gpu_memcpy, ... categories)
    int64_t device = kAbsent; // args "device", when given
    int64_t stream = kAbsent; // args "stream", when given
};

// Frees a 2 MB record block (BlockVector's and SliceStream's).
struct RecordBlockFree {
    void operator()(void* p) const { freeLarge(p, kHugePage); }
};

// Append-only storage in fixed 2 MB blocks (huge pages where allowed): growing never copies, never
// initialises, and over-allocates by at most one block. A block is handed back to the kernel when
// drained, for the model built from it to reuse. continueAfter() starts a vector in the free end of
// another's last block (blocks are shared, freed when the last vector holding them lets go), so that
// the parts a thread parses one after another do not each leave a partly filled block behind.
template <typename T> class BlockVector {
    static_assert(std::is_trivial_v<T>);

public:
    static constexpr size_t BlockSize = kHugePage / sizeof(T);

    // Inlined, so that a record built in the caller is stored field by field: copied as a whole out
    // of the caller's stack it was read back with 16-byte loads spanning two 8-byte stores, which
    // cannot be forwarded (a stall per record).
    [[gnu::always_inline]] void push_back(const T& value)
    {
        if (m_used == BlockSize || m_blocks.empty()) [[unlikely]]
            addBlock();
        m_blocks.back().get()[m_used++] = value;
        ++m_size;
    }
    // Continues in the free end of `done`'s last block (this vector must be empty; `done` must not
    // grow any more).
    void continueAfter(const BlockVector& done)
    {
        if (!empty() || done.m_blocks.empty() || done.m_used >= BlockSize)
            return;
        m_blocks.assign(1, done.m_blocks.back());
        m_first = m_used = done.m_used;
    }
    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const T& operator[](size_t i) const
    {
        const size_t j = i + m_first;
        return m_blocks[j / BlockSize].get()[j % BlockSize];
    }
    T& at(size_t i)
    {
        const size_t j = i + m_first;
        return m_blocks[j / BlockSize].get()[j % BlockSize];
    }
    void clear()
    {
        m_blocks.clear();
        m_used = 0;
        m_size = 0;
        m_first = 0;
    }
    // Visits every element in order, letting go of each block once visited.
    template <typename Visit> void drain(Visit&& visit)
    {
        for (size_t b = 0; b < m_blocks.size(); ++b) {
            const T* block = m_blocks[b].get();
            for (size_t i = begin(b), n = end(b); i < n; ++i)
                visit(block[i]);
            m_blocks[b].reset();
        }
        clear();
    }
    template <typename Visit> void forEach(Visit&& visit) const
    {
        for (size_t b = 0; b < m_blocks.size(); ++b) {
            const T* block = m_blocks[b].get();
            for (size_t i = begin(b), n = end(b); i < n; ++i)
                visit(block[i]);
        }
    }
    template <typename Visit> void forEachMutable(Visit&& visit)
    {
        for (size_t b = 0; b < m_blocks.size(); ++b) {
            T* block = m_blocks[b].get();
            for (size_t i = begin(b), n = end(b); i < n; ++i)
                visit(block[i]);
        }
    }
    // Drops the elements from index n on (rollback of a chunk that failed to parse).
    void truncate(size_t n)
    {
        if (n >= m_size)
            return;
        const size_t total = n + m_first; // slots up to the new end, counted from the first block's start
        const size_t blocks = total == 0 ? 0 : (total - 1) / BlockSize + 1;
        m_blocks.resize(blocks);
        m_size = n;
        m_used = blocks == 0 ? 0 : total - (blocks - 1) * BlockSize;
    }
    // Bytes of its elements (each block shared with a continued vector is counted once).
    size_t bytesUsed() const { return m_size * sizeof(T); }

private:
    [[gnu::noinline]] void addBlock()
    {
        m_blocks.emplace_back(static_cast<T*>(allocateLarge(kHugePage)), RecordBlockFree{});
        m_used = 0;
    }
    size_t begin(size_t b) const { return b == 0 ? m_first : 0; }
    size_t end(size_t b) const { return b + 1 == m_blocks.size() ? m_used : BlockSize; }
    std::vector<std::shared_ptr<T>> m_blocks;
    size_t m_used = 0; // slots used in the last block (from its start)
    size_t m_size = 0;
    size_t m_first = 0; // slots of the first block that belong to the vector this one continues
};

// LEB128 varints and zigzag signed values, for the packed record streams below.
namespace packed {
inline uint64_t zigzag(int64_t v)
{
    return (uint64_t(v) << 1) ^ uint64_t(v >> 63);
}
inline int64_t unzigzag(uint64_t u)
{
    return static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
}
inline uint8_t* putVarint(uint8_t* p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = static_cast<uint8_t>(v | 0x80);
        v >>= 7;
    }
    *p++ = static_cast<uint8_t>(v);
    return p;
}
inline uint64_t getVarint(const uint8_t*& p)
{
    uint64_t v = *p & 0x7F;
    for (int shift = 7; *p++ & 0x80; shift += 7)
        v |= uint64_t(*p & 0x7F) << shift;
    return v;
}
// A value as a zigzag varint of its difference from `prev`, which it then becomes.
inline uint8_t* putDelta(uint8_t* p, uint64_t v, uint64_t& prev)
{
    p = putVarint(p, zigzag(static_cast<int64_t>(v - prev)));
    prev = v;
    return p;
}
inline uint64_t getDelta(const uint8_t*& p, uint64_t& prev)
{
    return prev += uint64_t(unzigzag(getVarint(p)));
}
} // namespace packed

// Slices packed: a header byte (the hint and whether a correlation id follows), then varints of the
// start (as a zigzag delta from the previous slice's), the duration, the args offset (zigzag delta),
// the track, the name and the correlation id (zigzag). About 17 bytes a slice instead of 48.
struct SliceCodec {
    using Record = SliceRecord;
    static constexpr size_t kMaxRecordBytes = 1 + 6 * 10;
    struct State {
        uint64_t prevStart;
        uint64_t prevOffset;
    };
    static uint8_t* encode(uint8_t* p, const SliceRecord& s, State& st)
    {
        using namespace packed;
        const bool hasCorr = s.corr != SliceRecord::kCorrNone;
        *p++ = static_cast<uint8_t>((s.hint & 0x7F) | (hasCorr ? 0x80 : 0));
        p = putDelta(p, uint64_t(s.startNs), st.prevStart);
        p = putVarint(p, static_cast<uint64_t>(s.durationNs));
        p = putDelta(p, s.offset, st.prevOffset);
        p = putVarint(p, s.track);
        p = putVarint(p, s.name);
        if (hasCorr)
            p = putVarint(p, zigzag(s.corr));
        return p;
    }
    static SliceRecord decode(const uint8_t*& p, State& st)
    {
        using namespace packed;
        SliceRecord s;
        const uint8_t head = *p++;
        s.hint = head & 0x7F;
        s.startNs = static_cast<int64_t>(getDelta(p, st.prevStart));
        s.durationNs = static_cast<int64_t>(getVarint(p));
        s.offset = getDelta(p, st.prevOffset);
        s.track = static_cast<uint32_t>(getVarint(p));
        s.name = static_cast<uint32_t>(getVarint(p));
        s.corr = (head & 0x80) ? unzigzag(getVarint(p)) : SliceRecord::kCorrNone;
        return s;
    }
};

// Flow points packed: a header byte (phase, enclosing, id kind), then varints of the timestamp (a
// zigzag delta from the previous point's), the track, the category index and the id. An integer id
// is a zigzag delta from the previous integer id of its category (ids of a category count up, and
// categories interleave: async_npu ids are nanosecond timestamps, task-queue ids small counters);
// any other id is its value. 8 bytes a point with counter ids, ~15 with torch_npu's nanosecond ids
// (the 1 GB bench trace), instead of 24.
struct FlowCodec {
    using Record = FlowRecord;
    static constexpr size_t kMaxRecordBytes = 1 + 10 + 5 + 5 + 10;
    static constexpr size_t kIdSlots = 16; // categories share a previous id modulo this
    struct State {
        uint64_t prevTs;
        uint64_t prevId[kIdSlots];
    };
    static uint8_t* encode(uint8_t* p, const FlowRecord& f, State& st)
    {
        using namespace packed;
        const uint32_t phase = f.ph == 's' ? 0 : f.ph == 't' ? 1 : 2;
        *p++ = static_cast<uint8_t>(phase | (f.enclosing ? 4u : 0u) | uint32_t(f.idKind) << 3);
        p = putDelta(p, uint64_t(f.tsNs), st.prevTs);
        p = putVarint(p, f.track);
        p = putVarint(p, f.category);
        if (f.idKind == RawId::Int)
            p = putDelta(p, f.id, st.prevId[f.category % kIdSlots]);
        else
            p = putVarint(p, f.id);
        return p;
    }
    static FlowRecord decode(const uint8_t*& p, State& st)
    {
        using namespace packed;
        FlowRecord f;
        const uint8_t head = *p++;
        f.ph = "stf"[head & 3];
        f.enclosing = (head & 4) != 0;
        f.idKind = static_cast<RawId::Kind>(head >> 3 & 7);
        f.tsNs = static_cast<int64_t>(getDelta(p, st.prevTs));
        f.track = static_cast<uint32_t>(getVarint(p));
        f.category = static_cast<uint32_t>(getVarint(p));
        f.id = f.idKind == RawId::Int ? getDelta(p, st.prevId[f.category % kIdSlots]) : getVarint(p);
        return f;
    }
};

// A part's records in file order, packed by a codec (SliceCodec, FlowCodec): parsed records are the
// load's largest fresh memory, and on the machines this runs on first touch of fresh memory costs
// more than parsing the JSON. Stored in 2 MB blocks (huge pages where allowed), each handed back to
// the kernel once drained; continueAfter() shares a block as BlockVector's does.
template <typename Codec> class RecordStream {
public:
    using Record = typename Codec::Record;
    using State = typename Codec::State;
    static_assert(std::is_trivially_copyable_v<State>);

    // Where the stream ends now: rollback() returns to it.
    struct Position {
        size_t block = 0; // number of full blocks before the write block
        size_t used = 0;  // bytes used in the write block (from its start)
        size_t count = 0;
        State state{};
    };

    void push(const Record& r)
    {
        if (size_t(m_limit - m_write) < Codec::kMaxRecordBytes) [[unlikely]]
            newBlock();
        m_write = Codec::encode(m_write, r, m_state);
        ++m_count;
    }
    // Continues in the free end of `done`'s last block (this stream must be empty; `done` must not
    // grow any more).
    void continueAfter(const RecordStream& done)
    {
        if (!empty() || done.m_blocks.empty() || size_t(done.m_limit - done.m_write) < Codec::kMaxRecordBytes)
            return;
        m_blocks.assign(1, done.m_blocks.back());
        m_fullUsed.clear();
        m_write = done.m_write;
        m_limit = done.m_limit;
        m_firstOffset = size_t(m_write - m_blocks.front().get());
    }
    size_t size() const { return m_count; }
    bool empty() const { return m_count == 0; }
    // Bytes of its packed records (each block shared with a continued stream is counted once).
    size_t bytesUsed() const
    {
        size_t bytes = 0;
        for (size_t b = 0; b < m_blocks.size(); ++b)
            bytes += blockUsed(b) - blockStart(b);
        return bytes;
    }

    Position end() const
    {
        Position p;
        p.block = m_blocks.empty() ? 0 : m_blocks.size() - 1;
        p.used = m_blocks.empty() ? 0 : size_t(m_write - m_blocks.back().get());
        p.count = m_count;
        p.state = m_state;
        return p;
    }
    // Visits the records pushed since `from`, in order.
    template <typename Visit> void forEachSince(const Position& from, Visit&& visit) const
    {
        State state = from.state;
        for (size_t b = from.block; b < m_blocks.size(); ++b) {
            const uint8_t* p = m_blocks[b].get() + (b == from.block ? from.used : blockStart(b));
            const uint8_t* end = m_blocks[b].get() + blockUsed(b);
            while (p < end)
                visit(Codec::decode(p, state));
        }
    }
    // Visits every record in order.
    template <typename Visit> void forEach(Visit&& visit) const
    {
        Position start;
        start.used = blockStart(0);
        forEachSince(start, visit);
    }
    // Visits the records in order while `visit` returns true; false when it stopped early.
    template <typename Visit> bool forEachWhile(Visit&& visit) const
    {
        State state{};
        for (size_t b = 0; b < m_blocks.size(); ++b) {
            const uint8_t* p = m_blocks[b].get() + blockStart(b);
            const uint8_t* end = m_blocks[b].get() + blockUsed(b);
            while (p < end)
                if (!visit(Codec::decode(p, state)))
                    return false;
        }
        return true;
    }
    // Drops the records pushed since `to`.
    void rollback(const Position& to)
    {
        if (to.count >= m_count)
            return;
        m_blocks.resize(to.block + 1);
        m_fullUsed.resize(to.block);
        m_write = m_blocks.back().get() + to.used;
        m_limit = m_blocks.back().get() + kHugePage;
        m_count = to.count;
        m_state = to.state;
    }
    // Visits every record in order, handing each block back once visited.
    template <typename Visit> void drain(Visit&& visit)
    {
        State state{};
        for (size_t b = 0; b < m_blocks.size(); ++b) {
            const uint8_t* p = m_blocks[b].get() + blockStart(b);
            const uint8_t* end = m_blocks[b].get() + blockUsed(b);
            while (p < end)
                visit(Codec::decode(p, state));
            m_blocks[b].reset();
        }
        clear();
    }
    void clear()
    {
        m_blocks.clear();
        m_fullUsed.clear();
        m_write = m_limit = nullptr;
        m_firstOffset = 0;
        m_count = 0;
        m_state = State{};
    }

private:
    size_t blockStart(size_t b) const { return b == 0 ? m_firstOffset : 0; }
    // Where the bytes of block b end (from its start).
    size_t blockUsed(size_t b) const
    {
        return b < m_fullUsed.size() ? m_fullUsed[b] : size_t(m_write - m_blocks[b].get());
    }
    [[gnu::noinline]] void newBlock()
    {
        if (!m_blocks.empty())
            m_fullUsed.push_back(static_cast<uint32_t>(m_write - m_blocks.back().get()));
        m_blocks.emplace_back(static_cast<uint8_t*>(allocateLarge(kHugePage)), RecordBlockFree{});
        m_write = m_blocks.back().get();
        m_limit = m_write + kHugePage;
    }
    std::vector<std::shared_ptr<uint8_t>> m_blocks;
    std::vector<uint32_t> m_fullUsed; // where the bytes of each block but the last end
    uint8_t* m_write = nullptr;
    uint8_t* m_limit = nullptr;
    size_t m_firstOffset = 0; // bytes of the first block that belong to the stream this one continues
    size_t m_count = 0;
    State m_state{};
};

using SliceStream = RecordStream<SliceCodec>;
using FlowStream = RecordStream<FlowCodec>;

} // namespace dspark::trace
