// Issue 27: what a new user tripped on, driven as the user drove it (keys, clicks, menus), each test
// asserting what changed: the export folder, step records without a timeline, the panes following one
// selection and one range, the step figure's headline rows, legends and titles that say what is drawn,
// the Tools menu, and the smaller fixes (Debug menu, step table columns, the CLI's unknown command).
#include "../demo/DemoTestSupport.h"
#include "MainWindowTestSupport.h"
#include "SyntheticProfile.h"
#include "TestSupport.h"

#include "MainWindow.h"
#include "analysis/IntervalSet.h"
#include "charts/StepBreakdownView.h"
#include "charts/StepChartsPanel.h"
#include "io/ProfileLoader.h"
#include "overlays/AnalysisPalette.h"
#include "overlays/AnnotationTool.h"
#include "panels/EventDetailsPane.h"
#include "panels/EventTablePanel.h"
#include "panels/StepTablePanel.h"
#include "report/ExportDialog.h"
#include "report/ReportActions.h"
#include "report/TimelineReport.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"
#include "steps/StepTableModel.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
#include <QValueAxis>

using namespace dspark;
using namespace dspark::test;
using namespace dspark::ui;

class TestNewUser : public QObject {
    Q_OBJECT
    WrittenDemo m_demo;
    std::shared_ptr<const Profile> m_profile;

    std::unique_ptr<MainWindow> demoWindow()
    {
        auto w = openMainWindow(QSize(1440, 900));
        if (!w)
            return w;
        w->setProfile(m_profile, m_demo.dir);
        if (!QTest::qWaitFor([&]() { return w->reports()->analyses()->ready(); }, 60000))
            return nullptr;
        return w;
    }
    static int viewRowOf(MainWindow& w, int64_t forwardCt)
    {
        const StepRecordSet& set = *w.profile()->stepRecords;
        for (int r = 0; r < w.stepPanel()->table()->model()->rowCount(); ++r)
            if (set.record(size_t(w.stepPanel()->sourceRow(r))).forwardCt == forwardCt)
                return r;
        return -1;
    }
    static int64_t currentForwardCt(MainWindow& w)
    {
        const int row = w.stepPanel()->currentSourceRow();
        return row < 0 ? -1 : w.profile()->stepRecords->record(size_t(row)).forwardCt;
    }
    // A left-button drag in steps of 20 px (QTest::mouseMove carries no buttons).
    static void drag(QWidget* w, QPoint from, QPoint to, Qt::KeyboardModifiers mods)
    {
        QTest::mousePress(w, Qt::LeftButton, mods, from);
        const int steps = std::max(1, std::abs(to.x() - from.x()) / 20);
        for (int i = 1; i <= steps; ++i) {
            const QPointF p = from + (to - from) * double(i) / steps;
            QMouseEvent move(QEvent::MouseMove, p, w->mapToGlobal(p), Qt::NoButton, Qt::LeftButton, mods);
            QApplication::sendEvent(w, &move);
        }
        QTest::mouseRelease(w, Qt::LeftButton, mods, to);
    }
    // With DSPARK_SCREENSHOT_DIR set, saves the window (tools/screenshots.sh puts some in docs/images).
    static void snap(QWidget* w, const char* name)
    {
        QApplication::processEvents();
        const QString dir = qEnvironmentVariable("DSPARK_SCREENSHOT_DIR");
        if (!dir.isEmpty() && QDir().mkpath(dir))
            QVERIFY(w->grab().save(dir + QLatin1Char('/') + QLatin1String(name) + QStringLiteral(".png")));
    }
    static QPushButton* buttonNamed(QWidget* root, const QString& text)
    {
        for (QPushButton* b : root->findChildren<QPushButton*>())
            if (b->text() == text)
                return b;
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        useTestSettings(QStringLiteral("tst_new_user"));
        m_demo = writeTestDemo(24, 7, 1, false);
        QVERIFY2(m_demo.result.error.isEmpty(), qPrintable(m_demo.result.error));
        LoadOutcome loaded = loadProfile(m_demo.dir.toStdString());
        QVERIFY2(loaded.profile, qPrintable(loaded.error));
        m_profile = std::move(loaded.profile);
    }

