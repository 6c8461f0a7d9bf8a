// JSON loading speed and memory, measured in the same run on the same file:
//   1. simdjson On-Demand touching ph, ts, dur, name of every event, building nothing, three ways:
//      the textbook whole-document parse (get_string / get_double), the same with raw tokens only,
//      and the loader's own technique (mapped file, 4 MB chunks through one reused buffer) on one
//      thread: the practical limits of the parser. Compiled with the project's flags, On-Demand's
//      stage 2 is simdjson's "fallback" kernel, as in the loader; bench_json_touch_{haswell,icelake}
//      (built next to this one) repeat the baselines with a SIMD stage 2 where the CPU allows;
//   2. our loader end to end (scan, parse, lanes, flows, finalize: a ready, browsable profile);
//   3. Python's json.load of the same file (the whole python3 process under /usr/bin/time -v).
// Each runs in its own child process, so each peak RSS and CPU time is its own. The loader and the
// chunked baselines run in alternation, round by round, before the whole-document baselines; each
// round also runs the loader again right after itself, reported as "warm" (not the verdict). With
// several rounds, each round's own ratio (its loader over its fastest chunked baseline) is printed
// too, with their median: a supplement to the verdict, which compares the best times. Without --file, a
// trace_view-shaped file of --size-mb MB (default 1024) is generated in /tmp and deleted afterwards
// (--keep keeps it).
//
//   bench_json_load [--file PATH] [--size-mb N] [--runs N] [--keep] [--no-python] [--no-whole-document]
//                   [--loader-only] [--chunk-kb N] [--one-thread] [--min-part-mb N] [--max-parts N]
// --no-whole-document skips the three whole-document baselines (slow, ~2 GB each, never the fastest).
#include "SimdjsonTouch.h"
#include "TraceViewGenerator.h"

#include "io/ProfileLoader.h"
#include "io/trace/TraceIngest.h"
#include "util/MappedFile.h"
#include "util/Memory.h"

#include <simdjson.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

using namespace dspark::bench;

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
    while (!m.detail.empty() && (m.detail.back() == '\n' || m.detail.back() == ' ')) // a child's trailing newline
        m.detail.pop_back();
    return m;
}

// Forks; the child runs `child(fd)` with fd the write end of a pipe (and must exit); the parent
// collects what the child wrote ("seconds detail") and its peak RSS.
Measure runChild(const std::function<void(int)>& child)
{
    int fds[2];
    if (pipe(fds) != 0)
        return {};
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        child(fds[1]);
        _exit(127);
    }
    close(fds[1]);
    return collect(pid, fds[0]);
}

dspark::LoadOptions g_options; // the loader's, from the command line

// Runs `work` in a child process; it returns "seconds detail".
Measure inChild(const std::function<std::string()>& work)
{
    return runChild([&](int fd) {
        const std::string line = work();
        if (write(fd, line.data(), line.size()) < 0)
            _exit(2);
        close(fd);
        _exit(0);
    });
}

std::string ourLoader(const std::string& path)
{
    dspark::keepFreedMemoryForReuse(); // (in this child only, as the app does: not in the baselines')
    const double t0 = now();
    std::vector<std::pair<std::string, double>> phases; // phase text -> seconds since the load began
    const dspark::LoadProgress progress(
        [&](double, const QString& phase) {
            const std::string name = phase.section(QStringLiteral(" — "), 0, 0).toStdString();
            if (!phase.isEmpty() && (phases.empty() || phases.back().first != name))
                phases.emplace_back(name, now() - t0);
        },
        nullptr);
    const dspark::LoadOutcome out = dspark::loadProfile(path, progress, g_options);
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
    std::string result = line;
    for (size_t i = 0; i < phases.size(); ++i) {
        const double end = i + 1 < phases.size() ? phases[i + 1].second : t1 - t0;
        char part[160];
        std::snprintf(part, sizeof part, "%s%s %.2f", i ? ", " : "\n    phases (wall s): ", phases[i].first.c_str(),
                      end - phases[i].second);
        result += part;
    }
    return result;
}

