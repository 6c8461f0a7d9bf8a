// The analyses against the demo's ground truth (docs/demo.md §5–§7): the simulator knows why every task
// started, the analyses only see the written profile (msprof db, or trace_view.json) through the real
// loaders. Every injected situation must be detected and every figure must agree within 1 %.
#include "analysis/StepAnalysis.h"
#include "analysis/StepAnomalies.h"
#include "io/ProfileLoader.h"
#include "report/AnalyzeJson.h"
#include "steps/StepRecords.h"

#include "../demo/DemoTestSupport.h"
#include "TestSupport.h"

#include <QTest>

#include <algorithm>
#include <map>

using namespace dspark;
using nlohmann::json;

namespace {

const char* const kCategories[] = {"draft",  "verify_compute", "exposed_comm", "accept_tp_sync",
                                   "commit", "host_gap",       "idle"};

TimeNs length(const json& interval)
{
    return interval["end_ns"].get<TimeNs>() - interval["start_ns"].get<TimeNs>();
}

bool within(TimeNs got, TimeNs want, TimeNs tolerance)
{
    return std::llabs(got - want) <= tolerance;
}

TimeNs median(std::vector<TimeNs> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

bool isDeepep(const CommOperation& op)
{
    return op.deepep;
}

} // namespace

class TestDemoTruth : public QObject {
    Q_OBJECT

    test::WrittenDemo m_demo;
    std::shared_ptr<Profile> m_profile;
    ProfileAnalysis m_db;   // from the msprof database
    ProfileAnalysis m_json; // from trace_view.json of the same run
    std::map<int64_t, const StepAnalysis*> m_byCt;
    std::map<int64_t, json> m_truth; // forward_ct → ground-truth step (records only)

    const StepAnalysis& step(int64_t ct) const { return *m_byCt.at(ct); }

private Q_SLOTS:
    void initTestCase()
    {
        m_demo = test::writeTestDemo(24, 7, 1, /*traceJson=*/true);
        QVERIFY2(m_demo.result.error.isEmpty(), qPrintable(m_demo.result.error));
        LoadOutcome out = loadProfile(m_demo.dir.toStdString());
        QVERIFY2(out.profile, qPrintable(out.error));
        m_profile = out.profile;
        m_db = analyzeProfile(*m_profile, AnalysisRules::defaults());
        for (const StepAnalysis& s : m_db.steps)
            m_byCt[s.window.forwardCt] = &s;
        for (const json& s : m_demo.truth["steps"])
            if (s["has_record"].get<bool>())
                m_truth[s["forward_ct"].get<int64_t>()] = s;

        // The same run from its trace_view.json: the scanner prefers the database, so drop it (this
        // folder is the test's own output).
        QVERIFY(QFile::remove(m_demo.dbPath()));
        out = loadProfile(m_demo.dir.toStdString());
        QVERIFY2(out.profile, qPrintable(out.error));
        QCOMPARE(QString::fromStdString(out.profile->files.front().format).isEmpty(), false);
        m_json = analyzeProfile(*out.profile, AnalysisRules::defaults());
    }

    void everyRecordedStepIsAnalysedOverItsWindow()
    {
        QCOMPARE(m_db.steps.size(), m_truth.size()); // 23: the prefill iteration has no record
        for (const auto& [ct, t] : m_truth) {
            QVERIFY2(m_byCt.count(ct), qPrintable(QString::number(ct)));
            const StepAnalysis& s = step(ct);
            QCOMPARE(s.window.startNs, t["window"]["start_ns"].get<TimeNs>());
            QCOMPARE(s.window.endNs, t["window"]["end_ns"].get<TimeNs>());
        }
        const int64_t prefillCt = m_demo.truth["run"]["start_step"].get<int64_t>() + 12;
        QVERIFY(!m_byCt.count(prefillCt));
    }

