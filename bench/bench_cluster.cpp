// The cluster at scale (docs/performance.md "Many ranks"):
//  1. clock offsets and the slow-rank ranking of 64 generated ranks × 10,000 steps (2 collectives of one
//     group a step), from summaries in memory;
//  2. 512 generated rank summaries on disk opened as a cluster (find, read, analyse);
//  3. 8 demo ranks opened at once (loadCluster) against one after another (maxConcurrent = 1);
//  4. one of those ranks alone: how much of its load runs off the loading thread (the second core a single
//     load already uses), which bounds what loading ranks side by side can gain.
// Usage: bench_cluster [runs=5] [ranks=64] [steps=10000] [summaries=512] [demo_steps=1500] [demo_layers=8]
//                      [demo_dir]
// demo_dir: write the 8 demo ranks there and keep them (or reuse them when the folder already holds ranks),
// for profiling one part again without generating; without it they go to a temporary folder, removed after
// (also when the bench is stopped by SIGINT / SIGTERM / SIGHUP: RemoveOnSignal.h).
// Sizes (demo_steps × 8 layers): 1,500 → 5 MB a rank, 6,000 → 21 MB, 24,000 → 85 MB, 72,000 → ~250 MB.
// The last line is a verdict on issue #24's target (8 ranks at once ≤ 0.6× one after another).
#include "RemoveOnSignal.h"
#include "analysis/AnalysisRules.h"

#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterLoader.h"
#include "demo/ClusterDemo.h"
#include "io/ProfileLoader.h"
#include "util/Memory.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <sys/resource.h>

#include <cstdlib>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace dspark;
using Clock = std::chrono::steady_clock;

static double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

static double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// CPU time of the calling thread alone.
static double threadCpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

static double loadAverage()
{
    double l[1] = {0};
    return getloadavg(l, 1) == 1 ? l[0] : -1;
}

