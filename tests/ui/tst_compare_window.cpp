// Issue 23, the window's half: a comparison of two runs opened as a user opens one (File › Compare
// With…, Shift+drop, `--compare A B`, the recent list, `--demo-compare`), both sides loading under one
// progress bar with Cancel; the changed run in a second timeline below the baseline on one shared
// range, offset so that the matched steps start together; `[` / `]` move both; swap and close; the
// comparison figure in three formats; what cannot be compared between an Ascend and a GPU run.
#include "../demo/DemoTestSupport.h"
#include "MainWindowTestSupport.h"
#include "TestSupport.h"

#include "compare/ComparisonController.h"
#include "compare/ComparisonLoadTask.h"
#include "compare/ComparisonPanels.h"
#include "compare/RunComparison.h"
#include "overlays/StageBandOverlay.h"
#include "panels/EventDetailsPane.h"
#include "panels/EventSearch.h"
#include "panels/SearchPanel.h"
#include "panels/StepTablePanel.h"
#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"
#include "summary/SummaryDocks.h"
#include "summary/SummaryPanels.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

using namespace dspark;
using namespace dspark::test;
using namespace dspark::ui;

namespace {

// Answers the next file dialog with `path` (as a user typing it and pressing Open).
void answerNextFileDialog(const QString& path)
{
    auto* timer = new QTimer(qApp);
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, path]() {
        if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
            timer->stop();
            timer->deleteLater();
            dialog->selectFile(path);
            static_cast<QDialog*>(dialog)->accept(); // (public in QDialog)
        }
    });
    timer->start();
}

bool waitReady(ComparisonController* c, int timeoutMs = 120000)
{
    return QTest::qWaitFor([&]() { return c->result() != nullptr; }, timeoutMs);
}

// Stable-window steps of a run's records, counted from the records themselves.
size_t stableSteps(const Profile& p)
{
    size_t n = 0;
    for (const StableWindow& w : p.stepRecords->stableWindows)
        n += w.lastRow - w.firstRow + 1;
    return n;
}

bool waitCompared(ComparisonController* c, int timeoutMs = 60000)
{
    QSignalSpy opened(c, &ComparisonController::comparisonOpened);
    QSignalSpy failed(c, &ComparisonController::loadFailed);
    (void)QTest::qWaitFor([&]() { return opened.count() > 0 || failed.count() > 0; }, timeoutMs);
    if (failed.count() > 0)
        qWarning() << "comparison failed:" << failed.first().first().toString();
    return opened.count() > 0;
}

// Copies a folder under another name: nothing may depend on what the runs are called.
QString copyFolder(const QString& from, const QString& to)
{
    std::error_code ec;
    std::filesystem::copy(from.toStdString(), to.toStdString(), std::filesystem::copy_options::recursive, ec);
    return ec ? QString() : to;
}

} // namespace

class TestCompareWindow : public QObject {
    Q_OBJECT
    WrittenDemo m_a, m_b;
    QTemporaryDir m_tmp;
    QString m_baseline, m_changed, m_sameAgain;

    // A window comparing the two test runs, the comparison ready (null if it failed); `allPairs`: the
    // Matched Pairs dock (and `[` / `]`) list every pair.
    std::unique_ptr<MainWindow> openComparedWindow(bool allPairs)
    {
        auto w = openMainWindow();
        if (!w)
            return w;
        ComparisonController* c = w->comparison();
        c->openComparison(m_baseline, m_changed);
        if (!waitCompared(c) || !waitReady(c))
            return nullptr;
        c->pairPanel()->setShowAllPairs(allPairs);
        return w;
    }

private Q_SLOTS:
    void initTestCase()
    {
        useTestSettings(QStringLiteral("tst_compare_window"));
        m_a = writeTestDemo(24, 7, 1, false);
        m_b = writeTestDemo(24, 11, 1, false);
        QVERIFY2(m_a.result.error.isEmpty() && m_b.result.error.isEmpty(), qPrintable(m_a.result.error));
        m_baseline = copyFolder(m_a.dir, m_tmp.filePath(QStringLiteral("run one")));
        m_changed = copyFolder(m_b.dir, m_tmp.filePath(QStringLiteral("zz")));
        m_sameAgain = copyFolder(m_a.dir, m_tmp.filePath(QStringLiteral("again")));
        QVERIFY(!m_baseline.isEmpty() && !m_changed.isEmpty() && !m_sameAgain.isEmpty());
    }

    void compareWithFromTheFileMenu()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        w->openPath(m_baseline);
        QVERIFY(waitLoaded(w.get(), 60000));
        ComparisonController* c = w->comparison();
        QVERIFY(!c->isActive());
        QVERIFY(!c->changedTimeline()->isVisible());

        // File › Compare With Folder…, answered like a user would (the shown profile analysed: its side of
        // the comparison is prepared while the other run loads).
        QVERIFY(QTest::qWaitFor([&]() { return w->session()->analyses()->ready(); }, 60000));
        QAction* compare = w->action(QStringLiteral("compareWithFolder"));
        QVERIFY(compare && w->fileMenu()->actions().contains(compare));
        answerNextFileDialog(m_changed);
        compare->trigger();
        QVERIFY(waitCompared(c));
        QVERIFY(waitReady(c));
        // The same comparison as of the two sessions in one piece.
        const RunComparison direct = compareRuns(*w->sessions().front(), *c->changedSession());
        QCOMPARE(c->result()->whole.quantities.size(), direct.whole.quantities.size());
        for (size_t q = 0; q < direct.whole.quantities.size(); ++q) {
            const MedianChange& x = c->result()->whole.quantities[q].change;
            const MedianChange& y = direct.whole.quantities[q].change;
            QVERIFY((x.low == y.low && x.high == y.high) || (std::isnan(x.low) && std::isnan(y.low)));
        }
        // The device tasks, which the window does not show, are not compared (deferred to the reports).
        QVERIFY(!direct.deviceTasks.names.empty());
        QVERIFY(c->result()->deviceTasks.names.empty() && c->result()->deviceTasks.categories.empty());

        QVERIFY(c->isActive());
        QCOMPARE(w->sessions().size(), size_t(2));
        QCOMPARE(w->session()->path(), m_baseline); // the baseline stays the window's session
        QCOMPARE(c->changedSession()->path(), m_changed);
        QVERIFY(c->changedTimeline()->isVisible());
        QCOMPARE(c->changedTimeline()->profile(), c->changedSession()->profile().get());
        // Baseline above, changed below, in one vertical splitter, on the window's zoom.
        auto* splitter = w->findChild<QSplitter*>(QStringLiteral("comparisonSplitter"));
        QVERIFY(splitter && splitter->orientation() == Qt::Vertical);
        QVERIFY(w->timeline()->mapTo(w.get(), QPoint(0, 0)).y() <
                c->changedTimeline()->mapTo(w.get(), QPoint(0, 0)).y());
        QCOMPARE(c->changedTimeline()->zoom(), w->timeline()->zoom());
        QVERIFY(w->findChild<QWidget*>(QStringLiteral("comparisonBanner"))->isVisible());
        // Events of the changed run resolve in its own session only.
        const EventRef e{0, 0};
        QCOMPARE(c->changedSession()->resolve(c->changedSession()->tag(e)), e);
        QVERIFY(!w->session()->resolve(c->changedSession()->tag(e)).valid());

