// The cluster window's path and matrix tabs, driven as a user does, on the 3-rank step written by the
// test (tests/cluster/CrossRankStory.h, its path worked out by hand in tst_cross_rank_path): a click on a
// step cell fills the cross-rank critical path; the communication tab shows each member's collectives; a
// click on a path segment in the cluster window unfolds its rank (loading its events, lazily) and selects
// the segment's kernel or collective on that rank's timeline.
#include "../cluster/CrossRankStory.h"

#include "cluster/ClusterLoader.h"
#include "cluster/ClusterPathTables.h"
#include "cluster/ClusterStepTableModel.h"
#include "cluster/ClusterView.h"
#include "cluster/ClusterWindow.h"
#include "cluster/RankOverview.h"
#include "session/ProfileSession.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineWidget.h"
#include "timeline/TimelineZoom.h"

#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace dspark;
using namespace dspark::ui;
using namespace dspark::test::story;
using dspark::test::ClusterDbBuilder;

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

    // Two summaries made by the test: global ranks 3 and 5 in group "ep", rank 5 first in the group's
    // order, rank 3 second; a third member (in-group 2) not captured and not listed.
    void theMatrixNamesGlobalRanksAndTheGroupsOwnWhereTheyDiffer()
    {
        std::vector<RankSummary> ranks(2);
        ranks[0].rankNumber = 3;
        ranks[0].groups = {{"ep", 1, {}}};
        ranks[0].links = {{"ep", 1, 0, "SDMA", 2, 1000, 10}, {"ep", 1, 2, "RDMA", 1, 500, 10}};
        ranks[1].rankNumber = 5;
        ranks[1].groups = {{"ep", 0, {}}};
        ranks[1].links = {{"ep", 0, 1, "SDMA", 1, 1000, 20}};
        CommMatrixTable table;
        table.showMatrices(ranks, analyzeCluster(ranks));
        QCOMPARE(table.rowCount(), 3);
        QCOMPARE(cell(&table, 0, 1), QStringLiteral("5 (in group 0)")); // 0 → 1: rank 5 to rank 3
        QCOMPARE(cell(&table, 0, 2), QStringLiteral("3 (in group 1)"));
        QCOMPARE(cell(&table, 2, 1), QStringLiteral("3 (in group 1)"));
        QCOMPARE(cell(&table, 2, 2), QStringLiteral("in group 2"));
        // Where the orders agree, the global rank alone.
        ranks[0].groups = {{"ep", 3, {}}};
        ranks[0].links = {{"ep", 3, 5, "SDMA", 1, 1'572'864, 1'000'000}};
        ranks[1].groups = {{"ep", 5, {}}};
        ranks[1].links = {{"ep", 5, 3, "SDMA", 1, 1000, 10}};
        table.showMatrices(ranks, analyzeCluster(ranks));
        QCOMPARE(cell(&table, 0, 1), QStringLiteral("3"));
        QCOMPARE(cell(&table, 0, 2), QStringLiteral("5"));
        // Sizes in binary units (1.5 MiB over 1 ms: 1.57 GB/s), the exact count in the tooltip; the last
        // column as wide as its figures.
        QCOMPARE(cell(&table, 0, 5), QStringLiteral("1.50 MiB"));
        QVERIFY2(table.item(0, 5)->toolTip().remove(QLatin1Char(',')).contains(QStringLiteral("1572864 bytes")),
                 qPrintable(table.item(0, 5)->toolTip()));
        QCOMPARE(cell(&table, 0, 7), QStringLiteral("1.57"));
        QVERIFY(!table.horizontalHeader()->stretchLastSection());
    }

    void aClickOnAPathSegmentSelectsItsEventOnItsRank()
    {
        QTemporaryDir dir;
        QCOMPARE(writeStory(dir.path()), QString());
        ClusterWindow window;
        ClusterLoadOptions options;
        options.memoryBudgetBytes = 1; // every rank opens as its summary: its events load on demand
        QSignalSpy loaded(&window, &ClusterWindow::loaded);
        window.open(dir.path(), options);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(QTest::qWaitFor([&] { return loaded.size() == 1; }, 60000));
        QVERIFY(window.lazy());
        ClusterView* view = window.view();
        RankOverview* o = window.overview();
        QSignalSpy revealed(o, &RankOverview::eventRevealed);

        // The step cell of rank 2 (which also unfolds rank 2, loading it), then the path tab.
        QTableView* steps = view->stepTable();
        QTest::mouseClick(steps->viewport(), Qt::LeftButton, {},
                          steps->visualRect(view->stepModel()->index(0, 2)).center());
        view->tabs()->setCurrentIndex(1);
        CrossRankPathTable* path = view->pathTable();
        QCOMPARE(path->rowCount(), 13);

        // Row 3: rank 1's Gate, 110–400 µs on the true clock (rank 1's offset −50 µs puts it there).
        QCOMPARE(cell(path, 3, 4), QStringLiteral("Gate"));
        QTest::mouseClick(path->viewport(), Qt::LeftButton, {}, path->visualItemRect(path->item(3, 1)).center());
        QVERIFY(o->isExpanded(1));
        QVERIFY(QTest::qWaitFor([&] { return revealed.size() == 1; }, 60000)); // after its events arrived
        QCOMPARE(revealed[0][0].value<size_t>(), size_t(1));
        QVERIFY(o->session(1));
        TimelineWidget* t1 = o->timeline(1);
        QVERIFY(t1);
        const EventRef gate = t1->selection()->event();
        QVERIFY(gate.valid());
        const Profile& p1 = *o->session(1)->profile();
        QCOMPARE(QString::fromUtf8(p1.name(gate)), QStringLiteral("Gate"));
        QCOMPARE(p1.startNs(gate), ClusterDbBuilder::kBase + 50 * us + 110 * us); // rank 1's own clock
        const TimeNs a = ClusterDbBuilder::kBase + 110 * us, b = ClusterDbBuilder::kBase + 400 * us;
        QVERIFY(o->zoom()->startNs() <= a && o->zoom()->startNs() + o->zoom()->spanNs() >= b);
        QVERIFY(o->zoom()->spanNs() < 2 * (b - a)); // shown, not the whole capture

        // Row 5: the dispatch's transfer on rank 0: its collective dispatch_7, selected on rank 0.
        QVERIFY(cell(path, 5, 4).startsWith(QStringLiteral("dispatch_7")));
        QTest::mouseClick(path->viewport(), Qt::LeftButton, {}, path->visualItemRect(path->item(5, 1)).center());
        QVERIFY(QTest::qWaitFor([&] { return revealed.size() == 2; }, 60000));
        QCOMPARE(revealed[1][0].value<size_t>(), size_t(0));
        const EventRef dispatch = o->timeline(0)->selection()->event();
        QVERIFY(dispatch.valid());
        const Profile& p0 = *o->session(0)->profile();
        QCOMPARE(QString::fromUtf8(p0.name(dispatch)), QStringLiteral("dispatch_7"));
        QCOMPARE(p0.lanes[dispatch.lane].kind[dispatch.index], EventKind::CommOp);
    }
};

QTEST_MAIN(TestClusterPaths)
#include "tst_cluster_paths.moc"