    // Item 1: File › Export proposes a folder that exists and remembers the one last written to.
    void exportProposesAWritableFolderAndRemembersTheLast()
    {
        auto w = demoWindow();
        QVERIFY(w);
        QSettings().setValue(QStringLiteral("export/lastFolder"), QStringLiteral("/nonexistent/folder"));
        QTest::keyClick(w.get(), Qt::Key_E, Qt::ControlModifier);
        ExportDialog* dialog = w->reports()->exportDialog();
        QVERIFY(dialog);
        const QFileInfo proposed(QFileInfo(dialog->path()).absolutePath());
        QVERIFY2(proposed.isDir() && proposed.isWritable(), qPrintable(dialog->path()));

        // A file in a folder that does not exist yet: the folder is made, the file written.
        QTemporaryDir out;
        const QString file = out.filePath(QStringLiteral("figures/new/view.png"));
        dialog->setPath(file);
        QPushButton* exportButton = buttonNamed(dialog, QStringLiteral("Export"));
        QVERIFY(exportButton);
        QTest::mouseClick(exportButton, Qt::LeftButton);
        QVERIFY2(QFileInfo(file).size() > 1000, qPrintable(file));

        // The next export proposes that folder.
        QTest::keyClick(w.get(), Qt::Key_E, Qt::ControlModifier);
        dialog = w->reports()->exportDialog();
        QVERIFY(dialog);
        QCOMPARE(QFileInfo(dialog->path()).absolutePath(), out.filePath(QStringLiteral("figures/new")));
        dialog->close();
    }

    // Item 2: step records alone show the step table and charts in the window, and say why.
    void stepRecordsAloneShowTheTableAndCharts()
    {
        auto w = openMainWindow(QSize(1440, 900));
        QVERIFY(w);
        QTemporaryDir only;
        // Renamed: the records are found by their content.
        QVERIFY(
            QFile::copy(m_demo.path(QStringLiteral("server_info.json")), only.filePath(QStringLiteral("run.json"))));
        w->openPath(only.path());
        QVERIFY(waitLoaded(w.get(), 60000));
        auto* stack = qobject_cast<QStackedWidget*>(w->centralWidget());
        QVERIFY(stack);
        QCOMPARE(stack->currentWidget()->objectName(), QStringLiteral("stepsOnlyPage"));
        auto* line = w->findChild<QLabel*>(QStringLiteral("noTimelineLabel"));
        QVERIFY(line && line->isVisible());
        QVERIFY(line->text().contains(QStringLiteral("without a profiler timeline")));
        QVERIFY(w->stepPanel()->isVisible());
        QCOMPARE(size_t(w->stepPanel()->table()->model()->rowCount()), m_profile->stepRecords->size());
        QVERIFY(w->reports()->charts()->isVisible());
        // Full size: the table and the charts share the window's centre.
        QVERIFY(w->stepPanel()->height() + w->reports()->charts()->height() > stack->height() * 3 / 4);
        QVERIFY(w->stepPanel()->width() > stack->width() * 9 / 10);
        snap(w.get(), "steps-without-timeline");

        // A profile with a timeline puts them back into their docks.
        w->setProfile(m_profile, m_demo.dir);
        QCOMPARE(stack->currentWidget(), w->timelinePage()); // (the page that holds the timeline)
        QVERIFY(w->timeline()->isVisible());
        QCOMPARE(w->stepPanel()->parentWidget(), w->findChild<QDockWidget*>(QStringLiteral("stepsDock")));
        QVERIFY(w->stepPanel()->isVisible());
    }

