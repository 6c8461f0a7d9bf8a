// The range statistics and kernel summary docks, driven as a user would: Ctrl+drag on the timeline,
// sort, filter, double-click a row; a click in the kernel summary moves the timeline to the kernel.
#include "KinetoRunsBuilder.h"
#include "MainWindowTestSupport.h"
#include "TestSupport.h"

#include "MainWindow.h"
#include "analysis/AnalysisRules.h"
#include "analysis/RangeStats.h"
#include "panels/EventTablePanel.h"
#include "summary/SummaryDocks.h"
#include "summary/SummaryPanels.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "timeline/TimelineZoom.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace dspark;
using namespace dspark::ui;

namespace {

constexpr TimeNs kBase = 1'700'000'000'000'000'000LL;

// Stream 2: kernel k (0..199) starts at base + k µs and lasts 200 + (k % 7) * 50 ns, named
// "MatMul" (k even) or "Add" (k odd). Python: a 200 µs span "forward" holding "layer" spans of 10 µs
// every 20 µs.
std::shared_ptr<Profile> makeProfile(bool withDevice = true, bool profilerSteps = false)
{
    auto p = std::make_shared<Profile>();
    p->rootPath = "/summary-test";
    const int rank = p->ensureRank(0, 0);
    const uint32_t py = p->laneFor({LaneKind::Host, rank, -1, -1, 1, "Python", "Thread 1", 0});
    p->lanes[py].append(kBase, 200'000, p->strings.intern("forward"), EventKind::TorchOp);
    for (int i = 0; i < 10; ++i)
        p->lanes[py].append(kBase + i * 20'000, 10'000, p->strings.intern("layer"), EventKind::TorchOp);
    if (profilerSteps) // ProfilerStep#7 [0, 100 µs), #8 [100, 200 µs) on their own thread
        for (int i = 0; i < 2; ++i) {
            const uint32_t t = p->laneFor({LaneKind::Host, rank, -1, -1, 2, "Python", "Thread 2", 0});
            p->lanes[t].append(kBase + i * 100'000, 100'000, p->strings.intern("ProfilerStep#" + std::to_string(7 + i)),
                               EventKind::Annotation);
        }
    if (withDevice) {
        const uint32_t s2 = p->laneFor({LaneKind::NpuStream, rank, 0, 2, -1, "Ascend Hardware", "Stream 2", 0});
        for (int k = 0; k < 200; ++k)
            p->lanes[s2].append(kBase + k * 1'000, 200 + (k % 7) * 50, p->strings.intern(k % 2 ? "Add" : "MatMul"),
                                EventKind::Kernel);
    }
    p->finalize();
    return p;
}

int rowNamed(SummaryPanel* panel, const QString& name)
{
    for (int r = 0; r < panel->rowCount(); ++r)
        if (panel->proxy()->index(r, 0).data().toString() == name)
            return r;
    return -1;
}

} // namespace

class TestSummaryDocks : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w;
    std::shared_ptr<Profile> profile;

    QWidget* viewport() const { return w->timeline()->view()->viewport(); }
    void show(bool withDevice = true, bool profilerSteps = false)
    {
        profile = makeProfile(withDevice, profilerSteps);
        w->setProfile(profile, QStringLiteral("/summary-test"));
        QApplication::processEvents();
    }

private Q_SLOTS:
    void initTestCase() { test::useTestSettings(QStringLiteral("tst_summary_docks")); }
    void init()
    {
        w = test::openMainWindow();
        QVERIFY(w);
    }
    void cleanup() { w.reset(); }

