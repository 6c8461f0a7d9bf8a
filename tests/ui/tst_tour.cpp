// A user's tour of the demo in the main window, driven by keys and clicks: the overview, an anomalous
// step opened from the step table, a kernel picked from its task list, a lane hidden and shown again,
// a profile dropped on the window, the recent list. Each stop asserts what changed on screen.
// With DSPARK_SCREENSHOT_DIR set, every stop also saves the window as a PNG (docs and reviews use them).
#include "MainWindowTestSupport.h"
#include "TestSupport.h"

#include "MainWindow.h"
#include "overlays/AnnotationOverlay.h"
#include "overlays/MarkerActions.h"
#include "panels/EventDetailsPane.h"
#include "panels/EventTablePanel.h"
#include "panels/MarkersPanel.h"
#include "panels/StepTablePanel.h"
#include "report/ExportDialog.h"
#include "report/ReportActions.h"
#include "steps/StepRecords.h"
#include "steps/StepTableModel.h"
#include "summary/SummaryDocks.h"
#include "summary/SummaryPanels.h"
#include "timeline/LaneFilter.h"
#include "timeline/LaneLayout.h"
#include "timeline/MeasureOverlay.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "timeline/TimelineZoom.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QUrl>

using namespace dspark;
using namespace dspark::ui;
using dspark::test::clickRow;

