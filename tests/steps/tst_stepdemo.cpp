// The demo profile (trace_view.json + server_info.json) read back through the real loaders: its step records
// align with its trace exactly, the derived columns equal the simulation's, the injected slow steps are flagged.
#include "../demo/DemoTestSupport.h"

#include "io/ProfileLoader.h"
#include "report/StepsJson.h"
#include "steps/StepRecords.h"

#include <QTest>

#include <cmath>
#include <set>

using namespace dspark;
using nlohmann::json;

class TestStepDemo : public QObject {
    Q_OBJECT
private:
    test::WrittenDemo m_demo;
    QTemporaryDir m_jsonRun; // the demo's trace_view.json, metadata and records, without the db

    // Every record inside the trace matches its scheduler iteration; windows are the run_batch spans.
    void checkAlignment(const Profile& p)
    {
        QVERIFY(p.stepRecords);
        const StepRecordSet& set = *p.stepRecords;
        const StepAlignment& a = set.alignment;
        QCOMPARE(a.method, StepAlignMethod::StepSpans);
        QCOMPARE(a.anchor, std::string("start_step"));
        QCOMPARE(*a.startStep, int64_t(1200));
        QVERIFY2(a.agreement && *a.agreement == 1.0, qPrintable(a.notes.join(QLatin1Char('\n'))));
        const json& steps = m_demo.truth["steps"];
        size_t withRecord = 0;
        for (const json& s : steps)
            withRecord += s["has_record"].get<bool>() ? 1 : 0;
        QCOMPARE(a.compared, withRecord);
        QCOMPARE(a.agreeing, withRecord);
        QCOMPARE(a.outside, m_demo.truth["run"]["records_outside_trace"].size());
        QVERIFY(a.unmatchedTraceSteps.empty());
        QCOMPARE(a.ranks.at(0).firstForwardCt, int64_t(1200));
        for (const json& s : steps) {
            if (!s["has_record"].get<bool>())
                continue;
            const int64_t fct = s["forward_ct"].get<int64_t>();
            size_t row = set.rows.size();
            for (size_t i = 0; i < set.rows.size(); ++i)
                if (set.record(i).forwardCt == fct)
                    row = i;
            QVERIFY(row < set.rows.size());
            const StepAlignmentRow& r = a.rows[row];
            QCOMPARE(r.status, StepMatch::Match);
            QCOMPARE(r.hostStartNs, s["window"]["start_ns"].get<int64_t>());
            // The device work launched from the run_batch span lies inside the step's window.
            QVERIFY(r.deviceStartNs >= r.hostStartNs);
            QVERIFY(r.deviceEndNs <= s["window"]["end_ns"].get<int64_t>());
            QVERIFY(r.deviceStartNs <= s["events"]["STEP"]["start_ns"].get<int64_t>());
            // Derived columns agree with the simulation's own figures.
            const StepDerived& d = set.rows[row].derived;
            QVERIFY(std::abs(*d.unattributedMs - s["unattributed_ms"].get<double>()) < 1e-9);
            QVERIFY(std::abs(*d.meanCommitLen - s["mean_acc_len"].get<double>()) < 5e-5); // truth: 4 decimals
            QCOMPARE(*d.totalCommitLen, s["commit_tokens"].get<int64_t>());
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_demo = test::writeTestDemo();
        QVERIFY2(m_demo.result.error.isEmpty(), qPrintable(m_demo.result.error));
        const QString run = m_jsonRun.filePath(QStringLiteral("run_ascend_pt"));
        QVERIFY(QDir().mkpath(run + QStringLiteral("/ASCEND_PROFILER_OUTPUT")));
        QVERIFY(QFile::copy(m_demo.tracePath(), run + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json")));
        QVERIFY(QFile::copy(m_demo.runFolder() + QStringLiteral("/profiler_metadata.json"),
                            run + QStringLiteral("/profiler_metadata.json")));
        QVERIFY(QFile::copy(m_demo.path(QStringLiteral("server_info.json")),
                            m_jsonRun.filePath(QStringLiteral("server_info.json"))));
    }

    void demoTraceJsonAlignsWithFullAgreement()
    {
        // The trace_view.json of the same run, with the records and metadata next to it.
        // (tests/demo checks the db folder; this is the JSON trace of the same run.)
        const LoadOutcome t = loadProfile(m_jsonRun.path().toStdString());
        QVERIFY2(t.profile, qPrintable(t.error));
        checkAlignment(*t.profile);
        const nlohmann::ordered_json doc = stepsJson(*t.profile);
        QCOMPARE(doc["alignment"]["agreement"].get<double>(), 1.0);
        QCOMPARE(doc["alignment"]["method"].get<std::string>(), std::string("step_spans"));
    }

    // `steps --json` writes the document a step at a time; the text must be the DOM's dump(2), for an
    // aligned run (analysis columns, nested critical paths), the records alone, and no steps at all.
    void stepsJsonWrittenPieceByPieceIsTheDocumentsDump()
    {
        const LoadOutcome aligned = loadProfile(m_jsonRun.path().toStdString());
        const LoadOutcome records = loadProfile(m_jsonRun.filePath(QStringLiteral("server_info.json")).toStdString());
        QVERIFY(aligned.profile && records.profile && records.profile->stepRecords);
        QVERIFY(!records.profile->stepRecords->alignment.aligned());
        StepsReportOptions noRank;
        noRank.rank = 7; // no such rank: no steps
        for (const auto& [profile, options] :
             {std::pair{aligned.profile.get(), StepsReportOptions{}},
              std::pair{records.profile.get(), StepsReportOptions{}}, std::pair{aligned.profile.get(), noRank}}) {
            std::string written;
            int pieces = 0;
            writeStepsJson(*profile, options, [&](const std::string& text) {
                written += text;
                ++pieces;
            });
            const nlohmann::ordered_json doc = stepsJson(*profile, options);
            QCOMPARE(written, doc.dump(2) + "\n");
            QCOMPARE(pieces, int(doc["steps"].size()) + (doc["steps"].empty() ? 2 : 3));
        }
    }

    void theInjectedSlowStepsAreFlagged()
    {
        // Ground truth: the growing accept/commit tail (unattributed share), the exposed DeepEP wait and
        // the pre-replay host gap (step time far above the same workload), the widened verify window of
        // the long-accept steps (a workload of its own, two steps: judged across classes as "longer
        // acceptance, worse TPOT"); the prefill has no record. (From the records alone; the timeline's
        // analyses name the causes: tst_demo_truth.)
        const LoadOutcome o = loadProfile(m_jsonRun.path().toStdString());
        QVERIFY(o.profile);
        const StepRecordSet& set = *o.profile->stepRecords;
        std::set<int64_t> expected;
        for (const json& a : m_demo.truth["anomalies"]) {
            const std::string kind = a["kind"].get<std::string>();
            if (kind == "tail_growth" || kind == "exposed_comm" || kind == "pre_replay_host_gap" ||
                kind == "long_accept_worse_tpot")
                expected.insert(a["forward_ct"].get<int64_t>());
        }
        QCOMPARE(expected, (std::set<int64_t>{1205, 1206, 1207, 1209, 1215, 1219, 1220}));
        std::set<int64_t> flagged;
        for (size_t i = 0; i < set.rows.size(); ++i)
            if (!set.anomalies[i].isEmpty())
                flagged.insert(set.record(i).forwardCt);
        QString flaggedText;
        for (int64_t f : flagged)
            flaggedText += QString::number(f) + QLatin1Char(' ');
        QVERIFY2(flagged == expected, qPrintable(flaggedText));
        for (size_t i = 0; i < set.rows.size(); ++i) {
            const int64_t f = set.record(i).forwardCt;
            if (f >= 1205 && f <= 1207)
                QVERIFY2(set.anomalies[i].contains(QStringLiteral("unattributed share")),
                         qPrintable(set.anomalies[i]));
            if (f == 1209 || f == 1215)
                QVERIFY2(set.anomalies[i].startsWith(QStringLiteral("step_gpu_ms")), qPrintable(set.anomalies[i]));
            if (f == 1219 || f == 1220)
                QVERIFY2(set.anomalies[i].startsWith(QStringLiteral("longer acceptance, worse TPOT")),
                         qPrintable(set.anomalies[i]));
        }
        // The stable window: the 16 bs-8 decode steps before the prefill (1196..1199 precede the trace),
        // longer than the 13 bs-9 steps after it (1213..1225).
        QCOMPARE(set.stableWindows.size(), size_t(1));
        QCOMPARE(set.stableWindows[0].firstForwardCt, int64_t(1196));
        QCOMPARE(set.stableWindows[0].lastForwardCt, int64_t(1211));
        QCOMPARE(*set.stableWindows[0].bs, int64_t(8));
    }
};

QTEST_GUILESS_MAIN(TestStepDemo)
#include "tst_stepdemo.moc"
