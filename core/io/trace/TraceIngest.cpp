#include "io/trace/TraceIngest.h"

#include "io/trace/JsonText.h"

#include <simdjson.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <limits>

#include <unistd.h>

namespace dspark::trace {

namespace od = simdjson::ondemand;

namespace {

// Compares a raw key (simdjson's pointer just after the opening quote) with a plain ASCII key; the
// closing quote must follow. Reading a few bytes past a short key is safe: the buffer is padded.
template <size_t N> bool keyIs(const char* raw, const char (&key)[N])
{
    return std::memcmp(raw, key, N - 1) == 0 && raw[N - 1] == '"';
}

// Comparisons with a literal, which the compiler turns into a few word compares (std::string_view's
// operator== calls an out-of-line compare and memcmp: ~3 % of parsing on the 1 GB trace).
template <size_t N> bool textIs(std::string_view s, const char (&literal)[N])
{
    return s.size() == N - 1 && std::memcmp(s.data(), literal, N - 1) == 0;
}
template <size_t N> bool startsWith(std::string_view s, const char (&prefix)[N])
{
    return s.size() >= N - 1 && std::memcmp(s.data(), prefix, N - 1) == 0;
}

// A raw token as a string's content (no quotes) or, for other tokens, the trimmed token itself.
struct Token {
    std::string_view text;
    bool isString;
    bool present;
};

// Written in place, field by field (a Token returned by value and copied was read back as a 16-bit
// pair of bools just written as bytes: a store-forwarding stall per field).
void readToken(od::value& v, Token& out)
{
    std::string_view t = trimToken(v.raw_json_token());
    const bool isString = t.size() >= 2 && t.front() == '"' && t.back() == '"';
    out.text = isString ? t.substr(1, t.size() - 2) : t;
    out.isString = isString;
    out.present = true;
}

CatClass classifyCat(std::string_view cat, std::string_view name)
{
    if (cat.empty())
        return CatNone;
    if (textIs(cat, "kernel"))
        return startsWith(name, "nccl") || startsWith(name, "rccl") ? CatNcclKernel : CatKernel;
    if (textIs(cat, "cpu_op") || textIs(cat, "enqueue") || textIs(cat, "dequeue"))
        return CatCpuOp;
    if (textIs(cat, "python_function"))
        return CatPythonFunction;
    if (textIs(cat, "cuda_runtime"))
        return CatCudaRuntime;
    if (textIs(cat, "cuda_driver"))
        return CatCudaDriver;
    if (textIs(cat, "gpu_memcpy"))
        return CatGpuMemcpy;
    if (textIs(cat, "gpu_memset"))
        return CatGpuMemset;
    if (textIs(cat, "gpu_user_annotation"))
        return CatGpuUserAnnotation;
    if (textIs(cat, "user_annotation") || textIs(cat, "Trace"))
        return CatUserAnnotation;
    if (textIs(cat, "cuda_sync"))
        return name.find("Wait") != std::string_view::npos ? CatCudaStreamWait : CatCudaSync;
    return CatOther;
}

// msprof's compute tasks (its Overlap Analysis "Computing" = the union of these). The op's task type
// is in args "Task Type"; hardware-only tasks carry an *_SQE type or an HCCL task name instead.
TaskClass classifyTask(std::string_view taskType, std::string_view name)
{
    if (textIs(taskType, "Other"))
        return TaskNone; // a type the writer did not know: the name decides (untypedTaskClass)
    if (textIs(taskType, "AI_CORE") || textIs(taskType, "AI_VECTOR_CORE") || textIs(taskType, "MIX_AIC") ||
        textIs(taskType, "MIX_AIV") || textIs(taskType, "AI_CPU") || textIs(taskType, "DSA_SQE") ||
        textIs(taskType, "FFTS_PLUS"))
        return TaskCompute;
    if (textIs(name, "EVENT_RECORD") || startsWith(taskType, "EVENT_RECORD"))
        return TaskEventRecord;
    if (textIs(name, "EVENT_WAIT") || startsWith(taskType, "EVENT_WAIT"))
        return TaskEventWait;
    if (textIs(name, "MEMCPY_ASYNC") || startsWith(taskType, "MEMCPY_ASYNC"))
        return TaskMemcpy;
    return TaskOther;
}

bool isGpuCat(CatClass c)
{
    return c == CatKernel || c == CatNcclKernel || c == CatGpuMemcpy || c == CatGpuMemset ||
           c == CatGpuUserAnnotation || c == CatCudaSync || c == CatCudaStreamWait;
}

// The length of a raw key (pointer after the opening quote), honouring escapes.
std::string_view rawKey(const char* raw)
{
    size_t n = 0;
    while (raw[n] != '"') {
        if (raw[n] == '\\' && raw[n + 1] != 0)
            ++n;
        ++n;
    }
    return {raw, n};
}

// Everything one event object contributes, as views into the chunk buffer. One instance serves a
// whole chunk: reset() clears only what the next event needs cleared (a fresh ~800-byte struct per
// event cost more than some of its fields).
struct EventFields {
    Token ph, name, cat, ts, dur, pid, tid, id, bp;
    Token taskType, argName, labels, sortIndex, device, stream, corr;
    bool hasArgs;
    bool argsNonEmpty;
    struct Number {
        const char* rawKey;
        const char* token;
        size_t size;
    };
    Number numbers[16];
    int numberCount;
    // Absent tokens read as empty text for the fields read without a presence check; copied from a
    // constant, as `text = {}` makes GCC reload two 8-byte stores as one 16-byte load (no forwarding).
    void reset()
    {
        static constexpr Token kAbsent{{}, false, false};
        name = cat = pid = tid = id = kAbsent;
        ph.present = ts.present = dur.present = bp.present = false;
        taskType.present = argName.present = labels.present = sortIndex.present = false;
        device.present = stream.present = corr.present = false;
        hasArgs = argsNonEmpty = false;
        numberCount = 0;
    }
};

} // namespace

bool findElementBoundary(const char* data, size_t from, size_t limit, size_t& closeEnd, size_t& nextStart)
{
    size_t i = from;
    while (i < limit) {
        const void* hit = std::memchr(data + i, ',', limit - i);
        if (!hit)
            return false;
        const size_t comma = static_cast<const char*>(hit) - data;
        size_t before = comma;
        while (before > from && isJsonSpace(data[before - 1]))
            --before;
        size_t after = comma + 1;
        while (after < limit && isJsonSpace(data[after]))
            ++after;
        if (before > from && data[before - 1] == '}' && after < limit && data[after] == '{') {
            closeEnd = before;
            nextStart = after;
            return true;
        }
        i = comma + 1;
    }
    return false;
}

void readBytes(const char* data, int fd, size_t begin, size_t len, char* to)
{
    size_t done = 0;
    if (fd >= 0) {
        while (done < len) {
            const ssize_t n = ::pread(fd, to + done, len - done, static_cast<off_t>(begin + done));
            if (n <= 0) {
                if (n < 0 && errno == EINTR)
                    continue;
                break; // the rest comes from the mapping
            }
            done += static_cast<size_t>(n);
        }
    }
    if (done < len)
        std::memcpy(to + done, data + begin + done, len - done);
}

bool loadToElementBoundary(const char* data, int fd, size_t pos, size_t target, size_t limit, char* to, size_t room,
                           size_t& loaded, size_t& closeEnd, size_t& nextStart)
{
    loaded = 0;
    if (target < pos || target >= limit)
        return false;
    // A boundary is usually a few hundred bytes past the target: read 16 KB past it, then more.
    for (size_t past = size_t(16) << 10;; past *= 4) {
        const size_t want = std::min({limit - pos, target - pos + past, room});
        if (want > loaded) {
            readBytes(data, fd, pos + loaded, want - loaded, to + loaded);
            loaded = want;
        }
        // (From the target each time: a boundary whose '{' was not read yet was not reported.)
        if (findElementBoundary(to, target - pos, loaded, closeEnd, nextStart)) {
            closeEnd += pos;
            nextStart += pos;
            return true;
        }
        if (loaded >= room || pos + loaded >= limit)
            return false;
    }
}

TraceIngest::TraceIngest(const char* data, size_t size, Options options)
    : m_data(data), m_size(size), m_options(options)
{
    m_parser = new od::parser();
}

TraceIngest::~TraceIngest()
{
    delete static_cast<od::parser*>(m_parser);
}

void TraceIngest::releaseParseBuffers()
{
    LargeVector<char>().swap(m_buffer);
    delete static_cast<od::parser*>(m_parser);
    m_parser = new od::parser();
}

size_t TraceIngest::parserCapacity() const
{
    return static_cast<const od::parser*>(m_parser)->capacity();
}

void TraceIngest::continueFrom(TraceIngest& done)
{
    std::swap(m_buffer, done.m_buffer);
    std::swap(m_parser, done.m_parser);
    slices.continueAfter(done.slices);
    flows.continueAfter(done.flows);
    counters.continueAfter(done.counters);
}

uint32_t TraceIngest::trackId(const TrackKey& key)
{
    if (m_lastTrack != UINT32_MAX && key == m_lastKey)
        return m_lastTrack;
    auto [it, inserted] = m_trackIds.try_emplace(key, static_cast<uint32_t>(tracks.size()));
    if (inserted) {
        tracks.push_back(key);
        trackGpu.emplace_back();
        sliceCount.push_back(0);
    }
    m_lastKey = key;
    m_lastTrack = it->second;
    return it->second;
}

uint32_t TraceIngest::seriesId(const CounterSeriesKey& key)
{
    const uint64_t h =
        (key.pid.value * 0x9E3779B97F4A7C15ull) ^ (uint64_t(key.name) << 20) ^ key.key ^ (uint64_t(key.pid.kind) << 62);
    std::vector<uint32_t>& candidates = m_seriesIds[h];
    for (uint32_t id : candidates)
        if (series[id] == key)
            return id;
    candidates.push_back(static_cast<uint32_t>(series.size()));
    series.push_back(key);
    return candidates.back();
}

uint32_t TraceIngest::internRaw(std::string_view raw)
{
    if (raw.find('\\') == std::string_view::npos)
        return strings.intern(raw);
    if (!unescapeJsonString(raw, m_scratch))
        return strings.intern(raw); // keep the text as written rather than lose the event
    return strings.intern(m_scratch);
}

namespace {
// The first 16 bytes at `text` (readable: the chunk buffer's padding follows every token), with those
// past its size zeroed.
void loadShort(std::string_view text, uint64_t out[2])
{
    const size_t n = text.size();
    if (n == 0) { // (an absent field: no data pointer)
        out[0] = out[1] = 0;
        return;
    }
    std::memcpy(out, text.data(), 16);
    out[0] &= n >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * n)) - 1;
    out[1] &= n >= 16 ? ~uint64_t(0) : n <= 8 ? 0 : (uint64_t(1) << (8 * (n - 8))) - 1;
}
} // namespace