    void criticalPathAgreesWithTheSimulation()
    {
        std::map<std::string, std::pair<TimeNs, TimeNs>> totals; // mine, truth
        for (const auto& [ct, t] : m_truth) {
            const CriticalPath& p = step(ct).criticalPath;
            const TimeNs wall = t["window"]["wall_ns"].get<TimeNs>();
            QCOMPARE(p.totalNs(), wall);
            QCOMPARE(t["critical_path_ns"]["prefill"].get<TimeNs>(), TimeNs(0));
            for (size_t c = 0; c < kPathCategoryCount; ++c) {
                const TimeNs want = t["critical_path_ns"][kCategories[c]].get<TimeNs>();
                // Each category within 1 % of the step's wall time. (Where the host and the device
                // ran at the same pace in the eager draft, a launch that arrived within the jitter of
                // the stream's own gap can move one draft pass between `draft` and `host_gap`.)
                QVERIFY2(within(p.byCategory[c], want, wall / 100),
                         qPrintable(QStringLiteral("forward_ct %1 %2: %3 vs %4")
                                        .arg(ct)
                                        .arg(QLatin1String(kCategories[c]))
                                        .arg(p.byCategory[c])
                                        .arg(want)));
                totals[kCategories[c]].first += p.byCategory[c];
                totals[kCategories[c]].second += want;
            }
        }
        // Over all steps, each category within 1 % of the steps' wall time. The simulation counts a
        // queued launch whose latency outlasted the stream's gap as launch-bound; the analysis follows
        // HTA (launch-bound only when the stream had nothing outstanding), so where the host and the
        // device ran at the same pace (the eager draft) draft passes move from host_gap to draft.
        TimeNs wallTotal = 0;
        for (const auto& [ct, t] : m_truth)
            wallTotal += t["window"]["wall_ns"].get<TimeNs>();
        for (const auto& [name, sums] : totals)
            QVERIFY2(
                within(sums.first, sums.second, std::max<TimeNs>(wallTotal / 100, 1000)),
                qPrintable(
                    QStringLiteral("%1: %2 vs %3").arg(QString::fromStdString(name)).arg(sums.first).arg(sums.second)));
    }

    void deepepOperationsMatchOneByOne()
    {
        size_t compared = 0;
        for (const auto& [ct, t] : m_truth) {
            std::vector<const CommOperation*> mine;
            for (const CommOperation& op : step(ct).comm.operations)
                if (isDeepep(op))
                    mine.push_back(&op);
            const json& ops = t["deepep"]["ops"];
            QCOMPARE(mine.size(), ops.size());
            std::vector<json> truthOps(ops.begin(), ops.end());
            std::sort(truthOps.begin(), truthOps.end(), [](const json& a, const json& b) {
                return a["inflight_start_ns"].get<TimeNs>() < b["inflight_start_ns"].get<TimeNs>();
            });
            TimeNs inflight = 0, exposed = 0, hidden = 0;
            for (size_t i = 0; i < mine.size(); ++i) {
                const CommOperation& m = *mine[i];
                const json& o = truthOps[i];
                QCOMPARE(m.issueNs, o["issue_ns"].get<TimeNs>());
                QCOMPARE(m.inflight.startNs, o["inflight_start_ns"].get<TimeNs>());
                QCOMPARE(m.inflight.endNs, o["inflight_end_ns"].get<TimeNs>());
                QCOMPARE(m.waitInterval.startNs, o["wait_reached_ns"].get<TimeNs>());
                QCOMPARE(m.exposedNs, o["exposed_ns"].get<TimeNs>());
                QCOMPARE(m.hiddenNs, o["hidden_ns"].get<TimeNs>());
                QCOMPARE(m.streamId, int64_t(5));
                QCOMPARE(m.waitStreamId, int64_t(2));
                QVERIFY(m.inferred);
                inflight += m.inflight.lengthNs();
                exposed += m.exposedNs;
                hidden += m.hiddenNs;
                ++compared;
            }
            QCOMPARE(inflight, t["deepep"]["inflight_ns"].get<TimeNs>());
            QCOMPARE(exposed, t["deepep"]["exposed_ns"].get<TimeNs>());
            QCOMPARE(hidden, t["deepep"]["hidden_ns"].get<TimeNs>());
        }
        QVERIFY(compared > 2000);
    }

