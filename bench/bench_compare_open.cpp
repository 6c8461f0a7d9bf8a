// Opening a comparison (issue 23, "costs no more than opening each"): in one invocation, R runs each of
//   one side   load + analyse every step, the baseline alone and the changed run alone (loader defaults);
//   sequential the two sides one after another (the sum of the two above, wall and CPU);
//   compare    both side by side (loadAndAnalyseBoth: each loaded, analysed and prepared for the
//              comparison on its thread) + compareRuns of the two sides + the kernels of every pair + JSON,
//              as the `compare --json` command does, with each phase timed;
//   window     the GUI path's core work: both side by side (one loader thread each, analysed, prepared),
//              compareRuns, the kernel alignment of the pair shown first;
//              and, for comparison, both side by side with the loader's default threads;
//   samples    collectSamples from each loaded, analysed profile (what the comparison and the pairing read).
// Usage: bench_compare_open BASELINE CHANGED [runs=7]   (e.g. after `dspark-timeline demo D --compare`)
// Figures go to docs/performance.md ("Opening a comparison").
#include "analysis/AnalysisRules.h"
#include "compare/OpenComparison.h"
#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"
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

const std::string kWindow = "window: both side by side + prepared + compareRuns + the first pair's kernels";

double msOf(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) * 1e-6;
}

struct Series {
    std::vector<double> ms, cpu;
    double median() const
    {
        std::vector<double> v = ms;
        std::sort(v.begin(), v.end());
        return v.empty() ? 0.0 : v[v.size() / 2];
    }
    double cpuMedian() const
    {
        std::vector<double> v = cpu;
        std::sort(v.begin(), v.end());
        return v.empty() ? 0.0 : v[v.size() / 2];
    }
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
    const double cpu0 = cpuMs();
    auto r = what();
    series[name].ms.push_back(msOf(t));
    series[name].cpu.push_back(cpuMs() - cpu0);
    return r;
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
        // Interleaved, so that a burst of load from elsewhere falls on every kind alike.
        const AnalysedRun a = timed(s, "one side: baseline", [&] { return loadAndAnalyse(pathA, rules); });
        const AnalysedRun b = timed(s, "one side: changed", [&] { return loadAndAnalyse(pathB, rules); });
        if (!a.session || !b.session) {
            std::fprintf(stderr, "%s\n", qPrintable(a.session ? b.outcome.error : a.outcome.error));
            return 1;
        }
        const bool baselineSlower = s["one side: baseline"].ms.back() >= s["one side: changed"].ms.back();
        const Series& slower = s[baselineSlower ? "one side: baseline" : "one side: changed"];
        s["one side: slower of the two"].ms.push_back(slower.ms.back());
        s["one side: slower of the two"].cpu.push_back(slower.cpu.back());
        // Opened one after another: the two loads above, back to back.
        s["two sides one after another"].ms.push_back(s["one side: baseline"].ms.back() +
                                                      s["one side: changed"].ms.back());
        s["two sides one after another"].cpu.push_back(s["one side: baseline"].cpu.back() +
                                                       s["one side: changed"].cpu.back());

        QElapsedTimer total;
        total.start();
        const double totalCpu0 = cpuMs();
        const AnalysedPair both =
            timed(s, "compare: load + analyse + prepare both", [&] { return loadAndAnalyseBoth(pathA, pathB, rules); });
        const RunComparison c = timed(s, "compare: compareRuns(sides), the pairwise part",
                                      [&] { return compareRuns(both.baseline.side, both.changed.side); });
        const std::vector<PairKernels> k = timed(s, "compare: align every pair's kernels", [&] {
            return alignMatchedPairs(c, *both.baseline.session, *both.changed.session);
        });
        const std::string json = timed(s, "compare: JSON", [&] { return dumpJson(comparisonJson(c, k), 2) + "\n"; });
        s["compare: total"].ms.push_back(msOf(total));
        s["compare: total"].cpu.push_back(cpuMs() - totalCpu0);
        pairs = c.pairs.size();
        jsonBytes = json.size();

