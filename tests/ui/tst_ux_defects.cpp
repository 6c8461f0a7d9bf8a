// Defects a new user met on a walk through the comparison window, the cluster window and the main window
// (tst_ux_walk takes the pictures): each test drives the window as a user does and asserts what changed.
#include "../demo/DemoTestSupport.h"
#include "MainWindowTestSupport.h"
#include "TestSupport.h"
#include "UxTestSupport.h"
#include "cluster/ClusterPathTables.h"
#include "cluster/ClusterView.h"
#include "cluster/ClusterWindow.h"
#include "cluster/RankOverview.h"
#include "compare/ComparisonController.h"
#include "compare/ComparisonPanels.h"
#include "compare/KernelAlignment.h"
#include "demo/ClusterDemo.h"
#include "panels/EventTablePanel.h"
#include "panels/FileListPanel.h"
#include "panels/StepTablePanel.h"
#include "session/ProfileSession.h"
#include "steps/StepRecords.h"
#include "summary/SummaryDocks.h"
#include "summary/SummaryPanels.h"
#include "summary/SummaryTable.h"
#include "timeline/LaneLayout.h"
#include "timeline/TimelineStyle.h"
#include "timeline/TimelineWidget.h"
#include "timeline/TimelineZoom.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace dspark;
using namespace dspark::test;
using namespace dspark::ui;

namespace {

// A Chrome trace of one GPU kernel stream: `count` kernels of 100 µs, 50 µs apart, from `startUs` on
// the trace's clock (microseconds, as Kineto writes them).
QString writeTrace(const QString& path, double startUs, int count)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    QByteArray json = "{\"traceEvents\":[";
    for (int i = 0; i < count; ++i)
        json += QByteArray(i ? "," : "") + "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm_" +
                QByteArray::number(i % 3) +
                "\",\"pid\":0,\"tid\":7,\"ts\":" + QByteArray::number(startUs + 150.0 * i, 'f', 3) +
                ",\"dur\":100,\"args\":{\"device\":0,\"stream\":7}}";
    f.write(json + "]}");
    return path;
}

// The main window (1440×900 unless said) on the demo's comparison pair, compared (null: it did not open).
std::unique_ptr<MainWindow> openDemoPair(QSize size = {1440, 900})
{
    auto w = openMainWindow(size);
    if (!w)
        return nullptr;
    w->comparison()->openDemoComparison();
    return waitComparisonReady(w->comparison()) ? std::move(w) : nullptr;
}

// The kernel diff of the comparison's first pair, aligned, its dock raised (null: not aligned in time).
QTableWidget* showKernelDiff(ComparisonController* c)
{
    if (!c->showPair(0) || !QTest::qWaitFor([c] { return c->kernelAlignment() != nullptr; }, 60000))
        return nullptr;
    c->docks()[3]->raise();
    QApplication::processEvents();
    return c->kernelPanel()->table();
}

// The main window at 1440×900 on the real Kineto trace, its Profiler Steps analysed (3 steps), or null.
std::unique_ptr<MainWindow> openKinetoSteps()
{
    auto w = openMainWindow({1440, 900});
    if (!w)
        return nullptr;
    w->openPath(realData(QStringLiteral("kineto/a100_2rank_nccl_rank0.pt.trace.json.gz")));
    if (!waitLoaded(w.get(), 120000) ||
        !QTest::qWaitFor([&] { return w->summaries()->plainSteps()->steps().steps.size() == 3; }, 60000))
        return nullptr;
    return w;
}

} // namespace

