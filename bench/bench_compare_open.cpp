// Opening a comparison (issue 23, "costs no more than opening each"): in one invocation, R runs each of
//   one side   what the window needs before it shows one profile: loaded (loader defaults) and every step
//              analysed, the baseline alone and the changed run alone;
//   sequential the two sides one after another (the sum of the two above, wall and CPU);
//   opening a comparison   what the window needs before it shows the comparison: both loaded and
//              analysed side by side (sideBySideLoaderThreads(): one loader thread each on 2 cores), each
//              side prepared on its thread (prepareSide with windowCompareOptions(): no device tasks,
//              which the window does not show), then the pairwise compareRuns. The headline, and the
//              verdict line;
//   compare --json  the command's work: as above with the device tasks, + every pair's kernels + JSON,
//              each phase timed (beyond what the window needs: the device tasks, the kernels, the JSON);
//   one side, phase by phase   the changed run's open split along loadProfile's and the analyses' phases
//              (CPU ms: where one side's CPU goes; metadata JSON files left out, < 1 ms);
//   and, for comparison, both side by side with the loader's default threads.
// Usage: bench_compare_open BASELINE CHANGED [runs=7]   (e.g. after `dspark-timeline demo D --compare`)
// Figures go to docs/performance.md ("Opening a comparison").
#include "analysis/AnalysisRules.h"
#include "analysis/StepAnalysis.h"
#include "compare/OpenComparison.h"
#include "io/MsprofDbLoader.h"
#include "io/ProfileScanner.h"
#include "session/ProfileAnalyses.h"
#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecordLoader.h"
#include "util/BoundedJson.h"
#include "util/Memory.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>

using namespace dspark;

namespace {

const std::string kOpen = "opening a comparison: both side by side, analysed, prepared + compareRuns";
const std::string kSlower = "one side: slower of the two";
const std::string kSequential = "two sides one after another";

double msOf(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) * 1e-6;
}

struct Series {
    std::vector<double> ms, cpu, faults;
    double median() const
    {
        std::vector<double> v = ms;
        std::sort(v.begin(), v.end());
        return v.empty() ? 0.0 : v[v.size() / 2];
    }
    static double medianOf(std::vector<double> v)
    {
        std::sort(v.begin(), v.end());
        return v.empty() ? 0.0 : v[v.size() / 2];
    }
    double cpuMedian() const { return medianOf(cpu); }
    double faultsMedian() const { return medianOf(faults); }
    double min() const { return ms.empty() ? 0.0 : *std::min_element(ms.begin(), ms.end()); }
    double max() const { return ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end()); }
};

// CPU time of the process (user + system, ms): with the wall time, says whether two sides overlapped.
double cpuMs()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const auto ms = [](const timeval& t) { return double(t.tv_sec) * 1e3 + double(t.tv_usec) * 1e-3; };
    return ms(u.ru_utime) + ms(u.ru_stime);
}

// Minor page faults of the process so far: fresh memory touched (a CPU cost the kernel bills as system time).
double minorFaults()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_minflt);
}

// Frees nothing itself: returns what is free to the system (before an open; the objects are gone).
void startFresh()
{
    returnFreedMemory();
}

double loadAverage()
{
    std::ifstream f("/proc/loadavg");
    double a = -1;
    f >> a;
    return a;
}

// Times `what` into series[name] and returns its result.
template <typename F> auto timed(std::map<std::string, Series>& series, const std::string& name, F&& what)
{
    QElapsedTimer t;
    t.start();
    const double cpu0 = cpuMs(), faults0 = minorFaults();
    auto r = what();
    series[name].ms.push_back(msOf(t));
    series[name].cpu.push_back(cpuMs() - cpu0);
    series[name].faults.push_back(minorFaults() - faults0);
    return r;
}