    void kernelSummaryClickMovesTheTimeline()
    {
        show();
        SummaryDocks* docks = w->summaries();
        KernelSummaryPanel* k = docks->kernelSummary();
        QTRY_VERIFY(!k->busy()); // summarised on a worker thread
        QVERIFY(docks->kernelDock()->isVisible());
        QVERIFY(!docks->rangeDock()->isVisible()); // nothing selected yet
        QCOMPARE(k->rowCount(), 2);
        QVERIFY(k->note().contains(QStringLiteral("timeline")));
        const int add = rowNamed(k, QStringLiteral("Add"));
        QVERIFY(add >= 0);
        QCOMPARE(k->proxy()->index(add, 2).data().toString(), QStringLiteral("100"));
        docks->kernelDock()->raise();
        QApplication::processEvents();
        test::clickRow(k->table(), add);
        // The longest "Add": k odd with k % 7 == 6 (500 ns), the earliest such k = 13.
        const EventRef selected = w->timeline()->selection()->event();
        QVERIFY(selected.valid());
        QCOMPARE(profile->name(selected), std::string_view("Add"));
        QCOMPARE(profile->startNs(selected), kBase + 13 * 1'000);
        QVERIFY(w->timeline()->zoom()->startNs() <= w->timeline()->toSharedNs(profile->startNs(selected)));
        QVERIFY(w->timeline()->zoom()->endNs() >= w->timeline()->toSharedNs(profile->endNs(selected)));
        // The instances are listed, longest first.
        QCOMPARE(w->eventTable()->rowCount(), 100);
        QCOMPARE(w->eventTable()->eventAtRow(0), selected);
    }

    // A kernel summary the user closed stays closed while ranges and steps are summarised (it used to
    // reopen each time one was computed); View › Kernel Summary opens it on the latest scope, and the next
    // profile shows it again.
    void aClosedKernelSummaryStaysClosed()
    {
        show();
        SummaryDocks* docks = w->summaries();
        KernelSummaryPanel* k = docks->kernelSummary();
        QTRY_VERIFY(!k->busy());
        QVERIFY(docks->kernelDock()->isVisible());
        QCOMPARE(k->proxy()->index(rowNamed(k, QStringLiteral("MatMul")), 2).data().toString(), QStringLiteral("100"));
        docks->kernelDock()->toggleViewAction()->trigger();
        QVERIFY(!docks->kernelDock()->isVisible());

        TimelineWidget* t = w->timeline();
        t->zoom()->setRange(t->toSharedNs(kBase), t->toSharedNs(kBase + 60'000));
        QApplication::processEvents();
        QSignalSpy computed(k, &SummaryPanel::computed);
        const int x0 = t->labelWidth() + 100, x1 = t->labelWidth() + 300;
        QTest::mousePress(viewport(), Qt::LeftButton, Qt::ControlModifier, QPoint(x0, 100));
        QTest::mouseMove(viewport(), QPoint(x0 + 50, 100));
        QTest::mouseMove(viewport(), QPoint(x1, 100));
        QTest::mouseRelease(viewport(), Qt::LeftButton, Qt::ControlModifier, QPoint(x1, 100));
        QVERIFY(docks->rangeDock()->isVisible());
        QTRY_VERIFY(computed.count() >= 1 && !k->busy());
        QApplication::processEvents();
        QVERIFY(!docks->kernelDock()->isVisible());
        // (The range holds part of the 100 MatMuls.)
        const int rangeMatMuls = k->proxy()->index(rowNamed(k, QStringLiteral("MatMul")), 2).data().toInt();
        QVERIFY2(rangeMatMuls > 0 && rangeMatMuls < 100, qPrintable(QString::number(rangeMatMuls)));

        docks->kernelDock()->toggleViewAction()->trigger();
        QVERIFY(docks->kernelDock()->isVisible());
        QCOMPARE(k->proxy()->index(rowNamed(k, QStringLiteral("MatMul")), 2).data().toInt(), rangeMatMuls);

        docks->kernelDock()->toggleViewAction()->trigger();
        show(); // another profile
        QTRY_VERIFY(!k->busy());
        QTRY_VERIFY(docks->kernelDock()->isVisible());
    }

    void ctrlDragFillsTheRangeTable()
    {
        show();
        TimelineWidget* t = w->timeline();
        t->zoom()->setRange(t->toSharedNs(kBase), t->toSharedNs(kBase + 60'000));
        QApplication::processEvents();
        const int x0 = t->labelWidth() + 100, x1 = t->labelWidth() + 500;
        QTest::mousePress(viewport(), Qt::LeftButton, Qt::ControlModifier, QPoint(x0, 100));
        QTest::mouseMove(viewport(), QPoint(x0 + 50, 100));
        QTest::mouseMove(viewport(), QPoint(x1, 100));
        QTest::mouseRelease(viewport(), Qt::LeftButton, Qt::ControlModifier, QPoint(x1, 100));
        const TimeNs a = t->selection()->rangeStartNs(), b = t->selection()->rangeEndNs();
        QVERIFY(b > a);
        SummaryDocks* docks = w->summaries();
        QVERIFY(docks->rangeDock()->isVisible());
        RangeStatsPanel* r = docks->rangeStats();
        QTRY_VERIFY(!r->busy());
        // Expected by hand from the generator: kernels overlapping [a, b), and their parts inside it.
        uint64_t matmuls = 0;
        TimeNs matmulNs = 0;
        for (int k = 0; k < 200; k += 2) {
            const TimeNs s = kBase + k * 1'000, e = s + 200 + (k % 7) * 50;
            if (s < b && e > a) {
                ++matmuls;
                matmulNs += std::min(e, b) - std::max(s, a);
            }
        }
        QVERIFY(matmuls >= 5);
        const int row = rowNamed(r, QStringLiteral("MatMul"));
        QVERIFY(row >= 0);
        QCOMPARE(r->proxy()->index(row, 2).data().toULongLong(), qulonglong(matmuls));
        QCOMPARE(r->proxy()->index(row, 3).data(SummaryTableModel::SortRole).toLongLong(), qlonglong(matmulNs));
        // "forward" holds the "layer" spans: its self time is its part minus theirs.
        const int fwd = rowNamed(r, QStringLiteral("forward"));
        QVERIFY(fwd >= 0);
        QVERIFY(r->proxy()->index(fwd, 4).data(SummaryTableModel::SortRole).toLongLong() <
                r->proxy()->index(fwd, 3).data(SummaryTableModel::SortRole).toLongLong());
        // Sort by count (header click), then filter.
        QTest::mouseClick(r->table()->horizontalHeader()->viewport(), Qt::LeftButton, {},
                          QPoint(r->table()->horizontalHeader()->sectionViewportPosition(2) + 5, 5));
        QTest::mouseClick(r->table()->horizontalHeader()->viewport(), Qt::LeftButton, {},
                          QPoint(r->table()->horizontalHeader()->sectionViewportPosition(2) + 5, 5));
        QCOMPARE(r->table()->horizontalHeader()->sortIndicatorSection(), 2);
        const qulonglong top = r->proxy()->index(0, 2).data(SummaryTableModel::SortRole).toULongLong();
        for (int i = 1; i < r->rowCount(); ++i)
            QVERIFY(r->proxy()->index(i, 2).data(SummaryTableModel::SortRole).toULongLong() <= top ||
                    r->table()->horizontalHeader()->sortIndicatorOrder() == Qt::AscendingOrder);
        QTest::keyClicks(r->filter(), QStringLiteral("matm"));
        QCOMPARE(r->rowCount(), 1);
        QVERIFY(r->csv().startsWith(QStringLiteral("Name,Kind,Count,Total")));
        QVERIFY(r->csv().contains(QStringLiteral("MatMul")));
        // Double-click: its instances in the range, longest first; the timeline goes to the first.
        docks->rangeDock()->raise();
        QApplication::processEvents();
        test::clickRow(r->table(), 0, true);
        QCOMPARE(w->eventTable()->rowCount(), int(matmuls));
        const EventRef first = w->eventTable()->eventAtRow(0);
        QCOMPARE(w->timeline()->selection()->event(), first);
        for (int i = 1; i < w->eventTable()->rowCount(); ++i) {
            const EventRef e = w->eventTable()->eventAtRow(i);
            QVERIFY(profile->lanes[e.lane].durationNs[e.index] <= profile->lanes[first.lane].durationNs[first.index]);
        }
    }

    void aProfileWithoutRecordsListsItsOwnSteps()
    {
        QSignalSpy analysed(w->summaries()->plainSteps(), &PlainStepsPanel::analysed);
        show(true, true);
        QVERIFY(analysed.count() > 0 || analysed.wait(30'000));
        SummaryDocks* docks = w->summaries();
        QVERIFY(docks->stepsDock()->isVisible());
        QVERIFY(!w->findChild<QDockWidget*>(QStringLiteral("stepsDock"))->isVisible()); // no DSpark records
        PlainStepsPanel* steps = docks->plainSteps();
        QCOMPARE(steps->rowCount(), 2);
        QVERIFY(steps->note().contains(QStringLiteral("ProfilerStep#N spans")));
        QCOMPARE(steps->proxy()->index(1, 0).data().toString(), QStringLiteral("8"));
        // Step 8's wall is its span, 100 µs; its kernels are k = 100..199 (100 µs of kernels at 1 µs).
        QCOMPARE(steps->proxy()->index(1, 2).data(SummaryTableModel::SortRole).toLongLong(), qlonglong(100'000));
        docks->stepsDock()->raise();
        QApplication::processEvents();
        test::clickRow(steps->table(), 1, true);
        // The timeline shows the step; the range docks follow it.
        TimelineWidget* t = w->timeline();
        QVERIFY(t->zoom()->startNs() <= t->toSharedNs(kBase + 100'000));
        QVERIFY(t->zoom()->endNs() >= t->toSharedNs(kBase + 200'000));
        QVERIFY(t->zoom()->endNs() - t->zoom()->startNs() < 150'000);
        QTRY_VERIFY(!docks->rangeStats()->busy() && !docks->kernelSummary()->busy());
        QVERIFY(docks->rangeStats()->title().contains(QStringLiteral("step 8")));
        QCOMPARE(rowNamed(docks->kernelSummary(), QStringLiteral("Add")) >= 0, true);
        QCOMPARE(docks->kernelSummary()
                     ->proxy()
                     ->index(rowNamed(docks->kernelSummary(), QStringLiteral("Add")), 2)
                     .data()
                     .toString(),
                 QStringLiteral("50"));
    }

    // With DSPARK_SCREENSHOT_DIR set: the docks over the demo (a Ctrl-drag range) and over the real text
    // export (its own steps), for docs/images (DSPARK_SCREENSHOT_LANG=zh_CN for the Chinese ones).
    void screenshots()
    {
        const auto shots = test::startScreenshots(w.get());
        if (!shots)
            QSKIP("DSPARK_SCREENSHOT_DIR not set");
        w->openDemo();
        QVERIFY(test::waitLoaded(w.get(), 180'000));
        const Profile& demo = *w->profile();
        const TimeNs a = demo.firstNs() + (demo.lastNs() - demo.firstNs()) / 2;
        w->timeline()->zoom()->setRange(w->timeline()->toSharedNs(a - 2'000'000),
                                        w->timeline()->toSharedNs(a + 8'000'000));
        w->timeline()->selection()->setTimeRange(a, a + 5'000'000);
        QTRY_VERIFY(!w->summaries()->rangeStats()->busy() && !w->summaries()->kernelSummary()->busy());
        w->summaries()->rangeDock()->raise();
        QApplication::processEvents();
        QVERIFY(w->grab().save(shots->path(QStringLiteral("window-range-statistics"))));
        if (test::haveRealData()) {
            QSignalSpy analysed(w->summaries()->plainSteps(), &PlainStepsPanel::analysed);
            w->openPath(test::realData(QStringLiteral("ascend/torch_npu_text_rank0_ascend_pt")));
            QVERIFY(test::waitLoaded(w.get(), 60'000));
            QVERIFY(analysed.count() > 0 || analysed.wait(30'000));
            QTRY_VERIFY(!w->summaries()->kernelSummary()->busy());
            w->summaries()->kernelDock()->raise();
            QApplication::processEvents();
            QVERIFY(w->grab().save(shots->path(QStringLiteral("window-kernel-summary"))));
            w->summaries()->stepsDock()->raise();
            QApplication::processEvents();
            QVERIFY(w->grab().save(shots->path(QStringLiteral("window-profiler-steps"))));
        }
    }

    void theFirstViewFitsTheEventsNotTheCounters()
    {
        // A counter sampled from 1 s before to 2 s after the events: the view is the events' 200 µs.
        auto copy = std::make_shared<Profile>();
        {
            Profile& c = *copy;
            const int rank = c.ensureRank(0, 0);
            const uint32_t py = c.laneFor({LaneKind::Host, rank, -1, -1, 1, "Python", "Thread 1", 0});
            c.lanes[py].append(kBase, 200'000, c.strings.intern("forward"), EventKind::TorchOp);
            const uint32_t hbm = c.laneFor({LaneKind::Counter, rank, 0, -1, -1, "HBM", "Read", 0});
            for (TimeNs t = kBase - 1'000'000'000; t <= kBase + 2'000'000'000; t += 500'000'000)
                c.lanes[hbm].appendSample(t, 1.0, c.strings.intern("read"));
            c.finalize();
        }
        w->setProfile(copy, QStringLiteral("/fit"));
        QApplication::processEvents();
        TimelineWidget* t = w->timeline();
        QCOMPARE(t->zoom()->startNs(), t->toSharedNs(kBase));
        QCOMPARE(t->zoom()->endNs(), t->toSharedNs(kBase + 200'000));
    }

    void realProfilesOpenAtTheirEventsWithTheirSteps()
    {
        DSPARK_REQUIRE_REAL_DATA();
        for (const char* path :
             {"kineto/a100_2rank_nccl_rank0.pt.trace.json.gz", "ascend/torch_npu_db_rank0_ascend_pt"}) {
            QSignalSpy analysed(w->summaries()->plainSteps(), &PlainStepsPanel::analysed);
            w->openPath(test::realData(QString::fromLatin1(path)));
            QVERIFY(test::waitLoaded(w.get(), 120'000));
            QVERIFY(analysed.count() > 0 || analysed.wait(60'000));
            const Profile& p = *w->profile();
            const auto [first, last] = eventExtentNs(p);
            QCOMPARE(w->timeline()->zoom()->startNs(), w->timeline()->toSharedNs(first));
            QCOMPARE(w->timeline()->zoom()->endNs(), w->timeline()->toSharedNs(last));
            PlainStepsPanel* steps = w->summaries()->plainSteps();
            QVERIFY(w->summaries()->stepsDock()->isVisible());
            QVERIFY(steps->note().contains(QStringLiteral("ProfilerStep#N")));
            // Kineto: ProfilerStep#4..6 (222.442191, 219.726905, 224.936243 ms); the database: #50 (151.88875 ms).
            const bool kineto = QString::fromLatin1(path).startsWith(QStringLiteral("kineto"));
            QCOMPARE(steps->rowCount(), kineto ? 3 : 1);
            QCOMPARE(steps->proxy()->index(0, 2).data(SummaryTableModel::SortRole).toLongLong(),
                     kineto ? qlonglong(222'442'191) : qlonglong(151'888'750));
        }
    }

    // Two runs of Kineto traces that both claim rank 0 (io.tst_separate_runs's folder with a ProfilerStep in
    // each file): the Profiler Steps dock's Rank column names the other run by its label, as `steps` does.
    void theStepsDockTellsTwoRunsOfOneRankNumberApart()
    {
        QTemporaryDir dir;
        test::writeSeparateRuns(dir, true);
        QSignalSpy analysed(w->summaries()->plainSteps(), &PlainStepsPanel::analysed);
        w->openPath(dir.path());
        QVERIFY(test::waitLoaded(w.get(), 60'000));
        QVERIFY(analysed.count() > 0 || analysed.wait(60'000));
        PlainStepsPanel* steps = w->summaries()->plainSteps();
        QCOMPARE(steps->rowCount(), 3);
        QStringList ranks;
        for (int step = 1; step <= 3; ++step)
            for (int r = 0; r < steps->rowCount(); ++r)
                if (steps->proxy()->index(r, 0).data().toString() == QString::number(step))
                    ranks << steps->proxy()->index(r, 1).data().toString();
        QCOMPARE(ranks,
                 (QStringList{QStringLiteral("rank 0"), QStringLiteral("rank 0 (x2.json)"), QStringLiteral("rank 0")}));
    }

    void theStepsDockReadsTheUsersRules()
    {
        // No ProfilerStep spans: the steps are the step_span rule's spans. Built in, that is
        // scheduler.run_batch (2 spans of 80 µs here); the user's rules file makes it "my_iter" (3 spans
        // of 50, 60 and 70 µs), and the dock must follow the file as `steps` does.
        auto p = std::make_shared<Profile>();
        const int rank = p->ensureRank(0, 0);
        const uint32_t py = p->laneFor({LaneKind::Host, rank, -1, -1, 1, "Python", "Thread 1", 0});
        for (int i = 0; i < 2; ++i)
            p->lanes[py].append(kBase + i * 100'000, 80'000, p->strings.intern("scheduler.run_batch"),
                                EventKind::TorchOp);
        const uint32_t py2 = p->laneFor({LaneKind::Host, rank, -1, -1, 2, "Python", "Thread 2", 0});
        TimeNs t = kBase;
        for (int i = 0; i < 3; ++i) {
            p->lanes[py2].append(t, 50'000 + i * 10'000, p->strings.intern("my_iter"), EventKind::TorchOp);
            t += 100'000;
        }
        p->finalize();
        const QString rulesPath = AnalysisRules::userRulesPath();
        QVERIFY(QDir().mkpath(QFileInfo(rulesPath).path()));
        auto wallsOf = [this](std::shared_ptr<Profile> profile) {
            QSignalSpy analysed(w->summaries()->plainSteps(), &PlainStepsPanel::analysed);
            w->setProfile(profile, QStringLiteral("/rules"));
            std::vector<qlonglong> walls;
            if (!analysed.wait(30'000))
                return walls;
            PlainStepsPanel* steps = w->summaries()->plainSteps();
            for (int r = 0; r < steps->rowCount(); ++r)
                walls.push_back(steps->proxy()->index(r, 2).data(SummaryTableModel::SortRole).toLongLong());
            return walls;
        };
        QFile::remove(rulesPath);
        QCOMPARE(wallsOf(p), (std::vector<qlonglong>{80'000, 80'000}));
        {
            QFile f(rulesPath);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"step_span": ["^my_iter$"]})");
        }
        const std::vector<qlonglong> walls = wallsOf(p);
        QFile::remove(rulesPath);
        QCOMPARE(walls, (std::vector<qlonglong>{50'000, 60'000, 70'000}));
        QVERIFY(w->summaries()->stepsDock()->isVisible());
    }

    void aNewerRangeDropsTheStaleResult()
    {
        show();
        RangeStatsPanel* r = w->summaries()->rangeStats();
        KernelSummaryPanel* k = w->summaries()->kernelSummary();
        QTRY_VERIFY(!k->busy());
        QSignalSpy rangeDone(r, &SummaryPanel::computed);
        QSignalSpy kernelsDone(k, &SummaryPanel::computed);
        // Two selections in a row, the second before the first is computed: only the second is shown.
        // [0, 100 µs) holds kernels k = 0..99 (50 "Add"), [0, 10 µs) k = 0..9 (5 "Add").
        w->timeline()->selection()->setTimeRange(kBase, kBase + 100'000);
        QVERIFY(r->busy());
        QVERIFY(r->title().contains(QStringLiteral("computing")));
        w->timeline()->selection()->setTimeRange(kBase, kBase + 10'000);
        QTRY_VERIFY(!r->busy() && !k->busy());
        QCOMPARE(rangeDone.count(), 1);
        QCOMPARE(kernelsDone.count(), 1);
        const int add = rowNamed(r, QStringLiteral("Add"));
        QVERIFY(add >= 0);
        QCOMPARE(r->proxy()->index(add, 2).data().toULongLong(), qulonglong(5));
        QCOMPARE(k->proxy()->index(rowNamed(k, QStringLiteral("Add")), 2).data().toString(), QStringLiteral("5"));
    }

    void aHostOnlyProfileHidesTheKernelDock()
    {
        show(false);
        QTRY_VERIFY(!w->summaries()->kernelSummary()->busy());
        QVERIFY(!w->summaries()->kernelDock()->isVisible());
        QVERIFY(w->summaries()->kernelSummary()->isEmpty());
    }
};

QTEST_MAIN(TestSummaryDocks)
#include "tst_summary_docks.moc"
