// The cluster window's rank overview driven as a user does, on three ranks written by the test (rank 1's
// clock 20 µs ahead, rank 2's 30 µs behind): one folded row per rank on one clock, a header click or
// Enter unfolds the rank's lanes, a step cell shows that rank's step, an offset typed into the rank table
// moves the rank at once and comes back when the cluster is reopened, and the window closes cleanly with
// ranks unfolded.
#include "../cluster/ClusterDbBuilder.h"

#include "../common/TestSupport.h"
#include "MainWindow.h"
#include "MainWindowTestSupport.h"
#include "analysis/AnalysisRules.h"
#include "cluster/ClusterPathTables.h"
#include "cluster/ClusterStepTableModel.h"
#include "cluster/ClusterView.h"
#include "cluster/ClusterWindow.h"
#include "cluster/RankOverview.h"
#include "demo/ClusterDemo.h"
#include "io/ProfileLoader.h"
#include "session/AnnotationSet.h"
#include "session/ProfileSession.h"
#include "timeline/TimelineWidget.h"
#include "timeline/TimelineZoom.h"

#include <QApplication>

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

using namespace dspark;
using namespace dspark::ui;

namespace {

constexpr TimeNs us = 1000;
constexpr TimeNs kSkew[3] = {0, 20 * us, -30 * us};
using test::ClusterDbBuilder;

QString rankFolder(const QTemporaryDir& dir, int r)
{
    return dir.filePath(QStringLiteral("n_%1_20250101080000001_ascend_pt").arg(r));
}

// Steps 7 [0, 1 ms) and 8 [1, 2 ms) on the true clock; an all-reduce in each (issues differ, ends agree)
// and a kernel before each.
void writeCluster(const QTemporaryDir& dir)
{
    for (int r = 0; r < 3; ++r) {
        ClusterDbBuilder b(r, kSkew[r]);
        b.step(7, 0, 1000 * us);
        b.step(8, 1000 * us, 2000 * us);
        b.kernel("matmul", 10 * us, 90 * us);
        b.kernel("matmul", 1010 * us, 1090 * us);
        b.collective("hcom_allReduce__" + std::to_string(r), "hcom_allReduce_", "g", 10, (100 + 50 * r) * us, 400 * us);
        b.collective("hcom_allReduce__" + std::to_string(r + 9), "hcom_allReduce_", "g", 10, (1200 + 10 * r) * us,
                     1500 * us);
        QCOMPARE(b.writeRunFolder(rankFolder(dir, r)), QString());
    }
}

bool openAndWait(ClusterWindow& window, const QString& folder, const ClusterLoadOptions& options = {})
{
    QSignalSpy loaded(&window, &ClusterWindow::loaded);
    window.open(folder, options);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    return QTest::qWaitFor([&] { return loaded.size() == 1; }, 60000);
}

} // namespace

