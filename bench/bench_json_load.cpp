// JSON loading speed and memory, measured in the same run on the same file:
//   1. simdjson On-Demand touching ph, ts, dur, name of every event, building nothing, three ways:
//      the textbook whole-document parse (get_string / get_double), the same with raw tokens only,
//      and the loader's own technique (mapped file, 4 MB chunks through one reused buffer) on one
//      thread: the practical limits of the parser;
//   2. our loader end to end (scan, parse, lanes, flows, finalize: a ready, browsable profile);
//   3. Python's json.load of the same file.
// Each runs in its own child process, so each peak RSS and CPU time is its own. Without --file, a
// trace_view-shaped file of --size-mb MB (default 1024) is generated in /tmp and deleted afterwards
// (--keep keeps it).
//
//   bench_json_load [--file PATH] [--size-mb N] [--runs N] [--keep] [--no-python] [--chunk-kb N] [--one-thread]
#include "TraceViewGenerator.h"

#include "io/ProfileLoader.h"
#include "io/trace/TraceIngest.h"
#include "io/trace/TraceLoadTuning.h"
#include "util/MappedFile.h"

#include <simdjson.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Measure {
    double seconds = -1;
    double cpuSeconds = 0; // user + system of the child (all its threads)
    long peakRssKb = 0;
    std::string detail;
};

// Waits for a child that prints "seconds detail" on `fd`; its peak RSS comes from wait4.
Measure collect(pid_t pid, int fd)
{
    std::string text;
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        text.append(buf, static_cast<size_t>(n));
    close(fd);
    int status = 0;
    struct rusage usage {};
    wait4(pid, &status, 0, &usage);
    Measure m;
    m.peakRssKb = usage.ru_maxrss;
    m.cpuSeconds =
        usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    char* end = nullptr;
    m.seconds = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        m.seconds = -1;
    m.detail = end ? std::string(end) : std::string();
    return m;
}

// Runs `work` in a child process; it returns "seconds detail".
Measure inChild(const std::function<std::string()>& work)
{
    int fds[2];
    if (pipe(fds) != 0)
        return {};
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        const std::string line = work();
        if (write(fds[1], line.data(), line.size()) < 0)
            _exit(2);
        close(fds[1]);
        _exit(0);
    }
    close(fds[1]);
    return collect(pid, fds[0]);
}

struct Touch {
    uint64_t count = 0, checksum = 0;
    double durations = 0;
};

// Reads ph, ts, dur, name of one event: get_string / get_double as a program would read them, or
// (`raw`) only their raw tokens, the cheapest possible look. Returns false on a parse error.
bool touchEvent(simdjson::ondemand::value item, bool raw, Touch& t)
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

std::string touchResult(double seconds, const Touch& t)
{
    char line[256];
    std::snprintf(line, sizeof line, "%.3f events=%llu checksum=%llu dur_sum=%.0f", seconds,
                  static_cast<unsigned long long>(t.count), static_cast<unsigned long long>(t.checksum), t.durations);
    return line;
}

// The textbook use: load the file into a padded string, iterate the whole document.
std::string simdjsonTouch(const std::string& path, bool raw)
{
    using namespace simdjson;
    const double t0 = now();
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
    return touchResult(now() - t0, t);
}

// The loader's own technique without building anything, on one thread: the file mapped, 4 MB chunks
// cut between events copied into one reused padded buffer, each parsed as "[" + events + "]". (No
// recovery for cuts inside strings: the generated file has none.)
std::string simdjsonChunkedTouch(const std::string& path)
{
    using namespace simdjson;
    const double t0 = now();
    std::string error;
    const dspark::MappedFile map = dspark::MappedFile::open(path, error);
    if (!map.isOpen())
        return "-1 " + error;
    const char* data = map.data();
    const size_t size = map.size();
    const size_t chunk = size_t(4) << 20;
    std::vector<char> buffer(chunk * 2 + SIMDJSON_PADDING);
    ondemand::parser parser;
    size_t pos = std::string_view(data, size).find('[') + 1;
    const size_t end = std::string_view(data, size).rfind(']');
    Touch t;
    while (pos < end) {
        size_t cut = end, next = end, closeEnd = 0, nextStart = 0;
        if (pos + chunk < end && dspark::trace::findElementBoundary(data, pos + chunk, end, closeEnd, nextStart)) {
            cut = closeEnd;
            next = nextStart;
        }
        const size_t len = cut - pos;
        if (buffer.size() < len + 2 + SIMDJSON_PADDING)
            buffer.resize(len + 2 + SIMDJSON_PADDING);
        buffer[0] = '[';
        std::memcpy(buffer.data() + 1, data + pos, len);
        buffer[len + 1] = ']';
        std::memset(buffer.data() + len + 2, 0, SIMDJSON_PADDING);
        ondemand::document doc;
        ondemand::array events;
        if (parser.iterate(buffer.data(), len + 2, buffer.size()).get(doc) || doc.get_array().get(events))
            return "-1 chunk error";
        for (auto item : events) {
            ondemand::value v;
            if (item.get(v) || !touchEvent(v, false, t))
                return "-1 element error";
        }
        map.release(pos, next - pos);
        pos = next;
    }
    return touchResult(now() - t0, t);
}

