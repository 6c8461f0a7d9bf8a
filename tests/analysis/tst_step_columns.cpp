// The analyses' step-table columns in `steps --json` / CSV (comm_total_ns, comm_exposed_ns,
// pre_replay_gap_ns, critical_path_ns): the same figures as `analyze --json`, on the demo.
#include "analysis/StepAnalysis.h"
#include "io/ProfileLoader.h"
#include "report/AnalyzeJson.h"
#include "report/StepsJson.h"

#include "../demo/DemoTestSupport.h"
#include "TestSupport.h"

#include <QTest>

using namespace dspark;

class TestStepColumns : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stepsReportCarriesTheAnalysesColumns()
    {
        const test::WrittenDemo demo = test::writeTestDemo(24, 7, 1, false);
        QVERIFY2(demo.result.error.isEmpty(), qPrintable(demo.result.error));
        const LoadOutcome out = loadProfile(demo.dir.toStdString());
        QVERIFY2(out.profile, qPrintable(out.error));
        const nlohmann::ordered_json steps = stepsJson(*out.profile);
        const nlohmann::ordered_json analyzed =
            analyzeJson(*out.profile, analyzeProfile(*out.profile, AnalysisRules::defaults()));
        std::map<int64_t, const nlohmann::ordered_json*> byCt;
        for (const auto& s : analyzed["steps"])
            byCt[s["forward_ct"].get<int64_t>()] = &s;
        size_t withFigures = 0;
        for (const auto& s : steps["steps"]) {
            QVERIFY(s.contains("comm_total_ns") && s.contains("critical_path_ns"));
            const int64_t ct = s["forward_ct"].get<int64_t>();
            if (!byCt.count(ct)) { // records outside the trace
                QVERIFY(s["comm_total_ns"].is_null());
                QVERIFY(s["critical_path_ns"].is_null());
                continue;
            }
            const auto& a = *byCt[ct];
            QCOMPARE(s["comm_total_ns"].get<int64_t>(), a["comm_total_ns"].get<int64_t>());
            QCOMPARE(s["comm_exposed_ns"].get<int64_t>(), a["comm_exposed_ns"].get<int64_t>());
            QCOMPARE(s["pre_replay_gap_ns"].get<int64_t>(), a["pre_replay_gap_ns"].get<int64_t>());
            QCOMPARE(s["critical_path_ns"].dump(), a["critical_path_ns"].dump());
            ++withFigures;
        }
        QCOMPARE(withFigures, size_t(23)); // the 23 traced decode steps (4 + 2 records lie outside)
        const std::string csv = stepsCsv(*out.profile);
        const std::string header = csv.substr(0, csv.find('\n'));
        QVERIFY(header.find(",comm_total_ns,comm_exposed_ns,pre_replay_gap_ns,critical_path_draft_ns,") !=
                std::string::npos);
        QVERIFY(header.find(",critical_path_idle_ns") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestStepColumns)
#include "tst_step_columns.moc"