    void specTpSyncAndStepCommTotals()
    {
        for (const auto& [ct, t] : m_truth) {
            const StepComm& comm = step(ct).comm;
            const CommOperation* tp = nullptr;
            for (const CommOperation& op : comm.operations)
                if (op.name.find("SpecTpSync") != std::string::npos)
                    tp = &op;
            QVERIFY(tp);
            QCOMPARE(tp->streamId, int64_t(7));
            QCOMPARE(tp->stage, Stage::Accept);
            const TimeNs inflight = t["spec_tp_sync"]["inflight_ns"].get<TimeNs>();
            const TimeNs exposed = t["spec_tp_sync"]["exposed_ns"].get<TimeNs>();
            QVERIFY(within(tp->inflight.lengthNs(), inflight, inflight / 100));
            QVERIFY2(within(tp->exposedNs, exposed, std::max<TimeNs>(exposed / 100, 1)),
                     qPrintable(QStringLiteral("%1: %2 vs %3").arg(ct).arg(tp->exposedNs).arg(exposed)));
            // T_comm_total / T_comm_exposed: DeepEP + SpecTpSync.
            QCOMPARE(comm.totalNs, t["deepep"]["inflight_ns"].get<TimeNs>() + tp->inflight.lengthNs());
            QCOMPARE(comm.exposedNs, t["deepep"]["exposed_ns"].get<TimeNs>() + tp->exposedNs);
        }
    }

    void bandsMatchTheStages()
    {
        for (const auto& [ct, t] : m_truth) {
            const StepBands& b = step(ct).bands;
            const json& stages = t["stages"];
            const json& extent = t["task_extent"];
            QVERIFY(b.draft && b.verify && b.accept && b.commit);
            // Draft: [t(DRAFT:start), t(DRAFT:end)] are EVENT_RECORD starts; the band ends at the end
            // of the DRAFT:end record, 20 ns later.
            QCOMPARE(b.draft->extent.startNs, stages["draft"]["start_ns"].get<TimeNs>());
            QVERIFY(within(b.draft->extent.lengthNs(), length(stages["draft"]), 20));
            QCOMPARE(b.verify->extent.startNs, extent["verify"]["start_ns"].get<TimeNs>());
            QCOMPARE(b.verify->extent.endNs, extent["verify"]["end_ns"].get<TimeNs>());
            QVERIFY(within(b.verify->extent.lengthNs(), length(stages["verify"]), length(stages["verify"]) / 100));
            QCOMPARE(b.accept->extent.startNs, extent["accept"]["start_ns"].get<TimeNs>());
            QCOMPARE(b.accept->extent.endNs, extent["accept"]["end_ns"].get<TimeNs>());
            QVERIFY(within(b.accept->extent.lengthNs(), length(stages["accept"]), length(stages["accept"]) / 100));
            QCOMPARE(b.commit->extent.startNs, stages["commit"]["start_ns"].get<TimeNs>());
            QCOMPARE(b.commit->extent.endNs, stages["commit"]["end_ns"].get<TimeNs>());
            QCOMPARE(b.plannerGapNs,
                     extent["verify"]["start_ns"].get<TimeNs>() - extent["draft"]["end_ns"].get<TimeNs>());
            QCOMPARE(b.hostGapNs, length(stages["host_tail"]));
            // The record's segment times are compared with the bands (a few record durations apart).
            QVERIFY(b.draftVsRecordNs && std::llabs(*b.draftVsRecordNs) < 1000);
            QVERIFY(b.verifyVsRecordNs && std::llabs(*b.verifyVsRecordNs) < 1000);
            QCOMPARE(step(ct).replay.preReplayGapNs, t["pre_replay"]["device_gap_ns"].get<TimeNs>());
        }
    }

