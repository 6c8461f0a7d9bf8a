// Times the analyses (docs/performance.md, "Analyses"): loads a profile — or first writes the demo at a
// given scale — then builds the analysis index and pairing, analyses every aligned step and the overlap.
//   bench_analyze PATH [--json OUT] [--repeat N]
//   bench_analyze --demo OUTDIR [--scale K] [--seed S] [--trace-json] [--json OUT] [--repeat N]
// --hops FORWARD_CT prints that step's critical path, hop by hop.
#include "analysis/StepAnalysis.h"
#include "demo/DemoWriter.h"
#include "io/ProfileLoader.h"
#include "report/AnalyzeJson.h"
#include "util/Memory.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>

using namespace dspark;
using Clock = std::chrono::steady_clock;

static double msSince(Clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

int main(int argc, char** argv)
{
    keepFreedMemoryForReuse(); // (the allocator's settings for loading, as the app sets them)
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    auto option = [&](const char* name, const QString& fallback) {
        const int i = args.indexOf(QLatin1String(name));
        if (i < 0 || i + 1 >= args.size())
            return fallback;
        const QString v = args.at(i + 1);
        args.remove(i, 2);
        return v;
    };
    const QString jsonOut = option("--json", {});
    const int repeat = option("--repeat", QStringLiteral("1")).toInt();
    const long long hopsOf = option("--hops", QStringLiteral("-1")).toLongLong();
    const QString demoDir = option("--demo", {});
    const int scale = option("--scale", QStringLiteral("1")).toInt();
    const int seed = option("--seed", QStringLiteral("7")).toInt();
    const bool traceJson = args.removeAll(QStringLiteral("--trace-json")) > 0;
    std::string path;
    if (!demoDir.isEmpty()) {
        demo::DemoOptions o;
        o.scale = scale;
        o.seed = static_cast<uint64_t>(seed);
        o.traceJson = traceJson;
        const auto t = Clock::now();
        const demo::DemoResult r = demo::writeDemo(o, demoDir.toStdString());
        if (!r.error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(r.error));
            return 1;
        }
        std::printf("demo written: scale %d, %lld iterations, %.0f ms\n", scale, static_cast<long long>(r.iterations),
                    msSince(t));
        path = demoDir.toStdString();
    } else if (args.size() == 1) {
        path = args.first().toStdString();
    } else {
        std::fprintf(stderr, "usage: bench_analyze PATH | --demo OUTDIR [--scale K] [--json OUT] [--repeat N]\n");
        return 2;
    }

    auto t = Clock::now();
    const LoadOutcome outcome = loadProfile(path);
    if (!outcome.profile) {
        std::fprintf(stderr, "%s\n", qPrintable(outcome.error));
        return 1;
    }
    const Profile& profile = *outcome.profile;
    std::printf("loaded %s: %llu events, %llu device tasks, %.0f ms\n", path.c_str(),
                static_cast<unsigned long long>(profile.stats().events),
                static_cast<unsigned long long>(profile.stats().deviceTasks), msSince(t));

    const AnalysisRules rules = AnalysisRules::defaults();
    for (int i = 0; i < repeat; ++i) {
        t = Clock::now();
        const StepAnalyzer analyzer(profile, rules);
        const double indexMs = msSince(t);
        t = Clock::now();
        const std::vector<RecordWindow> windows = stepWindows(profile);
        const double windowsMs = msSince(t);
        t = Clock::now();
        size_t ops = 0;
        for (const RecordWindow& w : windows)
            ops += analyzer.analyze(w.window).comm.operations.size();
        const double stepsMs = msSince(t);
        t = Clock::now();
        const ProfileAnalysis all = analyzeProfile(profile, rules);
        const double totalMs = msSince(t);
        // Per step and per device task: the step analyses should be linear in tasks.
        const double tasks = static_cast<double>(profile.stats().deviceTasks);
        const double steps = static_cast<double>(std::max<size_t>(1, windows.size()));
        std::printf("index+pairing %.1f ms, step windows %.1f ms, %zu steps (%zu comm ops) %.1f ms = %.3f ms/step, "
                    "analyzeProfile %.1f ms = %.3f ms/step = %.3f us/task\n",
                    indexMs, windowsMs, windows.size(), ops, stepsMs, stepsMs / steps, totalMs, totalMs / steps,
                    tasks > 0 ? totalMs * 1000.0 / tasks : 0.0);
        for (const StepAnalysis& s : all.steps)
            if (i == 0 && s.window.forwardCt == hopsOf)
                for (const PathHop& h : s.criticalPath.hops)
                    std::printf("  [%lld, %lld) %-14s %s %s\n", static_cast<long long>(h.interval.startNs),
                                static_cast<long long>(h.interval.endNs), pathCategoryKey(h.category),
                                h.onHost ? "host" : "dev ",
                                h.event.valid() ? std::string(profile.name(h.event)).c_str() : "-");
        if (i == 0 && !jsonOut.isEmpty()) {
            std::ofstream out(jsonOut.toStdString());
            out << analyzeJson(profile, all).dump(2) << "\n";
        }
    }
    return 0;
}