class TestTour : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> w;
    test::InstalledTranslator m_translation;

    bool waitLoaded(int timeoutMs) { return test::waitLoaded(w.get(), timeoutMs); }
    void snap(const char* name)
    {
        QApplication::processEvents();
        const QString dir = qEnvironmentVariable("DSPARK_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        QDir().mkpath(dir);
        QVERIFY(w->grab().save(dir + QLatin1Char('/') + QLatin1String(name) + QStringLiteral(".png")));
    }
    int rowOfStep(int64_t forwardCt) const
    {
        StepTablePanel* steps = w->stepPanel();
        const StepRecordSet& set = *w->profile()->stepRecords;
        for (int r = 0; r < steps->table()->model()->rowCount(); ++r)
            if (set.record(size_t(steps->sourceRow(r))).forwardCt == forwardCt)
                return r;
        return -1;
    }
    uint32_t laneNamed(const std::string& process, const std::string& name) const
    {
        return test::laneNamed(*w->profile(), process, name);
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::useTestSettings(QStringLiteral("tst_tour"));
        w = test::openMainWindow(QSize(1600, 1000));
        QVERIFY(w);
        // DSPARK_SCREENSHOT_LANG=zh_CN: the tour in Chinese (the pictures of docs/images/*-zh.png).
        const QString language = qEnvironmentVariable("DSPARK_SCREENSHOT_LANG");
        if (!language.isEmpty()) {
            m_translation = test::installTranslation(language);
            QVERIFY2(m_translation, qPrintable(language));
            w->setLanguage(language);
        }
        snap("0-empty");
        // A previous run's markers and notes on the demo (this test's own config folder) are gone.
        QDir(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/sessions"))
            .removeRecursively();
        w->openDemo();
        QVERIFY(waitLoaded(180'000));
    }
    void cleanupTestCase()
    {
        w.reset();
        m_translation.reset();
    }

    void theOverviewShowsTheWholeDemo()
    {
        const Profile& p = *w->profile();
        QCOMPARE(w->timeline()->zoom()->startNs(), p.firstNs());
        QCOMPARE(w->timeline()->zoom()->endNs(), p.lastNs());
        QVERIFY(w->stepPanel()->model()->anomalyCount() >= 4);
        snap("1-overview");
    }

    void anAnomalousStepOpensAtItsKernels()
    {
        // 1209 is the demo's exposed-DeepEP step (docs/demo.md).
        const int row = rowOfStep(1209);
        QVERIFY(row >= 0);
        clickRow(w->stepPanel()->table(), row, true);
        const StepRecordSet& set = *w->profile()->stepRecords;
        const StepAlignmentRow& a = set.alignment.rows[size_t(w->stepPanel()->currentSourceRow())];
        QVERIFY(a.hasWindow());
        QVERIFY(w->timeline()->zoom()->startNs() < a.windowStartNs());
        QVERIFY(w->timeline()->zoom()->endNs() > a.windowEndNs());
        QVERIFY(w->timeline()->zoom()->endNs() - w->timeline()->zoom()->startNs() <
                (a.windowEndNs() - a.windowStartNs()) * 2);
        QVERIFY(w->eventTable()->rowCount() > 100);
        QVERIFY(w->eventTable()->title().contains(QStringLiteral("1209")));
        // (the step's range statistics computed: the picture shows their figures, not "computing…")
        QTRY_VERIFY_WITH_TIMEOUT(!w->summaries()->rangeStats()->busy(), 60000);
        snap("2-anomalous-step");

        // The longest kernel of the step, picked in the task list, is selected and described.
        clickRow(w->eventTable()->table(), 0, false);
        const EventRef picked = w->eventTable()->eventAtRow(0);
        QCOMPARE(w->timeline()->selection()->event(), picked);
        // The details pane names the kernel and lists its fields (duration, stream, args ...).
        const Profile& p = *w->profile();
        const QString name = QString::fromStdString(std::string(p.name(picked)));
        int fields = 0;
        bool named = false;
        for (QTreeWidgetItemIterator it(w->detailsPane()->tree()); *it; ++it) {
            fields += (*it)->childCount() == 0;
            named = named || (*it)->text(1) == name || (*it)->text(0).contains(name);
        }
        QVERIFY2(named, qPrintable(name));
        QVERIFY(fields >= 5);
        snap("3-kernel-selected");
    }

    void theStepChartsShowTheAnomalies()
    {
        auto* charts = w->findChild<QDockWidget*>(QStringLiteral("chartsDock"));
        QVERIFY(charts);
        charts->show();
        charts->raise();
        QApplication::processEvents();
        QVERIFY(charts->widget()->isVisible());
        snap("3b-step-charts");
        w->findChild<QDockWidget*>(QStringLiteral("stepsDock"))->raise();
    }

    void theExportDialogPreviewsTheStep()
    {
        w->reports()->openExportDialog();
        ExportDialog* dialog = w->reports()->exportDialog();
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        dialog->setSource(ExportDialog::Source::Step);
        QApplication::processEvents();
        // The preview follows the choices after a short pause (rendered in the background: a loaded
        // machine may take longer than QTRY's default 5 s).
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->previewLabel()->pixmap().isNull(), 60'000);
        const QString dir = qEnvironmentVariable("DSPARK_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            QVERIFY(dialog->grab().save(dir + QStringLiteral("/3c-export-dialog.png")));
        dialog->close();
    }

    void markersAndAMeasurementOnTheStep()
    {
        // On step 1209 (still shown): two markers placed with M at the mouse, a range marker from a
        // Ctrl+drag, and a Shift+click measurement across the step.
        TimelineWidget* t = w->timeline();
        QWidget* vp = t->view()->viewport();
        // The export dialog had the focus: back to the window, the timeline focused (keys act there).
        QApplication::setActiveWindow(w.get());
        t->view()->setFocus();
        QVERIFY(QTest::qWaitFor([&]() { return t->view()->hasFocus(); }, 2000));
        const int left = t->labelWidth(), width = vp->width() - left;
        QCOMPARE(w->markers()->panel()->rowCount(), 0);
        const int before = 0;
        for (const double at : {0.2, 0.55}) {
            QTest::mouseMove(vp, QPoint(left + int(width * at), 200));
            QTest::keyClick(t->view(), Qt::Key_M);
        }
        const QPoint a(left + int(width * 0.65), 200), b(left + int(width * 0.8), 200);
        QTest::mousePress(vp, Qt::LeftButton, Qt::ControlModifier, a);
        QTest::mouseMove(vp, a + QPoint(10, 0));
        QTest::mouseMove(vp, b);
        QTest::mouseRelease(vp, Qt::LeftButton, Qt::ControlModifier, b);
        QTest::keyClick(t->view(), Qt::Key_M);
        QCOMPARE(w->markers()->panel()->rowCount(), before + 3);
        QTest::mouseClick(vp, Qt::LeftButton, Qt::ShiftModifier, QPoint(left + int(width * 0.1), 300));
        QTest::mouseClick(vp, Qt::LeftButton, Qt::ShiftModifier, QPoint(left + int(width * 0.9), 300));
        QVERIFY(t->measurement()->isComplete());
        w->markers()->dock()->raise();
        snap("4-markers-measurement");
        QTest::keyClick(t->view(), Qt::Key_Escape);
        QVERIFY(t->measurement()->isEmpty());
    }

    void theLaneFilterKeepsTheStreams()
    {
        TimelineWidget* t = w->timeline();
        const int all = t->layout()->shownLaneCount();
        w->action(QStringLiteral("filterLanes"))->trigger();
        QTest::keyClicks(t->laneFilterBar()->edit(), QStringLiteral("kind:npu_stream"));
        QVERIFY(t->layout()->shownLaneCount() < all);
        QVERIFY(t->layout()->shownLaneCount() > 0);
        snap("4b-lane-filter");
        t->laneFilterBar()->dismiss();
        QCOMPARE(t->layout()->shownLaneCount(), all);
    }

    void keysZoomInAndHistoryGoesBack()
    {
        QWidget* vp = w->timeline()->view()->viewport();
        vp->setFocus();
        const TimeNs span0 = w->timeline()->zoom()->endNs() - w->timeline()->zoom()->startNs();
        for (int i = 0; i < 6; ++i)
            QTest::keyClick(vp, Qt::Key_W);
        QTest::qWait(400); // a key gesture ends after a pause and becomes one history entry
        const TimeNs span1 = w->timeline()->zoom()->endNs() - w->timeline()->zoom()->startNs();
        QVERIFY2(span1 < span0 / 2, qPrintable(QStringLiteral("%1 → %2").arg(span0).arg(span1)));
        snap("4-zoomed-in");
        QVERIFY(w->timeline()->zoom()->canGoBack());
        w->timeline()->zoom()->goBack();
        QCOMPARE(w->timeline()->zoom()->endNs() - w->timeline()->zoom()->startNs(), span0);
    }

    void aHiddenLaneLeavesAndComesBack()
    {
        LaneLayout* layout = w->timeline()->layout();
        const uint32_t stream7 = laneNamed("Ascend Hardware", "Stream 7");
        QVERIFY(stream7 != UINT32_MAX);
        const size_t rows = layout->rows().size();
        layout->setHidden(stream7, true);
        QCOMPARE(layout->rows().size(), rows - 1);
        QCOMPARE(layout->hiddenLanes(), std::vector<uint32_t>{stream7});
        layout->showAllLanes();
        QCOMPARE(layout->rows().size(), rows);
    }

    void aFolderDroppedOnTheWindowOpens()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString folder = test::realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt"));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(folder)});
        QDragEnterEvent enter(QPoint(400, 300), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w.get(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(400, 300), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w.get(), &drop);
        QVERIFY(waitLoaded(60'000));
        QCOMPARE(w->profile()->stats().deviceTasks, size_t(552));
        snap("5-real-db-fixture");
        // Both profiles are in the recent list, the newest first.
        const QStringList recent = QSettings().value(QStringLiteral("recentProfiles")).toStringList();
        QVERIFY2(recent.size() >= 2, qPrintable(recent.join(QLatin1Char(','))));
        QCOMPARE(QFileInfo(recent.front()).canonicalFilePath(), QFileInfo(folder).canonicalFilePath());
    }
};

QTEST_MAIN(TestTour)
#include "tst_tour.moc"
