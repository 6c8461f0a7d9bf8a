// The analyses' step-table columns in `steps --json` / CSV (comm_total_ns, comm_exposed_ns,
// pre_replay_gap_ns, critical_path_ns): the same figures as `analyze --json`, on the demo.
#include "analysis/StepAnalysis.h"
#include "io/ProfileLoader.h"
#include "report/AnalyzeJson.h"
#include "report/StepsJson.h"
#include "steps/StepRecords.h"
#include "steps/StepTableModel.h"

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

        // The step table model shows the same figures once it has the analyses.
        StepTableModel model;
        model.setStepRecords(out.profile->stepRecords);
        QCOMPARE(model.columnCount(), kStepColumnCount + 1);
        auto analysis = std::make_shared<ProfileAnalysis>(analyzeProfile(*out.profile, AnalysisRules::defaults()));
        model.setAnalysis(analysis);
        QCOMPARE(model.columnCount(), kStepColumnCount + 1 + 10);
        const int exposedColumn = StepTableModel::FirstAnalysisColumn + StepTableModel::CommExposedColumn;
        const int hostGapColumn = StepTableModel::FirstAnalysisColumn + StepTableModel::FirstPathColumn +
                                  static_cast<int>(PathCategory::HostGap);
        QCOMPARE(model.headerData(exposedColumn, Qt::Horizontal).toString(), QStringLiteral("Comm exposed"));
        QCOMPARE(model.headerData(hostGapColumn, Qt::Horizontal).toString(), QStringLiteral("Path: host gap"));
        const StepAnalysis& first = analysis->steps.front();
        const int row = static_cast<int>(first.recordRow);
        QCOMPARE(model.analysisOfRow(row), &first);
        QCOMPARE(model.data(model.index(row, exposedColumn), StepTableModel::SortRole).toLongLong(),
                 static_cast<qlonglong>(first.comm.exposedNs));
        QCOMPARE(model.data(model.index(row, hostGapColumn)).toString(),
                 QStringLiteral("%1 ms").arg(first.criticalPath.categoryNs(PathCategory::HostGap) / 1e6, 0, 'f', 3));
        QVERIFY(!model.data(model.index(0, exposedColumn), StepTableModel::SortRole).isValid()); // outside the trace
    }
};

QTEST_GUILESS_MAIN(TestStepColumns)
#include "tst_step_columns.moc"