class TestUxDefects : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { useTestSettings(QStringLiteral("tst_ux_defects")); }

    // Opening a profile brings the docks back from the welcome page without growing the window past
    // the size it has (a 1440×900 screen), and a long status message (the load's warnings) never
    // widens it.
    void loadingKeepsTheWindowSize()
    {
        auto w = openMainWindow({1440, 900});
        QVERIFY(w);
        w->resize(1440, 900); // (the window shows 6 pixels taller on the offscreen platform: see the report)
        QTRY_COMPARE(w->size(), QSize(1440, 900));
        w->openDemo();
        QVERIFY(waitLoaded(w.get(), 120000));
        QTRY_COMPARE(w->size(), QSize(1440, 900));
        QTemporaryDir dir;
        // A trace whose path is longer than the window is wide: the status line names it.
        const QString name = QString(200, QLatin1Char('x')) + QStringLiteral(".json");
        QVERIFY(!writeTrace(dir.filePath(name), 1000, 10).isEmpty());
        w->openPath(dir.filePath(name));
        QVERIFY(waitLoaded(w.get(), 60000));
        QTRY_COMPARE(w->size(), QSize(1440, 900));
    }

    // Two traces whose clocks are a day apart (epoch timestamps) and that have no step records: the two
    // runs are shown from their starts on one axis, each event of both on screen, not a day of blank.
    void tracesFarApartStartTogether()
    {
        QTemporaryDir dir;
        const double day = 86400e6; // µs
        const QString a = writeTrace(dir.filePath(QStringLiteral("one.json")), 1.7e15, 20);
        const QString b = writeTrace(dir.filePath(QStringLiteral("two.json")), 1.7e15 + day, 30);
        auto w = openMainWindow({1440, 900});
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        c->openComparison(a, b);
        QVERIFY(waitComparisonReady(c));
        const Profile& pa = *w->profile();
        const Profile& pb = *c->changedSession()->profile();
        QCOMPARE(pb.firstNs() - pa.firstNs(), TimeNs(day * 1000)); // (the files say so)
        // The changed run's clock is moved by its start's distance from the baseline's.
        QCOMPARE(c->changedSession()->timeOffsetNs(), pa.firstNs() - pb.firstNs());
        QCOMPARE(c->changedTimeline()->timeOffsetNs(), pa.firstNs() - pb.firstNs());
        // The shared axis spans the longer run: 30 kernels, 29 × 150 µs + 100 µs.
        const TimelineZoom* zoom = w->timeline()->zoom();
        QCOMPARE(zoom->boundsStartNs(), pa.firstNs());
        QCOMPARE(zoom->boundsEndNs() - zoom->boundsStartNs(), TimeNs((29 * 150 + 100) * 1000));
        QVERIFY(c->limitationsText().contains(QStringLiteral("shown from their starts")));
        // No step pair: the Kernel Diff aligns the two whole runs (as `compare` does), not an empty pane.
        QTRY_VERIFY_WITH_TIMEOUT(c->kernelAlignment() != nullptr, 60000);
        const KernelAlignment& k = *c->kernelAlignment();
        size_t matched = 0;
        for (const StreamAlignment& stream : k.streams)
            matched += stream.matched;
        QCOMPARE(matched, size_t(20)); // the baseline's 20 kernels are the changed run's first 20 by name
        QCOMPARE(k.onlyChanged.size(), size_t(10));
        QCOMPARE(k.onlyBaseline.size(), size_t(0));
        QCOMPARE(c->kernelPanel()->table()->rowCount(), 30);
        QVERIFY(c->kernelPanel()->table()->columnWidth(0) > 0);
    }

    // The cluster window at 1440×900 on the 8-rank demo: the rank rows take what they need (no blank
    // below the last rank), so that the rank table shows every rank; unfolding a rank gives its lanes the
    // overview's room; the tables' figures are right-aligned and no column is narrower than its header.
    void clusterRowsLeaveRoomForTheTables()
    {
        QTemporaryDir dir;
        QVERIFY(demo::writeClusterDemo({}, dir.path().toStdString()).error.isEmpty());
        ClusterWindow window;
        QVERIFY(openClusterAt(window, dir.path(), {1440, 900}));
        QApplication::processEvents();
        RankOverview* o = window.overview();
        QCOMPARE(o->rankCount(), size_t(8));
        // Folded: the overview is as tall as its rows, give or take a few pixels.
        const int wanted = std::max(o->wantedHeight(), o->minimumSizeHint().height());
        QVERIFY2(o->height() <= wanted + 4, qPrintable(QStringLiteral("%1 > %2").arg(o->height()).arg(wanted)));
        QVERIFY(o->strip(7)->geometry().bottom() < o->height());
        QTableWidget* ranks = window.view()->rankTable();
        QTRY_VERIFY(ranks->visualRect(ranks->model()->index(7, 0)).bottom() <= ranks->viewport()->height());
        QCOMPARE(ranks->item(1, 1)->textAlignment() & Qt::AlignRight, int(Qt::AlignRight));
        for (QTableWidget* table : {ranks, static_cast<QTableWidget*>(window.view()->commMatrix())})
            for (int col = 0; col + 1 < table->columnCount(); ++col)
                QVERIFY2(table->horizontalHeader()->sectionSize(col) >= table->horizontalHeader()->sectionSizeHint(col),
                         qPrintable(table->model()->headerData(col, Qt::Horizontal).toString()));
        // Unfolded: the rank's lanes grow into the room below the rows (no blank under the last one).
        const int before = o->height();
        o->setExpanded(3, true);
        QTRY_VERIFY(o->session(3) != nullptr);
        QApplication::processEvents();
        QVERIFY(o->height() > before);
        QVERIFY(o->strip(7)->mapTo(o, QPoint(0, o->strip(7)->height())).y() >= o->height() - 8);
    }

    // The kernel diff of the demo's pair in its dock at 1440×900: Δ, the column read first, is in view
    // without scrolling; the names take the room left (elided in the middle, whole in the tooltip).
    void kernelDiffShowsItsDeltas()
    {
        auto w = openDemoPair();
        QVERIFY(w);
        QTableWidget* table = showKernelDiff(w->comparison());
        QVERIFY(table);
        QVERIFY(table->rowCount() > 0);
        QVERIFY(table->isVisible());
        const int deltaRight = table->columnViewportPosition(4) + table->columnWidth(4);
        QVERIFY2(deltaRight <= table->viewport()->width(),
                 qPrintable(QStringLiteral("%1 > %2").arg(deltaRight).arg(table->viewport()->width())));
        QVERIFY(table->columnWidth(0) >= 80);
        QCOMPARE(table->textElideMode(), Qt::ElideMiddle);
        QVERIFY(!table->wordWrap()); // ("void at::native::…" wrapped onto a second, cut line)
        QCOMPARE(table->item(0, 0)->toolTip(), table->item(0, 0)->text());
    }

    // The same at 1920×1080, the dock wider than the names need: the names' column takes the room, the
    // Δ column ends at the table's right edge (there was a blank beside it), the vertical scroll bar aside.
    void kernelDiffFillsAWideDock()
    {
        auto w = openDemoPair({1920, 1080});
        QVERIFY(w);
        QTableWidget* table = showKernelDiff(w->comparison());
        QVERIFY(table);
        QVERIFY(table->isVisible());
        const int deltaRight = table->columnViewportPosition(4) + table->columnWidth(4);
        const int scrollBar = table->verticalScrollBar()->sizeHint().width();
        QVERIFY2(deltaRight <= table->viewport()->width() && deltaRight >= table->viewport()->width() - scrollBar - 2,
                 qPrintable(QStringLiteral("%1 of %2").arg(deltaRight).arg(table->viewport()->width())));
    }

    // A folder without ranks: the window says so in one line naming the folder, and shows no empty rank
    // rows and tables ("0 ranks … slowest: none") under it.
    void clusterWithoutRanksShowsTheMessageAlone()
    {
        QTemporaryDir dir;
        ClusterWindow window;
        QVERIFY(openClusterAt(window, dir.path(), {1440, 900}));
        QVERIFY(!window.overview()->isVisible());
        QVERIFY(!window.view()->isVisible());
        bool named = false;
        for (const QLabel* label : window.findChildren<QLabel*>(QString(), Qt::FindDirectChildrenOnly))
            named = named || (label->isVisible() && label->text().contains(QDir::toNativeSeparators(dir.path())));
        QVERIFY(named);
    }

    // The demo pair's Matched Pairs at 1440×900: the Δ columns follow the class in the view (the first
    // one in view without scrolling), while the model, what Copy and Export write, keeps each quantity's
    // baseline, changed and Δ together. The Distributions likewise show the change first.
    void pairTableShowsDeltasFirst()
    {
        auto w = openDemoPair();
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        c->docks()[2]->raise();
        QApplication::processEvents();
        QTableView* table = c->pairPanel()->table();
        const QAbstractItemModel* model = table->model();
        QVERIFY(model->rowCount() > 0);
        QVERIFY(model->columnCount() >= 6);
        // The model: Class, both forward_ct, then (baseline, changed, Δ) per quantity.
        QCOMPARE(model->headerData(1, Qt::Horizontal).toString(), QStringLiteral("Baseline forward_ct"));
        QVERIFY(model->headerData(3, Qt::Horizontal).toString().endsWith(QStringLiteral("(baseline)")));
        QVERIFY(model->headerData(5, Qt::Horizontal).toString().startsWith(QStringLiteral("Δ ")));
        QVERIFY(c->pairPanel()->jsonText().indexOf(QStringLiteral("\"Baseline forward_ct\"")) > 0);
        // The view: every Δ right after the class, the first Δ wholly in view.
        const QHeaderView* header = table->horizontalHeader();
        const int quantities = (model->columnCount() - 3) / 3;
        for (int q = 0; q < quantities; ++q)
            QCOMPARE(header->visualIndex(3 + 3 * q + 2), 1 + q);
        QCOMPARE(header->visualIndex(0), 0);
        QVERIFY(table->isVisible());
        const int right = table->columnViewportPosition(5) + table->columnWidth(5);
        QVERIFY2(right <= table->viewport()->width(),
                 qPrintable(QStringLiteral("%1 > %2").arg(right).arg(table->viewport()->width())));
        // Showing every pair rebuilds the table: the Δ columns stay first.
        c->pairPanel()->setShowAllPairs(true);
        QApplication::processEvents();
        QCOMPARE(header->visualIndex(5), 1);
        QCOMPARE(header->visualIndex(1), quantities + 1);
        // The Distributions: Δ median, its interval and the verdict follow the quantity, in view.
        c->docks()[1]->raise();
        QApplication::processEvents();
        QTableWidget* dist = c->distributionPanel()->table();
        QVERIFY(dist->rowCount() > 0);
        QCOMPARE(dist->horizontalHeaderItem(9)->text(), QStringLiteral("Δ median"));
        for (int col : {9, 10, 11})
            QCOMPARE(dist->horizontalHeader()->visualIndex(col), col - 8);
        QVERIFY(dist->columnViewportPosition(10) + dist->columnWidth(10) <= dist->viewport()->width());
        c->distributionPanel()->classBox()->setCurrentIndex(1); // (another class: the order stays)
        QCOMPARE(dist->horizontalHeader()->visualIndex(9), 1);
    }

    // The comparison's docks tabbed at the bottom at 1440×900: the tab bars elide in the middle (a run's
    // folder name keeps its end), the tab's tooltip is the whole title, and the step tables' five tabs
    // read whole (their area got the widest share of the row).
    void dockTabsReadWhole()
    {
        auto w = openDemoPair();
        QVERIFY(w);
        QApplication::processEvents();
        QTabBar* steps = nullptr;
        for (QTabBar* bar : w->findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly))
            for (int i = 0; i < bar->count(); ++i)
                if (bar->isVisible() && bar->tabText(i) == QStringLiteral("Matched Pairs"))
                    steps = bar;
        QVERIFY(steps);
        QCOMPARE(steps->elideMode(), Qt::ElideMiddle);
        QCOMPARE(steps->count(), 5);
        QVERIFY(steps->tabText(0).startsWith(QStringLiteral("Steps · ")));
        for (int i = 0; i < steps->count(); ++i) {
            QCOMPARE(steps->tabToolTip(i), steps->tabText(i));
            const int text = steps->fontMetrics().horizontalAdvance(steps->tabText(i));
            QVERIFY2(steps->tabRect(i).width() >= text + 8, qPrintable(steps->tabText(i)));
        }
        // A long folder name: the Steps dock's title is whole, its tab elided in the middle.
        auto* stepsDock = w->findChild<QDockWidget*>(QStringLiteral("stepsDock"));
        QVERIFY(stepsDock->windowTitle().startsWith(QStringLiteral("Steps · ")));
    }

    // The bottom row is shared out (44 / 28 %) on the window's first comparison; widths the user gives
    // it then survive opening the next comparison.
    void laterComparisonsKeepTheRowWidthsGiven()
    {
        auto w = openDemoPair();
        QVERIFY(w);
        auto* pairs = w->findChild<QDockWidget*>(QStringLiteral("pairTableDock"));
        auto* kernels = w->findChild<QDockWidget*>(QStringLiteral("kernelDiffDock"));
        QVERIFY(pairs && kernels);
        QTRY_VERIFY2(std::abs(pairs->width() - w->width() * 44 / 100) < 60,
                     qPrintable(QString::number(pairs->width())));
        const int fitted = pairs->width();
        w->resizeDocks({pairs}, {w->width() / 3}, Qt::Horizontal); // (as a drag of the splitter would)
        QTRY_VERIFY2(fitted - pairs->width() > 60, qPrintable(QString::number(pairs->width())));
        const int mine = pairs->width(), theirs = kernels->width();

        w->comparison()->openDemoComparison();
        QVERIFY(waitComparisonReady(w->comparison()));
        // (The first comparison shared the row out from a zero-time timer; the summaries return when
        // computed.)
        QTRY_VERIFY(w->summaries()->kernelDock()->isVisible());
        QTest::qWait(100);
        QCOMPARE(pairs->width(), mine);
        QCOMPARE(kernels->width(), theirs);
    }

    // Reset Panel Layout during a comparison: the default places, and the docks with something to show
    // shown again (the default state, saved before any profile, had the comparison's and the summaries'
    // hidden, so a reset used to close them all); the bottom row shared out as on the first comparison.
    void resetLayoutKeepsTheComparisonsDocks()
    {
        auto w = openDemoPair();
        QVERIFY(w);
        auto* pairs = w->findChild<QDockWidget*>(QStringLiteral("pairTableDock"));
        QVERIFY(pairs);
        QTRY_VERIFY(w->summaries()->kernelDock()->isVisible());
        QTRY_VERIFY(std::abs(pairs->width() - w->width() * 44 / 100) < 60);
        w->resizeDocks({pairs}, {w->width() / 3}, Qt::Horizontal);
        w->comparison()->docks().at(0)->close();
        w->summaries()->kernelDock()->close();
        QTRY_VERIFY(w->width() * 44 / 100 - pairs->width() > 60);

        w->action(QStringLiteral("resetLayout"))->trigger();
        QApplication::processEvents();
        const QList<QDockWidget*> docks = w->comparison()->docks();
        QCOMPARE(docks.size(), 4);
        for (QDockWidget* d : docks) // (shown, on top of its tabs or not)
            QVERIFY2(d->toggleViewAction()->isChecked(), qPrintable(d->objectName()));
        QVERIFY(pairs->isVisible());
        QVERIFY(w->summaries()->kernelDock()->toggleViewAction()->isChecked());
        QVERIFY(w->findChild<QDockWidget*>(QStringLiteral("stepsDock"))->toggleViewAction()->isChecked());
        // (The range statistics of the step pair shown, or none.)
        QCOMPARE(w->summaries()->rangeDock()->toggleViewAction()->isChecked(),
                 w->summaries()->rangeStats()->profile() != nullptr);
        QTRY_VERIFY2(std::abs(pairs->width() - w->width() * 44 / 100) < 60,
                     qPrintable(QString::number(pairs->width())));
    }

    // Two traces with long names (as Kineto names them): the dock titles name the run shortened in the
    // middle (start and end kept), so that its tabs leave room to the others; the banner wraps, its pair
    // count not cut at the Swap button.
    void longRunNamesStayReadable()
    {
        QTemporaryDir dir;
        const QString longA = QStringLiteral("a100_2rank_nccl_rank0_with_a_long_suffix.pt.trace.json");
        const QString longB = QStringLiteral("a100_event_sync_multi_stream_second_run.pt.trace.json");
        const QString a = writeTrace(dir.filePath(longA), 1000, 20);
        const QString b = writeTrace(dir.filePath(longB), 1000, 20);
        auto w = openMainWindow({1440, 900});
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        c->openComparison(a, b);
        QVERIFY(waitComparisonReady(c));
        QApplication::processEvents();
        auto* stepsDock = w->findChild<QDockWidget*>(QStringLiteral("stepsDock"));
        // 12 characters, "…", the last 11.
        QCOMPARE(stepsDock->windowTitle(), QStringLiteral("Steps · a100_2rank_n….trace.json"));
        QCOMPARE(w->summaries()->kernelDock()->windowTitle(),
                 QStringLiteral("Kernel Summary · a100_2rank_n….trace.json"));
        auto* banner = w->findChild<QLabel*>(QStringLiteral("comparisonBannerText"));
        QVERIFY(banner->wordWrap());
        QVERIFY(banner->text().endsWith(QStringLiteral("0 matched step pair(s)")));
        QVERIFY2(
            banner->height() >= banner->heightForWidth(banner->width()),
            qPrintable(QStringLiteral("%1 < %2").arg(banner->height()).arg(banner->heightForWidth(banner->width()))));
        QVERIFY(banner->height() > banner->fontMetrics().height() * 3 / 2); // (two lines)
    }

    // The demo at 1440×900, a step's range statistics shown beside the step table and its kernels: the
    // Range Statistics dock keeps 400 px at least and its title two lines at most (with the title setting
    // the dock's minimum, a kernel summary asked for 600 px; wrapped freely, it took five lines). The
    // Kernels / Events dock beside keeps its filter field whole.
    void summaryDocksKeepAReadableWidth()
    {
        auto w = openMainWindow({1440, 900});
        QVERIFY(w);
        w->openDemo();
        QVERIFY(waitLoaded(w.get(), 120000));
        StepTablePanel* steps = w->stepPanel();
        int row = 0; // (1209: the demo's exposed-DeepEP step, on the timeline)
        while (row < steps->table()->model()->rowCount() &&
               w->profile()->stepRecords->record(size_t(steps->sourceRow(row))).forwardCt != 1209)
            ++row;
        QVERIFY(row < steps->table()->model()->rowCount());
        clickRow(steps->table(), row, true);
        RangeStatsPanel* range = w->summaries()->rangeStats();
        QTRY_VERIFY_WITH_TIMEOUT(!range->busy() && range->rowCount() > 0, 60000);
        QTRY_VERIFY(w->summaries()->rangeDock()->isVisible());
        QApplication::processEvents();
        QVERIFY2(range->width() >= 400, qPrintable(QString::number(range->width())));
        const QLabel* title = nullptr;
        for (const QLabel* label : range->findChildren<QLabel*>())
            if (label->text() == range->title())
                title = label;
        QVERIFY(title);
        QVERIFY2(title->height() <= 2 * title->fontMetrics().lineSpacing() + 4,
                 qPrintable(QStringLiteral("%1 px: %2").arg(title->height()).arg(title->text())));
        // The step's device tasks beside: their long title wraps, the filter field beside it is whole
        // (it read "Fi…").
        QVERIFY(w->eventTable()->isVisible());
        const QLineEdit* filter = w->eventTable()->findChild<QLineEdit*>();
        QVERIFY(filter);
        QVERIFY2(filter->width() >= filter->sizeHint().width(),
                 qPrintable(QStringLiteral("%1 < %2").arg(filter->width()).arg(filter->sizeHint().width())));
    }

    // The real Kineto trace (no DSpark records, no anomalies): the Profiler Steps table sizes its columns
    // to their headers and figures (none clipped), hides the Anomaly column, empty for every step, and
    // stretches Top kernel, the last column with text. Its Files list has no notes: no "Why" column, the
    // path stretches to the list's edge.
    void emptyColumnsHideAndOthersFit()
    {
        DSPARK_REQUIRE_REAL_DATA();
        auto w = openKinetoSteps();
        QVERIFY(w);
        PlainStepsPanel* steps = w->summaries()->plainSteps();
        QTRY_COMPARE(steps->rowCount(), 3);
        for (const PlainStep& s : steps->steps().steps)
            QVERIFY(s.anomaly.isEmpty());
        QTableView* table = steps->table();
        const int anomaly = table->model()->columnCount() - 1;
        QCOMPARE(table->model()->headerData(anomaly, Qt::Horizontal).toString(), QStringLiteral("Anomaly"));
        QVERIFY(table->isColumnHidden(anomaly));
        const QHeaderView* header = table->horizontalHeader();
        for (int col = 0; col < anomaly - 1; ++col) { // (Top kernel, the last shown, stretches)
            QVERIFY(!table->isColumnHidden(col));
            const QString name = table->model()->headerData(col, Qt::Horizontal).toString();
            QVERIFY2(header->sectionSize(col) >= header->sectionSizeHint(col), qPrintable(name));
            for (int row = 0; row < table->model()->rowCount(); ++row) {
                const QString text = table->model()->index(row, col).data().toString();
                QVERIFY2(table->fontMetrics().horizontalAdvance(text) < header->sectionSize(col),
                         qPrintable(name + QStringLiteral(": ") + text));
            }
        }
        QTreeWidget* files = w->fileListPanel()->tree();
        QVERIFY(files->isColumnHidden(3)); // "Why": no file has a note
        QCOMPARE(files->header()->sectionViewportPosition(2) + files->header()->sectionSize(2),
                 files->viewport()->width());
    }

    // The cluster window on the 8-rank demo: no blank status line above the ranks once loaded (nothing to
    // report), and an unfolded rank's lane names whole in the label column ("Group 0 Communication" read
    // "Group 0 C…unication").
    void clusterHasNoBlankLineAndWholeLaneNames()
    {
        QTemporaryDir dir;
        QVERIFY(demo::writeClusterDemo({}, dir.path().toStdString()).error.isEmpty());
        ClusterWindow window;
        QVERIFY(openClusterAt(window, dir.path(), {1440, 900}));
        QApplication::processEvents();
        QCOMPARE(window.statusLabel()->text(), QString());
        QVERIFY(!window.statusLabel()->isVisible());
        RankOverview* o = window.overview();
        o->setExpanded(0, true);
        QTRY_VERIFY_WITH_TIMEOUT(o->timeline(0) != nullptr, 60000);
        TimelineWidget* t = o->timeline(0);
        const TimelineStyle style;
        const QFontMetricsF fm(style.labelFont);
        QFont small = style.labelFont;
        small.setPixelSize(std::max(8, style.labelFont.pixelSize() - 2));
        bool communication = false;
        for (const LaneLayout::Row& row : t->layout()->rows()) {
            if (row.kind != LaneLayout::RowKind::Lane)
                continue;
            const QString title = t->layout()->rowTitle(row);
            communication = communication || title == QStringLiteral("Group 0 Communication");
            const QString count = QString::number(t->profile()->lanes[row.lane].size());
            // (the renderer's room: indent 24, the event count, 14 px of margins)
            const double needed = 24 + fm.horizontalAdvance(title) + QFontMetricsF(small).horizontalAdvance(count) + 14;
            QVERIFY2(needed <= t->labelWidth(),
                     qPrintable(QStringLiteral("%1: %2 > %3").arg(title).arg(needed).arg(t->labelWidth())));
        }
        QVERIFY(communication);
    }

    // A dock whose minimum height is taller than a 900 px screen: the window stays 900 px high (its docks
    // are squeezed), also after a layout is restored.
    void tallDockKeepsTheWindowOnScreen()
    {
        auto w = openMainWindow({1440, 900});
        QVERIFY(w);
        w->resize(1440, 900);
        QTRY_VERIFY(w->height() <= 906); // (the offscreen platform's frame: see loadingKeepsTheWindowSize)
        const int before = w->height();
        auto* tall = new QDockWidget(QStringLiteral("tall"), w.get());
        tall->setObjectName(QStringLiteral("tallDock"));
        auto* content = new QWidget(tall);
        content->setMinimumHeight(1400);
        tall->setWidget(content);
        w->addDockWidget(Qt::RightDockWidgetArea, tall);
        tall->show();
        QApplication::processEvents();
        QTest::qWait(50);
        QCOMPARE(w->height(), before);
        QVERIFY(w->minimumHeight() < 900);
        const QByteArray state = w->saveState();
        QVERIFY(w->restoreState(state));
        QApplication::processEvents();
        QCOMPARE(w->height(), before);
    }

    // A profile without step records (the real Kineto trace: ProfilerStep#4, #5, #6): `]` and `[`, the
    // Navigate menu's next / previous step, walk the Profiler Steps dock's rows and show each step (they
    // did nothing: they moved through DSpark step records only).
    void bracketsWalkTheProfilerSteps()
    {
        DSPARK_REQUIRE_REAL_DATA();
        auto w = openKinetoSteps();
        QVERIFY(w);
        PlainStepsPanel* steps = w->summaries()->plainSteps();
        QTRY_COMPARE(steps->rowCount(), 3);
        const auto shown = [&](int row) {
            const PlainStep& s = steps->steps().steps[size_t(steps->keyAtRow(row))];
            const TimelineZoom* zoom = w->timeline()->zoom();
            return steps->table()->currentIndex().row() == row && zoom->startNs() <= s.window.startNs &&
                   s.deviceEndNs <= zoom->startNs() + zoom->spanNs() &&
                   zoom->spanNs() < 2 * (s.deviceEndNs - s.window.startNs);
        };
        QAction* next = w->action(QStringLiteral("nextStep"));
        QAction* previous = w->action(QStringLiteral("previousStep"));
        QCOMPARE(next->shortcut(), QKeySequence(Qt::Key_BracketRight));
        QTRY_VERIFY(next->isEnabled() && previous->isEnabled());
        next->trigger();
        QTRY_VERIFY(shown(0));
        next->trigger();
        QTRY_VERIFY(shown(1));
        previous->trigger();
        QTRY_VERIFY(shown(0));
    }

    // A summary column the user widened keeps its width when the rows change (range statistics refill on
    // every selection) and when the dock is resized much; the others are fitted again.
    void aColumnSizedByHandKeepsItsWidth()
    {
        SummaryPanel panel;
        panel.resize(900, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        SummaryTableModel* model = panel.model();
        model->setHeaders({QStringLiteral("Name"), QStringLiteral("Count"), QStringLiteral("Total")},
                          {false, true, true});
        const auto fill = [&](const QString& name) {
            model->setRows({{{name, {}}, {QStringLiteral("1"), {}}, {QStringLiteral("2 ms"), {}}}}, {0});
        };
        fill(QStringLiteral("short"));
        QHeaderView* header = panel.table()->horizontalHeader();
        const int fitted = header->sectionSize(1);
        header->resizeSection(1, fitted + 150); // (what dragging the section's edge calls)
        fill(QStringLiteral("a much longer kernel name than before, to be fitted again"));
        QCOMPARE(header->sectionSize(1), fitted + 150);
        const int nameWidth = header->sectionSize(0);
        QVERIFY(nameWidth > panel.table()->fontMetrics().horizontalAdvance(QStringLiteral("short")) + 100);
        panel.resize(1800, 400); // a resize by more than a quarter fits the columns again
        QApplication::processEvents();
        QCOMPARE(header->sectionSize(1), fitted + 150);
    }
};

QTEST_MAIN(TestUxDefects)
#include "tst_ux_defects.moc"