// Runs `argv` with its stdout on a pipe; it prints "seconds detail"; its peak RSS comes from wait4.
Measure execChild(const std::vector<std::string>& argv)
{
    return runChild([&](int fd) {
        dup2(fd, 1);
        std::vector<char*> args;
        for (const std::string& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
    });
}

// The simdjson baseline compiled for a SIMD On-Demand kernel (bench_json_touch_<variant> next to this
// executable), when it was built and this CPU can run it; seconds < 0 otherwise.
Measure simdTouch(const std::string& variant, const std::string& mode, const std::string& path)
{
    const bool runs = variant == "haswell"
                          ? __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2")
                          : __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("avx512bw");
    const std::filesystem::path exe =
        std::filesystem::read_symlink("/proc/self/exe").parent_path() / ("bench_json_touch_" + variant);
    if (!runs || !std::filesystem::exists(exe)) {
        Measure m;
        m.detail = runs ? " (not built)" : " (CPU lacks the instructions)";
        return m;
    }
    return execChild({exe.string(), mode, path});
}

// Python's json.load of the same file, the whole process under /usr/bin/time -v (interpreter start and
// teardown included): elapsed wall time, user + system time and maximum resident set size as time reports.
Measure python(const std::string& path)
{
    Measure m;
    const std::string report = std::filesystem::path(path).parent_path() / "python_time.txt";
    const pid_t pid = fork();
    if (pid == 0) {
        execl("/usr/bin/time", "/usr/bin/time", "-v", "-o", report.c_str(), "python3", "-c",
              "import json,sys; json.load(open(sys.argv[1]))", path.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    std::ifstream in(report);
    std::string line;
    double user = 0, sys = 0;
    while (std::getline(in, line)) {
        const size_t colon = line.rfind(": ");
        if (colon == std::string::npos)
            continue;
        const std::string value = line.substr(colon + 2);
        if (line.find("Elapsed (wall clock) time") != std::string::npos) {
            // h:mm:ss or m:ss.ss
            double total = 0;
            size_t from = 0;
            for (size_t to; (to = value.find(':', from)) != std::string::npos; from = to + 1)
                total = total * 60 + std::strtod(value.c_str() + from, nullptr);
            m.seconds = total * 60 + std::strtod(value.c_str() + from, nullptr);
        } else if (line.find("User time (seconds)") != std::string::npos) {
            user = std::strtod(value.c_str(), nullptr);
        } else if (line.find("System time (seconds)") != std::string::npos) {
            sys = std::strtod(value.c_str(), nullptr);
        } else if (line.find("Maximum resident set size (kbytes)") != std::string::npos) {
            m.peakRssKb = std::strtol(value.c_str(), nullptr, 10);
        }
    }
    m.cpuSeconds = user + sys;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        m.seconds = -1;
    m.detail = " (/usr/bin/time -v python3 -c 'import json,sys; json.load(open(sys.argv[1]))' FILE)";
    std::remove(report.c_str());
    return m;
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
    bool keep = false, withPython = true, withBaselines = true, withWhole = true;
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
        else if (a == "--no-whole-document")
            withWhole = false;
        else if (a == "--no-python")
            withPython = false;
        else if (a == "--loader-only")
            withPython = withBaselines = false;
        else if (a == "--chunk-kb" && i + 1 < argc)
            g_options.trace.chunkBytes = std::strtoull(argv[++i], nullptr, 10) << 10;
        else if (a == "--one-thread")
            g_options.trace.twoThreads = false;
        else if (a == "--min-part-mb" && i + 1 < argc)
            g_options.trace.minPartBytes = std::strtoull(argv[++i], nullptr, 10) << 20;
        else if (a == "--max-parts" && i + 1 < argc)
            g_options.trace.maxParts = std::strtoull(argv[++i], nullptr, 10);
        else {
            std::fprintf(stderr,
                         "usage: %s [--file PATH] [--size-mb N] [--runs N] [--keep] [--no-python] "
                         "[--no-whole-document] [--loader-only] "
                         "[--chunk-kb N] [--one-thread] [--min-part-mb N] [--max-parts N]\n",
                         argv[0]);
            return 2;
        }
    }
    bool generated = false;
    if (file.empty()) {
        file = "/tmp/bench-json/trace_view.json";
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
    // On-Demand's stage 2 (the iteration, string and number parsing) is compiled into each translation
    // unit for the builtin kernel chosen from the compiler's target flags; stage 1 (structural indexing)
    // runs in libsimdjson with the kernel chosen at run time for this CPU. dspark_core is built with the
    // same flags as this file, so the loader's kernels are these too.
    std::printf("simdjson %d.%d.%d, this bench and the loader: %s; library's own builtin: %s\n",
                int(simdjson::SIMDJSON_VERSION_MAJOR), int(simdjson::SIMDJSON_VERSION_MINOR),
                int(simdjson::SIMDJSON_VERSION_REVISION), touchImplementations().c_str(),
                simdjson::builtin_implementation()->name().c_str());
    std::fflush(stdout);

    auto row = [](const char* what, const Measure& m) {
        if (m.seconds < 0 && m.peakRssKb == 0)
            std::printf("%-50s  skipped%s\n", what, m.detail.c_str());
        else
            std::printf("%-50s %8.3f s (cpu %7.3f s)  peak RSS %7.1f MB %s\n", what, m.seconds, m.cpuSeconds,
                        m.peakRssKb / 1024.0, m.detail.c_str());
        std::fflush(stdout);
    };
    // The loader and the chunked baselines it is judged against first, round by round (each round
    // runs each once; the best of each is kept), so that all of them see the machine in the same
    // state. The whole-document baselines after them: each churns ~2 GB of fresh memory, which the
    // host reclaims for a while afterwards, slowing whatever touches fresh memory next.
    // Each round also runs the loader a second time right after itself ("warm"): on this kind of VM,
    // memory freed a moment ago is still backed by the host and much faster to touch than memory that
    // has been free for a few seconds, which is what a user's load gets (the verdict is on the first).
    Measure chunked, chunkedHaswell, chunkedIcelake, ours, oursWarm;
    const auto keepBest = [](Measure& b, const Measure& m) {
        if (b.seconds < 0 || (m.seconds >= 0 && m.seconds < b.seconds))
            b = m;
    };
    // Each round's own ratio too (its loader over its fastest chunked baseline): the machine's state
    // changes within seconds, and a round's runs see nearly the same state.
    std::vector<double> roundRatios;
    for (int r = 0; r < runs; ++r) {
        double roundBaseline = -1;
        const auto baseline = [&](Measure& b, const Measure& m) {
            keepBest(b, m);
            if (m.seconds > 0 && (roundBaseline < 0 || m.seconds < roundBaseline))
                roundBaseline = m.seconds;
        };
        if (withBaselines) {
            baseline(chunked, inChild([&] { return simdjsonChunkedTouch(file); }));
            baseline(chunkedHaswell, simdTouch("haswell", "chunked", file));
            baseline(chunkedIcelake, simdTouch("icelake", "chunked", file));
        }
        const Measure loaded = inChild([&] { return ourLoader(file); });
        keepBest(ours, loaded);
        keepBest(oursWarm, inChild([&] { return ourLoader(file); }));
        if (roundBaseline > 0 && loaded.seconds > 0)
            roundRatios.push_back(loaded.seconds / roundBaseline);
    }
    const Measure touch = withBaselines && withWhole
                              ? best(runs, [&] { return inChild([&] { return simdjsonTouch(file, false); }); })
                              : Measure{};
    const Measure touchRaw = withBaselines && withWhole
                                 ? best(runs, [&] { return inChild([&] { return simdjsonTouch(file, true); }); })
                                 : Measure{};
    const Measure touchIcelake =
        withBaselines && withWhole ? best(runs, [&] { return simdTouch("icelake", "whole", file); }) : Measure{};
    row("simdjson touch, whole document (fallback):", touch);
    row("simdjson touch, whole document, raw tokens:", touchRaw);
    row("simdjson touch, 4 MB chunks (fallback):", chunked);
    row("simdjson touch, whole document (icelake):", touchIcelake);
    row("simdjson touch, 4 MB chunks (haswell):", chunkedHaswell);
    row("simdjson touch, 4 MB chunks (icelake):", chunkedIcelake);
    row("dspark loader, end to end (file -> ready model):", ours);
    row("dspark loader, again right after itself (warm):", oursWarm);
    Measure py;
    if (withPython) {
        py = python(file);
        row("python3 json.load:", py);
    }
    std::printf("load average: %s", loadAverage().c_str());

    // Target (a): the loader within 1.5x of simdjson On-Demand reading the file and touching every event.
    // Against each baseline; the fastest one is the verdict (wall time; cpu time beside it, the loader
    // using two threads where the baselines use one).
    std::printf("ratios, loader / baseline (target <= 1.5), wall (cpu):\n");
    const Measure* fastest = nullptr;
    const std::pair<const char*, const Measure*> baselines[] = {
        {"whole document, fallback", &touch},      {"whole document, raw tokens", &touchRaw},
        {"4 MB chunks, fallback", &chunked},       {"whole document, icelake", &touchIcelake},
        {"4 MB chunks, haswell", &chunkedHaswell}, {"4 MB chunks, icelake", &chunkedIcelake}};
    for (const auto& [name, m] : baselines) {
        if (m->seconds <= 0)
            continue;
        std::printf("  vs %-28s %5.2f (%5.2f)%s\n", name, ours.seconds / m->seconds, ours.cpuSeconds / m->cpuSeconds,
                    ours.seconds / m->seconds <= 1.5 ? "  met" : "  NOT met");
        if (!fastest || m->seconds < fastest->seconds)
            fastest = m;
    }
    if (fastest) {
        std::printf("  (a) vs the fastest simdjson baseline: %.2f -> %s\n", ours.seconds / fastest->seconds,
                    ours.seconds / fastest->seconds <= 1.5 ? "met" : "NOT met");
        if (oursWarm.seconds > 0)
            std::printf("      (the loader warm, right after itself: %.2f)\n", oursWarm.seconds / fastest->seconds);
    }
    if (roundRatios.size() > 1) {
        std::vector<double> sorted = roundRatios;
        std::sort(sorted.begin(), sorted.end());
        const size_t n = sorted.size();
        const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        std::printf("      (each round's loader / its fastest baseline:");
        for (const double r : roundRatios)
            std::printf(" %.2f", r);
        std::printf("; median %.2f, <= 1.5 in %zu of %zu)\n", median,
                    size_t(std::count_if(sorted.begin(), sorted.end(), [](double r) { return r <= 1.5; })), n);
    }
    if (withPython && py.seconds > 0)
        std::printf("  (b) python / loader = %.1f (target >= 10) -> %s\n", py.seconds / ours.seconds,
                    py.seconds / ours.seconds >= 10 ? "met" : "NOT met");
    std::printf("  (c) loader peak RSS / file size = %.2f (target <= 1.5) -> %s", ours.peakRssKb / 1024.0 / fileMb,
                ours.peakRssKb / 1024.0 / fileMb <= 1.5 ? "met" : "NOT met");
    if (withPython && py.seconds > 0)
        std::printf("; python peak RSS / file size = %.2f", py.peakRssKb / 1024.0 / fileMb);
    std::printf("\n");
    if (generated && !keep) {
        std::error_code ec;
        std::filesystem::remove_all(std::filesystem::path(file).parent_path(), ec);
    }
    return ours.seconds < 0 ? 1 : 0;
}