    // The welcome page shows no empty panes; the docks come back, as the user left them, with a timeline
    // (and after a restart that began on the welcome page).
    void theWelcomePageHasNoEmptyPanes()
    {
        auto visibleDocks = [](MainWindow& w) {
            QStringList names;
            for (QDockWidget* d : w.findChildren<QDockWidget*>())
                if (d->isVisible())
                    names << d->objectName();
            names.sort();
            return names;
        };
        auto w = openMainWindow(QSize(1440, 900));
        QVERIFY(w);
        auto* stack = qobject_cast<QStackedWidget*>(w->centralWidget());
        QVERIFY(stack);
        QCOMPARE(stack->currentWidget()->objectName(), QStringLiteral("welcomePage"));
        QCOMPARE(visibleDocks(*w), QStringList());
        QVERIFY(stack->height() > w->height() * 4 / 5);
        snap(w.get(), "welcome");

        w->setProfile(m_profile, m_demo.dir);
        const QStringList withTimeline = visibleDocks(*w);
        for (const char* name : {"stepsDock", "eventsDock", "detailsDock", "searchDock"})
            QVERIFY2(withTimeline.contains(QLatin1String(name)), name);
        // Closing the profile puts them away again; the Details dock closed by the user stays closed.
        w->findChild<QDockWidget*>(QStringLiteral("detailsDock"))->close();
        const QStringList chosen = visibleDocks(*w);
        w->setProfile(nullptr, {});
        QCOMPARE(visibleDocks(*w), QStringList());
        w->setProfile(m_profile, m_demo.dir);
        QCOMPARE(visibleDocks(*w), chosen);

        // Quit on the welcome page: the next start restores the user's docks, not the empty page's.
        w->setProfile(nullptr, {});
        w->close();
        w.reset();
        MainWindow again;
        again.resize(1440, 900);
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(visibleDocks(again), QStringList());
        again.setProfile(m_profile, m_demo.dir);
        QCOMPARE(visibleDocks(again), chosen);
    }

    // Item 4: one selection and one range, every pane following them.
    void theHoverReadoutFollowsTheRange()
    {
        auto w = demoWindow();
        QVERIFY(w);
        QWidget* vp = w->timeline()->view()->viewport();
        const QPoint at(w->timeline()->labelWidth() + 300, 80);
        QTest::mouseMove(vp, at);
        QTRY_VERIFY(w->timeline()->cursorNs().has_value());
        const TimeNs before = *w->timeline()->cursorNs();
        // Ctrl+] goes to the next anomalous step without the mouse moving.
        vp->setFocus();
        QTest::keyClick(vp, Qt::Key_BracketRight, Qt::ControlModifier);
        QVERIFY(currentForwardCt(*w) > 0);
        QVERIFY(w->timeline()->cursorNs().has_value());
        QCOMPARE(*w->timeline()->cursorNs(), w->timeline()->scale().timeAt(at.x()));
        QVERIFY(*w->timeline()->cursorNs() != before);
    }

