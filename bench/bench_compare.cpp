// Comparing two runs: (a) compareRuns over two sample tables of N steps each (distributions and the
// bootstrap intervals of every quantity, per class and for the whole window, the pairs); (b) the kernel
// alignment of one step pair with T device tasks a side over 4 streams, with few edits (E inserted and
// E removed kernels a stream), with many (1,000 a stream: D near the bound), and past the bound (the
// fallback). Median of R runs each.
// Usage: bench_compare [steps=20000] [tasks=20000] [runs=7] [edits=8]
// Figures go to docs/performance.md ("Comparing two runs").
#include "compare/KernelAlignment.h"
#include "compare/RunComparison.h"

#include <QCoreApplication>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>

using namespace dspark;
using Clock = std::chrono::steady_clock;

static double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// N steps in 6 classes, every quantity known (a long run with a timeline), the values jittered around a
// per-class level; the changed run is 5 % slower.
static RunSamples makeRun(size_t steps, double factor, uint64_t seed)
{
    RunSamples run;
    run.hasRecords = run.hasTimeline = true;
    run.platform = "npu";
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> jitter(1.0, 0.05);
    for (size_t i = 0; i < steps; ++i) {
        StepSample s;
        const int cls = int(i % 6);
        s.cls = {"compact", 8 + cls % 3, 32 + 8 * (cls / 3)};
        s.forwardCt = int64_t(1000 + i);
        s.recordRow = s.stepIndex = int64_t(i);
        s.inStableWindow = true;
        for (size_t q = 0; q < kQuantityCount; ++q)
            s.values[q] = (1.0 + double(q) + cls) * factor * jitter(rng);
        run.steps.push_back(std::move(s));
    }
    return run;
}

// One step's device tasks: `perStream` kernels on each of 4 streams, names from a catalogue of 40 in a
// repeating layer pattern (as a graph replay looks).
static void addStep(Profile& p, const std::vector<std::vector<int>>& names)
{
    const int r = p.ensureRank(0, 0);
    for (int s = 0; s < 4; ++s) {
        const uint32_t lane =
            p.laneFor({LaneKind::NpuStream, r, 0, 2 + s, -1, "Ascend Hardware", "Stream " + std::to_string(2 + s), 0});
        TimeNs t = 1'000'000;
        for (size_t i = 0; i < names[size_t(s)].size(); ++i) {
            const TimeNs dur = 5'000 + (names[size_t(s)][i] * 37 % 50) * 1'000;
            p.lanes[lane].append(t, dur, p.strings.intern("Kernel" + std::to_string(names[size_t(s)][i])),
                                 EventKind::Kernel);
            t += dur + 300;
        }
    }
    p.finalize();
}

static std::vector<std::vector<int>> baseNames(size_t perStream)
{
    std::vector<std::vector<int>> names(4);
    for (int s = 0; s < 4; ++s)
        for (size_t i = 0; i < perStream; ++i)
            names[size_t(s)].push_back(int((i * 7 + size_t(s)) % 27));
    return names;
}

// `edits` removals and `edits` insertions a stream at random places; random=true: unrelated names.
static std::vector<std::vector<int>> edited(std::vector<std::vector<int>> names, size_t edits, uint64_t seed,
                                            bool random)
{
    std::mt19937_64 rng(seed);
    for (auto& stream : names) {
        if (random) {
            for (int& n : stream)
                n = int(rng() % 40);
            continue;
        }
        for (size_t e = 0; e < edits && !stream.empty(); ++e) {
            stream.erase(stream.begin() + std::ptrdiff_t(rng() % stream.size()));
            stream.insert(stream.begin() + std::ptrdiff_t(rng() % stream.size()), 30 + int(rng() % 10));
        }
    }
    return names;
}

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const size_t steps = argc > 1 ? std::stoul(argv[1]) : 20000;
    const size_t tasks = argc > 2 ? std::stoul(argv[2]) : 20000;
    const int runs = argc > 3 ? std::max(1, std::stoi(argv[3])) : 7;
    const size_t edits = argc > 4 ? std::stoul(argv[4]) : 8;

    const RunSamples a = makeRun(steps, 1.0, 1), b = makeRun(steps, 1.05, 2);
    std::vector<double> times;
    size_t significant = 0;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = Clock::now();
        const RunComparison c = compareRuns(a, b);
        times.push_back(msSince(t0));
        significant = 0;
        for (const QuantityComparison& q : c.whole.quantities)
            significant += q.change.significant();
        if (c.classes.size() != 6 || c.pairs.size() != 6)
            std::fprintf(stderr, "unexpected classes %zu / pairs %zu\n", c.classes.size(), c.pairs.size());
    }
    std::printf("compareRuns: %zu + %zu steps, %zu quantities x (6 classes + whole), %d resamples: median %.1f ms "
                "(min %.1f, max %.1f, %d runs); %zu of %zu whole-window changes significant\n",
                steps, steps, kQuantityCount, BootstrapOptions{}.resamples, median(times),
                *std::min_element(times.begin(), times.end()), *std::max_element(times.begin(), times.end()), runs,
                significant, kQuantityCount);

    const size_t perStream = tasks / 4;
    const auto base = baseNames(perStream);
    Profile pa;
    addStep(pa, base);
    const std::vector<EventRef> ta = deviceTasksIn(pa, 0, INT64_MAX);
    struct Case {
        const char* name;
        size_t edits;
        bool random;
    };
    for (const Case& k : {Case{"few edits", edits, false}, Case{"1,000 edits a stream", 1000, false},
                          Case{"unrelated names (past the bound)", 0, true}}) {
        Profile pb;
        addStep(pb, edited(base, k.edits, 5, k.random));
        const std::vector<EventRef> tb = deviceTasksIn(pb, 0, INT64_MAX);
        std::vector<double> t;
        KernelAlignment al;
        for (int r = 0; r < runs; ++r) {
            const auto t0 = Clock::now();
            al = alignTasks(pa, ta, pb, tb);
            t.push_back(msSince(t0));
        }
        std::printf("alignTasks, %s: %zu vs %zu tasks: median %.1f ms (min %.1f, max %.1f); %zu matched, %zu / %zu "
                    "only in one, fell back: %s\n",
                    k.name, ta.size(), tb.size(), median(t), *std::min_element(t.begin(), t.end()),
                    *std::max_element(t.begin(), t.end()), al.regressions.size(), al.onlyBaseline.size(),
                    al.onlyChanged.size(), al.fellBack ? "yes" : "no");
    }
    return 0;
}