class TestClusterTimeline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::useTestSettings(QStringLiteral("tst_cluster_timeline")); }

    void everyRankIsOneFoldedRowOnOneClock()
    {
        QTemporaryDir dir;
        writeCluster(dir);
        ClusterWindow window;
        QVERIFY(openAndWait(window, dir.path()));
        RankOverview* o = window.overview();
        QCOMPARE(o->rankCount(), size_t(3));
        // The estimated offsets are each rank's time offset: cluster time = rank time + offset.
        QCOMPARE(o->offsetNs(1), -20 * us);
        QCOMPARE(o->offsetNs(2), 30 * us);
        QCOMPARE(window.view()->analysis().clocks[2].offsetNs, 30 * us);
        QVERIFY(o->session(1));
        QCOMPARE(o->session(1)->timeOffsetNs(), -20 * us);
        for (size_t r = 0; r < 3; ++r) {
            QVERIFY(!o->isExpanded(r));
            QVERIFY(!o->timeline(r));
            QVERIFY(o->strip(r)->isVisible());
        }
        // The zoom spans every rank on the cluster clock: rank 2's first event (10 µs true) is kBase + 10 µs.
        QVERIFY(o->zoom()->boundsStartNs() <= ClusterDbBuilder::kBase + 10 * us);
        QVERIFY(o->zoom()->boundsEndNs() >= ClusterDbBuilder::kBase + 2000 * us);

        // The strips: rank 1 issues the first all-reduce at 150 µs (true), rank 0 at 100 µs. Looking at
        // [120, 140) µs of the cluster clock, rank 0 communicates all the time, rank 1 not at all.
        o->zoom()->setRange(ClusterDbBuilder::kBase + 120 * us, ClusterDbBuilder::kBase + 140 * us);
        const int mid = o->strip(0)->width() / 2;
        QCOMPARE(o->shareAt(0, mid).comm, 1.0);
        QCOMPARE(o->shareAt(1, mid).comm, 0.0);
        QCOMPARE(o->shareAt(1, mid).busy, 0.0); // its kernel ended at 90 µs: idle until its all-reduce
    }

    void aHeaderClickOrEnterUnfoldsTheRanksLanes()
    {
        QTemporaryDir dir;
        writeCluster(dir);
        ClusterWindow window;
        QVERIFY(openAndWait(window, dir.path()));
        RankOverview* o = window.overview();
        QTest::mouseClick(o->header(1), Qt::LeftButton);
        QVERIFY(o->isExpanded(1));
        TimelineWidget* t = o->timeline(1);
        QVERIFY(t);
        QVERIFY(t->isVisible());
        QCOMPARE(t->zoom(), o->zoom()); // one zoom for all ranks
        QCOMPARE(t->timeOffsetNs(), -20 * us);
        QVERIFY(t->profile()->lanes.size() >= 2); // the kernels' stream and the communication

        o->header(2)->setFocus();
        QTest::keyClick(o->header(2), Qt::Key_Return);
        QVERIFY(o->isExpanded(2));
        QVERIFY(o->timeline(2));
        QTest::keyClick(o->header(2), Qt::Key_Enter);
        QVERIFY(!o->isExpanded(2));
        QVERIFY(!o->timeline(2));
        QVERIFY(o->timeline(1)); // the other rank stays unfolded
    }

    void aStepCellShowsThatRanksStepOnTheTimeline()
    {
        QTemporaryDir dir;
        writeCluster(dir);
        ClusterWindow window;
        QVERIFY(openAndWait(window, dir.path()));
        RankOverview* o = window.overview();
        QTableView* table = window.view()->stepTable();
        ClusterStepTableModel* model = window.view()->stepModel();
        QCOMPARE(model->stepAt(1), qint64(8));
        QSignalSpy openRank(&window, &ClusterWindow::openRankRequested);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(model->index(1, 2)).center());
        QCOMPARE(openRank.size(), 0); // a click stays in the cluster window
        QVERIFY(o->isExpanded(2));
        QVERIFY(!o->isExpanded(0));
        QCOMPARE(o->highlightedStep(), qint64(8));
        // Step 8 of rank 2 is [1, 2) ms on the true clock, which the offsets make the cluster clock: the
        // zoom shows it with 3 % of its span free on each side.
        const TimeNs a = ClusterDbBuilder::kBase + 1000 * us, b = ClusterDbBuilder::kBase + 2000 * us;
        QCOMPARE(o->zoom()->startNs(), a - 30 * us);
        QCOMPARE(o->zoom()->endNs(), b + 30 * us);
        TimelineWidget* t = o->timeline(2);
        QVERIFY(t);
        QTRY_VERIFY(!t->visibleRegion().isEmpty()); // scrolled into view
        // On rank 2's own clock (30 µs behind, offset +30 µs) the view starts 30 µs earlier.
        QCOMPARE(t->visibleStartNs(), a - 30 * us - 30 * us);

        // Activating a cell (double-click, Enter) opens the rank in the main window.
        table->setFocus();
        table->setCurrentIndex(model->index(0, 1));
        QTest::keyClick(table, Qt::Key_Return);
        QCOMPARE(openRank.size(), 1);
        QCOMPARE(openRank[0][0].toString(), rankFolder(dir, 1));
        QCOMPARE(openRank[0][1].toLongLong(), qint64(7));
    }

    void anOffsetOverrideMovesTheRankAndIsSavedWithItsAnnotations()
    {
        QTemporaryDir dir;
        writeCluster(dir);
        const QString saved = AnnotationSet::sessionPathFor(QDir::cleanPath(rankFolder(dir, 1)));
        QFile::remove(saved);
        {
            ClusterWindow window;
            QVERIFY(openAndWait(window, dir.path()));
            RankOverview* o = window.overview();
            QTest::mouseClick(o->header(1), Qt::LeftButton);
            QTableWidget* ranks = window.view()->rankTable();
            ranks->setCurrentCell(1, 1);
            ranks->editItem(ranks->item(1, 1));
            QLineEdit* editor = qobject_cast<QLineEdit*>(QApplication::focusWidget());
            QVERIFY(editor);
            editor->selectAll();
            QTest::keyClicks(editor, QStringLiteral("-45.5"));
            QTest::keyClick(editor, Qt::Key_Return);
            QTRY_COMPARE(o->offsetNs(1), -45500);
            QCOMPARE(o->timeline(1)->timeOffsetNs(), -45500);
            QCOMPARE(o->session(1)->timeOffsetNs(), -45500);
            QVERIFY(QFileInfo::exists(saved));
            window.view()->undoStack()->undo();
            QCOMPARE(o->offsetNs(1), -20 * us);
            QCOMPARE(o->timeline(1)->timeOffsetNs(), -20 * us);
            window.view()->undoStack()->redo();
            QCOMPARE(o->offsetNs(1), -45500);
        }
        AnnotationSet set;
        QCOMPARE(set.load(saved), QString());
        QCOMPARE(set.clockOffsetNs, std::optional<TimeNs>(-45500));
        // Reopened: the user's offset is back, not undoable (it is where the cluster starts).
        ClusterWindow again;
        QVERIFY(openAndWait(again, dir.path()));
        QCOMPARE(again.overview()->offsetNs(1), -45500);
        QCOMPARE(*again.view()->offsetOverride(1), -45500);
        QCOMPARE(again.view()->rankTable()->item(1, 2)->text(), QStringLiteral("set by you"));
        QCOMPARE(again.view()->undoStack()->count(), 0);
        QFile::remove(saved);
    }

    void aTinyBudgetLoadsRanksOnDemandAndDropsTheLeastRecentlyViewed()
    {
        QTemporaryDir dir;
        writeCluster(dir);
        ClusterWindow window;
        ClusterLoadOptions options;
        options.memoryBudgetBytes = 1; // every rank is over it: summaries first, one rank's events at a time
        QVERIFY(openAndWait(window, dir.path(), options));
        QVERIFY(window.lazy());
        RankOverview* o = window.overview();
        for (size_t r = 0; r < 3; ++r)
            QVERIFY(!o->session(r));
        QCOMPARE(o->offsetNs(1), -20 * us); // the clocks come from the summaries
        QVERIFY2(window.statusLabel()->text().contains(QStringLiteral("memory budget")),
                 qPrintable(window.statusLabel()->text()));

        QSignalSpy arrived(&window, &ClusterWindow::rankLoaded);
        QTest::mouseClick(o->header(0), Qt::LeftButton);
        QVERIFY(o->isExpanded(0));
        QVERIFY(!o->timeline(0));
        QVERIFY(window.loading()); // (the result comes back queued: not before the event loop runs)
        QVERIFY(!window.cancelButton()->isHidden());
        QVERIFY(o->header(0)->text().contains(QStringLiteral("loading")));
        QVERIFY(arrived.wait(60000));
        QCOMPARE(arrived[0][1].toBool(), true);
        QVERIFY(o->session(0));
        QVERIFY(o->timeline(0));
        QCOMPARE(o->timeline(0)->timeOffsetNs(), 0);
        QVERIFY(window.cancelButton()->isHidden());

        o->header(1)->setFocus();
        QTest::keyClick(o->header(1), Qt::Key_Return);
        QVERIFY(arrived.wait(60000));
        QVERIFY(o->session(1));
        QCOMPARE(o->timeline(1)->timeOffsetNs(), -20 * us);
        QVERIFY(!o->session(0)); // dropped: the least recently viewed
        QVERIFY(!o->isExpanded(0));
        QVERIFY(!o->timeline(0));

        // Unfolding rank 0 again loads it again and drops rank 1.
        QTest::mouseClick(o->header(0), Qt::LeftButton);
        QVERIFY(arrived.wait(60000));
        QVERIFY(o->session(0));
        QVERIFY(!o->session(1));
    }

    void summariesBesideTheirProfilesOpenFirstAndTheProfileLoadsOnUnfolding()
    {
        // A folder of `summarize` outputs (made "elsewhere": their source names another machine's path)
        // next to the full rank folders.
        QTemporaryDir dir;
        writeCluster(dir);
        for (int r = 0; r < 3; ++r) {
            const LoadOutcome loaded = loadProfile(rankFolder(dir, r).toStdString());
            QVERIFY(loaded.profile);
            RankSummary s = summarizeRank(*loaded.profile, 0, AnalysisRules::defaults(), "/cluster/node/rank");
            s.rankNumber = r;
            s.label = "made by summarize";
            QFile f(dir.filePath(QStringLiteral("rank-%1.summary.json").arg(r)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(rankSummaryJson(s)));
        }
        ClusterWindow window;
        ClusterLoadOptions options;
        options.memoryBudgetBytes = 1;
        QVERIFY(openAndWait(window, dir.path(), options));
        QVERIFY(window.lazy());
        QCOMPARE(window.view()->ranks().size(), size_t(3));
        QCOMPARE(window.view()->ranks()[2].label, std::string("made by summarize"));  // read, not re-made
        QCOMPARE(window.view()->ranks()[2].source, rankFolder(dir, 2).toStdString()); // its profile here
        QCOMPARE(window.overview()->offsetNs(2), 30 * us);
        QSignalSpy arrived(&window, &ClusterWindow::rankLoaded);
        QTest::mouseClick(window.overview()->header(2), Qt::LeftButton);
        QVERIFY(arrived.wait(60000));
        QVERIFY(window.overview()->timeline(2));
        QCOMPARE(window.overview()->timeline(2)->timeOffsetNs(), 30 * us);
    }

    void unknownRanksAndOlderRunsAreListed()
    {
        QTemporaryDir dir;
        writeCluster(dir);
        // An older run of rank 1 and a run folder whose rank cannot be told.
        ClusterDbBuilder older(1, 0);
        older.step(7, 0, 1000 * us);
        QCOMPARE(older.writeRunFolder(dir.filePath(QStringLiteral("n_1_20240101080000001_ascend_pt"))), QString());
        ClusterDbBuilder unknown(4, 0);
        unknown.step(7, 0, 1000 * us);
        const QString odd = dir.filePath(QStringLiteral("odd/ASCEND_PROFILER_OUTPUT/some.db"));
        QVERIFY(QDir().mkpath(QFileInfo(odd).path()));
        QCOMPARE(unknown.write(odd), QString());
        ClusterWindow window;
        QVERIFY(openAndWait(window, dir.path()));
        const QString status = window.statusLabel()->text();
        QVERIFY2(status.contains(QStringLiteral("n_1_20240101080000001_ascend_pt")), qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("Not loaded: ")) &&
                     status.contains(QStringLiteral("its rank is not known")),
                 qPrintable(status));
        QCOMPARE(window.overview()->rankCount(), size_t(3));
    }

    void theEightRankDemoOpensAsEightFoldedRows()
    {
        QTemporaryDir dir;
        demo::ClusterDemoOptions options;
        options.steps = 30;
        options.slowFromStep = 10;
        options.slowToStep = 20;
        QVERIFY(demo::writeClusterDemo(options, dir.path().toStdString()).error.isEmpty());
        ClusterWindow window;
        QVERIFY(openAndWait(window, dir.path()));
        RankOverview* o = window.overview();
        QCOMPARE(o->rankCount(), size_t(8));
        for (size_t r = 0; r < 8; ++r)
            QCOMPARE(o->offsetNs(r), window.view()->analysis().clocks[r].offsetNs);
        // Rank 5's step in the slow window, from the table: it unfolds, every rank highlights the step.
        ClusterStepTableModel* model = window.view()->stepModel();
        int row = -1;
        for (int i = 0; i < model->rowCount(); ++i)
            if (model->stepAt(i) == 25) // common step 15 (the demo's step ids start at 10)
                row = i;
        QVERIFY(row >= 0);
        QTableView* table = window.view()->stepTable();
        table->scrollTo(model->index(row, 5));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(model->index(row, 5)).center());
        QVERIFY(o->isExpanded(5));
        QCOMPARE(o->highlightedStep(), qint64(25));
    }

    // The pictures of docs/cluster.md (DSPARK_SCREENSHOT_DIR set: written there), in English and Chinese.
    void screenshots()
    {
        const QString out = qEnvironmentVariable("DSPARK_SCREENSHOT_DIR");
        if (out.isEmpty())
            QSKIP("DSPARK_SCREENSHOT_DIR is not set");
        QDir().mkpath(out);
        QTemporaryDir dir;
        QVERIFY(demo::writeClusterDemo({}, dir.path().toStdString()).error.isEmpty());
        for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
            test::InstalledTranslator zh;
            if (language != QLatin1String("en")) {
                zh = test::installTranslation(language);
                QVERIFY(zh);
            }
            ClusterWindow window;
            window.resize(1500, 1100);
            QVERIFY(openAndWait(window, dir.path()));
            window.overview()->showStep(5, 55); // rank 5 in its slow window
            window.overview()->zoom()->zoomToInterval(
                window.overview()->zoom()->startNs(),
                window.overview()->zoom()->startNs() + 3 * window.overview()->zoom()->spanNs(), 0);
            QApplication::processEvents();
            const QString suffix = language == QLatin1String("en") ? QString() : QStringLiteral("-zh");
            QVERIFY(window.grab().save(out + QStringLiteral("/cluster-window%1.png").arg(suffix)));
            // The same step's cross-rank critical path: a click on its cell of rank 5, then the path tab.
            ClusterView* view = window.view();
            int row = 0;
            while (row < view->stepModel()->rowCount() && view->stepModel()->stepAt(row) != 55)
                ++row;
            QVERIFY(row < view->stepModel()->rowCount());
            view->stepTable()->scrollTo(view->stepModel()->index(row, 5));
            QTest::mouseClick(view->stepTable()->viewport(), Qt::LeftButton, {},
                              view->stepTable()->visualRect(view->stepModel()->index(row, 5)).center());
            QCOMPARE(view->pathTable()->stepId(), int64_t(55));
            view->tabs()->setCurrentIndex(1);
            QApplication::processEvents();
            QVERIFY(window.grab().save(out + QStringLiteral("/cluster-path%1.png").arg(suffix)));
            // The communication matrix: each link's size in binary units, the figures' columns as wide as
            // they need.
            view->tabs()->setCurrentWidget(view->commMatrix());
            QApplication::processEvents();
            QVERIFY(view->tabs()->grab().save(out + QStringLiteral("/cluster-matrix%1.png").arg(suffix)));
            // The folded rows alone (measured activity strips) over steps 54–56 of the slow window.
            RankOverview* o = window.overview();
            for (size_t r = 0; r < o->rankCount(); ++r)
                o->setExpanded(r, false);
            const auto& steps5 = view->ranks()[5].steps;
            const auto from =
                std::find_if(steps5.begin(), steps5.end(), [](const RankStep& s) { return s.stepId == 54; });
            QVERIFY(from != steps5.end() && from + 2 < steps5.end());
            o->zoom()->zoomToInterval(from->startNs + o->offsetNs(5), (from + 2)->endNs + o->offsetNs(5), 0.02);
            QTest::qWait(100); // (a picture, not an assertion: the folded rows' layout settles)
            const QWidget* last = o->strip(o->rankCount() - 1);
            const int bottom = last->mapTo(o, QPoint(0, last->height())).y() + 4;
            QVERIFY(o->grab(QRect(0, 0, o->width(), bottom))
                        .save(out + QStringLiteral("/cluster-strips%1.png").arg(suffix)));
        }
    }

    void openingAnotherClusterWhileOneLoadsShowsTheLaterOne()
    {
        QTemporaryDir first, second;
        writeCluster(first);
        for (int r = 0; r < 2; ++r) {
            ClusterDbBuilder b(r, 0);
            b.step(3, 0, 1000 * us);
            b.collective("hcom_allReduce__1", "hcom_allReduce_", "g", 10, 100 * us, 400 * us);
            QCOMPARE(b.writeRunFolder(second.filePath(QStringLiteral("m_%1_20250101080000001_ascend_pt").arg(r))),
                     QString());
        }
        ClusterWindow window;
        QSignalSpy loaded(&window, &ClusterWindow::loaded);
        window.open(first.path());
        window.open(second.path()); // the first load is cancelled and its result dropped
        QVERIFY(QTest::qWaitFor([&] { return loaded.size() == 1; }, 60000));
        QCOMPARE(window.overview()->rankCount(), size_t(2));
        QCOMPARE(window.view()->ranks().size(), size_t(2));
        QTest::qWait(50);
        QCOMPARE(loaded.size(), 1);
    }

    void theCommandLineOpensAClusterWindow()
    {
        QTemporaryDir dir;
        writeCluster(dir);
        auto w = test::openMainWindow();
        QVERIFY(w);
        w->openFromCommandLine({QStringLiteral("--cluster"), dir.path()});
        auto* cluster = w->findChild<ClusterWindow*>();
        QVERIFY(cluster);
        QVERIFY(QTest::qWaitFor([&] { return !cluster->loading() && cluster->overview()->rankCount() == 3; }, 60000));
        QCOMPARE(cluster->overview()->offsetNs(2), 30 * us);
    }

    void theWindowClosesWithRanksUnfolded()
    {
        QTemporaryDir dir;
        writeCluster(dir);
        auto* window = new ClusterWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        QPointer<ClusterWindow> alive(window);
        QVERIFY(openAndWait(*window, dir.path()));
        window->overview()->setExpanded(0, true);
        window->overview()->showStep(1, 8);
        QVERIFY(window->close());
        QTRY_VERIFY(alive.isNull());
    }
};

QTEST_MAIN(TestClusterTimeline)
#include "tst_cluster_timeline.moc"