uint32_t TraceIngest::trackOf(std::string_view pid, bool pidIsString, std::string_view tid, bool tidIsString)
{
    if (pid.size() > 16 || tid.size() > 16)
        return trackId({internId(pid), internId(tid)});
    const uint64_t shape = uint64_t(pid.size()) | uint64_t(tid.size()) << 8 | uint64_t(pidIsString ? 1 : 0) << 16 |
                           uint64_t(tidIsString ? 1 : 0) << 17;
    uint64_t text[4];
    loadShort(pid, text);
    loadShort(tid, text + 2);
    for (const TrackCacheEntry& e : m_trackCache)
        if (e.shape == shape && e.text[0] == text[0] && e.text[1] == text[1] && e.text[2] == text[2] &&
            e.text[3] == text[3])
            return e.track;
    const uint32_t track = trackId({internId(pid), internId(tid)});
    TrackCacheEntry& slot = m_trackCache[m_trackCacheNext++ % std::size(m_trackCache)];
    std::memcpy(slot.text, text, sizeof text);
    slot.shape = shape;
    slot.track = track;
    return track;
}

uint32_t TraceIngest::internName(std::string_view raw)
{
    // Direct-mapped on length and the first and last 8 bytes, which are the whole name up to 16 bytes;
    // a hit on a longer name is verified against the table.
    uint64_t head = 0, tail = 0;
    if (!raw.empty()) // (an absent name has no data pointer)
        std::memcpy(&head, raw.data(), std::min<size_t>(raw.size(), 8));
    if (raw.size() > 8)
        std::memcpy(&tail, raw.data() + raw.size() - 8, 8);
    const uint64_t key = (head * 0x9E3779B97F4A7C15ull) ^ (tail * 0xC2B2AE3D27D4EB4Full) ^ raw.size();
    NameCacheEntry& e = m_nameCache[(key >> 40) & (m_nameCache.size() - 1)];
    if (e.id != UINT32_MAX && e.head == head && e.tail == tail && e.size == raw.size() &&
        (raw.size() <= 16 || strings.view(e.id) == raw))
        return e.id;
    const uint32_t id = internRaw(raw);
    e.head = head;
    e.tail = tail;
    e.size = static_cast<uint32_t>(raw.size());
    e.id = id;
    return id;
}