    void theKernelTableAndTheStepTableFollowTheStep()
    {
        auto w = demoWindow();
        QVERIFY(w);
        // Double-click 1205: its device tasks; "]" moves to the next step: the kernel table follows.
        clickRow(w->stepPanel()->table(), viewRowOf(*w, 1205), true);
        QVERIFY(w->eventTable()->title().contains(QStringLiteral("1205")));
        w->timeline()->view()->viewport()->setFocus();
        QTest::keyClick(w->timeline()->view()->viewport(), Qt::Key_BracketRight);
        QCOMPARE(currentForwardCt(*w), int64_t(1206));
        QVERIFY2(w->eventTable()->title().contains(QStringLiteral("1206")), qPrintable(w->eventTable()->title()));
        QVERIFY(w->eventTable()->rowCount() > 0);

        // Step 1210 picked, then Ctrl+Z: the view goes back to 1206 and so do the table and the kernels.
        clickRow(w->stepPanel()->table(), viewRowOf(*w, 1210));
        QCOMPARE(currentForwardCt(*w), int64_t(1210));
        w->timeline()->view()->viewport()->setFocus();
        QTest::keyClick(w->timeline()->view()->viewport(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(currentForwardCt(*w), int64_t(1206));
        QVERIFY2(w->eventTable()->title().contains(QStringLiteral("1206")), qPrintable(w->eventTable()->title()));
        QVERIFY(w->reports()->charts()->currentRecordRow().has_value());
        QCOMPARE(w->profile()->stepRecords->record(*w->reports()->charts()->currentRecordRow()).forwardCt,
                 int64_t(1206));
        // Redo: 1210 again, in every pane.
        QTest::keyClick(w->timeline()->view()->viewport(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(currentForwardCt(*w), int64_t(1210));
        QVERIFY2(w->eventTable()->title().contains(QStringLiteral("1210")), qPrintable(w->eventTable()->title()));
    }

    // Item 5: the "Selected step" chart has room for its axis labels and title.
    void theSelectedStepChartHasRoomForItsAxis()
    {
        auto w = demoWindow();
        QVERIFY(w);
        QDockWidget* dock = w->reports()->chartsDock();
        dock->show();
        dock->raise();
        clickRow(w->stepPanel()->table(), viewRowOf(*w, 1209));
        w->reports()->charts()->showChart(StepChartsPanel::Chart::Breakdown);
        QApplication::processEvents();
        QChart* chart = w->reports()->charts()->breakdownView()->chartView()->chart();
        auto axes = chart->axes(Qt::Horizontal);
        QCOMPARE(axes.size(), 1);
        auto* x = qobject_cast<QValueAxis*>(axes.first());
        QVERIFY(x);
        // Every tick label fits its share of the plot (Qt elides labels that do not: "…").
        const QFontMetricsF fm(x->labelsFont());
        const double widest =
            fm.horizontalAdvance(QString::asprintf(x->labelFormat().toLatin1().constData(), x->max()));
        const double perTick = chart->plotArea().width() / std::max(1, x->tickCount() - 1);
        QVERIFY2(widest + 8 < perTick,
                 qPrintable(QStringLiteral("%1 px a label, %2 px a tick").arg(widest).arg(perTick)));
        // The axis title sits below the plot with its full height.
        QVERIFY(chart->plotArea().height() >= 20);
        QVERIFY(chart->plotArea().bottom() + QFontMetricsF(x->titleFont()).height() * 2 < chart->size().height());
        snap(w->reports()->chartsDock(), "selected-step-chart");
    }

    // Item 6: the step figure shows the headline: exposed communication per stream, merged, with its
    // total, and the critical path by category to scale.
    void theStepFigureShowsItsFinding()
    {
        StepAnalyses analyses;
        analyses.setProfile(m_profile, AnalysisRules::load({}, nullptr));
        size_t step = SIZE_MAX;
        for (size_t i = 0; i < analyses.stepCount(); ++i)
            if (analyses.step(i).window.forwardCt == 1209)
                step = i;
        QVERIFY(step != SIZE_MAX);
        TimelineReport report(&analyses);
        report.showStep(step);
        const StepAnalysis& a = *analyses.analysis(step);
        // By hand: the union of the exposed parts of the operations, per stream that waited.
        std::map<int64_t, std::vector<Interval>> byStream;
        for (const CommOperation& op : a.comm.operations)
            if (op.exposedNs > 0)
                byStream[op.waitOnHost          ? -2
                         : op.waitStreamId >= 0 ? op.waitStreamId
                                                : op.streamId]
                    .push_back({std::max(op.exposedInterval().startNs, a.window.startNs),
                                std::min(op.exposedInterval().endNs, a.window.endNs)});
        QVERIFY(!byStream.empty());
        const std::vector<SummaryRow>& rows = report.summary();
        QCOMPARE(rows.size(), byStream.size() + 1);
        size_t r = 0;
        for (auto& [stream, list] : byStream) {
            std::sort(list.begin(), list.end(), [](auto& x, auto& y) { return x.startNs < y.startNs; });
            TimeNs total = 0, reach = INT64_MIN;
            for (const Interval& i : list) {
                const TimeNs from = std::max(i.startNs, reach);
                if (i.endNs > from)
                    total += i.endNs - from;
                reach = std::max(reach, i.endNs);
            }
            QCOMPARE(rows[r].totalNs, total);
            QVERIFY(rows[r].label.contains(stream == -2 ? QStringLiteral("host") : QString::number(stream)));
            ++r;
        }
        // The demo's finding: about half of step 1209 is exposed communication, on one stream (docs/demo.md).
        size_t top = 0;
        for (size_t i = 0; i + 1 < rows.size(); ++i)
            if (rows[i].totalNs > rows[top].totalNs)
                top = i;
        QVERIFY2(rows[top].totalNs * 100 / a.window.wallNs() >= 40, qPrintable(rows[top].total));
        QVERIFY(rows[top].total.contains(QStringLiteral("% of the step")));
        // The critical path bar: categories end to end, as long as the step.
        const SummaryRow& path = rows.back();
        QCOMPARE(path.totalNs, a.window.wallNs());
        QCOMPARE(path.pieces.front().interval.startNs, a.window.startNs);
        QCOMPARE(path.pieces.back().interval.endNs, a.window.endNs);

        // In the picture: the red of the exposed row covers its share of the time axis.
        const QSize size(1600, 0);
        const QImage img = report.toImage(size, 1.0);
        const QRectF rowRect = report.summaryRowRect(QSizeF(img.size()), top);
        const int y = int(rowRect.center().y());
        const QColor red = AnalysisPalette::commExposed();
        int redPx = 0;
        for (int x = 0; x < img.width(); ++x)
            redPx += QColor(img.pixel(x, y)) == red;
        const double eventWidth = img.width() - 1 - TimelineStyle{}.labelWidth;
        const double expected = eventWidth * double(rows[top].totalNs) / double(report.endNs() - report.startNs());
        QVERIFY2(std::abs(redPx - expected) < 0.05 * expected + 3 * rows[top].pieces.size(),
                 qPrintable(QStringLiteral("%1 red px, %2 expected").arg(redPx).arg(expected)));
    }

    // Item 7: legends list what is drawn; titles say what the picture is.
    void aProfileWithoutStepsGetsNoStepLegend()
    {
        SyntheticSpec spec;
        spec.steps = 0;
        std::shared_ptr<const Profile> plain = makeSyntheticProfile(spec);
        StepAnalyses analyses;
        analyses.setProfile(plain, AnalysisRules::load({}, nullptr));
        TimelineReport report(&analyses);
        report.showRange(plain->firstNs(), plain->lastNs());
        for (const LegendItem& item : report.legend())
            QVERIFY2(item.label != stageLabel(Stage::Draft) && item.label != stageLabel(Stage::Verify) &&
                         item.label != stageLabel(Stage::Planner),
                     qPrintable(item.label));
        QVERIFY(report.legend().empty());
        QVERIFY2(report.header().title.contains(QStringLiteral("the whole profile")),
                 qPrintable(report.header().title));
        QVERIFY(!report.header().title.contains(QStringLiteral("from 0 ns")));
        // A part of it: where it is.
        const TimeNs span = plain->lastNs() - plain->firstNs();
        report.showRange(plain->firstNs() + span / 4, plain->firstNs() + span / 2);
        QVERIFY2(report.header().title.contains(QStringLiteral("after the profile start")),
                 qPrintable(report.header().title));

        // The demo's step 1209 has every stage: its legend lists them.
        StepAnalyses demo;
        demo.setProfile(m_profile, AnalysisRules::load({}, nullptr));
        TimelineReport stepReport(&demo);
        for (size_t i = 0; i < demo.stepCount(); ++i)
            if (demo.step(i).window.forwardCt == 1209)
                stepReport.showStep(i);
        QStringList labels;
        for (const LegendItem& item : stepReport.legend())
            labels << item.label;
        QVERIFY2(labels.contains(stageLabel(Stage::Draft)) && labels.contains(stageLabel(Stage::Verify)),
                 qPrintable(labels.join(QLatin1Char(','))));
    }

    // Item 8: the annotation tools in a Tools menu, on keys and in the lane menu.
    void theAnnotationToolsCanBeReached()
    {
        auto w = demoWindow();
        QVERIFY(w);
        QAction* tools = nullptr;
        for (QAction* a : w->menuBar()->actions())
            if (a->menu() == w->toolsMenu())
                tools = a;
        QVERIFY(tools && tools->isVisible());
        QVERIFY(!w->toolsMenu()->actions().isEmpty());
        QWidget* vp = w->timeline()->view()->viewport();
        vp->setFocus();
        QTest::keyClick(vp, Qt::Key_N);
        QCOMPARE(w->reports()->annotationTool()->mode(), AnnotationTool::Mode::Note);
        QTest::keyClick(vp, Qt::Key_Escape);
        QTest::keyClick(vp, Qt::Key_R);
        QCOMPARE(w->reports()->annotationTool()->mode(), AnnotationTool::Mode::Range);
        QTest::keyClick(vp, Qt::Key_A, Qt::ShiftModifier);
        QCOMPARE(w->reports()->annotationTool()->mode(), AnnotationTool::Mode::Arrow);
        QTest::keyClick(vp, Qt::Key_Escape);
        QCOMPARE(w->reports()->annotationTool()->mode(), AnnotationTool::Mode::Off);
        // The lane menu offers them too.
        bool offered = false;
        QTimer::singleShot(0, this, [&]() {
            if (auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
                for (QAction* a : menu->actions())
                    offered = offered || (a->menu() && a->menu()->objectName() == QLatin1String("annotateMenu"));
                menu->close();
            }
        });
        const QPoint at(w->timeline()->labelWidth() + 200, 120);
        QTest::mousePress(vp, Qt::RightButton, {}, at);
        QTest::mouseRelease(vp, Qt::RightButton, {}, at);
        QVERIFY(offered);
    }

    // Item 9: the smaller ones.
    void noDebugMenuForTheUser()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        for (QAction* a : w->menuBar()->actions())
            QVERIFY2(!a->isVisible() || a->text().remove(QLatin1Char('&')) != QLatin1String("Debug"),
                     "the Debug menu is shown");
        QVERIFY(w->action(QStringLiteral("frameTime"))); // still there for developers (DSPARK_DEBUG=1)
    }

    void theStepTableLeadsWithWhatUsersSortByAndKeepsTheirOrder()
    {
        QSettings().clear();
        {
            auto w = demoWindow();
            QVERIFY(w);
            QHeaderView* header = w->stepPanel()->table()->horizontalHeader();
            auto visual = [header](StepColumn c) { return header->visualIndex(int(c)); };
            QVERIFY(visual(StepColumn::ForwardCt) < visual(StepColumn::VerifyTokensLocal));
            QVERIFY(visual(StepColumn::StepGpuMs) < 4);
            QVERIFY(visual(StepColumn::Anomaly) < visual(StepColumn::Bs));
            QVERIFY(visual(StepColumn::Anomaly) < visual(StepColumn::NumVerifyTokens));
            // The user drags "bs" to the front.
            const int from =
                header->sectionViewportPosition(int(StepColumn::Bs)) + header->sectionSize(int(StepColumn::Bs)) / 2;
            const int to = header->sectionViewportPosition(header->logicalIndex(0)) + 4;
            QWidget* vp = header->viewport();
            const int y = header->height() / 2;
            drag(vp, QPoint(from, y), QPoint(to, y), {});
            QCOMPARE(visual(StepColumn::Bs), 0);
        }
        // Opened again (the settings kept): the user's order.
        MainWindow w;
        w.setProfile(m_profile, m_demo.dir);
        QCOMPARE(w.stepPanel()->table()->horizontalHeader()->visualIndex(int(StepColumn::Bs)), 0);
        QSettings().clear();
    }

    void theDetailsKeysAreNotCutOff()
    {
        auto w = demoWindow();
        QVERIFY(w);
        // A Ctrl-drag over the lanes selects a range: its details list the long keys.
        QWidget* vp = w->timeline()->view()->viewport();
        const int x0 = w->timeline()->labelWidth() + 100, x1 = x0 + 400;
        drag(vp, QPoint(x0, 120), QPoint(x1, 120), Qt::ControlModifier);
        QTreeWidget* tree = w->detailsPane()->tree();
        QTRY_VERIFY(tree->topLevelItemCount() > 0);
        QTreeWidgetItem* range = tree->topLevelItem(0);
        QVERIFY(range->childCount() >= 6);
        const QFontMetrics fm(tree->font());
        for (int i = 0; i < range->childCount(); ++i) {
            const QString key = range->child(i)->text(0);
            const int indent = tree->indentation() + 12;
            QVERIFY2(fm.horizontalAdvance(key) + indent <= tree->columnWidth(0),
                     qPrintable(QStringLiteral("%1: %2 px in %3")
                                    .arg(key)
                                    .arg(fm.horizontalAdvance(key))
                                    .arg(tree->columnWidth(0))));
        }
    }

    void anUnknownSubCommandIsAnError()
    {
        const CliResult r =
            runCli({QStringLiteral("compre"), QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("unknown command 'compre'"), r.err.constData());
        QVERIFY(r.out.isEmpty());
        const CliResult help = runCli({QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.contains("export PATH [--step N] --out FILE"), help.out.constData());
    }
};

QTEST_MAIN(TestNewUser)
#include "tst_new_user.moc"