// Ranks with skewed clocks and jittered arrivals; rank 3 late at every 10th step's first collective.
static std::vector<RankSummary> generate(int ranks, int steps)
{
    std::vector<RankSummary> out(static_cast<size_t>(ranks));
    uint64_t x = 0x9e3779b97f4a7c15ull;
    const auto noise = [&x](int64_t span) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        return static_cast<int64_t>(x % static_cast<uint64_t>(2 * span + 1)) - span;
    };
    for (int r = 0; r < ranks; ++r) {
        RankSummary& s = out[static_cast<size_t>(r)];
        s.rankNumber = r;
        const TimeNs skew = noise(50'000);
        for (int k = 0; k < steps; ++k) {
            const TimeNs t0 = TimeNs(k) * 1'000'000 + skew;
            s.steps.push_back({k, t0, t0 + 1'000'000, std::nullopt, 60'000, 20'000, 0, {}, {}});
            for (int c = 0; c < 2; ++c) {
                const TimeNs issue =
                    t0 + 200'000 + c * 400'000 + noise(3'000) + (r == 3 && k % 10 == 0 && c == 0 ? 150'000 : 0);
                s.collectives.push_back(
                    {"ep", c ? "deepep_combine_" + std::to_string(k) : "deepep_dispatch_" + std::to_string(k),
                     c ? "deepep_combine" : "deepep_dispatch", 57344, issue,
                     t0 + 200'000 + c * 400'000 + 180'000 + noise(100)});
            }
        }
        // A version-3 summary's activity bins and group, so that reading the summaries reads them too.
        s.firstNs = skew;
        s.lastNs = TimeNs(steps) * 1'000'000 + skew;
        s.activity.startNs = s.firstNs;
        s.activity.endNs = s.lastNs;
        for (int b = 0; b < RankActivityBins::kBins; ++b) {
            const auto busy = static_cast<uint16_t>(noise(3000) + 5000);
            s.activity.busy.push_back(busy);
            s.activity.comm.push_back(static_cast<uint16_t>((RankActivityBins::kUnit - busy) / 2));
        }
        s.groups = {{"ep", r, {}}};
    }
    return out;
}

int main(int argc, char** argv)
{
    static bench::RemoveOnSignal cleanup; // (first: before any thread starts; static: its thread outlives main)
    keepFreedMemoryForReuse();
    QCoreApplication app(argc, argv);
    const int runs = argc > 1 ? std::max(5, std::stoi(argv[1])) : 5;
    const int ranks = argc > 2 ? std::stoi(argv[2]) : 64;
    const int steps = argc > 3 ? std::stoi(argv[3]) : 10000;
    const int summaries = argc > 4 ? std::stoi(argv[4]) : 512;
    const int demoSteps = argc > 5 ? std::stoi(argv[5]) : 1500;
    const int demoLayers = argc > 6 ? std::stoi(argv[6]) : 8;
    const std::string demoDir = argc > 7 ? argv[7] : std::string();

    std::printf("load average at the start %.1f\n", loadAverage());
    // 1. offsets + ranking
    {
        const std::vector<RankSummary> input = generate(ranks, steps);
        std::vector<double> times;
        size_t slow = 0;
        for (int i = 0; i < runs; ++i) {
            const auto t0 = Clock::now();
            const ClusterAnalysis a = analyzeCluster(input);
            times.push_back(msSince(t0));
            slow = a.ranking.front().rank;
        }
        std::printf("offsets+ranking  %d ranks x %d steps (%zu collectives): median %.0f ms of %d runs "
                    "(slowest rank found: %zu)\n",
                    ranks, steps, input.front().collectives.size(), median(times), runs, slow);
    }
    QTemporaryDir dir;
    cleanup.remove(dir.path().toStdString()); // killed mid-run: removed all the same (not a kept demo_dir)
    // 2. summaries on disk
    {
        const std::vector<RankSummary> input = generate(summaries, 200);
        const QString folder = dir.filePath(QStringLiteral("summaries"));
        QDir().mkpath(folder);
        for (const RankSummary& s : input)
            std::ofstream(QString(folder + QStringLiteral("/rank%1.json").arg(s.rankNumber)).toStdString())
                << rankSummaryJson(s);
        std::vector<double> times;
        size_t opened = 0;
        for (int i = 0; i < runs; ++i) {
            const auto t0 = Clock::now();
            const ClusterLoad load = loadCluster(findClusterRanks(folder.toStdString()));
            const ClusterAnalysis a = analyzeCluster(load.summaries());
            times.push_back(msSince(t0));
            opened = a.clocks.size();
        }
        std::printf("open summaries   %d ranks x 200 steps: median %.0f ms of %d runs (%zu opened)\n", summaries,
                    median(times), runs, opened);
    }
    // 3. parallel vs sequential loads
    {
        demo::ClusterDemoOptions options;
        options.steps = demoSteps;
        options.layers = demoLayers;
        const QString folder = demoDir.empty() ? dir.filePath(QStringLiteral("demo")) : QString::fromStdString(demoDir);
        const bool reuse = !demoDir.empty() && !findClusterRanks(demoDir).ranks.empty();
        const auto g0 = Clock::now();
        if (!reuse) {
            const demo::ClusterDemoResult written = demo::writeClusterDemo(options, folder.toStdString());
            if (!written.error.isEmpty()) {
                std::fprintf(stderr, "%s\n", qPrintable(written.error));
                return 1;
            }
        }
        const ClusterLayout layout = findClusterRanks(folder.toStdString());
        uint64_t bytes = 0, disk = 0;
        for (const ClusterRank& r : layout.ranks)
            bytes += r.bytes;
        std::error_code ec;
        for (std::filesystem::recursive_directory_iterator it(folder.toStdString(), ec), end; !ec && it != end;
             it.increment(ec))
            if (it->is_regular_file(ec))
                disk += it->file_size(ec);
        std::printf("demo ranks       %zu ranks, %.0f MB on disk in %s (%s, %.0f s; not timed below)\n",
                    layout.ranks.size(), double(disk) / 1e6, qPrintable(folder),
                    reuse ? "reused" : (demoDir.empty() ? "generated, removed at the end" : "generated, kept"),
                    msSince(g0) / 1e3);
        std::vector<double> seq, par, seqCpu, parCpu;
        size_t concurrent = 0;
        for (int i = 0; i < runs; ++i) {
            for (int parallel = 0; parallel < 2; ++parallel) {
                ClusterLoadOptions o;
                o.maxConcurrent = parallel ? 0 : 1;
                const double c0 = cpuSeconds();
                const auto t0 = Clock::now();
                const ClusterLoad load = loadCluster(layout, {}, nullptr, o);
                (parallel ? par : seq).push_back(msSince(t0));
                (parallel ? parCpu : seqCpu).push_back(cpuSeconds() - c0);
                if (parallel)
                    concurrent = load.concurrentLoads;
            }
        }
        std::printf("open 8 ranks     %.0f MB of databases: one after another %.0f ms (cpu %.2f s), %zu at once "
                    "%.0f ms (cpu %.2f s): ratio %.2f (median of %d runs)\n",
                    static_cast<double>(bytes) / 1e6, median(seq), median(seqCpu), concurrent, median(par),
                    median(parCpu), median(par) / median(seq), runs);

        // 4. One rank alone, loaded on this thread with the default threads: process CPU against this
        // thread's CPU (the rest ran on the loader's worker), then its summary (one thread).
        std::vector<double> wall, cpu, own, summary, summaryCpu;
        for (int i = 0; i < runs; ++i) {
            const double c0 = cpuSeconds(), o0 = threadCpuSeconds();
            const auto t0 = Clock::now();
            const LoadOutcome outcome = loadProfile(layout.ranks.front().path);
            wall.push_back(msSince(t0));
            cpu.push_back(cpuSeconds() - c0);
            own.push_back(threadCpuSeconds() - o0);
            if (!outcome.profile)
                return 1;
            const auto t1 = Clock::now();
            const double s0 = threadCpuSeconds();
            const RankSummary rs =
                summarizeRank(*outcome.profile, 0, AnalysisRules::defaults(), layout.ranks.front().path);
            summary.push_back(msSince(t1));
            summaryCpu.push_back(threadCpuSeconds() - s0);
        }
        // The bound of side by side, from what was measured: it cannot take less than the CPU time it used
        // spread over the cores, nor less than the largest rank alone (load + summary); against one after
        // another's wall time.
        const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        const double atBest = std::max(median(parCpu) * 1000.0 / cores, median(wall) + median(summary));
        std::printf("one rank alone   load %.0f ms (cpu %.3f s, of which %.3f s on the loading thread: %.0f %% "
                    "elsewhere), summary %.0f ms (cpu %.3f s)\n",
                    median(wall), median(cpu), median(own), 100.0 * (1.0 - median(own) / median(cpu)), median(summary),
                    median(summaryCpu));
        std::printf("bound            at once cannot beat max(cpu at once %.2f s / %d cores, one rank %.0f ms) = %.0f "
                    "ms: %.2fx of one after another (%.0f ms); measured %.2fx; load average %.1f (median of %d runs)\n",
                    median(parCpu), cores, median(wall) + median(summary), atBest, atBest / median(seq), median(seq),
                    median(par) / median(seq), loadAverage(), runs);
        const double ratio = median(par) / median(seq);
        char verdict[512];
        std::snprintf(verdict, sizeof verdict,
                      "verdict          8 ranks of %.0f MB: at once %.2fx of one after another (target <= 0.60x): %s; "
                      "bound on %d cores %.2fx; cpu at once %.2f s vs one after another %.2f s; load average %.1f\n",
                      static_cast<double>(bytes) / 1e6 / double(std::max<size_t>(1, layout.ranks.size())), ratio,
                      ratio <= 0.6 ? "MET" : "NOT MET", cores, atBest / median(seq), median(parCpu), median(seqCpu),
                      loadAverage());

        // 5. The memory estimate of a rank (planClusterLoad) against its loaded size: the first two (the
        // demo's ranks differ by a few rows; each costs a load).
        for (size_t k = 0; k < std::min<size_t>(2, layout.ranks.size()); ++k) {
            const ClusterRank& r = layout.ranks[k];
            const RankSizeEstimate e = estimateLoadedBytes(r);
            const LoadOutcome outcome = loadProfile(r.path);
            if (!outcome.profile)
                return 1;
            std::printf("rank %d size     %llu event rows, estimated %.1f MB, loaded %.1f MB (%.0f B a row), files "
                        "%.1f MB\n",
                        r.rankNumber, static_cast<unsigned long long>(e.events), e.loadedBytes / 1e6,
                        outcome.profile->bytesUsed() / 1e6,
                        double(outcome.profile->bytesUsed()) / double(std::max<uint64_t>(1, e.events)), r.bytes / 1e6);
        }
        std::printf("%s", verdict);
    }
    return 0;
}
