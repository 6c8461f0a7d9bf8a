#pragma once

// The simdjson On-Demand baselines of bench_json_load: read every event of a trace_view-shaped file and
// touch ph, ts, dur, name, building nothing. Shared by bench_json_load (compiled with the project's
// flags, so On-Demand's stage 2 is simdjson's builtin kernel for those flags: "fallback" on x86-64
// without -mavx2) and bench_json_touch_* (the same code compiled for a SIMD builtin kernel).
// Each function returns "seconds detail" (seconds < 0 on failure).
#include "io/trace/TraceIngest.h"
#include "util/MappedFile.h"

#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace dspark::bench {

inline double touchClock()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

#define DSPARK_BENCH_STR2(x) #x
#define DSPARK_BENCH_STR(x) DSPARK_BENCH_STR2(x)

// "fallback"/"haswell"/"icelake": the kernel of On-Demand's stage 2 compiled into this translation unit
// (SIMDJSON_BUILTIN_IMPLEMENTATION, from the compiler's target flags), then stage 1's, chosen at run time
// by libsimdjson. (simdjson::builtin_implementation()->name() would not do: it is compiled into
// libsimdjson and names the library's own builtin, "fallback" in Debian's generic x86-64 build.)
inline std::string touchImplementations()
{
    return std::string("stage2=") + DSPARK_BENCH_STR(SIMDJSON_BUILTIN_IMPLEMENTATION) +
           " stage1=" + simdjson::get_active_implementation()->name();
}

struct Touch {
    uint64_t count = 0, checksum = 0;
    double durations = 0;
};

// Reads ph, ts, dur, name of one event: get_string / get_double as a program would read them, or
// (`raw`) only their raw tokens, the cheapest possible look. Returns false on a parse error.
inline bool touchEvent(simdjson::ondemand::value item, bool raw, Touch& t)
{
    using namespace simdjson;
    ondemand::object event;
    if (item.get_object().get(event))
        return false;
    for (auto fieldResult : event) {
        ondemand::field field;
        if (std::move(fieldResult).get(field))
            return false;
        const char* k = field.key().raw();
        const bool isPh = std::memcmp(k, "ph\"", 3) == 0, isName = std::memcmp(k, "name\"", 5) == 0;
        const bool isTs = std::memcmp(k, "ts\"", 3) == 0, isDur = std::memcmp(k, "dur\"", 4) == 0;
        std::string_view text;
        if (raw) {
            if (isPh || isName || isTs || isDur) {
                text = field.value().raw_json_token();
                t.checksum += text.size() + static_cast<unsigned char>(text.empty() ? 0 : text[0]);
            }
        } else if (isPh || isName) {
            if (!field.value().get_string().get(text))
                t.checksum += text.size() + static_cast<unsigned char>(text.empty() ? 0 : text[0]);
        } else if (isTs) {
            ondemand::json_type type;
            if (!field.value().type().get(type) && type == ondemand::json_type::string) {
                if (!field.value().get_string().get(text))
                    t.checksum += text.size();
            } else {
                double v = 0;
                if (!field.value().get_double().get(v))
                    t.checksum += static_cast<uint64_t>(v) & 0xff;
            }
        } else if (isDur) {
            double v = 0;
            if (!field.value().get_double().get(v))
                t.durations += v;
        }
    }
    ++t.count;
    return true;
}

inline std::string touchResult(double seconds, const Touch& t)
{
    char line[256];
    std::snprintf(line, sizeof line, "%.3f events=%llu checksum=%llu dur_sum=%.0f", seconds,
                  static_cast<unsigned long long>(t.count), static_cast<unsigned long long>(t.checksum), t.durations);
    return line;
}

// The textbook use: load the file into a padded string, iterate the whole document.
inline std::string simdjsonTouch(const std::string& path, bool raw)
{
    using namespace simdjson;
    const double t0 = touchClock();
    padded_string json;
    if (padded_string::load(path).get(json))
        return "-1 load failed";
    ondemand::parser parser;
    ondemand::document doc;
    if (parser.iterate(json).get(doc))
        return "-1 iterate failed";
    ondemand::array events;
    if (doc.get_array().get(events))
        return "-1 not an array";
    Touch t;
    for (auto item : events) {
        ondemand::value v;
        if (item.get(v) || !touchEvent(v, raw, t))
            return "-1 element error";
    }
    return touchResult(touchClock() - t0, t);
}

// The loader's own technique without building anything, on one thread: 4 MB chunks read with pread()
// into one reused padded buffer, each cut between events where the bytes read show the boundary (as
// the loader cuts; the file is mapped only to fall back on), each parsed as "[" + events + "]". (No
// recovery for cuts inside strings: the generated file has none.)
inline std::string simdjsonChunkedTouch(const std::string& path)
{
    using namespace simdjson;
    const double t0 = touchClock();
    std::string error;
    const dspark::MappedFile map = dspark::MappedFile::open(path, error);
    if (!map.isOpen())
        return "-1 " + error;
    const char* data = map.data();
    const size_t size = map.size();
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return "-1 cannot open";
    const size_t chunk = size_t(4) << 20;
    const size_t room = chunk + chunk / 4;
    std::vector<char> buffer(room + 2 + SIMDJSON_PADDING);
    ondemand::parser parser;
    size_t pos = std::string_view(data, size).find('[') + 1;
    const size_t end = std::string_view(data, size).rfind(']');
    Touch t;
    while (pos < end) {
        size_t cut = end, next = end, closeEnd = 0, nextStart = 0, loaded = 0;
        if (dspark::trace::loadToElementBoundary(data, fd, pos, pos + chunk, end, buffer.data() + 1, room, loaded,
                                                 closeEnd, nextStart) ||
            (pos + chunk < end && dspark::trace::findElementBoundary(data, pos + chunk, end, closeEnd, nextStart))) {
            cut = closeEnd;
            next = nextStart;
        }
        const size_t len = cut - pos;
        if (buffer.size() < len + 2 + SIMDJSON_PADDING)
            buffer.resize(len + 2 + SIMDJSON_PADDING);
        buffer[0] = '[';
        loaded = std::min(loaded, len);
        dspark::trace::readBytes(data, fd, pos + loaded, len - loaded, buffer.data() + 1 + loaded);
        buffer[len + 1] = ']';
        std::memset(buffer.data() + len + 2, 0, SIMDJSON_PADDING);
        ondemand::document doc;
        ondemand::array events;
        // Sized once, to the buffer (as the loader does): iterate() alone re-sizes at each longer chunk.
        if ((parser.capacity() < buffer.size() && parser.allocate(buffer.size())) ||
            parser.iterate(buffer.data(), len + 2, buffer.size()).get(doc) || doc.get_array().get(events)) {
            ::close(fd);
            return "-1 chunk error";
        }
        for (auto item : events) {
            ondemand::value v;
            if (item.get(v) || !touchEvent(v, false, t)) {
                ::close(fd);
                return "-1 element error";
            }
        }
        pos = next;
    }
    ::close(fd);
    return touchResult(touchClock() - t0, t);
}

} // namespace dspark::bench