// One side's open along its phases (as loadProfile, then the session and its analyses; the metadata
// JSON files are left out): where its CPU goes. Each phase runs alone, so process CPU is its own.
void onePhaseByPhase(std::map<std::string, Series>& s, const QString& path,
                     const std::shared_ptr<const AnalysisRules>& rules)
{
    LoadOptions options;
    options.rules = rules;
    // (the window's load task parses the rules for each load; the bench and `compare` once)
    timed(s, "  side phase: rules (AnalysisRules::load)", [&] { return AnalysisRules::load({}, nullptr); });
    const ScanResult scan = timed(s, "  side phase: scan", [&] { return scanProfilePath(path.toStdString()); });
    auto profile = std::make_shared<Profile>();
    profile->rootPath = scan.root;
    timed(s, "  side phase: timeline files (loader defaults)", [&] { // first, as loadProfile orders them
        for (const ScannedFile& f : scan.files)
            if (f.selected && isTimelineFormat(f.format))
                (void)loadMsprofDb(f, *profile, {}, options);
        return 0;
    });
    timed(s, "  side phase: step records", [&] {
        for (const ScannedFile& f : scan.files)
            if (f.selected && (f.format == FileFormat::ServerInfoJson || f.format == FileFormat::DsparkRecordJson ||
                               f.format == FileFormat::StepRecordsJsonl || f.format == FileFormat::SpsRecordsJsonl))
                (void)loadStepRecords(f, *profile, {});
        return 0;
    });
    timed(s, "  side phase: finalize", [&] { return (profile->finalize(), 0); });
    timed(s, "  side phase: records' analyses + alignment",
          [&] { return (deriveProfileAnalyses(*profile, *rules), 0); });
    auto session = timed(s, "  side phase: session (step windows)",
                         [&] { return std::make_unique<ProfileSession>(profile, path, *rules); });
    const auto analyzerOwned = timed(s, "  side phase: analyzer (index, pairing, activity)",
                                     [&] { return std::make_unique<StepAnalyzer>(*profile, *rules); });
    const StepAnalyzer& analyzer = *analyzerOwned;
    const auto& windows = session->analyses()->steps();
    std::vector<StepBands> bands(windows.size());
    timed(s, "  side phase: steps: stage bands", [&] {
        for (size_t i = 0; i < windows.size(); ++i)
            bands[i] = computeStageBands(analyzer.index(), windows[i].window);
        return 0;
    });
    timed(s, "  side phase: steps: communication", [&] {
        for (size_t i = 0; i < windows.size(); ++i)
            (void)computeStepComm(analyzer.index(), analyzer.pairing(), bands[i], windows[i].window);
        return 0;
    });
    timed(s, "  side phase: steps: replay gaps", [&] {
        for (size_t i = 0; i < windows.size(); ++i)
            (void)computeReplayGaps(analyzer.index(), bands[i], windows[i].window);
        return 0;
    });
    timed(s, "  side phase: steps: critical path", [&] {
        for (size_t i = 0; i < windows.size(); ++i)
            (void)computeCriticalPath(analyzer.index(), analyzer.pairing(), bands[i], windows[i].window);
        return 0;
    });
    timed(s, "  side phase: steps: all (computeNow)", [&] { return (session->analyses()->computeNow(), 0); });
    timed(s, "  side phase: prepareSide, window (no device tasks)",
          [&] { return prepareSide(*session, ComparisonRole::Changed, windowCompareOptions()); });
    timed(s, "  side phase: prepareSide, with device tasks",
          [&] { return prepareSide(*session, ComparisonRole::Changed); });
    timed(s, "  side phase: freeing the side (not counted in opening)", [&] {
        session.reset();
        profile.reset();
        return 0;
    });
}

} // namespace

