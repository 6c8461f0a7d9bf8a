// Loading a cluster in its window: the memory budget (DSPARK_CLUSTER_MEMORY_MB) against each rank's
// estimated loaded size leaves exactly the large rank lazy; Cancel (the button or Esc) while ranks load
// stops the load, shows nothing of it, and leaves the window ready for the next open. The loader is held
// at a known point by a hook (ClusterLoadOptions::beforeRank) until the test has pressed Cancel: no timers.
// Lazy ranks unfolded together load at once when their estimates fit the budget.
#include "../cluster/BudgetStory.h"
#include "MainWindowTestSupport.h"

#include "cluster/ClusterStepTableModel.h"
#include "cluster/ClusterView.h"
#include "cluster/ClusterWindow.h"
#include "cluster/RankOverview.h"

#include <QLabel>
#include <QPushButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QToolButton>

#include <atomic>
#include <memory>

using namespace dspark;
using namespace dspark::ui;
using test::BudgetStory;

namespace {

// Options whose loader stops before each rank until `gate` is released; `entered` counts the stops.
ClusterLoadOptions heldLoad(const std::shared_ptr<QSemaphore>& gate, const std::shared_ptr<std::atomic<int>>& entered)
{
    ClusterLoadOptions options;
    options.maxConcurrent = 1;
    options.beforeRank = [gate, entered](size_t) {
        ++*entered;
        gate->acquire();
    };
    return options;
}

} // namespace

