// The comparison demo pair (docs/demo.md §9) read back through the real loaders and compared: every
// distribution, delta and interval against the pair's ground truth (computed by the writer from what the
// simulation knows, not from the analyses) within 1 %, the configuration diff finds exactly the two
// changed fields, the kernel alignment recovers the inserted and the removed kernel of every verify step,
// and the cost-and-output table carries each side's own analyses.

#include "compare/ConfigDiff.h"
#include "compare/KernelAlignment.h"
#include "compare/OpenComparison.h"
#include "compare/RunComparison.h"
#include "demo/DemoPairWriter.h"
#include "io/ProfileLoader.h"
#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"
#include "util/Parallel.h"

#include "TestSupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <set>
#include <thread>

using namespace dspark;
using json = nlohmann::json;

class TestCompareDemo : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    json m_truth;
    std::unique_ptr<ProfileSession> m_base, m_changed;
    RunComparison m_comparison;

    static json readJson(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? json::parse(f.readAll().toStdString(), nullptr, false) : json();
    }

    std::unique_ptr<ProfileSession> load(const QString& path)
    {
        const LoadOutcome outcome = loadProfile(path.toStdString());
        if (!outcome.profile)
            return nullptr;
        auto session = std::make_unique<ProfileSession>(outcome.profile, path);
        session->analyses()->computeNow();
        return session;
    }

    // 1 % of the scale of the figure: of the baseline step wall for times (a critical-path category of the
    // analysis may differ from the simulation's by ~150 µs a step: docs/analysis.md §7), else of the value.
    double tolerance(Quantity q, const json& expected) const
    {
        if (std::string(quantityInfo(q).unit) == "ms")
            return 0.01 *
                   m_truth["expected"]["whole"]["quantities"]["step_wall_ms"]["baseline"]["median"].get<double>();
        const auto mag = [&](const char* side) {
            const json& m = expected[side]["median"];
            return m.is_number() ? std::fabs(m.get<double>()) : 0.0;
        };
        return 0.01 * std::max(mag("baseline"), mag("changed")) + 1e-9;
    }

    void checkGroup(const ClassComparison& mine, const json& expected, const QString& where)
    {
        QCOMPARE(mine.baselineSteps, expected["baseline_steps"].get<size_t>());
        QCOMPARE(mine.changedSteps, expected["changed_steps"].get<size_t>());
        size_t checked = 0;
        for (const auto& [key, e] : expected["quantities"].items()) {
            const Quantity q = *quantityFromKey(key);
            const QuantityComparison* c = mine.find(q);
            QVERIFY2(c, qPrintable(where + QStringLiteral(": no ") + QString::fromStdString(key)));
            const double tol = tolerance(q, e);
            const auto near = [&](double got, const json& want, const char* what) {
                const QString msg = QStringLiteral("%1 %2 %3: %4 vs %5 (tolerance %6)")
                                        .arg(where, QString::fromStdString(key), QLatin1String(what))
                                        .arg(got)
                                        .arg(want.is_number() ? want.get<double>() : std::nan(""))
                                        .arg(tol);
                QVERIFY2(want.is_number() && std::fabs(got - want.get<double>()) <= tol, qPrintable(msg));
            };
            QCOMPARE(c->baseline.n, e["baseline"]["n"].get<size_t>());
            QCOMPARE(c->changed.n, e["changed"]["n"].get<size_t>());
            near(c->baseline.median, e["baseline"]["median"], "baseline median");
            near(c->changed.median, e["changed"]["median"], "changed median");
            near(c->baseline.p10, e["baseline"]["p10"], "baseline p10");
            near(c->changed.p90, e["changed"]["p90"], "changed p90");
            near(c->change.delta, e["delta"], "delta");
            near(c->change.low, e["ci"][0], "interval low");
            near(c->change.high, e["ci"][1], "interval high");
            ++checked;
        }
        QCOMPARE(checked, kQuantityCount); // every quantity has a truth
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        const QString out = m_tmp.filePath(QStringLiteral("pair"));
        const demo::DemoPairResult written = demo::writeDemoPair({}, out.toStdString());
        QVERIFY2(written.error.isEmpty(), qPrintable(written.error));
        // Nothing may depend on the names: the runs' folders and the changed run's server_info.json renamed.
        QVERIFY(QDir(out).rename(QStringLiteral("baseline"), QStringLiteral("run a")));
        QVERIFY(QDir(out).rename(QStringLiteral("changed"), QStringLiteral("run b")));
        QVERIFY(
            QFile::rename(out + QStringLiteral("/run b/server_info.json"), out + QStringLiteral("/run b/state.json")));
        m_truth = readJson(out + QStringLiteral("/ground_truth_compare.json"));
        QVERIFY(m_truth.is_object());
        m_base = load(out + QStringLiteral("/run a"));
        m_changed = load(out + QStringLiteral("/run b"));
        QVERIFY(m_base && m_changed);
        QVERIFY(m_base->profile()->stepRecords && m_changed->profile()->stepRecords);
        m_comparison = compareRuns(*m_base, *m_changed);
    }

    // Each run prepared on its own (its load thread's part: samples, config, device tasks, the bootstrap
    // positions of its counts drawn ahead) gives the comparison of the two computed in one piece, bit for
    // bit; positions drawn for the other role (a swap) are not used in place of the right ones.
    void twoLoadsSideBySideSplitTheCores()
    {
        // One loader thread a side on 2 or 3 cores (two loads that each wanted a second core would share
        // them); the loader's default from 4 cores on; never none.
        const unsigned cores = std::thread::hardware_concurrency();
        const int expected = cores >= 4 ? defaultLoaderThreads() : 1;
        QCOMPARE(sideBySideLoaderThreads(), expected);
    }

    void windowOptionsLeaveOutOnlyTheDeviceTasks()
    {
        const CompareOptions full;
        const CompareOptions window = windowCompareOptions();
        const ComparisonSide a = prepareSide(*m_base, ComparisonRole::Baseline, window);
        const ComparisonSide b = prepareSide(*m_changed, ComparisonRole::Changed, window);
        QVERIFY(!a.tasks && !b.tasks);
        const RunComparison shown = compareRuns(a, b, window);
        const RunComparison reported = compareRuns(*m_base, *m_changed, full);
        QVERIFY(shown.deviceTasks.names.empty() && shown.deviceTasks.categories.empty());
        QVERIFY(!reported.deviceTasks.names.empty() && !reported.deviceTasks.categories.empty());
        // Everything else the same, bit for bit.
        QCOMPARE(shown.classes.size(), reported.classes.size());
        QVERIFY(!shown.whole.quantities.empty());
        for (size_t q = 0; q < reported.whole.quantities.size(); ++q) {
            const MedianChange& x = shown.whole.quantities[q].change;
            const MedianChange& y = reported.whole.quantities[q].change;
            QVERIFY((x.low == y.low && x.high == y.high && x.delta == y.delta) || std::isnan(y.delta));
        }
        QCOMPARE(shown.pairs.size(), reported.pairs.size());
        QCOMPARE(shown.allPairs.size(), reported.allPairs.size());
        QCOMPARE(shown.config.fields.size(), reported.config.fields.size());
    }

    void preparedSidesGiveTheSameComparison()
    {
        CompareOptions fresh; // a seed no other test draws with: nothing is in the positions' cache yet
        fresh.bootstrap.seed = 4242;
        const ComparisonSide a = prepareSide(*m_base, ComparisonRole::Baseline, fresh);
        const ComparisonSide b = prepareSide(*m_changed, ComparisonRole::Changed, fresh);
        const RunComparison prepared = compareRuns(a, b, fresh);
        // The reference: the samples compared directly, the device tasks from the profiles.
        const RunComparison direct = compareRuns(collectSamples(*m_base->profile(), m_base->analyses()),
                                                 collectSamples(*m_changed->profile(), m_changed->analyses()), fresh);
        const DeviceTaskComparison tasks =
            compareDeviceTasks(*m_base->profile(), *m_changed->profile(), fresh.bootstrap);
        const auto same = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
        const auto sameChange = [&](const MedianChange& x, const MedianChange& y) {
            return same(x.delta, y.delta) && same(x.low, y.low) && same(x.high, y.high);
        };
        QCOMPARE(prepared.classes.size(), direct.classes.size());
        for (size_t c = 0; c < direct.classes.size(); ++c) {
            QCOMPARE(prepared.classes[c].quantities.size(), direct.classes[c].quantities.size());
            for (size_t q = 0; q < direct.classes[c].quantities.size(); ++q)
                QVERIFY(sameChange(prepared.classes[c].quantities[q].change, direct.classes[c].quantities[q].change));
        }
        for (size_t q = 0; q < direct.whole.quantities.size(); ++q)
            QVERIFY(sameChange(prepared.whole.quantities[q].change, direct.whole.quantities[q].change));
        QCOMPARE(prepared.allPairs.size(), direct.allPairs.size());
        QCOMPARE(prepared.deviceTasks.names.size(), tasks.names.size());
        for (size_t i = 0; i < tasks.names.size(); ++i) {
            QCOMPARE(prepared.deviceTasks.names[i].name, tasks.names[i].name);
            QVERIFY(sameChange(prepared.deviceTasks.names[i].change, tasks.names[i].change));
        }
        QVERIFY(!tasks.categories.empty());
        for (size_t i = 0; i < tasks.categories.size(); ++i)
            QVERIFY(sameChange(prepared.deviceTasks.categories[i].change, tasks.categories[i].change));
        QCOMPARE(prepared.config.fields.size(), m_comparison.config.fields.size());
        // Swapped: each side's positions were drawn for the other role's seed.
        CompareOptions other = fresh;
        other.bootstrap.seed = 4343;
        const ComparisonSide a2 = prepareSide(*m_base, ComparisonRole::Changed, other);
        const ComparisonSide b2 = prepareSide(*m_changed, ComparisonRole::Baseline, other);
        const RunComparison swapped = compareRuns(a2, b2, other);
        const RunComparison swappedDirect = compareRuns(a2.samples, b2.samples, other);
        for (size_t q = 0; q < swappedDirect.whole.quantities.size(); ++q)
            QVERIFY(sameChange(swapped.whole.quantities[q].change, swappedDirect.whole.quantities[q].change));
        // And the intervals are real ones (the test would pass on NaN otherwise).
        const QuantityComparison* wall = prepared.whole.find(Quantity::StepWallMs);
        QVERIFY(wall && std::isfinite(wall->change.low) && wall->change.low < wall->change.high);
    }

    // The server arguments come from what the loader kept of server_info.json (read once): they are there
    // with the file gone.
    void theServerArgumentsAreReadOnce()
    {
        const QString changedDir = QString::fromStdString(m_changed->profile()->rootPath);
        QTemporaryDir moved;
        QVERIFY(
            QFile::rename(changedDir + QStringLiteral("/state.json"), moved.filePath(QStringLiteral("state.json"))));
        const RunConfig config = readRunConfig(*m_changed->profile());
        QVERIFY(
            QFile::rename(moved.filePath(QStringLiteral("state.json")), changedDir + QStringLiteral("/state.json")));
        // The demo's changed run: a draft block of 8 and 160 running requests (docs/demo.md §9).
        QCOMPARE(config.values.at("server.speculative_num_draft_tokens"), std::string("8"));
        QCOMPARE(config.values.at("server.max_running_requests"), std::string("160"));
        QVERIFY(config.warnings.empty());
        QVERIFY(!config.values.count("server.internal_states"));
    }

    void everyDistributionDeltaAndIntervalMatchesTheTruth()
    {
        const json& expected = m_truth["expected"];
        QCOMPARE(m_comparison.classesIgnoreVerifyTokens, expected["classes_ignore_verify_tokens"].get<bool>());
        QVERIFY(m_comparison.classesIgnoreVerifyTokens); // 4 vs 8 verify positions: the classes never meet
        checkGroup(m_comparison.whole, expected["whole"], QStringLiteral("whole"));
        size_t matched = 0;
        for (const json& e : expected["classes"]) {
            const auto it = std::find_if(m_comparison.classes.begin(), m_comparison.classes.end(),
                                         [&](const ClassComparison& c) { return c.cls.label() == e["class"]; });
            QVERIFY2(it != m_comparison.classes.end(), qPrintable(QString::fromStdString(e["class"])));
            QCOMPARE(it->presence, ClassPresence::Both);
            checkGroup(*it, e, QString::fromStdString(e["class"]));
            ++matched;
        }
        QCOMPARE(matched, size_t(1)); // compact:8:? — the steady bs 8 window of both runs
    }

    // The story of the pair: a larger draft block commits more tokens a step, but verifies more tokens
    // and exposes more dispatch / combine.
    void theChangeShowsWhereItShould()
    {
        const ClassComparison& w = m_comparison.whole;
        QVERIFY(w.find(Quantity::MeanCommitLen)->change.delta > 0.2);
        QVERIFY(w.find(Quantity::MeanCommitLen)->change.significant());
        QVERIFY(w.find(Quantity::BandVerifyMs)->change.significant());
        QVERIFY(w.find(Quantity::BandVerifyMs)->change.delta > 0);
        QVERIFY(w.find(Quantity::CommExposedMs)->change.delta > 0);
        QVERIFY(w.find(Quantity::CommExposedMs)->change.significant());
        QVERIFY(w.find(Quantity::DraftGpuMs)->change.delta > 0);
    }

    void configDiffFindsExactlyTheTwoChangedFields()
    {
        const ConfigDiff& d = m_comparison.config;
        QCOMPARE(d.differingGroups(), size_t(2));
        QCOMPARE(d.groups[size_t(ConfigGroup::DsparkConfig)], FieldState::Different);
        QCOMPARE(d.groups[size_t(ConfigGroup::Concurrency)], FieldState::Different);
        std::set<std::string> expected, found;
        for (const auto& [group, keys] : m_truth["config_diff"].items())
            for (const json& k : keys)
                expected.insert(k.get<std::string>());
        for (const ConfigField* f : d.differing())
            found.insert(f->key);
        QCOMPARE(found, expected);
        QVERIFY(!d.warning().isEmpty());
        QCOMPARE(d.groups[size_t(ConfigGroup::ParallelLayout)], FieldState::Same);
        QCOMPARE(d.groups[size_t(ConfigGroup::DeepEpMode)], FieldState::Same);
        QCOMPARE(d.groups[size_t(ConfigGroup::Device)], FieldState::Same);
    }

    // Every verify step of the baseline's window against the changed run's step at the same position:
    // exactly DsparkTreeMask inserted and ArgMaxWithValue removed, on stream 2, all else matched.
    void kernelAlignmentRecoversTheInsertedAndRemovedKernels()
    {
        const RunSamples& a = m_comparison.baselineRun;
        const RunSamples& b = m_comparison.changedRun;
        std::vector<int64_t> sa, sb;
        for (const StepSample& s : a.steps)
            if (s.inStableWindow && s.stepIndex >= 0)
                sa.push_back(s.stepIndex);
        for (const StepSample& s : b.steps)
            if (s.inStableWindow && s.stepIndex >= 0)
                sb.push_back(s.stepIndex);
        QVERIFY(sa.size() >= 10);
        KernelAlignOptions verifyOnly;
        verifyOnly.stage = Stage::Verify;
        const std::string inserted = m_truth["kernels"]["inserted"], removed = m_truth["kernels"]["removed"];
        for (size_t i = 0; i < std::min(sa.size(), sb.size()); ++i) {
            const StepAnalysis* x = m_base->analyses()->analysis(size_t(sa[i]));
            const StepAnalysis* y = m_changed->analyses()->analysis(size_t(sb[i]));
            const KernelAlignment k = alignKernels(*m_base->profile(), *x, *m_changed->profile(), *y, verifyOnly);
            QVERIFY(!k.fellBack);
            QCOMPARE(k.onlyChanged.size(), size_t(1));
            QCOMPARE(k.onlyChanged[0].name, inserted);
            QCOMPARE(k.onlyBaseline.size(), size_t(1));
            QCOMPARE(k.onlyBaseline[0].name, removed);
            QCOMPARE(m_changed->profile()->lanes[k.onlyChanged[0].changed.lane].info.streamId,
                     m_truth["kernels"]["stream"].get<int64_t>());
            QVERIFY(k.regressions.size() > 1000); // the rest of the 61-layer graph is matched
        }
        // The whole step too (more draft passes make more tasks only in the changed run; still the one
        // removed verify kernel is the only baseline-only task).
        const MatchedPair& p = m_comparison.pairs.at(0);
        const KernelAlignment whole =
            alignKernels(*m_base->profile(), *m_base->analyses()->analysis(size_t(p.baselineStepIndex)),
                         *m_changed->profile(), *m_changed->analyses()->analysis(size_t(p.changedStepIndex)));
        QCOMPARE(whole.onlyBaseline.size(), size_t(1));
        QCOMPARE(whole.onlyBaseline[0].name, removed);
        QVERIFY(std::count_if(whole.onlyChanged.begin(), whole.onlyChanged.end(),
                              [&](const AlignedTask& t) { return t.name == inserted; }) == 1);
    }

    // The cost-and-output table holds each side's own analyses and records for the steps it names.
    void tableMatchesEachSidesAnalyses()
    {
        QCOMPARE(m_comparison.pairs.size(), size_t(1));
        for (const MatchedPair& p : m_comparison.pairs) {
            for (int side = 0; side < 2; ++side) {
                const ProfileSession& session = side == 0 ? *m_base : *m_changed;
                const int64_t stepIndex = side == 0 ? p.baselineStepIndex : p.changedStepIndex;
                const auto& values = side == 0 ? p.baseline : p.changed;
                QVERIFY(stepIndex >= 0);
                const StepAnalysis& a = *session.analyses()->analysis(size_t(stepIndex));
                QCOMPARE(a.window.forwardCt, side == 0 ? p.baselineForwardCt : p.changedForwardCt);
                QCOMPARE(values[size_t(Quantity::StepWallMs)], double(a.window.wallNs()) * 1e-6);
                QCOMPARE(values[size_t(Quantity::CommExposedMs)], double(a.comm.exposedNs) * 1e-6);
                QCOMPARE(values[size_t(Quantity::PreReplayGapMs)], double(a.replay.preReplayGapNs) * 1e-6);
                QCOMPARE(values[size_t(Quantity::PathExposedCommMs)],
                         double(a.criticalPath.categoryNs(PathCategory::ExposedComm)) * 1e-6);
                const StepRecordSet& set = *session.profile()->stepRecords;
                const StepRecord& r = set.record(size_t(a.recordRow));
                QCOMPARE(values[size_t(Quantity::StepGpuMs)], *r.stepGpuMs);
                QCOMPARE(values[size_t(Quantity::MeanCommitLen)], *set.rows[size_t(a.recordRow)].derived.meanCommitLen);
            }
            // The pair is the median step of its class by step wall.
            const ClassComparison& c = m_comparison.classes.front();
            QVERIFY(
                std::fabs(p.baseline[size_t(Quantity::StepWallMs)] - c.find(Quantity::StepWallMs)->baseline.median) <
                0.1 * c.find(Quantity::StepWallMs)->baseline.median);
        }
    }
};

QTEST_GUILESS_MAIN(TestCompareDemo)
#include "tst_compare_demo.moc"
