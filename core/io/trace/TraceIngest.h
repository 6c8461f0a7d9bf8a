#pragma once

#include "io/trace/TraceRecords.h"
#include "model/StringTable.h"
#include "util/MappedFile.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dspark::trace {

// A problem that did not stop loading: counted, with the first few examples.
struct IssueTally {
    uint64_t count = 0;
    std::vector<std::string> examples; // "byte N: detail"
    void add(size_t offset, const std::string& detail)
    {
        if (examples.size() < 3)
            examples.push_back("byte " + std::to_string(offset) + ": " + detail);
        ++count;
    }
    void merge(const IssueTally& other)
    {
        count += other.count;
        for (const std::string& e : other.examples)
            if (examples.size() < 3)
                examples.push_back(e);
    }
};

// Parses the elements of a Chrome-trace events array with simdjson On-Demand, chunk by chunk, into
// records (one instance per thread; nothing shared). A chunk is copied into a reused padded buffer
// as "[" + elements + "]" and cut at a "},{" boundary that the parse itself verifies: a cut inside a
// string or a nested value makes that chunk fail, and the validating scanner then finds the real
// element boundary (or the real syntax error and its byte offset).
class TraceIngest {
public:
    struct Options {
        int tsScaleDigits = 3;        // 3: ts/dur in µs (Chrome default); 0: already ns
        size_t chunkBytes = 2u << 20; // target chunk size
        // When the data is a file mapping: pages already parsed are handed back as the parse moves on
        // (the page cache keeps them; args read later fault them in again), so the process does not
        // hold the whole file resident on top of the profile it builds.
        const MappedFile* mapping = nullptr;
        // The same file open for reading: chunks are then read with pread() instead of copied out of
        // the mapping (a copy from the mapping faults every page of it in first: ~4× the CPU).
        int fd = -1;
    };
    enum class Stop {
        ArrayEnd,    // the events array ended (arrayEnd: offset of its closing bracket)
        ReachedStop, // the element at stopAt starts a later part (verified boundary)
        Error,       // malformed data: errorOffset / errorMessage
        Cancelled,
    };
    struct Result {
        Stop stop = Stop::Error;
        size_t arrayEnd = 0;
        size_t errorOffset = 0;
        std::string errorMessage;
    };

    TraceIngest(const char* data, size_t size, Options options);

    // Parses elements starting at `begin` (the first byte of an element, or of the closing bracket)
    // and stops before an element starting at `stopAt` (pass SIZE_MAX for "to the end of the array").
    // `onChunk(bytes)` is called after each chunk with the bytes it covered; returning false cancels.
    Result run(size_t begin, size_t stopAt, const std::function<bool(size_t)>& onChunk);
    // Frees the chunk buffer and the parser's indexes (tens of MB) once parsing is over, for what the
    // load builds next to reuse.
    void releaseParseBuffers();
    // For the next part parsed on the same thread: takes over the parser and chunk buffer of an
    // ingest that is done parsing, and continues its record blocks where they end (the two share the
    // blocks), so that their pages are reused instead of fresh ones touched.
    void continueFrom(TraceIngest& done);
    // The parser's capacity and the chunk buffer's size: the parser is sized once, to the buffer.
    size_t parserCapacity() const;
    size_t bufferBytes() const { return m_buffer.size(); }
    // Bytes of the records (not of the 2 MB blocks that hold them).
    size_t recordBytes() const { return slices.bytesUsed() + flows.bytesUsed() + counters.bytesUsed(); }