RawId TraceIngest::internId(std::string_view t)
{
    RawId id;
    if (t.empty())
        return id;
    bool big = false;
    uint64_t bits = 0;
    // A quoted all-digit id ("936") and the number 936 are the same id (Ascend writes both forms).
    if (parseJsonInteger(t, bits, big)) {
        id.kind = big ? RawId::BigUInt : RawId::Int; // 2^64-1 is not -1
        id.value = bits;
        return id;
    }
    id.kind = RawId::String;
    id.value = internRaw(t);
    return id;
}

TraceIngest::Result TraceIngest::run(size_t begin, size_t stopAt, const std::function<bool(size_t)>& onChunk)
{
    Result result;
    // The chunk that ends at the stop element ends at the '}' before its ','.
    size_t stopCut = SIZE_MAX;
    if (stopAt != SIZE_MAX) {
        size_t i = stopAt;
        while (i > begin && isJsonSpace(m_data[i - 1]))
            --i;
        if (i > begin && m_data[i - 1] == ',') {
            --i;
            while (i > begin && isJsonSpace(m_data[i - 1]))
                --i;
            if (i > begin && m_data[i - 1] == '}')
                stopCut = i;
        }
        if (stopCut == SIZE_MAX)
            stopAt = SIZE_MAX; // not a boundary at all: parse on to the end
    }

    size_t pos = skipJsonSpace(m_data, begin, m_size);
    // The bytes are read with pread() into the chunk buffer, and the cut is found there: the mapping
    // is only read where that fails (then its pages are handed back after the chunk).
    // (No more than the file: a small file's load then does not allocate and free a 2.5 MB buffer.)
    const size_t room = std::min(m_options.chunkBytes + (m_options.chunkBytes >> 2), m_size);
    if (m_buffer.size() < room + 2 + simdjson::SIMDJSON_PADDING)
        m_buffer.resize(room + 2 + simdjson::SIMDJSON_PADDING);
    bool atElement = false; // pos is known to hold a '{' (a boundary's next element)
    while (true) {
        if (!atElement && pos < m_size && m_data[pos] == ']') {
            result.stop = Stop::ArrayEnd;
            result.arrayEnd = pos;
            return result;
        }
        if (stopAt != SIZE_MAX && pos >= stopAt) {
            result.stop = Stop::ReachedStop;
            return result;
        }
        // Choose the cut: the stop boundary, a "},{" after the target size, or the end of the data.
        size_t cut = m_size, next = m_size;
        bool toStop = false;
        bool touched = m_options.fd < 0 || !atElement; // the mapping was read (a part's first bytes were)
        const size_t target = pos + m_options.chunkBytes;
        const size_t limit = std::min(m_size, stopCut);
        size_t closeEnd = 0, nextStart = 0, loaded = 0;
        bool found = loadToElementBoundary(m_data, m_options.fd, pos, target, limit, m_buffer.data() + 1, room, loaded,
                                           closeEnd, nextStart);
        if (!found && target < limit) { // an element of more than `room` bytes around the target
            touched = true;
            found = findElementBoundary(m_data, target, limit, closeEnd, nextStart);
        }
        bool nextIsElement = false; // next holds a '{'
        if (found) {
            cut = closeEnd;
            next = nextStart;
            nextIsElement = true;
        } else if (stopCut != SIZE_MAX) {
            cut = stopCut;
            next = stopAt;
            toStop = true;
            touched = true; // (finding stopCut read the bytes before stopAt)
        }

        bool arrayEnded = false;
        size_t arrayEndAt = 0;
        Result failure;
        if (!parseChunk(pos, cut, std::min(loaded, cut - pos), failure, arrayEnded, arrayEndAt)) {
            // Where does the element around the cut really end? The validating scanner knows.
            touched = true;
            nextIsElement = false;
            size_t p = pos;
            bool resolved = false;
            while (!resolved) {
                p = skipJsonSpace(m_data, p, m_size);
                const ScanResult r = scanJsonValue(m_data, p, m_size);
                if (!r.ok) {
                    result.stop = Stop::Error;
                    result.errorOffset = r.end;
                    result.errorMessage = r.end >= m_size ? std::string("unexpected end of data (truncated file?)")
                                                          : std::string(r.message);
                    return result;
                }
                const size_t q = skipJsonSpace(m_data, r.end, m_size);
                if (q >= m_size) {
                    result.stop = Stop::Error;
                    result.errorOffset = m_size;
                    result.errorMessage = "unexpected end of data: the events array is not closed (truncated file?)";
                    return result;
                }
                if (m_data[q] == ']') {
                    cut = r.end;
                    next = q;
                    toStop = false;
                    resolved = true;
                } else if (m_data[q] != ',') {
                    result.stop = Stop::Error;
                    result.errorOffset = q;
                    result.errorMessage = "expected ',' or ']' after an event";
                    return result;
                } else if (r.end >= cut) {
                    if (toStop && r.end > stopCut) {
                        // The planned stop was inside an element: this part runs on to the end.
                        stopAt = SIZE_MAX;
                        stopCut = SIZE_MAX;
                        toStop = false;
                    }
                    cut = r.end;
                    next = skipJsonSpace(m_data, q + 1, m_size);
                    resolved = true;
                } else {
                    p = q + 1;
                }
            }
            arrayEnded = false;
            // (Read again: the first parse wrote its closing bracket and padding into the buffer, and
            // a UTF-8 repair it made must be made and counted again.)
            if (!parseChunk(pos, cut, 0, failure, arrayEnded, arrayEndAt)) {
                result.stop = Stop::Error;
                result.errorOffset = failure.errorOffset;
                result.errorMessage = failure.errorMessage;
                return result;
            }
        }
        if (m_options.mapping && touched)
            m_options.mapping->release(pos, next - pos);
        if (onChunk && !onChunk(next - pos)) {
            result.stop = Stop::Cancelled;
            return result;
        }
        if (arrayEnded) {
            result.stop = Stop::ArrayEnd;
            result.arrayEnd = arrayEndAt;
            return result;
        }
        if (toStop) {
            result.stop = Stop::ReachedStop;
            return result;
        }
        if (cut >= m_size) {
            result.stop = Stop::Error;
            result.errorOffset = m_size;
            result.errorMessage = "unexpected end of data: the events array is not closed (truncated file?)";
            return result;
        }
        pos = next;
        atElement = nextIsElement;
    }
}