int main(int argc, char** argv)
{
    keepFreedMemoryForReuse(); // (the allocator's settings for loading, as the app sets them)
    QCoreApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_compare_open BASELINE CHANGED [runs=7]\n");
        return 2;
    }
    const QString pathA = QString::fromLocal8Bit(argv[1]), pathB = QString::fromLocal8Bit(argv[2]);
    const int runs = argc > 3 ? std::max(1, std::atoi(argv[3])) : 7;
    const auto rules = std::make_shared<const AnalysisRules>(AnalysisRules::load({}, nullptr));
    std::map<std::string, Series> s;
    size_t steps[2] = {0, 0}, pairs = 0, jsonBytes = 0;
    const double loadBefore = loadAverage();

    for (int r = 0; r < runs; ++r) {
        // Interleaved, so that a burst of load from elsewhere falls on every kind alike. Each open starts as
        // in a window just started: what the one before built is freed and returned (startFresh()), so that no
        // kind reuses another's memory (a fresh page costs a fault: ~10 % of a side's CPU).
        for (const auto& [name, path] :
             {std::pair{"one side: baseline", pathA}, std::pair{"one side: changed", pathB}}) {
            startFresh();
            const AnalysedRun one = timed(s, name, [&] { return loadAndAnalyse(path, rules); });
            if (!one.session) {
                std::fprintf(stderr, "%s\n", qPrintable(one.outcome.error));
                return 1;
            }
        }
        const bool baselineSlower = s["one side: baseline"].ms.back() >= s["one side: changed"].ms.back();
        const Series& slower = s[baselineSlower ? "one side: baseline" : "one side: changed"];
        s[kSlower].ms.push_back(slower.ms.back());
        s[kSlower].cpu.push_back(slower.cpu.back());
        s[kSlower].faults.push_back(slower.faults.back());
        // Opened one after another: the two loads above, back to back.
        s[kSequential].ms.push_back(s["one side: baseline"].ms.back() + s["one side: changed"].ms.back());
        s[kSequential].cpu.push_back(s["one side: baseline"].cpu.back() + s["one side: changed"].cpu.back());
        s[kSequential].faults.push_back(s["one side: baseline"].faults.back() + s["one side: changed"].faults.back());

        // What the window needs before it shows the comparison (the kernels of the pair shown first are
        // aligned on a worker after it shows, with "Aligning the kernels of …" meanwhile).
        {
            startFresh();
            QElapsedTimer open;
            open.start();
            const double openCpu0 = cpuMs(), openFaults0 = minorFaults();
            const AnalysedPair w =
                loadAndAnalyseBoth(pathA, pathB, rules, sideBySideLoaderThreads(), windowCompareOptions());
            const RunComparison wc = compareRuns(w.baseline.side, w.changed.side, windowCompareOptions());
            s[kOpen].ms.push_back(msOf(open));
            s[kOpen].cpu.push_back(cpuMs() - openCpu0);
            s[kOpen].faults.push_back(minorFaults() - openFaults0);
            // How far apart the two sides were ready: the first side's core idles meanwhile (on 2 cores).
            const auto [first, second] = std::minmax(w.baseline.readyMs, w.changed.readyMs);
            s["  opening: first side ready (wall from the start)"].ms.push_back(first);
            s["  opening: second side ready (wall)"].ms.push_back(second);
            s["  opening: the pairwise part after both (wall)"].ms.push_back(s[kOpen].ms.back() - second);
            pairs = wc.pairs.size();
        }

        // `compare --json`: the same with the device tasks, + every pair's kernels + the JSON.
        startFresh();
        QElapsedTimer total;
        total.start();
        const double totalCpu0 = cpuMs(), totalFaults0 = minorFaults();
        const AnalysedPair both = timed(s, "compare --json: load + analyse + prepare both (device tasks)",
                                        [&] { return loadAndAnalyseBoth(pathA, pathB, rules); });
        const RunComparison c = timed(s, "compare --json: compareRuns(sides), the pairwise part",
                                      [&] { return compareRuns(both.baseline.side, both.changed.side); });
        const std::vector<PairKernels> k = timed(s, "compare --json: align every pair's kernels", [&] {
            return alignMatchedPairs(c, *both.baseline.session, *both.changed.session);
        });
        const std::string json =
            timed(s, "compare --json: JSON", [&] { return dumpJson(comparisonJson(c, k), 2) + "\n"; });
        s["compare --json: total"].ms.push_back(msOf(total));
        s["compare --json: total"].cpu.push_back(cpuMs() - totalCpu0);
        s["compare --json: total"].faults.push_back(minorFaults() - totalFaults0);
        jsonBytes = json.size();

        // The pairwise phases apart (the same work again).
        const ProfileSession& sa = *both.baseline.session;
        const ProfileSession& sb = *both.changed.session;
        const RunSamples ra =
            timed(s, "  phase: collectSamples baseline", [&] { return collectSamples(*sa.profile(), sa.analyses()); });
        const RunSamples rb =
            timed(s, "  phase: collectSamples changed", [&] { return collectSamples(*sb.profile(), sb.analyses()); });
        steps[0] = ra.steps.size();
        steps[1] = rb.steps.size();
        timed(s, "  phase: compareRuns(samples)", [&] { return compareRuns(ra, rb); });
        timed(s, "  phase: compareConfigs", [&] { return compareConfigs(*sa.profile(), *sb.profile()); });
        timed(s, "  phase: compareDeviceTasks (sorting included)",
              [&] { return compareDeviceTasks(*sa.profile(), *sb.profile()); });
        // The bootstrap positions of another seed: not drawn ahead, so this is the cost of drawing them.
        CompareOptions fresh;
        fresh.bootstrap.seed = 1000 + uint64_t(r);
        timed(s, "  phase: compareRuns(sessions), positions drawn afresh", [&] { return compareRuns(sa, sb, fresh); });

        // One side along its phases, and the alternative the loads side by side do not take.
        startFresh();
        onePhaseByPhase(s, pathB, rules);
        startFresh();
        timed(s, "both side by side, loader defaults (2 threads a side), window's options",
              [&] { return loadAndAnalyseBoth(pathA, pathB, rules, 0, windowCompareOptions()); });
    }

    std::printf("bench_compare_open %s %s: %d runs, %zu / %zu steps, %zu pairs, JSON %zu bytes; load average %.1f "
                "before, %.1f after\n",
                qPrintable(pathA), qPrintable(pathB), runs, steps[0], steps[1], pairs, jsonBytes, loadBefore,
                loadAverage());
    for (const auto& [name, series] : s)
        std::printf("  %-66s median %8.1f ms (min %.1f, max %.1f), cpu %.1f ms, %.0f minor faults\n", name.c_str(),
                    series.median(), series.min(), series.max(), series.cpuMedian(), series.faultsMedian());
    const double slower = s[kSlower].median(), sequential = s[kSequential].median(), open = s[kOpen].median();
    const double sidesCpu = s[kSequential].cpuMedian(), openCpu = s[kOpen].cpuMedian();
    std::printf("  compare --json / slower side %.2f (its extras: device tasks, every pair's kernels, JSON)\n",
                s["compare --json: total"].median() / slower);
    // The one line to compare across machines: the bound is "≤ 1.0× the slower side".
    std::printf("verdict: opening a comparison %.1f ms = %.2fx the slower side alone (%.1f ms), %.2fx the two one "
                "after another (%.1f ms); CPU %.1f ms = %.2fx the two sides' sum (%.1f ms); <= 1.0x the slower side: "
                "%s\n",
                open, open / slower, slower, open / sequential, sequential, openCpu, openCpu / sidesCpu, sidesCpu,
                open <= slower ? "met" : "not met");
    return 0;
}