std::string ourLoader(const std::string& path)
{
    const double t0 = now();
    const dspark::LoadOutcome out = dspark::loadProfile(path);
    const double t1 = now();
    if (!out.profile)
        return "-1 " + out.error.toStdString();
    const dspark::ProfileStats s = out.profile->stats();
    char line[512];
    std::snprintf(line, sizeof line,
                  "%.3f lanes=%zu events=%llu device_tasks=%llu kernels=%llu host=%llu flows=%llu counters=%llu "
                  "model_bytes=%zu warnings=%lld",
                  t1 - t0, out.profile->lanes.size(), static_cast<unsigned long long>(s.events),
                  static_cast<unsigned long long>(s.deviceTasks), static_cast<unsigned long long>(s.namedKernels),
                  static_cast<unsigned long long>(s.hostEvents), static_cast<unsigned long long>(s.flows),
                  static_cast<unsigned long long>(s.counters), out.profile->bytesUsed(),
                  static_cast<long long>(out.profile->warnings.size()));
    return line;
}

// Python's json.load of the same file, timed inside the interpreter (startup excluded).
Measure python(const std::string& path)
{
    return inChild([&]() -> std::string {
        int fds[2];
        if (pipe(fds) != 0)
            return "-1";
        const pid_t pid = fork();
        if (pid == 0) {
            dup2(fds[1], 1);
            execlp("python3", "python3", "-c",
                   "import json,sys,time\nt=time.perf_counter()\nd=json.load(open(sys.argv[1],'rb'))\n"
                   "print('%.3f events=%d' % (time.perf_counter()-t, len(d)))",
                   path.c_str(), static_cast<char*>(nullptr));
            _exit(127);
        }
        close(fds[1]);
        // wait4 in this child folds the interpreter's peak RSS into this child's, which inChild reports.
        const Measure m = collect(pid, fds[0]);
        char line[512];
        std::snprintf(line, sizeof line, "%.3f%s", m.seconds, m.detail.c_str());
        return line;
    });
}

std::string loadAverage()
{
    std::ifstream in("/proc/loadavg");
    std::string line;
    std::getline(in, line);
    return line + "\n";
}

Measure best(int runs, const std::function<Measure()>& once)
{
    Measure b;
    for (int i = 0; i < runs; ++i) {
        const Measure m = once();
        if (m.seconds >= 0 && (b.seconds < 0 || m.seconds < b.seconds))
            b = m;
        else if (b.seconds < 0)
            b = m;
    }
    return b;
}

} // namespace

