// The comparison engine on data the test makes itself: distributions and the bootstrap interval of the
// median (against a brute-force bootstrap and the exact binomial law), step classes in both / one /
// neither run, the median step pairs, Myers' alignment (an inserted and a removed kernel, against a
// dynamic-programming LCS), and the configuration diff.

#include "compare/ConfigDiff.h"
#include "compare/KernelAlignment.h"
#include "compare/RunComparison.h"

#include "TestSupport.h"

#include <QTest>

#include <cmath>
#include <random>
#include <set>
#include <tuple>

using namespace dspark;

namespace {

StepSample sample(StepClass cls, int64_t forwardCt, bool stable, double stepGpuMs, double commitLen = std::nan(""))
{
    StepSample s;
    s.cls = std::move(cls);
    s.forwardCt = forwardCt;
    s.inStableWindow = stable;
    s.values[size_t(Quantity::StepGpuMs)] = stepGpuMs;
    s.values[size_t(Quantity::MeanCommitLen)] = commitLen;
    return s;
}

const StepClass kA{"static", 8, 16}, kB{"static", 4, 8}, kC{"static", 2, 4}, kD{"static", 8, 32};

// LCS length by dynamic programming: the edit distance Myers must reach is n + m − 2·LCS.
size_t lcsLength(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b)
{
    std::vector<std::vector<size_t>> t(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j)
            t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
    return t[a.size()][b.size()];
}

void checkValidAlignment(const SequenceAlignment& al, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b)
{
    for (size_t i = 0; i < al.matches.size(); ++i) {
        const auto [x, y] = al.matches[i];
        QVERIFY(x < a.size() && y < b.size());
        QCOMPARE(a[x], b[y]);
        if (i > 0) {
            QVERIFY(x > al.matches[i - 1].first);
            QVERIFY(y > al.matches[i - 1].second);
        }
    }
    QCOMPARE(al.editDistance, a.size() + b.size() - 2 * al.matches.size());
}

// One NPU stream (id 5) of kernels named `names`, back to back, durations `durUs` (µs).
std::shared_ptr<Profile> streamProfile(const std::vector<std::string>& names, const std::vector<int>& durUs)
{
    auto p = std::make_shared<Profile>();
    const int r = p->ensureRank(0, 0);
    const uint32_t lane = p->laneFor({LaneKind::NpuStream, r, 0, 5, -1, "Ascend Hardware", "Stream 5", 0});
    TimeNs t = 1000;
    for (size_t i = 0; i < names.size(); ++i) {
        p->lanes[lane].append(t, durUs[i] * 1000, p->strings.intern(names[i]), EventKind::Kernel);
        t += durUs[i] * 1000 + 500;
    }
    p->finalize();
    return p;
}

} // namespace