    // ---- output (read by TraceBuilder after run) ----
    StringTable strings;              // local ids
    std::vector<TrackKey> tracks;     // local track id → key
    std::vector<TrackGpu> trackGpu;   // per local track
    std::vector<uint64_t> sliceCount; // per local track: number of SliceRecords
    std::vector<CounterSeriesKey> series;
    SliceStream slices;
    FlowStream flows;
    uint64_t flowStarts = 0;              // flow points with ph s
    std::vector<uint32_t> flowCategories; // FlowRecord category index → local string id
    BlockVector<CounterRecord> counters;
    std::vector<MarkRecord> marks;
    std::vector<MetaRecord> metas;
    uint64_t elements = 0;        // array elements seen
    uint64_t traceEvents = 0;     // elements that were trace events (objects with a known ph)
    int64_t maxEndNs = INT64_MIN; // latest timestamp or slice end seen
    IssueTally missingTs, missingPh, unknownPh, notObject, negativeDuration, badNumber, badFlow, invalidUtf8;

private:
    struct Chunk;
    // Parses the elements in [begin, cut); the chunk buffer already holds the first `preloaded` bytes.
    bool parseChunk(size_t begin, size_t cut, size_t preloaded, Result& failure, bool& arrayEnded, size_t& arrayEndAt);
    uint32_t trackId(const TrackKey& key);
    uint32_t seriesId(const CounterSeriesKey& key);
    RawId internId(std::string_view rawToken);
    uint32_t internRaw(std::string_view rawContent);
    // The same as trackId({internId(pid), internId(tid)}) and internRaw(name), through small caches
    // of the raw texts last seen (events cycle among a few tracks and names). trackOf reads up to 16
    // bytes from the start of pid and tid: they must lie in the padded chunk buffer.
    uint32_t trackOf(std::string_view pid, bool pidIsString, std::string_view tid, bool tidIsString);
    uint32_t internName(std::string_view rawContent);

    const char* m_data;
    size_t m_size;
    Options m_options;
    LargeVector<char> m_buffer; // "[" + chunk + "]" + padding, reused
    std::unordered_map<TrackKey, uint32_t, TrackKeyHash> m_trackIds;
    std::unordered_map<uint64_t, std::vector<uint32_t>> m_seriesIds; // hash → candidates
    TrackKey m_lastKey;
    uint32_t m_lastTrack = UINT32_MAX;
    std::string m_scratch;
    std::vector<uint32_t> m_flowCategorySlot; // local string id → flowCategories index (UINT32_MAX: none yet)
    // The raw pid and tid texts of a recent track, each up to 16 bytes, zero-padded, with their sizes
    // and string flags packed in `shape` (longer texts are not cached).
    struct TrackCacheEntry {
        uint64_t text[4] = {0, 0, 0, 0};
        uint64_t shape = UINT64_MAX;
        uint32_t track = UINT32_MAX;
    };
    TrackCacheEntry m_trackCache[4];
    unsigned m_trackCacheNext = 0;
    struct NameCacheEntry {
        uint64_t head = 0, tail = 0; // the first and last 8 bytes (zero-padded): up to 16 bytes, the name
        uint32_t size = 0;
        uint32_t id = UINT32_MAX;
    };
    std::vector<NameCacheEntry> m_nameCache = std::vector<NameCacheEntry>(1024);
    void* m_parser = nullptr; // simdjson::ondemand::parser (kept out of this header)
public:
    ~TraceIngest();
    TraceIngest(const TraceIngest&) = delete;
    TraceIngest& operator=(const TraceIngest&) = delete;
};

// Finds a likely element boundary at or after `from`: a ',' between '}' and '{' (whitespace allowed).
// Returns false if none before `limit`. `closeEnd` is one past the '}', `nextStart` the '{'.
bool findElementBoundary(const char* data, size_t from, size_t limit, size_t& closeEnd, size_t& nextStart);

// Copies data[begin, begin + len) to `to`: with pread() from `fd` when fd >= 0 (a copy out of a
// mapping faults every page of it in first: ~4x the CPU), the rest (or all, without fd) from `data`.
void readBytes(const char* data, int fd, size_t begin, size_t len, char* to);

// Reads the bytes from `pos` on into `to` (at most `room` of them) until they hold the first element
// boundary at or after `target` and before `limit`, reading little past it. The boundary is the one
// findElementBoundary(data, target, limit, ...) returns, found without touching `data`: when `data`
// is a file mapping, each page read through it faults, and handing the pages back (madvise) costs a
// TLB shootdown on the other core. Returns false when it is not within `room` bytes (or there is
// none); `loaded` is the number of bytes in `to` either way.
bool loadToElementBoundary(const char* data, int fd, size_t pos, size_t target, size_t limit, char* to, size_t room,
                           size_t& loaded, size_t& closeEnd, size_t& nextStart);

} // namespace dspark::trace
