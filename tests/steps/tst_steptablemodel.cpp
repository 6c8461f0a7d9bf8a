// The step table item model: text with units, raw numbers for sorting, anomalous rows with their reason.
#include "session/ProfileAnalyses.h"
#include "steps/StepTableModel.h"

#include <QSortFilterProxyModel>
#include <QTest>

using namespace dspark;

namespace {

std::shared_ptr<StepRecordSet> makeSet()
{
    auto set = std::make_shared<StepRecordSet>();
    RankStepRecords& rr = set->rankRecords(0);
    for (int i = 0; i < 8; ++i) {
        StepRecord r;
        r.forwardCt = 200 + i;
        r.bs = 4;
        r.numVerifyTokens = 16;
        r.stepGpuMs = i == 5 ? 25.0 : 10.0 + 0.01 * i;
        r.draftGpuMs = 3.0;
        r.targetVerifyGpuMs = 5.5;
        if (i == 2)
            r.targetVerifyGpuMs.reset();
        StepRequest q;
        q.accLen = 3;
        q.correctDrafts = 2;
        q.verifyLen = 4;
        r.reqs = std::vector<StepRequest>{q, q};
        rr.records.push_back(std::move(r));
    }
    set->rebuild();
    deriveStepRecordAnalyses(*set);
    return set;
}

} // namespace

class TestStepTableModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void showsUnitsSortsRawAndFlagsAnomalies()
    {
        StepTableModel model;
        model.setStepRecords(makeSet());
        QCOMPARE(model.rowCount(), 8);
        QCOMPARE(model.columnCount(), kStepColumnCount + 1);
        const int gpu = static_cast<int>(StepColumn::StepGpuMs);
        const int unattributed = static_cast<int>(StepColumn::UnattributedMs);
        const int acceptance = static_cast<int>(StepColumn::AcceptanceRate);
        QCOMPARE(model.data(model.index(0, gpu)).toString(), QStringLiteral("10.000 ms"));
        QCOMPARE(model.data(model.index(1, unattributed)).toString(), QStringLiteral("1.510 ms")); // 10.01 − 3 − 5.5
        QCOMPARE(model.data(model.index(2, unattributed)).toString(), QString()); // verify time not recorded
        QVERIFY(!model.data(model.index(2, unattributed), StepTableModel::SortRole).isValid());
        QCOMPARE(model.data(model.index(0, acceptance)).toString(), QStringLiteral("66.7 %"));
        QCOMPARE(model.data(model.index(0, acceptance), StepTableModel::SortRole).toDouble(), 2.0 / 3.0);
        QCOMPARE(model.data(model.index(5, gpu), StepTableModel::SortRole).toDouble(), 25.0);
        QCOMPARE(model.data(model.index(0, static_cast<int>(StepColumn::ForwardCt))).toString(), QStringLiteral("200"));
        QCOMPARE(model.data(model.index(0, static_cast<int>(StepColumn::TotalCommitLen))).toString(),
                 QStringLiteral("6"));
        QCOMPARE(model.data(model.index(0, static_cast<int>(StepColumn::MeanCommitLen))).toString(),
                 QStringLiteral("3.00"));

        QVERIFY(model.data(model.index(5, 0), StepTableModel::AnomalousRole).toBool());
        QVERIFY(!model.data(model.index(4, 0), StepTableModel::AnomalousRole).toBool());
        QVERIFY(model.data(model.index(5, gpu), Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("step_gpu_ms 25.000 ms")));
        QCOMPARE(model.anomalyCount(), size_t(1));
        QCOMPARE(model.data(model.index(5, 0), StepTableModel::ForwardCtRole).toLongLong(), 205);
        QCOMPARE(model.rowForStep(0, 205), 5);
        QCOMPARE(model.rowForStep(0, 300), -1);
        QVERIFY(model.data(model.index(0, 0), StepTableModel::InStableWindowRole).toBool());
        QVERIFY(!model.data(model.index(0, 0), StepTableModel::WindowStartNsRole).isValid());

        QCOMPARE(model.headerData(gpu, Qt::Horizontal).toString(), QStringLiteral("Step GPU"));
        QVERIFY(model.headerData(unattributed, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("Draft GPU")));
        QCOMPARE(model.headerData(StepTableModel::TimelineColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Timeline"));

        // A proxy sorts by the raw numbers; not-recorded values go last.
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(StepTableModel::SortRole);
        proxy.sort(gpu, Qt::DescendingOrder);
        QCOMPARE(proxy.data(proxy.index(0, static_cast<int>(StepColumn::ForwardCt))).toString(), QStringLiteral("205"));
        proxy.sort(unattributed, Qt::AscendingOrder);
        QCOMPARE(proxy.data(proxy.index(7, static_cast<int>(StepColumn::ForwardCt))).toString(), QStringLiteral("202"));

        // Thresholds are the user's: a lenient one clears the flag.
        AnomalyOptions lenient;
        lenient.robustZ = 1e6;
        model.setAnomalyOptions(lenient);
        QCOMPARE(model.anomalyCount(), size_t(0));
        QVERIFY(!model.data(model.index(5, 0), StepTableModel::AnomalousRole).toBool());
    }
};

QTEST_GUILESS_MAIN(TestStepTableModel)
#include "tst_steptablemodel.moc"