        // The phases apart (the same work again).
        const ProfileSession& sa = *both.baseline.session;
        const ProfileSession& sb = *both.changed.session;
        const RunSamples ra =
            timed(s, "  phase: collectSamples baseline", [&] { return collectSamples(*sa.profile(), sa.analyses()); });
        const RunSamples rb =
            timed(s, "  phase: collectSamples changed", [&] { return collectSamples(*sb.profile(), sb.analyses()); });
        steps[0] = ra.steps.size();
        steps[1] = rb.steps.size();
        timed(s, "  phase: prepareSide baseline (bootstrap positions cached)",
              [&] { return prepareSide(sa, ComparisonRole::Baseline); });
        timed(s, "  phase: compareRuns(samples)", [&] { return compareRuns(ra, rb); });
        timed(s, "  phase: compareConfigs", [&] { return compareConfigs(*sa.profile(), *sb.profile()); });
        timed(s, "  phase: compareDeviceTasks (sorting included)",
              [&] { return compareDeviceTasks(*sa.profile(), *sb.profile()); });
        timed(s, "  phase: compareDeviceTasks, no bootstrap", [&] {
            return compareDeviceTasks(*sa.profile(), *sb.profile(), BootstrapOptions{0, 0.95, 23});
        });
        // The bootstrap positions of another seed: not drawn ahead, so this is the cost of drawing them.
        CompareOptions fresh;
        fresh.bootstrap.seed = 1000 + uint64_t(r);
        timed(s, "  phase: compareRuns(sessions), positions drawn afresh", [&] { return compareRuns(sa, sb, fresh); });

        // The window's path: the same loads and preparations, compareRuns, the kernels of the pair shown first.
        QElapsedTimer window;
        window.start();
        const double windowCpu0 = cpuMs();
        const AnalysedPair w = loadAndAnalyseBoth(pathA, pathB, rules, 1);
        const RunComparison wc = compareRuns(w.baseline.side, w.changed.side);
        if (!wc.pairs.empty() && wc.pairs[0].baselineStepIndex >= 0 && wc.pairs[0].changedStepIndex >= 0)
            (void)alignKernels(*w.baseline.session->profile(),
                               w.baseline.session->analyses()->ensure(size_t(wc.pairs[0].baselineStepIndex)),
                               *w.changed.session->profile(),
                               w.changed.session->analyses()->ensure(size_t(wc.pairs[0].changedStepIndex)));
        s[kWindow].ms.push_back(msOf(window));
        s[kWindow].cpu.push_back(cpuMs() - windowCpu0);
        // The alternative the loads side by side do not take: each with the loader's default threads.
        timed(s, "both side by side, loader defaults (2 threads a side)",
              [&] { return loadAndAnalyseBoth(pathA, pathB, rules, 0); });
    }

    std::printf("bench_compare_open %s %s: %d runs, %zu / %zu steps, %zu pairs, JSON %zu bytes; load average %.1f "
                "before, %.1f after\n",
                qPrintable(pathA), qPrintable(pathB), runs, steps[0], steps[1], pairs, jsonBytes, loadBefore,
                loadAverage());
    for (const auto& [name, series] : s)
        std::printf("  %-66s median %8.1f ms (min %.1f, max %.1f), cpu %.1f ms\n", name.c_str(), series.median(),
                    series.min(), series.max(), series.cpuMedian());
    const double slower = s["one side: slower of the two"].median();
    const double sequential = s["two sides one after another"].median();
    std::printf("  wall: compare total / slower side alone %.2f, / the two one after another %.2f; window / slower "
                "side %.2f\n",
                s["compare: total"].median() / slower, s["compare: total"].median() / sequential,
                s[kWindow].median() / slower);
    std::printf("  cpu: compare total / (baseline + changed alone) %.2f\n",
                s["compare: total"].cpuMedian() / s["two sides one after another"].cpuMedian());
    return 0;
}