    void injectedSituationsAreDetected()
    {
        // What each injected situation must look like in the analyses, against the median of the
        // ordinary steps; and no ordinary step may look like it.
        std::map<int64_t, std::vector<std::string>> kinds;
        for (const json& a : m_demo.truth["anomalies"])
            kinds[a["forward_ct"].get<int64_t>()].push_back(a["kind"].get<std::string>());
        const auto tail = [](const StepAnalysis& s) {
            return s.criticalPath.categoryNs(PathCategory::AcceptTpSync) +
                   s.criticalPath.categoryNs(PathCategory::Commit);
        };
        const auto verifyExposed = [](const StepAnalysis& s) {
            TimeNs e = 0;
            for (const CommOperation& op : s.comm.operations)
                if (op.deepep && op.stage == Stage::Verify)
                    e += op.exposedNs;
            return e;
        };
        std::vector<TimeNs> tails, exposed, gaps, drafts;
        for (const auto& [ct, t] : m_truth)
            if (!kinds.count(ct) || kinds[ct] == std::vector<std::string>{"prefill"}) {
                tails.push_back(tail(step(ct)));
                exposed.push_back(verifyExposed(step(ct)));
                gaps.push_back(step(ct).replay.preReplayGapNs);
                drafts.push_back(step(ct).bands.draft->extent.lengthNs());
            }
        const TimeNs tailMedian = median(tails), exposedMedian = median(exposed), gapMedian = median(gaps),
                     draftMedian = median(drafts);
        int detected = 0;
        for (const auto& [ct, t] : m_truth) {
            const StepAnalysis& s = step(ct);
            const bool tailGrowth = tail(s) > tailMedian * 3 / 2;
            const bool exposedComm = verifyExposed(s) > exposedMedian * 2;
            const bool hostGap = s.replay.preReplayGapNs > gapMedian + 3'000'000;
            // A wider verify window: more draft passes (5 instead of 3) make a longer draft band.
            const bool wideVerify = s.bands.draft->extent.lengthNs() > draftMedian * 13 / 10;
            const std::vector<std::string>& k = kinds[ct];
            const auto has = [&](const char* kind) { return std::find(k.begin(), k.end(), kind) != k.end(); };
            QCOMPARE(tailGrowth, has("tail_growth"));
            QCOMPARE(exposedComm, has("exposed_comm"));
            QCOMPARE(hostGap, has("pre_replay_host_gap"));
            QCOMPARE(wideVerify, has("long_accept_worse_tpot"));
            detected += tailGrowth + exposedComm + hostGap + wideVerify;
            if (hostGap) {
                // The host spans during the gap name the culprit.
                const ReplayGap& g = s.replay.replays.front();
                TimeNs metadata = 0;
                for (const HostSpanInGap& h : g.hostSpans)
                    if (m_profile->name(h.span) == "AscendDSV4Backend.init_forward_metadata")
                        metadata = h.overlapNs;
                QVERIFY(metadata > 3'000'000);
            }
        }
        QCOMPARE(detected, 3 + 1 + 1 + 2); // tail_growth ×3, exposed_comm, pre_replay_host_gap, long_accept ×2

        // The step table's flags name each injected cause, and no ordinary step is flagged.
        const StepRecordSet& set = *m_profile->stepRecords;
        const std::vector<StepFindings> findings =
            explainStepAnomalies(set, analysisByRow(set, m_db.steps), set.anomalyOptions);
        const std::map<std::string, AnomalyCause> causeOf = {
            {"tail_growth", AnomalyCause::TailGrowth},
            {"exposed_comm", AnomalyCause::ExposedComm},
            {"pre_replay_host_gap", AnomalyCause::PreReplayGap},
            {"long_accept_worse_tpot", AnomalyCause::LongAcceptWorseTpot}};
        int named = 0;
        for (size_t r = 0; r < set.rows.size(); ++r) {
            const int64_t ct = set.record(r).forwardCt;
            const std::vector<std::string>& k = kinds[ct];
            if (k.empty())
                QVERIFY2(findings[r].empty(),
                         qPrintable(QStringLiteral("%1: %2").arg(ct).arg(findingsText(findings[r]))));
            for (const auto& [kind, cause] : causeOf) {
                const bool want = std::find(k.begin(), k.end(), kind) != k.end();
                const bool got = std::any_of(findings[r].begin(), findings[r].end(),
                                             [&](const StepFinding& f) { return f.cause == cause; });
                QVERIFY2(want == got, qPrintable(QStringLiteral("%1 %2: %3")
                                                     .arg(ct)
                                                     .arg(QString::fromStdString(kind))
                                                     .arg(findingsText(findings[r]))));
                named += got;
            }
        }
        QCOMPARE(named, 3 + 1 + 1 + 2);
    }