class TestClusterLoad : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::useTestSettings(QStringLiteral("tst_cluster_load")); }

    void aOneMegabyteBudgetMakesExactlyTheLargeRankLazy()
    {
        QTemporaryDir dir;
        QCOMPARE(BudgetStory::write(dir.path()), QString());
        qputenv("DSPARK_CLUSTER_MEMORY_MB", "1");
        ClusterWindow window;
        QSignalSpy loaded(&window, &ClusterWindow::loaded);
        window.open(dir.path());
        qunsetenv("DSPARK_CLUSTER_MEMORY_MB");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(QTest::qWaitFor([&] { return loaded.size() == 1; }, 60000));
        QCOMPARE(window.budgetBytes(), uint64_t(1) << 20);
        QVERIFY(window.lazy());
        QCOMPARE(window.lazyCount(), size_t(1));
        RankOverview* o = window.overview();
        QVERIFY(!o->session(0)); // 20,003 event rows: over 1 MB loaded
        QVERIFY(o->session(1));  // the largest file, but four rows
        QVERIFY(o->session(2));
        QVERIFY2(window.statusLabel()->text().contains(QStringLiteral("1 of 3 ranks exceed the memory budget")),
                 qPrintable(window.statusLabel()->text()));

        // Unfolding the lazy rank loads it; the loaded ranks count against the budget and make room.
        QSignalSpy arrived(&window, &ClusterWindow::rankLoaded);
        QTest::mouseClick(o->header(0), Qt::LeftButton);
        QVERIFY(arrived.wait(60000));
        QVERIFY(o->session(0));
    }

    // Six small ranks, a budget of four ranks' estimates: ranks 0–3 keep their events, 4 and 5 are lazy;
    // unfolding both starts both loads at once (their peaks, 2 × the estimate each, fit the budget).
    void twoLazyRanksUnfoldedLoadAtOnce()
    {
        if (QThread::idealThreadCount() < 2)
            QSKIP("one core: the ranks load one after another");
        QTemporaryDir dir;
        for (int r = 0; r < 6; ++r) {
            test::ClusterDbBuilder b(r, 0);
            b.step(1, 0, 1000 * BudgetStory::us);
            b.collective("hcom_allReduce__1", "hcom_allReduce_", "g", 8, 100 * BudgetStory::us, 200 * BudgetStory::us);
            b.kernel("MatMul", 0, 50 * BudgetStory::us);
            QCOMPARE(b.writeRunFolder(BudgetStory::folder(dir.path(), r)), QString());
        }
        const ClusterLayout layout = findClusterRanks(dir.path().toStdString());
        uint64_t four = 0;
        for (int r = 0; r < 4; ++r)
            four += estimateLoadedBytes(layout.ranks[size_t(r)]).loadedBytes;
        QCOMPARE(estimateLoadedBytes(layout.ranks[4]).loadedBytes * 4, four); // all alike

        ClusterWindow window;
        ClusterLoadOptions options;
        options.memoryBudgetBytes = four;
        QSignalSpy loaded(&window, &ClusterWindow::loaded);
        window.open(dir.path(), options);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(QTest::qWaitFor([&] { return loaded.size() == 1; }, 60000));
        QCOMPARE(window.lazyCount(), size_t(2));
        RankOverview* o = window.overview();
        QVERIFY(o->session(3));
        QVERIFY(!o->session(4) && !o->session(5));
        QTest::mouseClick(o->header(4), Qt::LeftButton);
        QTest::mouseClick(o->header(5), Qt::LeftButton);
        QCOMPARE(window.rankLoadsRunning(), size_t(2)); // (their results come back queued, not before)
        QSignalSpy arrived(&window, &ClusterWindow::rankLoaded);
        QVERIFY(QTest::qWaitFor([&] { return arrived.size() == 2; }, 60000));
        QVERIFY(arrived[0][1].toBool() && arrived[1][1].toBool());
        // The last to arrive stays; the budget (4 × 400 B of estimate) is below what even a tiny rank
        // really takes, so room was made for it by folding the others.
        const size_t last = arrived[1][0].value<size_t>();
        QVERIFY(o->timeline(last));
        QVERIFY(!window.loading());
    }

    void cancelWhileRanksLoadShowsNothingAndTheWindowOpensAgain_data()
    {
        QTest::addColumn<bool>("escape");
        QTest::newRow("Cancel button") << false;
        QTest::newRow("Esc") << true;
    }

    void cancelWhileRanksLoadShowsNothingAndTheWindowOpensAgain()
    {
        QFETCH(bool, escape);
        QTemporaryDir dir;
        QCOMPARE(BudgetStory::write(dir.path()), QString());
        ClusterWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy loaded(&window, &ClusterWindow::loaded), cancelled(&window, &ClusterWindow::loadCancelled);

        auto gate = std::make_shared<QSemaphore>(0);
        auto entered = std::make_shared<std::atomic<int>>(0);
        window.open(dir.path(), heldLoad(gate, entered));
        QVERIFY(QTest::qWaitFor([&] { return entered->load() == 1; }, 60000)); // held before its first rank
        QVERIFY(window.loading());
        QVERIFY(window.cancelButton()->isVisible());
        if (escape)
            QTest::keyClick(&window, Qt::Key_Escape);
        else
            QTest::mouseClick(window.cancelButton(), Qt::LeftButton);
        gate->release(3); // every rank passes the hook now, after the cancel
        QVERIFY(QTest::qWaitFor([&] { return cancelled.size() == 1; }, 60000));
        QCOMPARE(loaded.size(), 0);
        QVERIFY(!window.loading());
        QCOMPARE(window.overview()->rankCount(), size_t(0)); // no half-loaded cluster on screen
        QVERIFY(window.view()->ranks().empty());
        QCOMPARE(window.view()->stepModel()->rowCount(), 0);
        QVERIFY(window.cancelButton()->isHidden());
        QVERIFY2(window.statusLabel()->text().contains(QStringLiteral("cancelled")),
                 qPrintable(window.statusLabel()->text()));

        // The same window opens the folder again, completely.
        window.open(dir.path());
        QVERIFY(QTest::qWaitFor([&] { return loaded.size() == 1; }, 60000));
        QCOMPARE(window.overview()->rankCount(), size_t(3));
        QCOMPARE(window.view()->ranks().size(), size_t(3));
        QVERIFY(window.overview()->session(0));
        QVERIFY(!window.statusLabel()->text().contains(QStringLiteral("cancelled")));
    }
};

QTEST_MAIN(TestClusterLoad)
#include "tst_cluster_load.moc"