int main(int argc, char** argv)
{
    std::string file;
    uint64_t sizeMb = 1024;
    int runs = 1;
    bool keep = false, withPython = true;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--file" && i + 1 < argc)
            file = argv[++i];
        else if (a == "--size-mb" && i + 1 < argc)
            sizeMb = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--keep")
            keep = true;
        else if (a == "--no-python")
            withPython = false;
        else if (a == "--chunk-kb" && i + 1 < argc)
            dspark::trace::loadTuning().chunkBytes = std::strtoull(argv[++i], nullptr, 10) << 10;
        else if (a == "--one-thread")
            dspark::trace::loadTuning().twoThreads = false;
        else {
            std::fprintf(stderr,
                         "usage: %s [--file PATH] [--size-mb N] [--runs N] [--keep] [--no-python] [--chunk-kb N] "
                         "[--one-thread]\n",
                         argv[0]);
            return 2;
        }
    }
    bool generated = false;
    if (file.empty()) {
        file = "/tmp/dspark_bench_trace_view/trace_view.json";
        std::filesystem::create_directories(std::filesystem::path(file).parent_path());
        const double t0 = now();
        const dspark::bench::TraceViewCounts c = dspark::bench::TraceViewGenerator::write(file, sizeMb << 20);
        if (c.bytes == 0) {
            std::fprintf(stderr, "cannot write %s\n", file.c_str());
            return 1;
        }
        generated = true;
        std::printf("generated %s: %.1f MB in %.1f s: %llu X events (%llu device tasks, %llu host), %llu counter "
                    "samples, %llu flow starts, %llu flow finishes\n",
                    file.c_str(), c.bytes / 1048576.0, now() - t0, static_cast<unsigned long long>(c.completeEvents),
                    static_cast<unsigned long long>(c.deviceTasks), static_cast<unsigned long long>(c.hostEvents),
                    static_cast<unsigned long long>(c.counterSamples), static_cast<unsigned long long>(c.flowStarts),
                    static_cast<unsigned long long>(c.flowFinishes));
    }
    const double fileMb = static_cast<double>(std::filesystem::file_size(file)) / 1048576.0;
    std::printf("file: %s (%.1f MB), %d run(s) each, best time shown; cores: %u\n", file.c_str(), fileMb, runs,
                std::thread::hardware_concurrency());
    std::fflush(stdout);

    const Measure touch = best(runs, [&] { return inChild([&] { return simdjsonTouch(file, false); }); });
    std::printf("simdjson On-Demand touch (ph/ts/dur/name): %8.3f s (cpu %.3f s)  peak RSS %7.1f MB  %s\n",
                touch.seconds, touch.cpuSeconds, touch.peakRssKb / 1024.0, touch.detail.c_str());
    std::fflush(stdout);
    const Measure touchRaw = best(runs, [&] { return inChild([&] { return simdjsonTouch(file, true); }); });
    std::printf("simdjson On-Demand touch, raw tokens:      %8.3f s (cpu %.3f s)  peak RSS %7.1f MB  %s\n",
                touchRaw.seconds, touchRaw.cpuSeconds, touchRaw.peakRssKb / 1024.0, touchRaw.detail.c_str());
    std::fflush(stdout);
    const Measure chunked = best(runs, [&] { return inChild([&] { return simdjsonChunkedTouch(file); }); });
    std::printf("simdjson On-Demand touch, 4 MB chunks:     %8.3f s (cpu %.3f s)  peak RSS %7.1f MB  %s\n",
                chunked.seconds, chunked.cpuSeconds, chunked.peakRssKb / 1024.0, chunked.detail.c_str());
    std::fflush(stdout);
    const Measure ours = best(runs, [&] { return inChild([&] { return ourLoader(file); }); });
    std::printf("dspark loader, end to end:                 %8.3f s (cpu %.3f s)  peak RSS %7.1f MB  %s\n",
                ours.seconds, ours.cpuSeconds, ours.peakRssKb / 1024.0, ours.detail.c_str());
    std::fflush(stdout);
    Measure py;
    if (withPython) {
        py = python(file);
        std::printf("python3 json.load:                         %8.3f s (cpu %.3f s)  peak RSS %7.1f MB  %s\n",
                    py.seconds, py.cpuSeconds, py.peakRssKb / 1024.0, py.detail.c_str());
    }
    std::printf("load average: %s", loadAverage().c_str());
    std::printf("ratios: loader / simdjson touch = %.2f (target <= 1.5; cpu time %.2f); loader / raw-token touch = "
                "%.2f (cpu %.2f); loader / chunked touch = %.2f (cpu %.2f)",
                ours.seconds / touch.seconds, ours.cpuSeconds / touch.cpuSeconds, ours.seconds / touchRaw.seconds,
                ours.cpuSeconds / touchRaw.cpuSeconds, ours.seconds / chunked.seconds,
                ours.cpuSeconds / chunked.cpuSeconds);
    if (withPython && py.seconds > 0)
        std::printf("; python / loader = %.1f (target >= 10)", py.seconds / ours.seconds);
    std::printf("; loader peak RSS / file size = %.2f (target <= 1.5)", ours.peakRssKb / 1024.0 / fileMb);
    if (withPython && py.seconds > 0)
        std::printf("; python peak RSS / file size = %.2f", py.peakRssKb / 1024.0 / fileMb);
    std::printf("\n");
    if (generated && !keep) {
        std::error_code ec;
        std::filesystem::remove_all(std::filesystem::path(file).parent_path(), ec);
    }
    return ours.seconds < 0 ? 1 : 0;
}