class TestCompareEngine : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // {1..10}: median 5.5; type-7 p10 = 1 + 0.9·(2 − 1) = 1.9, p90 = 9 + 0.1·(10 − 9) = 9.1.
    void distributionOfAKnownSample()
    {
        const std::vector<double> v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        const Distribution d = describeSorted(v);
        QCOMPARE(d.n, size_t(10));
        QCOMPARE(d.median, 5.5);
        QVERIFY(std::fabs(d.p10 - 1.9) < 1e-12);
        QVERIFY(std::fabs(d.p90 - 9.1) < 1e-12);
        QCOMPARE(d.mean, 5.5);
        QVERIFY(std::isnan(describeSorted({}).median));
    }

    // Constant samples: every resample has the same median, so the interval is the point itself.
    void constantSamplesGiveAPointInterval()
    {
        const std::vector<double> a = {2, 2, 2}, b = {5, 5, 5, 5};
        const MedianChange c = medianChange(a, b);
        QCOMPARE(c.delta, 3.0);
        QCOMPARE(c.low, 3.0);
        QCOMPARE(c.high, 3.0);
        QCOMPARE(c.relative, 1.5);
        QVERIFY(c.significant());
        const MedianChange same = medianChange(a, a);
        QCOMPARE(same.delta, 0.0);
        QVERIFY(!same.significant());
    }

    // The drawn medians follow the bootstrap law: for n = 11 the resample median is x[j] or less exactly
    // when at least 6 of 11 draws fall at index ≤ j, P = P(Binomial(11, (j + 1) / 11) ≥ 6). A brute-force
    // bootstrap of the test's own must agree too.
    void bootstrapMedianFollowsTheExactLaw()
    {
        const std::vector<double> x = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144};
        const int draws = 40000;
        const std::vector<double> medians = bootstrapMedians(x, draws, 99);
        QCOMPARE(medians.size(), size_t(draws));
        std::mt19937_64 rng(5);
        std::uniform_int_distribution<size_t> pick(0, x.size() - 1);
        std::vector<double> brute(draws);
        for (double& m : brute) {
            std::vector<double> r(x.size());
            for (double& v : r)
                v = x[pick(rng)];
            std::nth_element(r.begin(), r.begin() + 5, r.end());
            m = r[5];
        }
        for (size_t j = 0; j < x.size(); ++j) {
            const double p = double(j + 1) / 11.0;
            double exact = 0;
            for (int k = 6; k <= 11; ++k)
                exact += std::tgamma(12) / (std::tgamma(k + 1) * std::tgamma(12 - k)) * std::pow(p, k) *
                         std::pow(1 - p, 11 - k);
            const auto share = [&](const std::vector<double>& v) {
                return double(std::count_if(v.begin(), v.end(), [&](double m) { return m <= x[j]; })) / draws;
            };
            QVERIFY2(std::fabs(share(medians) - exact) < 0.01, qPrintable(QString::number(j)));
            QVERIFY2(std::fabs(share(brute) - exact) < 0.01, qPrintable(QString::number(j)));
        }
        // Even n: the mean of the two middle draws. {0, 10}: medians are 0, 5 or 10 with 1/4, 1/2, 1/4.
        const std::vector<double> two = {0, 10};
        const std::vector<double> m2 = bootstrapMedians(two, draws, 3);
        const double fives = double(std::count(m2.begin(), m2.end(), 5.0)) / draws;
        const double zeros = double(std::count(m2.begin(), m2.end(), 0.0)) / draws;
        QVERIFY(std::fabs(fives - 0.5) < 0.01);
        QVERIFY(std::fabs(zeros - 0.25) < 0.01);
        // Seeded: the same seed gives the same medians.
        QCOMPARE(bootstrapMedians(x, 100, 99), bootstrapMedians(x, 100, 99));
    }

    // Baseline: A ×5 and B ×3 in the stable window, C outside it. Changed: A ×4, D ×3. A is in both,
    // B in the baseline only, D in the changed run only, C in neither window.
    void classesAreMatchedByWorkload()
    {
        RunSamples base, changed;
        base.hasRecords = changed.hasRecords = true;
        for (int i = 0; i < 5; ++i)
            base.steps.push_back(sample(kA, 100 + i, true, 10 + i, 2.0)); // 10..14 ms
        for (int i = 0; i < 3; ++i)
            base.steps.push_back(sample(kB, 200 + i, true, 5));
        base.steps.push_back(sample(kC, 300, false, 3));
        const double changedMs[] = {18, 15, 17, 16}; // median 16.5
        for (int i = 0; i < 4; ++i)
            changed.steps.push_back(sample(kA, 7000 + i, true, changedMs[i], 3.0));
        for (int i = 0; i < 3; ++i)
            changed.steps.push_back(sample(kD, 8000 + i, true, 20));

        const RunComparison c = compareRuns(base, changed);
        QCOMPARE(c.classes.size(), size_t(4));
        QCOMPARE(c.classes[0].cls, kA);
        QCOMPARE(c.classes[0].presence, ClassPresence::Both);
        QCOMPARE(c.classes[1].cls, kB);
        QCOMPARE(c.classes[1].presence, ClassPresence::BaselineOnly);
        QCOMPARE(c.classes[2].cls, kD);
        QCOMPARE(c.classes[2].presence, ClassPresence::ChangedOnly);
        QCOMPARE(c.classes[3].cls, kC);
        QCOMPARE(c.classes[3].presence, ClassPresence::Neither);
        QCOMPARE(c.whole.baselineSteps, size_t(8)); // C is outside the window
        QCOMPARE(c.whole.changedSteps, size_t(7));

        const QuantityComparison* gpu = c.classes[0].find(Quantity::StepGpuMs);
        QVERIFY(gpu);
        QCOMPARE(gpu->baseline.median, 12.0);
        QVERIFY(std::fabs(gpu->baseline.p10 - 10.4) < 1e-12);
        QVERIFY(std::fabs(gpu->baseline.p90 - 13.6) < 1e-12);
        QCOMPARE(gpu->changed.median, 16.5);
        QCOMPARE(gpu->change.delta, 4.5);
        // Every baseline value lies below every changed one: resampled medians differ by 1 ms at least
        // (15 − 14) and 8 ms at most (18 − 10).
        QVERIFY(gpu->change.low >= 1.0 && gpu->change.high <= 8.0);
        QVERIFY(gpu->change.significant());
        const QuantityComparison* commit = c.classes[0].find(Quantity::MeanCommitLen);
        QVERIFY(commit);
        QCOMPARE(commit->change.delta, 1.0);
        QVERIFY(!c.classes[0].find(Quantity::CommExposedMs)); // neither side has it

        // One pair, class A: the baseline's median step (12 ms, forward_ct 102), the changed run's lower
        // median (16 ms, forward_ct 7003).
        QCOMPARE(c.pairs.size(), size_t(1));
        QCOMPARE(c.pairs[0].baselineForwardCt, int64_t(102));
        QCOMPARE(c.pairs[0].changedForwardCt, int64_t(7003));
        QCOMPARE(c.pairs[0].delta(Quantity::StepGpuMs), 4.0);
        QVERIFY(!c.pairs[0].picked);
        // A pair the user picks (any two steps).
        const MatchedPair picked = pairSteps(c.baselineRun, 5, c.changedRun, 4);
        QVERIFY(picked.picked);
        QCOMPARE(picked.delta(Quantity::StepGpuMs), 15.0);

        // --class: that class only, the whole window too.
        CompareOptions only;
        only.onlyClass = kA;
        const RunComparison a = compareRuns(base, changed, only);
        QCOMPARE(a.classes.size(), size_t(1));
        QCOMPARE(a.whole.baselineSteps, size_t(5));
        QCOMPARE(a.whole.changedSteps, size_t(4));
        // No timeline on either side: said plainly.
        QCOMPARE(c.notComparable.size(), size_t(2));
    }

    // A larger draft block changes every step's verify tokens: no full class meets, so steps match by
    // (mode, bs), and the report says why.
    void verifyWidthsThatNeverMeetMatchByModeAndBs()
    {
        RunSamples base, changed;
        base.hasRecords = changed.hasRecords = true;
        for (int i = 0; i < 3; ++i) {
            base.steps.push_back(sample({"static", 8, 32}, 10 + i, true, 10 + i));
            changed.steps.push_back(sample({"static", 8, 48}, 50 + i, true, 20 + i));
        }
        base.steps.push_back(sample({"static", 4, 16}, 20, true, 5));
        const RunComparison c = compareRuns(base, changed);
        QVERIFY(c.classesIgnoreVerifyTokens);
        QCOMPARE(c.classes.size(), size_t(2));
        QCOMPARE(c.classes[0].cls.label(), std::string("static:8:?"));
        QCOMPARE(c.classes[0].presence, ClassPresence::Both);
        QCOMPARE(c.classes[1].cls.label(), std::string("static:4:?"));
        QCOMPARE(c.classes[1].presence, ClassPresence::BaselineOnly);
        QCOMPARE(c.pairs.size(), size_t(1));
        QCOMPARE(c.pairs[0].cls.label(), std::string("static:8:?"));
        QCOMPARE(c.pairs[0].baselineForwardCt, int64_t(11));
        QCOMPARE(c.pairs[0].changedForwardCt, int64_t(51));
        QVERIFY(std::any_of(c.notComparable.begin(), c.notComparable.end(),
                            [](const QString& s) { return s.startsWith(QLatin1String("Verify tokens")); }));
        // A class that meets keeps its verify tokens.
        changed.steps.push_back(sample({"static", 8, 32}, 60, true, 30));
        QVERIFY(!compareRuns(base, changed).classesIgnoreVerifyTokens);
        // --class with "?" fields matches any value.
        CompareOptions only;
        only.onlyClass = StepClass::parse(QStringLiteral("?:8:?"));
        QCOMPARE(compareRuns(base, changed, only).whole.baselineSteps, size_t(3));
    }

    // Every step paired within its class (the dock's "all pairs", `[` / `]`): the k-th of a class in the
    // baseline with the k-th in the changed run, in time order, each class's median pair flagged.
    void everyStepIsPairedWithinItsClass()
    {
        RunSamples base, changed;
        base.hasRecords = changed.hasRecords = true;
        // Interleaved classes, stored out of time order (dp rank 1 first): time is (forward_ct, dp rank).
        // Baseline A: ct 101, 103, 105 (ms 30, 10, 20); B: ct 102, 104; a C step outside the window.
        base.steps.push_back(sample(kA, 105, true, 20));
        base.steps.push_back(sample(kA, 101, true, 30));
        base.steps.push_back(sample(kB, 104, true, 7));
        base.steps.push_back(sample(kA, 103, true, 10));
        base.steps.push_back(sample(kB, 102, true, 5));
        base.steps.push_back(sample(kC, 106, false, 3));
        // Changed A: ct 501, 502, 504, 506 (ms 11, 14, 12, 13); B: ct 503; C outside the window.
        const std::pair<int64_t, double> changedA[] = {{504, 12}, {501, 11}, {506, 13}, {502, 14}};
        for (const auto& [ct, ms] : changedA)
            changed.steps.push_back(sample(kA, ct, true, ms));
        changed.steps.push_back(sample(kB, 503, true, 9));
        changed.steps.push_back(sample(kC, 505, false, 2));

        const RunComparison c = compareRuns(base, changed);
        // By hand: A pairs (101, 501), (103, 502), (105, 504) — the changed run's 4th A step (506) has no
        // partner; B pairs (102, 503) and B's 2nd baseline step (104) none; C is compared nowhere.
        // Medians by step GPU: A baseline 20 ms = ct 105, changed lower median 12 ms = ct 504: the 3rd pair.
        // B baseline lower median 5 ms = ct 102, changed 503: the B pair. In baseline time order:
        const std::vector<std::tuple<int64_t, int64_t, bool>> expected = {
            {101, 501, false}, {102, 503, true}, {103, 502, false}, {105, 504, true}};
        QCOMPARE(c.allPairs.size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i) {
            const MatchedPair& p = c.allPairs[i];
            QCOMPARE(p.baselineForwardCt, std::get<0>(expected[i]));
            QCOMPARE(p.changedForwardCt, std::get<1>(expected[i]));
            QCOMPARE(p.median, std::get<2>(expected[i]));
            QCOMPARE(p.cls, p.baselineForwardCt == 102 ? kB : kA);
            QCOMPARE(base.steps[p.baselineSample].forwardCt, p.baselineForwardCt); // indices into the samples
            QCOMPARE(changed.steps[p.changedSample].forwardCt, p.changedForwardCt);
            QVERIFY(!p.picked);
        }
        QCOMPARE(c.allPairs[1].delta(Quantity::StepGpuMs), 4.0); // 9 − 5
        // The median pairs are the default rows, one per class in both runs, flagged alike.
        QCOMPARE(c.pairs.size(), size_t(2));
        for (const MatchedPair& m : c.pairs) {
            QVERIFY(m.median);
            QCOMPARE(std::count_if(c.allPairs.begin(), c.allPairs.end(),
                                   [&](const MatchedPair& p) {
                                       return p.median && p.baselineSample == m.baselineSample &&
                                              p.changedSample == m.changedSample;
                                   }),
                     1);
        }

        // A median pair that is no k-th pair is added, flagged: with ct 101 at 20 ms and 105 at 30 ms, the
        // baseline's A median is ct 101, paired with the changed median ct 504 (the k-th pairs stay).
        base.steps[0].values[size_t(Quantity::StepGpuMs)] = 30; // ct 105
        base.steps[1].values[size_t(Quantity::StepGpuMs)] = 20; // ct 101
        const RunComparison d = compareRuns(base, changed);
        QCOMPARE(d.allPairs.size(), size_t(5));
        const auto added = std::find_if(d.allPairs.begin(), d.allPairs.end(), [](const MatchedPair& p) {
            return p.baselineForwardCt == 101 && p.changedForwardCt == 504;
        });
        QVERIFY(added != d.allPairs.end() && added->median);
        QVERIFY(!d.allPairs[0].median && d.allPairs[0].changedForwardCt == 501); // (101, 501) stays, unflagged
        QCOMPARE(std::count_if(d.allPairs.begin(), d.allPairs.end(), [](const MatchedPair& p) { return p.median; }), 2);
        // ... as a row of the median view only: the "All pairs" rows (not extraMedian) hold every paired
        // step once — (101, 501), (102, 503), (103, 502), (105, 504) — and the added row repeats 101 and 504.
        QVERIFY(added->extraMedian);
        QCOMPARE(
            std::count_if(d.allPairs.begin(), d.allPairs.end(), [](const MatchedPair& p) { return p.extraMedian; }), 1);
        std::multiset<int64_t> baselineCts, changedCts;
        for (const MatchedPair& p : d.allPairs)
            if (!p.extraMedian) {
                baselineCts.insert(p.baselineForwardCt);
                changedCts.insert(p.changedForwardCt);
            }
        QCOMPARE(baselineCts, (std::multiset<int64_t>{101, 102, 103, 105}));
        QCOMPARE(changedCts, (std::multiset<int64_t>{501, 502, 503, 504}));
        QVERIFY(std::none_of(c.allPairs.begin(), c.allPairs.end(), [](const MatchedPair& p) { return p.extraMedian; }));
    }

    void stepClassLabelsRoundTrip()
    {
        QCOMPARE(kA.label(), std::string("static:8:16"));
        QCOMPARE(*StepClass::parse(QStringLiteral("static:8:16")), kA);
        QCOMPARE(StepClass::parse(QStringLiteral("?:?:4"))->verifyTokens, int64_t(4));
        QVERIFY(!StepClass::parse(QStringLiteral("static:8")));
        QVERIFY(!StepClass::parse(QStringLiteral("static:x:16")));
    }

    // A B C D E F G → A B X C D F G: X inserted, E removed. Positional pairing would pair C with X, D with
    // C, …; the diff pairs every surviving kernel with itself.
    void myersRecoversAnInsertedAndARemovedKernel()
    {
        const std::vector<uint32_t> a = {0, 1, 2, 3, 4, 5, 6}, b = {0, 1, 9, 2, 3, 5, 6};
        const SequenceAlignment al = alignSequences(a, b);
        const std::vector<std::pair<uint32_t, uint32_t>> expected = {{0, 0}, {1, 1}, {2, 3}, {3, 4}, {5, 5}, {6, 6}};
        QCOMPARE(al.matches, expected);
        QCOMPARE(al.editDistance, size_t(2));
        QVERIFY(!al.fellBack);
    }

    void myersIsMinimalOnRandomSequences()
    {
        std::mt19937 rng(11);
        for (int trial = 0; trial < 300; ++trial) {
            std::uniform_int_distribution<int> len(0, 40), sym(0, trial % 2 ? 3 : 12);
            std::vector<uint32_t> a(size_t(len(rng))), b(size_t(len(rng)));
            for (uint32_t& v : a)
                v = uint32_t(sym(rng));
            for (uint32_t& v : b)
                v = uint32_t(sym(rng));
            const SequenceAlignment al = alignSequences(a, b);
            checkValidAlignment(al, a, b);
            QCOMPARE(al.matches.size(), lcsLength(a, b));
            // Past a bound of 1 edit the fallback still gives an order-preserving alignment.
            const SequenceAlignment bounded = alignSequences(a, b, 1);
            checkValidAlignment(bounded, a, b);
            // Without the fallback the answer is the minimal one; the fallback happens only past the bound.
            if (!bounded.fellBack)
                QCOMPARE(bounded.matches.size(), al.matches.size());
            else
                QVERIFY(al.editDistance > 1);
        }
    }

    // Two profiles of one stream: the changed run has `extra` after k3, has no k7, and k5 is 10 µs longer.
    void kernelAlignmentOfTwoProfiles()
    {
        const auto base =
            streamProfile({"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8"}, {10, 10, 10, 10, 10, 20, 10, 10, 10});
        const auto changed = streamProfile({"k0", "k1", "k2", "k3", "extra", "k4", "k5", "k6", "k8"},
                                           {10, 10, 10, 10, 5, 10, 30, 10, 11});
        const std::vector<EventRef> ta = deviceTasksIn(*base, 0, 1'000'000'000);
        const std::vector<EventRef> tb = deviceTasksIn(*changed, 0, 1'000'000'000);
        QCOMPARE(ta.size(), size_t(9));
        const KernelAlignment k = alignTasks(*base, ta, *changed, tb);
        QCOMPARE(k.streams.size(), size_t(1));
        QCOMPARE(k.streams[0].baselineStreamId, int64_t(5));
        QCOMPARE(k.streams[0].matched, size_t(8));
        QCOMPARE(k.onlyChanged.size(), size_t(1));
        QCOMPARE(k.onlyChanged[0].name, std::string("extra"));
        QCOMPARE(k.onlyChanged[0].changedNs, TimeNs(5000));
        QVERIFY(k.onlyChanged[0].changed.valid() && !k.onlyChanged[0].baseline.valid());
        QCOMPARE(k.onlyBaseline.size(), size_t(1));
        QCOMPARE(k.onlyBaseline[0].name, std::string("k7"));
        QCOMPARE(k.regressions[0].name, std::string("k5"));
        QCOMPARE(k.regressions[0].deltaNs(), TimeNs(10000));
        QCOMPARE(k.regressions[1].name, std::string("k8"));
        QCOMPARE(k.regressions[1].deltaNs(), TimeNs(1000));
        QCOMPARE(k.matchedDeltaNs, TimeNs(11000));
        // Each entry carries both events, so a view can go to them.
        QCOMPARE(base->name(k.regressions[0].baseline), std::string_view("k5"));
        QCOMPARE(changed->name(k.regressions[0].changed), std::string_view("k5"));
        // In stream order: … k3, extra, k4 …, k6, k7 (baseline only), k8.
        const auto& t = k.streams[0].tasks;
        QCOMPARE(t[4].kind, AlignedKind::ChangedOnly);
        QCOMPARE(t[8].kind, AlignedKind::BaselineOnly);
        QCOMPARE(t[8].name, std::string("k7"));
    }

    // Two changed fields of two groups (the draft block, and max running requests); a key one run does
    // not have is unknown; start / end times and pids say nothing about the experiment.
    void configDiffFindsExactlyTheChangedFields()
    {
        RunConfig a, b;
        a.values = {{"server.speculative_num_draft_tokens", "4"},
                    {"server.max_running_requests", "32"},
                    {"server.tp_size", "16"},
                    {"server.model_path", "/models/dsv4"},
                    {"server.deepep_mode", "auto"},
                    {"server.only_here", "1"},
                    {"profiler_info.start_info.syscnt_enable", "1"},
                    {"profiler_info.end_info.collectionTimeEnd", "100"},
                    {"profiler_metadata.ENV_VARIABLES.pid", "17"}};
        b.values = a.values;
        b.values.erase("server.only_here");
        b.values["server.speculative_num_draft_tokens"] = "8";
        b.values["server.max_running_requests"] = "64";
        b.values["profiler_info.end_info.collectionTimeEnd"] = "900";
        b.values["profiler_metadata.ENV_VARIABLES.pid"] = "99";
        const ConfigDiff d = compareConfigs(a, b);
        const std::vector<const ConfigField*> diff = d.differing();
        QCOMPARE(diff.size(), size_t(2));
        QCOMPARE(diff[0]->key, std::string("server.max_running_requests")); // Concurrency before DSpark
        QCOMPARE(diff[0]->group, ConfigGroup::Concurrency);
        QCOMPARE(*diff[1]->baseline, std::string("4"));
        QCOMPARE(*diff[1]->changed, std::string("8"));
        QCOMPARE(diff[1]->group, ConfigGroup::DsparkConfig);
        QCOMPARE(d.differingGroups(), size_t(2));
        QCOMPARE(d.groups[size_t(ConfigGroup::ParallelLayout)], FieldState::Same);
        QCOMPARE(d.groups[size_t(ConfigGroup::Checkpoint)], FieldState::Same);
        QCOMPARE(d.groups[size_t(ConfigGroup::DeepEpMode)], FieldState::Same);
        QCOMPARE(d.groups[size_t(ConfigGroup::Device)], FieldState::Unknown);
        QCOMPARE(d.groups[size_t(ConfigGroup::ServerArgs)], FieldState::Unknown); // only_here: one side
        QVERIFY(d.warning().contains(QStringLiteral("2 groups")));
        b.values["server.max_running_requests"] = "32";
        QVERIFY(compareConfigs(a, b).warning().isEmpty()); // one group differs: a controlled experiment
    }
};

QTEST_GUILESS_MAIN(TestCompareEngine)
#include "tst_compare_engine.moc"