    void theTraceJsonGivesTheSameAnswers()
    {
        QCOMPARE(m_json.steps.size(), m_db.steps.size());
        for (size_t i = 0; i < m_db.steps.size(); ++i) {
            const StepAnalysis& a = m_db.steps[i];
            const StepAnalysis& b = m_json.steps[i];
            QCOMPARE(b.window.forwardCt, a.window.forwardCt);
            QCOMPARE(b.window.startNs, a.window.startNs);
            // The last window ends at the rank's last event: the database has the session's end.
            QVERIFY(within(b.window.endNs, a.window.endNs, 100));
            for (size_t c = 0; c + 1 < kPathCategoryCount; ++c) // idle absorbs the last window's end
                QCOMPARE(b.criticalPath.byCategory[c] +
                             (c == size_t(PathCategory::HostGap) ? a.window.endNs - b.window.endNs : 0),
                         a.criticalPath.byCategory[c]);
            QCOMPARE(b.comm.totalNs, a.comm.totalNs);
            QCOMPARE(b.comm.exposedNs, a.comm.exposedNs);
            QCOMPARE(b.replay.preReplayGapNs, a.replay.preReplayGapNs);
        }
        QCOMPARE(m_json.overlap.size(), size_t(1));
        QCOMPARE(m_json.overlap[0].computingNs(), m_db.overlap[0].computingNs());
        QCOMPARE(m_json.overlap[0].communicationNotOverlappedNs(), m_db.overlap[0].communicationNotOverlappedNs());
    }

    void overlapAgreesWithTheProfilersOwnTrack()
    {
        // The database's OVERLAP_ANALYSIS rows (loaded as the "Overlap Analysis" lanes): union lengths.
        std::map<std::string, IntervalSet> track;
        for (const Lane& lane : m_profile->lanes)
            if (lane.info.kind == LaneKind::Overlap) {
                std::vector<Interval> iv;
                for (size_t i = 0; i < lane.size(); ++i)
                    iv.push_back({lane.startNs[i], lane.endNs(i)});
                track[lane.info.name] = IntervalSet::fromUnsorted(iv);
            }
        if (track.empty())
            QSKIP("the database loader keeps no Overlap Analysis lanes");
        QCOMPARE(m_db.overlap.size(), size_t(1));
        const DeviceOverlap& o = m_db.overlap[0];
        QCOMPARE(o.computingNs(), track["Computing"].totalNs());
        QCOMPARE(o.communicationNs(), track["Communication"].totalNs());
        QCOMPARE(o.communicationNotOverlappedNs(), track["Communication(Not Overlapped)"].totalNs());
        QCOMPARE(o.freeNs(), track["Free"].totalNs());
    }

    void analyzeJsonFollowsTheContract()
    {
        const nlohmann::ordered_json doc = analyzeJson(*m_profile, m_db);
        QCOMPARE(doc["steps"].size(), m_db.steps.size());
        const auto& s = doc["steps"][0];
        QCOMPARE(s["rank"].get<int>(), 0);
        QCOMPARE(s["window_ns"].size(), size_t(2));
        for (const char* k : {"draft", "verify", "accept", "commit"})
            QVERIFY(s["bands"][k].is_array());
        QVERIFY(s["bands"]["planner_gap_ns"].is_number_integer());
        QVERIFY(s["comm"][0]["inferred"].is_boolean());
        TimeNs sum = 0;
        for (const char* k : kCategories)
            sum += s["critical_path_ns"][k].get<TimeNs>();
        QCOMPARE(sum, s["window_ns"][1].get<TimeNs>() - s["window_ns"][0].get<TimeNs>());
        QCOMPARE(s["critical_path_ns"].size(), size_t(7));
        QCOMPARE(doc["overlap"][0]["device"].get<int>(), 0);
    }
};

QTEST_GUILESS_MAIN(TestDemoTruth)
#include "tst_demo_truth.moc"