bool TraceIngest::parseChunk(size_t begin, size_t cut, size_t preloaded, Result& failure, bool& arrayEnded,
                             size_t& arrayEndAt)
{
    const size_t len = cut - begin;
    const size_t needed = len + 2 + simdjson::SIMDJSON_PADDING;
    if (m_buffer.size() < needed)
        m_buffer.resize(std::max(needed, std::min(m_options.chunkBytes + (m_options.chunkBytes >> 2), m_size) + 2 +
                                             simdjson::SIMDJSON_PADDING));
    char* buf = m_buffer.data();
    buf[0] = '[';
    readBytes(m_data, m_options.fd, begin + preloaded, len - preloaded, buf + 1 + preloaded);
    buf[len + 1] = ']';
    std::memset(buf + len + 2, 0, simdjson::SIMDJSON_PADDING);
    const auto fileOffset = [&](const char* p) -> size_t {
        const size_t inBuf = static_cast<size_t>(p - buf);
        return inBuf == 0 ? begin : std::min(begin + inBuf - 1, m_size);
    };
    const auto fail = [&](simdjson::error_code e, const char* where) {
        failure.stop = Stop::Error;
        failure.errorOffset = where ? fileOffset(where) : begin;
        failure.errorMessage = simdjson::error_message(e);
        return false;
    };

    // Snapshot for rollback: a chunk that fails half way must leave no records behind.
    const SliceStream::Position slices0 = slices.end();
    const FlowStream::Position flows0 = flows.end();
    const uint64_t flowStarts0 = flowStarts;
    const size_t counters0 = counters.size(), marks0 = marks.size(), metas0 = metas.size();
    const uint64_t elements0 = elements, traceEvents0 = traceEvents;
    IssueTally* const tallies[] = {&missingTs,        &missingPh, &unknownPh, &notObject,
                                   &negativeDuration, &badNumber, &badFlow,   &invalidUtf8};
    std::vector<IssueTally> tallies0;
    for (const IssueTally* t : tallies)
        tallies0.push_back(*t);
    const auto rollback = [&]() {
        slices.forEachSince(slices0, [&](const SliceRecord& r) { --sliceCount[r.track]; });
        slices.rollback(slices0);
        flows.rollback(flows0);
        flowStarts = flowStarts0;
        counters.truncate(counters0);
        marks.resize(marks0);
        metas.resize(metas0);
        elements = elements0;
        traceEvents = traceEvents0;
        for (size_t i = 0; i < tallies0.size(); ++i)
            *tallies[i] = tallies0[i];
        m_lastTrack = UINT32_MAX;
    };

    // A parse error inside the chunk: nothing of it is kept; the error points where the parser stood.
    od::document doc;
    const auto abandon = [&](simdjson::error_code e, const char* fallback) {
        const char* loc = nullptr;
        if (doc.current_location().get(loc) || !loc)
            loc = fallback;
        rollback();
        return fail(e, loc);
    };

    auto& parser = *static_cast<od::parser*>(m_parser);
    // Sized once for the whole buffer: iterate() alone would size the parser to the chunk, and again
    // at every longer chunk, each time with fresh index pages (~3,000 4 KB page faults a 1 GB load).
    simdjson::error_code err = simdjson::SUCCESS;
    if (parser.capacity() < m_buffer.size())
        err = parser.allocate(m_buffer.size());
    if (!err)
        err = parser.iterate(buf, len + 2, m_buffer.size()).get(doc);
    if (err == simdjson::UTF8_ERROR) {
        size_t firstBad = 0;
        const size_t replaced = repairUtf8(buf + 1, len, firstBad);
        if (replaced > 0)
            invalidUtf8.add(begin + firstBad,
                            std::to_string(replaced) + " byte(s) of invalid UTF-8 in this part replaced by '?'");
        err = parser.iterate(buf, len + 2, m_buffer.size()).get(doc);
    }
    od::array array;
    if (err || (err = doc.get_array().get(array))) {
        rollback(); // (the UTF-8 repair may have counted something)
        return fail(err, nullptr);
    }

    EventFields f;
    // (value_unsafe() after the error check: the element and fields are used in place, not copied
    // out of their simdjson_result — the copies stalled on store forwarding.)
    for (auto item : array) {
        if ((err = item.error()))
            return abandon(err, nullptr);
        od::value& element = item.value_unsafe();
        ++elements;
        const char* objStart = element.raw_json_token().data();
        const size_t objOffset = fileOffset(objStart);
        od::json_type type;
        if ((err = element.type().get(type))) {
            return abandon(err, objStart);
        }
        if (type != od::json_type::object) {
            notObject.add(objOffset, "an element of the events array is not an object");
            continue;
        }
        od::object object;
        if ((err = element.get_object().get(object))) {
            return abandon(err, objStart);
        }
        f.reset();
        for (auto fieldResult : object) {
            if ((err = fieldResult.error()))
                return abandon(err, objStart);
            od::field& field = fieldResult.value_unsafe();
            const char* k = field.key().raw();
            od::value& v = field.value();
            switch (k[0]) {
            case 'p':
                if (keyIs(k, "ph"))
                    readToken(v, f.ph);
                else if (keyIs(k, "pid"))
                    readToken(v, f.pid);
                break;
            case 'n':
                if (keyIs(k, "name"))
                    readToken(v, f.name);
                break;
            case 't':
                if (keyIs(k, "ts"))
                    readToken(v, f.ts);
                else if (keyIs(k, "tid"))
                    readToken(v, f.tid);
                break;
            case 'd':
                if (keyIs(k, "dur"))
                    readToken(v, f.dur);
                break;
            case 'c':
                if (keyIs(k, "cat"))
                    readToken(v, f.cat);
                break;
            case 'i':
                if (keyIs(k, "id"))
                    readToken(v, f.id);
                break;
            case 'b':
                if (keyIs(k, "bp"))
                    readToken(v, f.bp);
                break;
            case 'a':
                if (keyIs(k, "args")) {
                    od::json_type argsType;
                    if (v.type().get(argsType) || argsType != od::json_type::object)
                        break;
                    f.hasArgs = true;
                    od::object args;
                    if ((err = v.get_object().get(args))) {
                        return abandon(err, objStart);
                    }
                    for (auto argResult : args) {
                        if ((err = argResult.error()))
                            return abandon(err, objStart);
                        od::field& arg = argResult.value_unsafe();
                        f.argsNonEmpty = true;
                        const char* ak = arg.key().raw();
                        od::value& av = arg.value();
                        // Only the keys we read get a token; any other value is only peeked at (a
                        // number may be a counter's sample: kept as its raw token).
                        Token* wanted = nullptr;
                        switch (ak[0]) {
                        case 'T':
                            if (keyIs(ak, "Task Type"))
                                wanted = &f.taskType;
                            break;
                        case 'c':
                            if (keyIs(ak, "connection_id") || keyIs(ak, "correlation"))
                                wanted = &f.corr;
                            break;
                        case 's':
                            if (keyIs(ak, "stream"))
                                wanted = &f.stream;
                            else if (keyIs(ak, "sort_index"))
                                wanted = &f.sortIndex;
                            break;
                        case 'd':
                            if (keyIs(ak, "device"))
                                wanted = &f.device;
                            break;
                        case 'n':
                            if (keyIs(ak, "name"))
                                wanted = &f.argName;
                            break;
                        case 'l':
                            if (keyIs(ak, "labels"))
                                wanted = &f.labels;
                            break;
                        default: break;
                        }
                        if (wanted)
                            readToken(av, *wanted);
                        // Numbers matter only to counter samples (ph C, or ph not seen yet).
                        if (f.numberCount < 16 && (!f.ph.present || textIs(f.ph.text, "C")) &&
                            !(wanted && wanted->isString)) {
                            const std::string_view t = wanted ? wanted->text : trimToken(av.raw_json_token());
                            const char c0 = t.empty() ? 0 : t[0];
                            if (c0 == '-' || (c0 >= '0' && c0 <= '9'))
                                f.numbers[f.numberCount++] = {ak, t.data(), t.size()};
                        }
                    }
                }
                break;
            default: break;
            }
        }
        if (err) {
            return abandon(err, objStart);
        }

        // ---- one event, all fields known ----
        if (!f.ph.present || f.ph.text.empty()) {
            missingPh.add(objOffset, "an event without \"ph\" was skipped");
            continue;
        }
        const char ph = f.ph.text.size() == 1 ? f.ph.text[0] : '?';
        if (ph == 'M') {
            ++traceEvents;
            const std::string_view what = f.name.text;
            MetaRecord m;
            m.track = trackOf(f.pid.text, f.pid.isString, f.tid.text, f.tid.isString);
            if (textIs(what, "process_name") || textIs(what, "thread_name") || textIs(what, "process_labels")) {
                const Token& text = textIs(what, "process_labels") ? f.labels : f.argName;
                if (!text.present)
                    continue;
                m.kind = textIs(what, "process_name")  ? MetaRecord::ProcessName
                         : textIs(what, "thread_name") ? MetaRecord::ThreadName
                                                       : MetaRecord::ProcessLabels;
                m.text = internRaw(text.text);
                metas.push_back(m);
            } else if (textIs(what, "process_sort_index") || textIs(what, "thread_sort_index")) {
                uint64_t bits = 0;
                bool big = false;
                if (!f.sortIndex.present || !parseJsonInteger(f.sortIndex.text, bits, big))
                    continue;
                m.kind =
                    textIs(what, "process_sort_index") ? MetaRecord::ProcessSortIndex : MetaRecord::ThreadSortIndex;
                m.number = big ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(bits);
                metas.push_back(m);
            }
            continue;
        }
        const bool known = ph == 'X' || ph == 'B' || ph == 'E' || ph == 'i' || ph == 'I' || ph == 'C' || ph == 's' ||
                           ph == 't' || ph == 'f' || ph == 'b' || ph == 'e' || ph == 'n';
        if (!known) {
            unknownPh.add(objOffset, "unsupported phase \"" + std::string(f.ph.text.substr(0, 8)) + "\" (" +
                                         std::string(f.name.text.substr(0, 60)) + ")");
            continue;
        }
        if (!f.ts.present) {
            missingTs.add(objOffset, "a \"" + std::string(1, ph) + "\" event without \"ts\" (" +
                                         std::string(f.name.text.substr(0, 60)) + ")");
            continue;
        }
        int64_t ts = 0;
        if (!parseScaledDecimal(f.ts.text, m_options.tsScaleDigits, ts)) {
            badNumber.add(objOffset, "unreadable \"ts\" " + std::string(f.ts.text.substr(0, 40)));
            continue;
        }
        ++traceEvents;
        maxEndNs = std::max(maxEndNs, ts);
        const uint64_t argsOffset = f.argsNonEmpty ? objOffset + 1 : 0;
        switch (ph) {
        case 'X':
        case 'i':
        case 'I':
        case 'n': {
            SliceRecord s{};
            s.startNs = ts;
            s.corr = SliceRecord::kCorrNone;
            if (ph == 'X') {
                if (f.dur.present && !parseScaledDecimal(f.dur.text, m_options.tsScaleDigits, s.durationNs)) {
                    badNumber.add(objOffset, "unreadable \"dur\" " + std::string(f.dur.text.substr(0, 40)));
                    s.durationNs = 0;
                }
                if (s.durationNs < 0) {
                    negativeDuration.add(objOffset, "negative duration " + std::string(f.dur.text.substr(0, 30)) +
                                                        " of \"" + std::string(f.name.text.substr(0, 60)) +
                                                        "\" clamped to 0");
                    s.durationNs = 0;
                }
            }
            if (ts > 0 && s.durationNs > std::numeric_limits<int64_t>::max() - ts)
                s.durationNs = std::numeric_limits<int64_t>::max() - ts; // keeps start + duration representable
            maxEndNs = std::max(maxEndNs, ts + s.durationNs);
            s.track = trackOf(f.pid.text, f.pid.isString, f.tid.text, f.tid.isString);
            s.name = internName(f.name.text);
            const CatClass cat = ph == 'X' ? classifyCat(f.cat.text, f.name.text) : CatInstant;
            const TaskClass task = f.taskType.present ? classifyTask(f.taskType.text, f.name.text) : TaskNone;
            s.hint = makeHint(cat, task);
            if (f.corr.present) {
                uint64_t bits = 0;
                bool big = false;
                if (parseJsonInteger(f.corr.text, bits, big) && !big)
                    s.corr = static_cast<int64_t>(bits);
            }
            s.offset = argsOffset;
            slices.push(s);
            ++sliceCount[s.track];
            if (isGpuCat(cat) && !trackGpu[s.track].known) {
                TrackGpu& g = trackGpu[s.track];
                uint64_t bits = 0;
                bool big = false;
                g.known = true;
                if (f.device.present && parseJsonInteger(f.device.text, bits, big) && !big)
                    g.device = static_cast<int64_t>(bits);
                if (f.stream.present && parseJsonInteger(f.stream.text, bits, big) && !big)
                    g.stream = static_cast<int64_t>(bits);
            }
            break;
        }
        case 'B':
        case 'E':
        case 'b':
        case 'e': {
            MarkRecord m;
            m.tsNs = ts;
            m.offset = argsOffset;
            m.track = trackOf(f.pid.text, f.pid.isString, f.tid.text, f.tid.isString);
            m.name = f.name.present ? internName(f.name.text) : 0;
            m.cat = f.cat.present ? internName(f.cat.text) : 0;
            m.id = internId(f.id.text);
            m.ph = ph;
            m.hint = makeHint(classifyCat(f.cat.text, f.name.text),
                              f.taskType.present ? classifyTask(f.taskType.text, f.name.text) : TaskNone);
            marks.push_back(m);
            break;
        }
        case 's':
        case 't':
        case 'f': {
            if (!f.id.present) {
                badFlow.add(objOffset, "a flow event without \"id\"");
                break;
            }
            const RawId id = internId(f.id.text);
            const uint32_t track = trackOf(f.pid.text, f.pid.isString, f.tid.text, f.tid.isString);
            const uint32_t category = f.cat.present ? internName(f.cat.text) : 0;
            if (category >= m_flowCategorySlot.size())
                m_flowCategorySlot.resize(std::max<size_t>(category + 1, strings.size()), UINT32_MAX);
            uint32_t& slot = m_flowCategorySlot[category];
            if (slot == UINT32_MAX) {
                slot = static_cast<uint32_t>(flowCategories.size());
                flowCategories.push_back(category);
            }
            flows.push({ts, id.value, track, slot, id.kind, ph, f.bp.present && textIs(f.bp.text, "e")});
            flowStarts += ph == 's' ? 1 : 0;
            break;
        }
        case 'C': {
            const RawId pid = internId(f.pid.text);
            const uint32_t name = internName(f.name.text);
            // One sample per event: its "value", or its only number; several numbers → one series each.
            int valueIndex = -1;
            for (int i = 0; i < f.numberCount; ++i)
                if (keyIs(f.numbers[i].rawKey, "value"))
                    valueIndex = i;
            if (valueIndex < 0 && f.numberCount == 1)
                valueIndex = 0;
            const auto addSample = [&](int i, uint32_t key) {
                double value = 0;
                const std::string_view tok(f.numbers[i].token, f.numbers[i].size);
                std::from_chars(tok.data(), tok.data() + tok.size(), value);
                counters.push_back({ts, value, argsOffset, seriesId({pid, name, key})});
            };
            if (valueIndex >= 0) {
                addSample(valueIndex, 0);
            } else {
                for (int i = 0; i < f.numberCount; ++i)
                    addSample(i, internRaw(rawKey(f.numbers[i].rawKey)));
            }
            break;
        }
        default: break;
        }
    }
    if (err) {
        return abandon(err, nullptr);
    }
    // Anything after the array means the events array closed inside this chunk (the bracket we
    // appended is then the trailing token): find its own bracket, the last ']' before that token.
    const char* loc = nullptr;
    arrayEnded = !doc.current_location().get(loc) && loc;
    if (arrayEnded) {
        const char* p = loc;
        while (p > buf && *(p - 1) != ']')
            --p;
        arrayEndAt = fileOffset(p > buf ? p - 1 : buf);
    }
    return true;
}

} // namespace dspark::trace