        // The recent list remembers the pair, and reopens it.
        const QString pair =
            QFileInfo(m_baseline).absoluteFilePath() + QLatin1Char('\n') + QFileInfo(m_changed).absoluteFilePath();
        QCOMPARE(c->recentComparisons().value(0), pair);
        auto* recent = w->findChild<QMenu*>(QStringLiteral("recentComparisonsMenu"));
        QVERIFY(recent && !recent->actions().isEmpty());
        QVERIFY(recent->actions().first()->text().contains(QStringLiteral("zz")));
        c->closeChanged();
        QVERIFY(!c->isActive());
        QCOMPARE(w->sessions().size(), size_t(1));
        recent->actions().first()->trigger();
        QVERIFY(waitCompared(c));
        QCOMPARE(c->changedSession()->path(), QFileInfo(m_changed).absoluteFilePath());
    }

    void commandLineAndTheBracketKeysMoveBothSides()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        w->openFromCommandLine({QStringLiteral("--compare"), m_baseline, m_changed});
        QVERIFY(waitCompared(c));
        QCOMPARE(w->session()->path(), m_baseline);
        QCOMPARE(c->changedSession()->path(), m_changed);
        // The pairs are the core's, the Matched Pairs dock's: the median pair of each class by default, the
        // first shown once the comparison is ready.
        QVERIFY(waitReady(c));
        const RunComparison& r = *c->result();
        PairTablePanel* panel = c->pairPanel();
        c->docks()[2]->raise();
        QApplication::processEvents();
        QVERIFY(!panel->showsAllPairs());
        QCOMPARE(c->pairs().size(), r.pairs.size());
        QCOMPARE(panel->proxy()->rowCount(), int(r.pairs.size()));
        QCOMPARE(c->currentPair(), 0);
        const StepPair firstMedian = c->pairs()[0];
        // The dock's "All pairs": every step paired within its class, and `[` / `]` walk those.
        QTest::mouseClick(panel->allPairsToggle(), Qt::LeftButton);
        QVERIFY(panel->showsAllPairs());
        QVERIFY(c->pairs().size() >= 10);
        // Every step in one row at most: a median pair that is no k-th pair is a row of the median view only.
        const auto extra =
            std::count_if(r.allPairs.begin(), r.allPairs.end(), [](const MatchedPair& p) { return p.extraMedian; });
        QCOMPARE(panel->proxy()->rowCount(), int(r.allPairs.size() - size_t(extra)));
        std::set<int64_t> baselineRows, changedRows;
        for (int row = 0; row < panel->proxy()->rowCount(); ++row) {
            const MatchedPair& p = r.allPairs[size_t(panel->pairOfRow(row))];
            QVERIFY(!p.extraMedian);
            QVERIFY(baselineRows.insert(p.baselineSample).second);
            QVERIFY(changedRows.insert(p.changedSample).second);
        }
        // The shown pair (a median pair) is one of them and stays the current one, unless it was an extra
        // row: then `]` moves on from its baseline step.
        const bool shownIsExtra = std::any_of(r.allPairs.begin(), r.allPairs.end(), [&](const MatchedPair& p) {
            return p.extraMedian && p.baselineStepIndex == int64_t(firstMedian.baselineStep) &&
                   p.changedStepIndex == int64_t(firstMedian.changedStep);
        });
        if (!shownIsExtra) {
            QVERIFY(c->currentPair() >= 0);
            QCOMPARE(c->pairs()[size_t(c->currentPair())], firstMedian);
        }

        // The keys walk the core's pairs on both timelines, in the baseline's time order; within a class
        // the k-th pairs follow each run's stable window in order: forward_ct rises on both sides.
        const StepAnalyses& sa = *w->session()->analyses();
        const StepAnalyses& sb = *c->changedSession()->analyses();
        std::vector<StepPair> expected;
        std::map<std::string, std::pair<int64_t, int64_t>> lastOfClass;
        for (const MatchedPair& p : r.allPairs) {
            if (p.extraMedian)
                continue;
            if (p.baselineStepIndex >= 0 && p.changedStepIndex >= 0) { // (records outside the trace: not)
                expected.push_back({size_t(p.baselineStepIndex), size_t(p.changedStepIndex)});
                QCOMPARE(sa.step(size_t(p.baselineStepIndex)).window.forwardCt, p.baselineForwardCt);
                QCOMPARE(sb.step(size_t(p.changedStepIndex)).window.forwardCt, p.changedForwardCt);
            }
            auto [last, fresh] = lastOfClass.try_emplace(p.cls.label(), p.baselineForwardCt, p.changedForwardCt);
            if (!fresh) {
                QVERIFY(p.baselineForwardCt > last->second.first && p.changedForwardCt > last->second.second);
                last->second = {p.baselineForwardCt, p.changedForwardCt};
            }
        }
        QVERIFY(c->pairs() == expected);
        for (size_t i = 1; i < c->pairs().size(); ++i)
            QVERIFY(sa.step(c->pairs()[i].baselineStep).window.forwardCt >=
                    sa.step(c->pairs()[i - 1].baselineStep).window.forwardCt);
        // The dock selects the pair the keys show.
        const auto dockSelection = [&]() -> std::optional<StepPair> {
            const QModelIndexList rows = panel->table()->selectionModel()->selectedRows();
            if (rows.size() != 1)
                return std::nullopt;
            const MatchedPair& p = r.allPairs[size_t(panel->pairOfRow(rows.first().row()))];
            return StepPair{size_t(p.baselineStepIndex), size_t(p.changedStepIndex)};
        };
        c->showPair(0);
        w->timeline()->view()->setFocus();
        QTest::keyClick(w->timeline()->view(), Qt::Key_BracketRight);
        QTest::keyClick(w->timeline()->view(), Qt::Key_BracketRight);
        QTest::keyClick(w->timeline()->view(), Qt::Key_BracketLeft);
        QCOMPARE(c->currentPair(), 1);
        QCOMPARE(dockSelection(), std::optional<StepPair>(c->pairs()[1]));
        // ... and a row clicked in the dock is the pair `]` moves on from.
        const auto fifth = std::find_if(r.allPairs.begin(), r.allPairs.end(), [&](const MatchedPair& p) {
            return p.baselineStepIndex == int64_t(c->pairs()[4].baselineStep) &&
                   p.changedStepIndex == int64_t(c->pairs()[4].changedStep);
        });
        QVERIFY(fifth != r.allPairs.end());
        clickRow(panel->table(), panel->rowOfPair(int(fifth - r.allPairs.begin())));
        QCOMPARE(dockSelection(), std::optional<StepPair>(c->pairs()[4]));
        QCOMPARE(c->currentPair(), 4);
        w->timeline()->view()->setFocus();
        QTest::keyClick(w->timeline()->view(), Qt::Key_BracketRight);
        QCOMPARE(c->currentPair(), 5);
        QCOMPARE(dockSelection(), std::optional<StepPair>(c->pairs()[5]));
        c->showPair(0);

        w->timeline()->view()->setFocus();
        for (int expected : {1, 2, 3}) {
            QTest::keyClick(w->timeline()->view(), Qt::Key_BracketRight);
            QCOMPARE(c->currentPair(), expected);
        }
        QTest::keyClick(w->timeline()->view(), Qt::Key_BracketLeft);
        QCOMPARE(c->currentPair(), 2);
        // Two steps that are no listed pair (each step is in one row): the keys move on from the baseline
        // step's place in time, and the status says it is no listed pair.
        QVERIFY(c->pairs().size() >= 6);
        QVERIFY(c->showSteps(c->pairs()[4].baselineStep, c->pairs()[1].changedStep));
        QCOMPARE(c->currentPair(), -1);
        QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("not one of the")),
                 qPrintable(w->statusBar()->currentMessage()));
        QTest::keyClick(w->timeline()->view(), Qt::Key_BracketRight);
        QCOMPARE(c->currentPair(), 5);
        QVERIFY(c->showSteps(c->pairs()[4].baselineStep, c->pairs()[1].changedStep));
        QTest::keyClick(w->timeline()->view(), Qt::Key_BracketLeft);
        QCOMPARE(c->currentPair(), 3);
        QVERIFY(c->showPair(2));

        // Both steps of pair 2 start at the same shared time, and the shared range shows both whole.
        const RecordWindow& a = sa.step(c->pairs()[2].baselineStep);
        const RecordWindow& b = sb.step(c->pairs()[2].changedStep);
        TimelineWidget* top = w->timeline();
        TimelineWidget* bottom = c->changedTimeline();
        QCOMPARE(bottom->toSharedNs(b.window.startNs), top->toSharedNs(a.window.startNs));
        QCOMPARE(c->changedSession()->timeOffsetNs(), a.window.startNs - b.window.startNs);
        QVERIFY(top->visibleStartNs() <= a.window.startNs && a.window.endNs <= top->visibleEndNs());
        QVERIFY(bottom->visibleStartNs() <= b.window.startNs && b.window.endNs <= bottom->visibleEndNs());
        // The baseline's step table follows the pair.
        QCOMPARE(w->stepPanel()->currentSourceRow(), int(a.row));

        // Pressed in the lower timeline, the keys move both as well.
        bottom->view()->setFocus();
        QTest::keyClick(bottom->view(), Qt::Key_BracketRight);
        QCOMPARE(c->currentPair(), 3);

        // The analyses' overlays draw on both timelines once the steps are analysed.
        QVERIFY(QTest::qWaitFor([&]() { return sa.ready() && sb.ready(); }, 60000));
        bottom->view()->viewport()->repaint();
        top->view()->viewport()->repaint();
        QVERIFY(c->changedStageBands()->lastBandCount() > 0);
    }

    void aRunAgainstItselfChangesNothing()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        c->openComparison(m_baseline, m_sameAgain);
        QVERIFY(waitCompared(c));
        QVERIFY(waitReady(c));
        for (QDockWidget* d : c->docks())
            QVERIFY(!d->isHidden());

        // Configuration: no group differs, no warning.
        QTreeWidget* tree = c->configPanel()->tree();
        QCOMPARE(tree->topLevelItemCount(), int(kConfigGroupCount));
        for (int g = 0; g < tree->topLevelItemCount(); ++g)
            QVERIFY2(tree->topLevelItem(g)->text(3) != QStringLiteral("different"),
                     qPrintable(tree->topLevelItem(g)->text(0)));
        QVERIFY(c->configPanel()->warningLabel()->text().contains(QStringLiteral("No setting")));

        // Distributions: the whole window has the stable-window steps of both runs; every median is
        // unchanged and every interval contains zero.
        DistributionPanel* dist = c->distributionPanel();
        QCOMPARE(dist->classBox()->currentIndex(), 0);
        const size_t n = stableSteps(*w->profile());
        QVERIFY(n > 0);
        QVERIFY2(dist->classBox()->currentText().contains(QStringLiteral("(%1 / %1 steps)").arg(n)),
                 qPrintable(dist->classBox()->currentText()));
        QTableWidget* t = dist->table();
        QVERIFY(t->rowCount() >= 10);
        const int gpu = dist->rowOf(Quantity::StepGpuMs);
        QVERIFY(gpu >= 0);
        QCOMPARE(t->item(gpu, 4)->text(), QString::number(n));
        QCOMPARE(t->item(gpu, 8)->text(), QString::number(n));
        for (int r = 0; r < t->rowCount(); ++r) {
            QCOMPARE(t->item(r, 1)->text(), t->item(r, 5)->text()); // the same medians
            QVERIFY2(t->item(r, 11)->text().contains(QStringLiteral("contains zero")),
                     qPrintable(t->item(r, 0)->text() + QLatin1String(": ") + t->item(r, 11)->text()));
        }
        // Every class of one run is in the other.
        for (int i = 1; i < dist->classBox()->count(); ++i)
            QVERIFY(dist->classBox()->itemText(i).contains(QStringLiteral("in both runs")) ||
                    dist->classBox()->itemText(i).contains(QStringLiteral("outside both")));

        // Matched pairs: each the same step on both sides, all deltas zero.
        PairTablePanel* pairs = c->pairPanel();
        QVERIFY(pairs->proxy()->rowCount() > 0);
        for (int r = 0; r < pairs->proxy()->rowCount(); ++r) {
            QCOMPARE(pairs->proxy()->index(r, 1).data().toString(), pairs->proxy()->index(r, 2).data().toString());
            for (int col = 5; col < pairs->proxy()->columnCount(); col += 3) {
                const double d = pairs->proxy()->index(r, col).data(Qt::UserRole + 1).toDouble();
                QVERIFY(std::isnan(d) || d == 0.0);
            }
        }
    }

    void theDocksOfTwoRuns()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        c->openComparison(m_baseline, m_changed);
        QVERIFY(waitCompared(c));
        QVERIFY(waitReady(c));
        const RunComparison& r = *c->result();

        // The pair table: one row per pair; a click shows that pair on both timelines.
        PairTablePanel* panel = c->pairPanel();
        QTableView* table = panel->table();
        QCOMPARE(panel->proxy()->rowCount(), int(r.pairs.size()));
        QVERIFY(!r.pairs.empty());
        c->docks()[2]->raise();
        QApplication::processEvents();
        clickRow(table, 0);
        const MatchedPair& p = r.allPairs[size_t(panel->pairOfRow(0))];
        QVERIFY(p.median);
        QVERIFY(p.baselineStepIndex >= 0 && p.changedStepIndex >= 0);
        const RecordWindow& a = w->session()->analyses()->step(size_t(p.baselineStepIndex));
        const RecordWindow& b = c->changedSession()->analyses()->step(size_t(p.changedStepIndex));
        QCOMPARE(a.window.forwardCt, p.baselineForwardCt);
        QCOMPARE(b.window.forwardCt, p.changedForwardCt);
        QCOMPARE(c->changedTimeline()->toSharedNs(b.window.startNs), a.window.startNs);
        QCOMPARE(w->stepPanel()->currentSourceRow(), int(a.row));

        // Filter by class, sort by a column.
        const QString cls = QString::fromStdString(p.cls.label());
        panel->filterEdit()->setText(cls);
        QVERIFY(panel->proxy()->rowCount() >= 1);
        for (int row = 0; row < panel->proxy()->rowCount(); ++row)
            QVERIFY(panel->proxy()->index(row, 0).data().toString().contains(cls));
        panel->filterEdit()->clear();
        QTest::mouseClick(table->horizontalHeader()->viewport(), Qt::LeftButton, {},
                          QPoint(table->horizontalHeader()->sectionViewportPosition(1) + 5, 5));
        QCOMPARE(panel->proxy()->sortColumn(), 1);
        for (int row = 1; row < panel->proxy()->rowCount(); ++row)
            QVERIFY(panel->proxy()->index(row - 1, 1).data(Qt::UserRole + 1).toDouble() <=
                        panel->proxy()->index(row, 1).data(Qt::UserRole + 1).toDouble() ||
                    panel->proxy()->sortOrder() == Qt::DescendingOrder);

        // CSV / Markdown / JSON of the rows shown.
        QTemporaryDir out;
        for (const char* name : {"pairs.csv", "pairs.md", "pairs.json"})
            QCOMPARE(panel->exportTo(out.filePath(QString::fromLatin1(name))), QString());
        QFile csv(out.filePath(QStringLiteral("pairs.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().count('\n'), qsizetype(r.pairs.size() + 1));
        QFile json(out.filePath(QStringLiteral("pairs.json")));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonArray rows = QJsonDocument::fromJson(json.readAll()).array();
        QCOMPARE(rows.size(), qsizetype(r.pairs.size()));
        QVERIFY(rows.first().toObject().contains(QStringLiteral("Class")));

        // The kernel diff of the shown pair; a click selects both tasks and shows them.
        QTRY_VERIFY_WITH_TIMEOUT(c->kernelAlignment() != nullptr, 60000); // (aligned on a worker)
        QTableWidget* kernels = c->kernelPanel()->table();
        QVERIFY(kernels->rowCount() > 0);
        const AlignedTask* first = c->kernelPanel()->taskOfRow(0);
        QVERIFY(first && first->kind == AlignedKind::Matched);
        // Largest regression first.
        for (int row = 1; row < kernels->rowCount(); ++row) {
            const AlignedTask* t = c->kernelPanel()->taskOfRow(row);
            if (t->kind != AlignedKind::Matched)
                break;
            QVERIFY(t->deltaNs() <= c->kernelPanel()->taskOfRow(row - 1)->deltaNs());
        }
        c->docks()[3]->show();
        c->docks()[3]->raise();
        QApplication::processEvents();
        kernels->scrollToTop();
        const QRect cell = kernels->visualRect(kernels->model()->index(0, 0));
        QTest::mouseClick(kernels->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(w->timeline()->selection()->event(), first->baseline);
        QCOMPARE(c->changedTimeline()->selection()->event(), first->changed);
        const TimeNs sa = w->profile()->startNs(first->baseline);
        const TimeNs sb = c->changedSession()->profile()->startNs(first->changed);
        QVERIFY(w->timeline()->visibleStartNs() <= sa && sa <= w->timeline()->visibleEndNs());
        QVERIFY(c->changedTimeline()->visibleStartNs() <= sb && sb <= c->changedTimeline()->visibleEndNs());
    }

    // A click on the changed timeline shows the changed run's event in the details pane; the search then
    // works on that run (its dock names it) and its hits resolve there; a click on the baseline brings
    // the panes back.
    void thePanesFollowTheTimelineClicked()
    {
        auto w = openComparedWindow(false);
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        QVERIFY(QTest::qWaitFor([&]() { return c->kernelAlignment() != nullptr; }, 60000));
        // A task of the shown pair whose duration differs between the runs.
        const AlignedTask* task = nullptr;
        for (const AlignedTask& t : c->kernelAlignment()->regressions)
            if (t.deltaNs() != 0 && t.baseline.valid() && t.changed.valid()) {
                task = &t;
                break;
            }
        QVERIFY(task);
        const Profile& base = *w->session()->profile();
        const Profile& changed = *c->changedSession()->profile();
        auto clickTask = [&](TimelineWidget* t, const Profile& p, EventRef e) {
            t->ensureLaneVisible(e.lane);
            const TimeNs start = t->toSharedNs(p.startNs(e));
            const TimeNs dur = p.lanes[e.lane].durationNs[e.index];
            w->timeline()->zoom()->setRange(start - dur, start + 2 * dur);
            QApplication::processEvents();
            const std::optional<QPoint> pos = t->eventCenterInViewport(e);
            if (!pos)
                return false;
            QTest::mouseClick(t->view()->viewport(), Qt::LeftButton, {}, *pos);
            return t->selection()->event() == e;
        };
        EventDetailsPane* details = w->detailsPane();
        // From the start the panes are the baseline's, and say so.
        QCOMPARE(w->paneSession(), w->session());
        QCOMPARE(w->findChild<QDockWidget*>(QStringLiteral("detailsDock"))->windowTitle(),
                 QStringLiteral("Details · run one"));
        const auto durationText = [](TimeNs ns) { return QStringLiteral("(%1 ns)").arg(ns); };

        QVERIFY(clickTask(c->changedTimeline(), changed, task->changed));
        QCOMPARE(w->paneSession(), c->changedSession());
        QCOMPARE(details->profile(), &changed);
        QCOMPARE(details->event(), task->changed);
        QCOMPARE(details->valueOf(QStringLiteral("Name")), QString::fromStdString(task->name));
        QVERIFY2(details->valueOf(QStringLiteral("Duration")).endsWith(durationText(task->changedNs)),
                 qPrintable(details->valueOf(QStringLiteral("Duration"))));
        auto* detailsDock = w->findChild<QDockWidget*>(QStringLiteral("detailsDock"));
        auto* searchDock = w->findChild<QDockWidget*>(QStringLiteral("searchDock"));
        QVERIFY2(detailsDock->windowTitle().contains(QStringLiteral("zz")), qPrintable(detailsDock->windowTitle()));
        // The search runs on the changed run: its hits are the changed run's tasks of that name.
        w->searchPanel()->search(QLatin1Char('^') + QString::fromStdString(task->name) + QLatin1Char('$'), true);
        QCOMPARE(w->searchPanel()->profile(), &changed);
        QVERIFY(searchDock->windowTitle().contains(QStringLiteral("zz")));
        const EventSearchResult& hits = w->searchPanel()->result();
        QVERIFY(!hits.hits.empty());
        for (EventRef e : hits.hits)
            QCOMPARE(changed.name(e), std::string_view(task->name));

        // Back on the baseline: its event, its duration, its name in the titles.
        QVERIFY(clickTask(w->timeline(), base, task->baseline));
        QCOMPARE(w->paneSession(), w->session());
        QCOMPARE(details->profile(), &base);
        QCOMPARE(details->event(), task->baseline);
        QVERIFY(details->valueOf(QStringLiteral("Duration")).endsWith(durationText(task->baselineNs)));
        QCOMPARE(w->searchPanel()->profile(), &base);
        QVERIFY(detailsDock->windowTitle().contains(QStringLiteral("run one")));
        // Closing the changed run leaves plain titles.
        c->closeChanged();
        QCOMPARE(detailsDock->windowTitle(), QStringLiteral("Details"));
    }

    // The step table, the range statistics and the kernel summary follow the run clicked, as the details
    // pane does: a task clicked on the changed timeline puts the changed run's steps in the table (the
    // task's step selected, the dock named after the run); a row clicked then gives that step's range
    // statistics and kernels of the changed run; a click on the baseline brings all back.
    void theStepTableAndSummariesFollowTheRunClicked()
    {
        auto w = openComparedWindow(false);
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        QTRY_VERIFY_WITH_TIMEOUT(c->kernelAlignment() != nullptr, 60000);
        const AlignedTask* task = nullptr;
        for (const AlignedTask& t : c->kernelAlignment()->regressions)
            if (t.baseline.valid() && t.changed.valid()) {
                task = &t;
                break;
            }
        QVERIFY(task);
        const Profile& base = *w->session()->profile();
        const Profile& changed = *c->changedSession()->profile();
        // The record row of the step holding a task, found from the records' own alignment.
        const auto rowOf = [](const Profile& p, EventRef e) {
            const auto& rows = p.stepRecords->alignment.rows;
            const TimeNs t = p.startNs(e);
            for (size_t i = 0; i < rows.size(); ++i)
                if (rows[i].hasWindow() && rows[i].traceRankIndex == p.lanes[e.lane].info.rankIndex &&
                    rows[i].windowStartNs() <= t && t < rows[i].windowEndNs())
                    return int(i);
            return -1;
        };
        const int changedRow = rowOf(changed, task->changed), baseRow = rowOf(base, task->baseline);
        QVERIFY(changedRow >= 0 && baseRow >= 0);
        auto* stepsDock = w->findChild<QDockWidget*>(QStringLiteral("stepsDock"));
        StepTablePanel* steps = w->stepPanel();
        QCOMPARE(steps->stepRecords(), base.stepRecords.get());
        QCOMPARE(stepsDock->windowTitle(), QStringLiteral("Steps · run one"));

        // A task clicked on the changed timeline.
        TimelineWidget* lower = c->changedTimeline();
        lower->ensureLaneVisible(task->changed.lane);
        const TimeNs start = lower->toSharedNs(changed.startNs(task->changed));
        const TimeNs dur = changed.lanes[task->changed.lane].durationNs[task->changed.index];
        w->timeline()->zoom()->setRange(start - dur, start + 2 * dur);
        QApplication::processEvents();
        const std::optional<QPoint> at = lower->eventCenterInViewport(task->changed);
        QVERIFY(at);
        QTest::mouseClick(lower->view()->viewport(), Qt::LeftButton, {}, *at);
        QCOMPARE(lower->selection()->event(), task->changed);
        QCOMPARE(w->paneSession(), c->changedSession());
        QCOMPARE(steps->stepRecords(), changed.stepRecords.get());
        QCOMPARE(steps->currentSourceRow(), changedRow);
        QCOMPARE(stepsDock->windowTitle(), QStringLiteral("Steps · zz"));
        // Its figures: the forward_ct and step time in the table are the changed run's record's.
        const StepRecord& record = changed.stepRecords->record(size_t(changedRow));
        const int viewRow = steps->table()->currentIndex().row();
        QStringList cells;
        for (int col = 0; col < steps->table()->model()->columnCount(); ++col)
            cells << steps->table()->model()->index(viewRow, col).data().toString();
        QVERIFY2(cells.contains(QString::number(record.forwardCt)), qPrintable(cells.join(QLatin1Char('|'))));

        // The row double-clicked: the range statistics and the kernel summary of that step of the changed run.
        SummaryDocks* summaries = w->summaries();
        QCOMPARE(summaries->kernelSummary()->profile().get(), &changed);
        QVERIFY(summaries->kernelDock()->windowTitle().endsWith(QStringLiteral("· zz")));
        clickRow(steps->table(), viewRow, true);
        const StepAlignmentRow& aligned = changed.stepRecords->alignment.rows[size_t(changedRow)];
        QCOMPARE(summaries->rangeStats()->profile().get(), &changed);
        QTRY_VERIFY_WITH_TIMEOUT(!summaries->rangeStats()->busy(), 60000);
        QCOMPARE(summaries->rangeStats()->stats().fromNs, aligned.windowStartNs());
        QCOMPARE(summaries->rangeStats()->stats().toNs, aligned.windowEndNs());
        QVERIFY(summaries->rangeDock()->windowTitle().endsWith(QStringLiteral("· zz")));
        QCOMPARE(summaries->kernelSummary()->profile().get(), &changed);
        // The changed run's step is the one highlighted and framed (its own clock, offset on the shared axis).
        QVERIFY(lower->visibleStartNs() <= aligned.windowStartNs() && aligned.windowEndNs() <= lower->visibleEndNs());

        // A Ctrl-drag on the changed timeline: that range's statistics of the changed run.
        QWidget* viewport = lower->view()->viewport();
        const int x0 = lower->labelWidth() + 100, x1 = lower->labelWidth() + 400;
        QTest::mousePress(viewport, Qt::LeftButton, Qt::ControlModifier, QPoint(x0, 60));
        QTest::mouseMove(viewport, QPoint(x0 + 50, 60));
        QTest::mouseMove(viewport, QPoint(x1, 60));
        QTest::mouseRelease(viewport, Qt::LeftButton, Qt::ControlModifier, QPoint(x1, 60));
        const TimeNs r0 = lower->selection()->rangeStartNs(), r1 = lower->selection()->rangeEndNs();
        QVERIFY(r1 > r0);
        QCOMPARE(summaries->rangeStats()->profile().get(), &changed);
        QTRY_VERIFY_WITH_TIMEOUT(!summaries->rangeStats()->busy(), 60000);
        QCOMPARE(summaries->rangeStats()->stats().fromNs, r0);
        QCOMPARE(summaries->rangeStats()->stats().toNs, r1);
        QVERIFY(changed.firstNs() <= r0 && r1 <= changed.lastNs()); // (the changed run's own clock)

        // Back on the baseline.
        TimelineWidget* upper = w->timeline();
        upper->ensureLaneVisible(task->baseline.lane);
        const TimeNs bstart = base.startNs(task->baseline);
        const TimeNs bdur = base.lanes[task->baseline.lane].durationNs[task->baseline.index];
        upper->zoom()->setRange(bstart - bdur, bstart + 2 * bdur);
        QApplication::processEvents();
        const std::optional<QPoint> bat = upper->eventCenterInViewport(task->baseline);
        QVERIFY(bat);
        QTest::mouseClick(upper->view()->viewport(), Qt::LeftButton, {}, *bat);
        QCOMPARE(w->paneSession(), w->session());
        QCOMPARE(steps->stepRecords(), base.stepRecords.get());
        QCOMPARE(steps->currentSourceRow(), baseRow);
        QCOMPARE(stepsDock->windowTitle(), QStringLiteral("Steps · run one"));
        QCOMPARE(summaries->kernelSummary()->profile().get(), &base);
        // `[` / `]` from the changed timeline then select the changed run's step of the pair in the table.
        lower->view()->setFocus();
        QCOMPARE(w->paneSession(), c->changedSession());
        QTest::keyClick(lower->view(), Qt::Key_BracketRight);
        const StepPair shown = c->pairs()[size_t(std::max(0, c->currentPair()))];
        QCOMPARE(steps->currentSourceRow(), int(c->changedSession()->analyses()->step(shown.changedStep).row));
        c->closeChanged();
        QCOMPARE(stepsDock->windowTitle(), QStringLiteral("Steps"));
        QCOMPARE(steps->stepRecords(), base.stepRecords.get());
    }

    // `[` / `]` pressed before the comparison's pairs are in say so in the status bar (and do nothing
    // else); once the comparison is ready its first pair is shown and the keys walk the pairs.
    void theBracketsSayWhenThePairsAreNotReady()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        QString message;
        bool hadResult = true;
        int pairsThen = -1;
        // Right when the comparison opens (its pairs are computed on workers afterwards).
        connect(c, &ComparisonController::comparisonOpened, this, [&]() {
            hadResult = c->result() != nullptr;
            w->timeline()->view()->setFocus();
            QTest::keyClick(w->timeline()->view(), Qt::Key_BracketRight);
            message = w->statusBar()->currentMessage();
            pairsThen = int(c->pairs().size());
        });
        c->openComparison(m_baseline, m_changed);
        QVERIFY(waitCompared(c));
        QVERIFY(!hadResult);
        QCOMPARE(pairsThen, 0);
        QVERIFY2(message.startsWith(QStringLiteral("Pairing the steps of the two runs")), qPrintable(message));
        QVERIFY(waitReady(c));
        QVERIFY(!c->pairs().empty());
        QCOMPARE(c->currentPair(), 0);
        w->timeline()->view()->setFocus();
        QTest::keyClick(w->timeline()->view(), Qt::Key_BracketRight);
        QCOMPARE(c->currentPair(), std::min(1, int(c->pairs().size()) - 1));
        QVERIFY(w->statusBar()->currentMessage().startsWith(QStringLiteral("Pair ")));
    }

    // The kernel diff of a pair is aligned on a worker: the dock says so meanwhile, and when another pair
    // is picked before it lands, only the pair on show fills the dock.
    void theKernelDiffIsAlignedOnAWorker()
    {
        auto w = openComparedWindow(true);
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        QVERIFY(c->pairs().size() >= 3);
        QTRY_VERIFY_WITH_TIMEOUT(c->kernelAlignment() != nullptr, 60000); // the first pair's
        QSignalSpy dropped(c, &ComparisonController::kernelsDropped);
        QVERIFY(c->showPair(1));
        QVERIFY(c->isAligningKernels()); // (the worker's result is delivered by the event loop only)
        QVERIFY(!c->kernelAlignment());
        QCOMPARE(c->kernelPanel()->table()->rowCount(), 0);
        QVERIFY2(c->kernelPanel()->noteLabel()->text().startsWith(QStringLiteral("Aligning the kernels")),
                 qPrintable(c->kernelPanel()->noteLabel()->text()));
        QVERIFY(c->showPair(2)); // before pair 1's lands
        QTRY_VERIFY_WITH_TIMEOUT(c->kernelAlignment() != nullptr, 60000);
        QVERIFY(!c->isAligningKernels());
        // It is pair 2's: its tasks lie in pair 2's steps, and the dock names them.
        const RecordWindow& a = w->session()->analyses()->step(c->pairs()[2].baselineStep);
        const RecordWindow& b = c->changedSession()->analyses()->step(c->pairs()[2].changedStep);
        const KernelAlignment& k = *c->kernelAlignment();
        QVERIFY(!k.regressions.empty());
        for (const AlignedTask& t : k.regressions) {
            const TimeNs ta = w->profile()->startNs(t.baseline),
                         tb = c->changedSession()->profile()->startNs(t.changed);
            QVERIFY(a.window.startNs <= ta && ta < a.window.endNs);
            QVERIFY(b.window.startNs <= tb && tb < b.window.endNs);
        }
        QVERIFY(c->kernelPanel()->table()->rowCount() > 0);
        QVERIFY(c->kernelPanel()->noteLabel()->text().contains(QString::number(a.window.forwardCt)));
        // Pair 1's result lands after pair 2 was asked for (results come through the event loop only), so
        // it is dropped: the dock keeps pair 2's.
        const auto shown = c->kernelAlignment();
        QTRY_COMPARE_WITH_TIMEOUT(dropped.count(), 1, 60000);
        QCOMPARE(c->kernelAlignment(), shown);
    }

    // Opening the demo (or any profile) while a comparison loads cancels that load: nothing of it lands in
    // the window afterwards.
    void anOpenWhileAComparisonLoadsCancelsIt()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        QSignalSpy opened(c, &ComparisonController::comparisonOpened);
        QSignalSpy failed(c, &ComparisonController::loadFailed);
        c->openComparison(m_baseline, m_changed);
        QVERIFY(c->isLoading());
        QVERIFY(c->findChild<ComparisonLoadTask*>());
        w->openDemo();
        QVERIFY(!c->isLoading());
        QVERIFY(!w->findChild<QProgressBar*>(QStringLiteral("comparisonProgress"))->isVisible());
        QVERIFY(waitLoaded(w.get(), 120000));
        // The comparison's load is gone (deleted once its threads ended): no result of it can come now.
        QTRY_VERIFY_WITH_TIMEOUT(c->findChild<ComparisonLoadTask*>() == nullptr, 60000);
        QApplication::processEvents();
        QCOMPARE(opened.count(), 0);
        QCOMPARE(failed.count(), 0);
        QVERIFY(!c->isActive());
        QCOMPARE(w->sessions().size(), size_t(1));
        QVERIFY(w->session()->path() != m_baseline);
        QVERIFY(!c->changedTimeline()->isVisible());

        // An ordinary open likewise, and a comparison asked for afterwards still opens.
        c->openComparison(m_baseline, m_changed);
        w->openPath(m_sameAgain);
        QVERIFY(waitLoaded(w.get(), 60000));
        QTRY_VERIFY_WITH_TIMEOUT(c->findChild<ComparisonLoadTask*>() == nullptr, 60000);
        QApplication::processEvents();
        QCOMPARE(opened.count(), 0);
        QCOMPARE(w->session()->path(), m_sameAgain);
        c->compareWith(m_changed);
        QVERIFY(waitCompared(c));
        QCOMPARE(w->session()->path(), m_sameAgain);
        QCOMPARE(c->changedSession()->path(), m_changed);
    }

    // Help › Keyboard and Mouse says what `[` / `]` do in the mode the window is in.
    void theShortcutsSayWhatTheBracketsDo()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        w->openPath(m_baseline);
        QVERIFY(waitLoaded(w.get(), 60000));
        QVERIFY(w->shortcutsHtml().contains(QStringLiteral("previous / next step")));
        QVERIFY(!w->shortcutsHtml().contains(QStringLiteral("matched step pair")));
        c->compareWith(m_changed);
        QVERIFY(waitCompared(c));
        QVERIFY(w->shortcutsHtml().contains(QStringLiteral("previous / next matched step pair, both runs together")));
        QVERIFY(!w->shortcutsHtml().contains(QStringLiteral("previous / next step<")));
        c->closeChanged();
        QVERIFY(w->shortcutsHtml().contains(QStringLiteral("previous / next step<")));
    }

    void swapAndCloseEitherSide()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        c->openComparison(m_baseline, m_changed);
        QVERIFY(waitCompared(c));
        QTest::mouseClick(w->findChild<QPushButton*>(QStringLiteral("swapSidesButton")), Qt::LeftButton);
        QCOMPARE(w->session()->path(), m_changed);
        QCOMPARE(c->changedSession()->path(), m_baseline);
        QCOMPARE(w->sessions().size(), size_t(2));
        QCOMPARE(c->changedTimeline()->profile(), c->changedSession()->profile().get());
        QCOMPARE(w->timeline()->profile(), w->session()->profile().get());

        // Closing the baseline (now the changed folder) leaves an ordinary window on the other run.
        QTest::mouseClick(w->findChild<QPushButton*>(QStringLiteral("closeBaselineButton")), Qt::LeftButton);
        QVERIFY(!c->isActive());
        QCOMPARE(w->sessions().size(), size_t(1));
        QCOMPARE(w->session()->path(), m_baseline);
        QCOMPARE(w->session()->timeOffsetNs(), TimeNs(0));
        QVERIFY(!c->changedTimeline()->isVisible());
        QVERIFY(!w->findChild<QWidget*>(QStringLiteral("comparisonBanner"))->isVisible());
        // `[` / `]` are the step table's again.
        const int before = w->stepPanel()->currentSourceRow();
        w->timeline()->view()->setFocus();
        QTest::keyClick(w->timeline()->view(), Qt::Key_BracketRight);
        QVERIFY(w->stepPanel()->currentSourceRow() != before);

        // Opening another profile the ordinary way ends a comparison too.
        c->openComparison(m_baseline, m_changed);
        QVERIFY(waitCompared(c));
        w->openPath(m_changed);
        QVERIFY(waitLoaded(w.get(), 60000));
        QVERIFY(!c->isActive());
        QCOMPARE(w->sessions().size(), size_t(1));
    }

    void shiftDropComparesWithTheShownProfile()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        w->openPath(m_baseline);
        QVERIFY(waitLoaded(w.get(), 60000));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(m_changed)});
        const QPointF at(w->width() / 2.0, w->height() / 2.0);
        // (a drop is delivered only after the drag entered the window)
        QDragEnterEvent enter(at.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::ShiftModifier);
        QApplication::sendEvent(w.get(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::ShiftModifier);
        QApplication::sendEvent(w.get(), &drop);
        QVERIFY(waitCompared(w->comparison()));
        QCOMPARE(w->session()->path(), m_baseline);
        QCOMPARE(w->comparison()->changedSession()->path(), m_changed);
        // A plain drop opens the file alone, as before.
        QDragEnterEvent enterPlain(at.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w.get(), &enterPlain);
        QDropEvent plain(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w.get(), &plain);
        QVERIFY(waitLoaded(w.get(), 60000));
        QVERIFY(!w->comparison()->isActive());
        QCOMPARE(w->session()->path(), m_changed);
    }

    void oneProgressBarAndCancel()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        QSignalSpy cancelled(c, &ComparisonController::loadCancelled);
        c->openComparison(m_baseline, m_changed);
        auto* bar = w->findChild<QProgressBar*>(QStringLiteral("comparisonProgress"));
        auto* cancel = w->findChild<QPushButton*>(QStringLiteral("cancelComparisonButton"));
        QVERIFY(bar && bar->isVisible() && cancel && cancel->isVisible());
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&]() { return cancelled.count() > 0; }, 60000));
        QVERIFY(!c->isActive() && !c->isLoading());
        QVERIFY(!bar->isVisible());
        QVERIFY(!w->session());

        // A side that cannot be opened: one message naming that side and the file.
        QSignalSpy failed(c, &ComparisonController::loadFailed);
        const QString missing = m_tmp.filePath(QStringLiteral("no such run"));
        c->openComparison(m_baseline, missing);
        QVERIFY(QTest::qWaitFor([&]() { return failed.count() > 0; }, 60000));
        const QString error = failed.first().first().toString();
        QVERIFY2(error.contains(QStringLiteral("changed run")) && error.contains(QStringLiteral("no such run")),
                 qPrintable(error));
        QVERIFY(!c->isActive());
    }

    void theFigureExportsInThreeFormats()
    {
        auto w = openComparedWindow(true);
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        QVERIFY(c->showPair(1));
        QTemporaryDir out;
        for (const char* name : {"pair.png", "pair.svg", "pair.pdf"}) {
            const QString path = out.filePath(QString::fromLatin1(name));
            QCOMPARE(c->exportFigure(path, 1400), QString());
            QVERIFY2(QFileInfo(path).size() > 1000, name);
        }
        const QImage png(out.filePath(QStringLiteral("pair.png")));
        QCOMPARE(png.width(), 1400);
        QVERIFY(png.height() > 400);
        QFile svg(out.filePath(QStringLiteral("pair.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        for (const char* expected : {"Comparison: baseline", "step wall", "effective TPOT", "mean commit length",
                                     "exposed communication", "critical path", "Target Verify"})
            QVERIFY2(text.contains(expected), expected);
        QFile pdf(out.filePath(QStringLiteral("pair.pdf")));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        QVERIFY(!c->exportFigure(out.filePath(QStringLiteral("pair.bmp"))).isEmpty());
    }

    void anAscendRunAgainstAGpuRunSaysWhatCannotBeCompared()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QTemporaryDir tmp;
        const QString gpu = tmp.filePath(QStringLiteral("other.json.gz"));
        QVERIFY(QFile::copy(realData(QStringLiteral("kineto/a100_event_sync_multi_stream.pt.trace.json.gz")), gpu));
        auto w = openMainWindow();
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        c->openComparison(m_baseline, gpu);
        QVERIFY(waitCompared(c));
        QVERIFY(waitReady(c));
        auto* note = w->findChild<QLabel*>(QStringLiteral("comparisonLimitations"));
        QVERIFY(note && note->isVisible());
        QVERIFY2(note->text().contains(QStringLiteral("Ascend NPU")) && note->text().contains(QStringLiteral("GPU")),
                 qPrintable(note->text()));
        QVERIFY(note->text().contains(QStringLiteral("No matched steps")));
        QVERIFY(c->pairs().empty());
        // `[` does nothing harmful without pairs.
        QTest::keyClick(w->timeline()->view(), Qt::Key_BracketRight);
        QCOMPARE(c->currentPair(), -1);

        // Two runs of one platform carry no such note.
        c->openComparison(m_baseline, m_changed);
        QVERIFY(waitCompared(c));
        QVERIFY(!note->isVisible());
    }

    void demoCompareOpensTheDemoPair()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        w->openFromCommandLine({QStringLiteral("--demo-compare")});
        QVERIFY(waitCompared(w->comparison(), 120000));
        ComparisonController* c = w->comparison();
        QVERIFY(c->isActive());
        QVERIFY(waitReady(c));
        QVERIFY(!c->pairs().empty());
        QCOMPARE(QFileInfo(w->session()->path()).fileName(), QStringLiteral("baseline"));
        QCOMPARE(QFileInfo(c->changedSession()->path()).fileName(), QStringLiteral("changed"));
        QCOMPARE(QFileInfo(w->session()->path()).dir(), QFileInfo(c->changedSession()->path()).dir());
        // The pair's changed run carries a larger draft block: its configuration differs there, and in
        // the one other field the demo changed (max running requests).
        QVERIFY(waitReady(c));
        QTreeWidget* tree = c->configPanel()->tree();
        QStringList differing;
        for (int g = 0; g < tree->topLevelItemCount(); ++g)
            for (int f = 0; f < tree->topLevelItem(g)->childCount(); ++f)
                if (tree->topLevelItem(g)->child(f)->text(3) == QStringLiteral("different"))
                    differing << tree->topLevelItem(g)->child(f)->text(0);
        QVERIFY2(differing.join(QLatin1Char(' ')).contains(QStringLiteral("max_running_requests")),
                 qPrintable(differing.join(QLatin1Char(' '))));
        QVERIFY(!c->configPanel()->warningLabel()->text().isEmpty());

        // A second window reuses the pair written once.
        auto again = openMainWindow();
        again->openFromCommandLine({QStringLiteral("--demo-compare")});
        QVERIFY(waitCompared(again->comparison(), 120000));
        QCOMPARE(again->session()->path(), w->session()->path());
    }

    // In Chinese the comparison's own texts are Chinese (tst_chinese_walk walks the window without one).
    void theComparisonSpeaksChinese()
    {
        InstalledTranslator zh = installTranslation(QStringLiteral("zh_CN"));
        QVERIFY(zh);
        auto w = openMainWindow();
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        // Every status-bar message of the comparison (loading, `]` before and after the pairs are in) and
        // the window's status line: in Chinese, but for names, units and numbers.
        QStringList messages;
        connect(w->statusBar(), &QStatusBar::messageChanged, this, [&](const QString& m) { messages << m; });
        connect(c, &ComparisonController::comparisonOpened, this, [&]() {
            QTest::keyClick(w->timeline()->view(), Qt::Key_BracketRight); // (before the pairs are in)
        });
        c->openComparison(m_baseline, m_changed);
        QVERIFY(waitCompared(c) && waitReady(c));
        c->pairPanel()->setShowAllPairs(true);
        w->timeline()->view()->setFocus();
        QTest::keyClick(w->timeline()->view(), Qt::Key_BracketRight);
        QVERIFY(c->showPair(1));
        for (QLabel* label : w->statusBar()->findChildren<QLabel*>())
            messages << label->text();
        c->changedTimeline()->view()->setFocus();
        QTest::keyClick(c->changedTimeline()->view(), Qt::Key_BracketRight);
        for (QLabel* label : w->statusBar()->findChildren<QLabel*>())
            messages << label->text();
        // A side that cannot be opened, and a load cancelled.
        QSignalSpy failed(c, &ComparisonController::loadFailed);
        c->openComparison(m_baseline, m_tmp.filePath(QStringLiteral("missing")));
        QVERIFY(QTest::qWaitFor([&]() { return failed.count() > 0; }, 60000));
        QSignalSpy cancelled(c, &ComparisonController::loadCancelled);
        c->openComparison(m_baseline, m_changed);
        c->cancelLoading();
        QVERIFY(QTest::qWaitFor([&]() { return cancelled.count() > 0; }, 60000));
        // Prose: a Latin word of 3+ letters that is not a name (the runs' folders, file names, identifiers)
        // or one of the terms kept in English.
        const QString folder = QDir::toNativeSeparators(m_tmp.path());
        static const QRegularExpression prose(QStringLiteral("^[A-Za-z][a-z]{2,}$"));
        static const QRegularExpression split(QStringLiteral("[\\s（）()：:，,；;“”\"'—]+"));
        const QStringList kept = {QStringLiteral("rank"), QStringLiteral("kernel"), QStringLiteral("one")};
        QStringList english;
        for (QString m : std::as_const(messages)) {
            const QString was = m;
            m.remove(folder);
            for (const QString& token : m.split(split, Qt::SkipEmptyParts))
                if (prose.match(token).hasMatch() && !kept.contains(token)) {
                    english << was;
                    break;
                }
        }
        QVERIFY2(english.isEmpty(), qPrintable(english.join(QStringLiteral(" | "))));
        QVERIFY(messages.size() >= 4);
        const QStringList titles = {QStringLiteral("配置差异"), QStringLiteral("分布"), QStringLiteral("匹配的步对"),
                                    QStringLiteral("算子差异")};
        for (int i = 0; i < 4; ++i)
            QCOMPARE(c->docks()[i]->windowTitle(), titles[i]);
        QCOMPARE(w->findChild<QPushButton*>(QStringLiteral("swapSidesButton"))->text(), QStringLiteral("交换"));
        QCOMPARE(c->pairPanel()->allPairsToggle()->text(), QStringLiteral("全部步对"));
        QVERIFY(w->shortcutsHtml().contains(QStringLiteral("上一个 / 下一个匹配的步对")));
        QVERIFY(
            w->findChild<QLabel*>(QStringLiteral("comparisonBannerText"))->text().startsWith(QStringLiteral("比较中")));
        QCOMPARE(c->distributionPanel()->table()->horizontalHeaderItem(0)->text(), QStringLiteral("指标"));
        QCOMPARE(c->distributionPanel()->table()->item(c->distributionPanel()->rowOf(Quantity::StepGpuMs), 0)->text(),
                 QStringLiteral("步 GPU"));
        QTreeWidget* tree = c->configPanel()->tree();
        QCOMPARE(tree->headerItem()->text(0), QStringLiteral("设置"));
        QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("代码提交"));
        QCOMPARE(c->pairPanel()->proxy()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("类"));
        QCOMPARE(c->kernelPanel()->table()->horizontalHeaderItem(1)->text(), QStringLiteral("所在"));
        QCOMPARE(w->action(QStringLiteral("compareWithFolder"))->text(), QStringLiteral("与文件夹比较(&O)…"));
        QTemporaryDir out;
        const QString svg = out.filePath(QStringLiteral("pair.svg"));
        QCOMPARE(c->exportFigure(svg, 1200), QString());
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        for (const char* expected : {"比较：基线", "步墙钟时间", "有效", "平均提交长度", "暴露的通信"})
            QVERIFY2(text.contains(QString::fromUtf8(expected)), expected);
    }

    // The pictures of docs/compare.md (DSPARK_SCREENSHOT_DIR set: written there), in English and Chinese.
    void screenshots()
    {
        const QString dir = qEnvironmentVariable("DSPARK_SCREENSHOT_DIR");
        if (dir.isEmpty())
            QSKIP("DSPARK_SCREENSHOT_DIR is not set");
        QDir().mkpath(dir);
        for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
            InstalledTranslator zh;
            if (language != QLatin1String("en")) {
                zh = installTranslation(language);
                QVERIFY(zh);
            }
            auto w = openMainWindow({1600, 1000});
            QVERIFY(w);
            ComparisonController* c = w->comparison();
            c->openDemoComparison();
            QVERIFY(waitCompared(c, 120000));
            QVERIFY(waitReady(c));
            c->pairPanel()->setShowAllPairs(true);
            QVERIFY(c->showPair(2));
            QTRY_VERIFY_WITH_TIMEOUT(c->kernelAlignment() != nullptr, 60000);
            c->docks()[2]->raise();
            QApplication::processEvents();
            const QString suffix = language == QLatin1String("en") ? QString() : QStringLiteral("-zh");
            QVERIFY(w->grab().save(dir + QStringLiteral("/compare-window%1.png").arg(suffix)));
            c->docks()[1]->raise();
            QApplication::processEvents();
            QVERIFY(w->grab().save(dir + QStringLiteral("/compare-distributions%1.png").arg(suffix)));
            QCOMPARE(c->exportFigure(dir + QStringLiteral("/compare-figure%1.png").arg(suffix), 1600), QString());
        }
    }
};

QTEST_MAIN(TestCompareWindow)
#include "tst_compare_window.moc"
