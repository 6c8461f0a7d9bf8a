// The cluster window's path and matrix tabs, driven as a user does, on the 3-rank step written by the
// test (tests/cluster/CrossRankStory.h, its path worked out by hand in tst_cross_rank_path): a click on a
// step cell fills the cross-rank critical path; the communication tab shows each member's collectives.
#include "../cluster/CrossRankStory.h"

#include "cluster/ClusterLoader.h"
#include "cluster/ClusterPathTables.h"
#include "cluster/ClusterStepTableModel.h"
#include "cluster/ClusterView.h"

#include <QLabel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace dspark;
using namespace dspark::ui;
using namespace dspark::test::story;

namespace {
QString cell(QTableWidget* table, int row, int column)
{
    const QTableWidgetItem* item = table->item(row, column);
    return item ? item->text() : QString();
}
} // namespace

class TestClusterPaths : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aStepCellShowsItsCrossRankPathAndTheMatrixItsMembers()
    {
        QTemporaryDir dir;
        QCOMPARE(writeStory(dir.path()), QString());
        ClusterView view;
        view.resize(1000, 700);
        view.setRanks(loadCluster(findClusterRanks(dir.path().toStdString())).summaries());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.pathTable()->rowCount(), 0);

        // Without COMMUNICATION_TASK_INFO rows: each member's time in the group's two collectives, by hand
        // (issues 110 / 410 / 120 and 850 / 700 / 720 µs, ends 500 and 900): rank 0 waits 410 − 110 at the
        // dispatch and arrives last at the combine.
        CommMatrixTable* matrix = view.commMatrix();
        QCOMPARE(matrix->rowCount(), 3);
        QCOMPARE(cell(matrix, 0, 0), QString::fromStdString(kGroup));
        QCOMPARE(cell(matrix, 0, 1), QStringLiteral("rank 0"));
        QCOMPARE(cell(matrix, 0, 4), QStringLiteral("2"));
        QCOMPARE(cell(matrix, 0, 6), QStringLiteral("440.000"));
        QVERIFY(cell(matrix, 0, 3).contains(QStringLiteral("wait 300.000 µs, transfer 140.000 µs")));
        QCOMPARE(cell(matrix, 2, 6), QStringLiteral("560.000"));
        QVERIFY(cell(matrix, 2, 3).contains(QStringLiteral("wait 420.000 µs")));

        view.tabs()->setCurrentIndex(0);
        QTableView* steps = view.stepTable();
        const QRect rect = steps->visualRect(view.stepModel()->index(0, 2));
        QTest::mouseClick(steps->viewport(), Qt::LeftButton, {}, rect.center());
        CrossRankPathTable* path = view.pathTable();
        QCOMPARE(path->stepId(), int64_t(1));
        QCOMPARE(path->rowCount(), 13);
        // From rank 1's idle start through the dispatch (rank 0), the combine (rank 2), to rank 2's end.
        QCOMPARE(cell(path, 0, 0), QStringLiteral("1"));
        QCOMPARE(cell(path, 0, 2), QStringLiteral("0.000"));
        QCOMPARE(cell(path, 0, 3), QStringLiteral("10.000"));
        QCOMPARE(cell(path, 3, 4), QStringLiteral("Gate"));
        QCOMPARE(cell(path, 3, 3), QStringLiteral("290.000"));
        QCOMPARE(cell(path, 5, 0), QStringLiteral("0"));
        QVERIFY(cell(path, 5, 4).startsWith(QStringLiteral("dispatch_7")));
        QCOMPARE(cell(path, 12, 0), QStringLiteral("2"));
        QCOMPARE(cell(path, 12, 2), QStringLiteral("995.000"));
        QCOMPARE(cell(path, 12, 3), QStringLiteral("5.000"));
        const QString summary = view.pathSummary()->text();
        QVERIFY2(summary.contains(QStringLiteral("1000.000 µs")) && summary.contains(QStringLiteral("2 jumps")) &&
                     summary.contains(QStringLiteral("rank 1")) &&
                     summary.contains(QStringLiteral("380.000 µs (38.0 %)")),
                 qPrintable(summary));

        // The tab is there to be read: switching to it shows the same path.
        view.tabs()->setCurrentIndex(1);
        QVERIFY(path->isVisible());
    }
};

QTEST_MAIN(TestClusterPaths)
#include "tst_cluster_paths.moc"
