// Issues 7 and 8 in the main window, driven as a user drives it: the analysis layers on the timeline
// and their View toggles, File › Export Image… / Copy Image / Export Table, the Step Charts dock linked
// to the step table both ways, and annotations placed with the mouse that come back when the same
// profile is opened again.
#include "../demo/DemoTestSupport.h"
#include "TestSupport.h"

#include "MainWindow.h"
#include "charts/StepChartsPanel.h"
#include "io/ProfileLoader.h"
#include "overlays/AnnotationOverlay.h"
#include "overlays/AnnotationTool.h"
#include "overlays/CriticalPathOverlay.h"
#include "overlays/StageBandOverlay.h"
#include "panels/StepTablePanel.h"
#include "report/ExportDialog.h"
#include "report/ReportActions.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QAbstractBarSeries>
#include <QAction>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace dspark;
using namespace dspark::test;
using namespace dspark::ui;

class TestExportWindow : public QObject {
    Q_OBJECT
    WrittenDemo m_demo;
    std::shared_ptr<const Profile> m_profile;
    QTemporaryDir m_out;

    bool showDemo(MainWindow& w)
    {
        w.setProfile(m_profile, m_demo.dir);
        return QTest::qWaitFor([&]() { return w.reports()->analyses()->ready(); }, 60000);
    }
    static int rowOf(const StepRecordSet& set, int64_t forwardCt)
    {
        for (size_t i = 0; i < set.size(); ++i)
            if (set.record(i).forwardCt == forwardCt)
                return int(i);
        return -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_demo = writeTestDemo(24, 7, 1, false);
        QVERIFY2(m_demo.result.error.isEmpty(), qPrintable(m_demo.result.error));
        LoadOutcome loaded = loadProfile(m_demo.dir.toStdString());
        QVERIFY2(loaded.profile, qPrintable(loaded.error));
        m_profile = std::move(loaded.profile);
        // Start from no saved annotations.
        QFile::remove(annotationSessionPath(*m_profile));
    }

    void theMenusOfferExportsLayersAndAnnotationTools()
    {
        MainWindow w;
        for (const char* name : {"exportImage", "copyImage", "exportStepTable", "exportKernelTable", "showStageBands",
                                 "showCommBrackets", "showCriticalPath", "showAnnotations", "annotateNote",
                                 "annotateArrow", "annotateRange", "annotationsSaveAs", "annotationsLoad"}) {
            QAction* a = w.action(QString::fromLatin1(name));
            QVERIFY2(a, name);
            QVERIFY2(!a->text().isEmpty(), name);
        }
        QVERIFY(w.fileMenu()->actions().contains(w.action(QStringLiteral("exportImage"))));
        QCOMPARE(w.reports()->chartsDock()->windowTitle(), QStringLiteral("Step Charts"));
        // The analysis layers are overlays of the timeline.
        const std::vector<TimelineOverlay*> overlays = w.timeline()->overlays();
        QVERIFY(std::find(overlays.begin(), overlays.end(), w.reports()->stageBands()) != overlays.end());
        QVERIFY(std::find(overlays.begin(), overlays.end(), w.reports()->criticalPath()) != overlays.end());
        QVERIFY(std::find(overlays.begin(), overlays.end(), w.reports()->annotations()) != overlays.end());
    }

    void theLayersAreDrawnOnTheStepAndToggleFromTheViewMenu()
    {
        MainWindow w;
        w.resize(1500, 950); // (a window no taller than the offscreen screen shows too few lanes of the step)
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(showDemo(w));
        const StepRecordSet& set = *m_profile->stepRecords;
        const int row = rowOf(set, 1209);
        w.stepPanel()->selectSourceRow(row);
        w.showStep(row, false);
        QApplication::processEvents();
        w.timeline()->view()->viewport()->repaint();
        QVERIFY(w.reports()->stageBands()->lastBandCount() >= 4);
        QVERIFY(w.reports()->criticalPath()->lastPieceCount() > 0);
        w.action(QStringLiteral("showCriticalPath"))->trigger();
        QVERIFY(!w.reports()->criticalPath()->isVisible());
        w.action(QStringLiteral("showCriticalPath"))->trigger();
        QVERIFY(w.reports()->criticalPath()->isVisible());
    }

    void chartsAndTheStepTableSelectEachOther()
    {
        MainWindow w;
        w.resize(1500, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(showDemo(w));
        QDockWidget* dock = w.reports()->chartsDock();
        dock->show();
        dock->raise();
        QApplication::processEvents();
        StepChartsPanel* charts = w.reports()->charts();
        const StepRecordSet& set = *m_profile->stepRecords;

        // Table → charts.
        const int row1205 = rowOf(set, 1205);
        QTableView* table = w.stepPanel()->table();
        const int viewRow = w.stepPanel()->viewRow(row1205);
        table->setCurrentIndex(table->model()->index(viewRow, 0));
        QCOMPARE(charts->currentRecordRow(), std::optional<size_t>(row1205));

        // Chart → table → timeline.
        QChartView* view = charts->chartView(StepChartsPanel::Chart::StepTimes);
        QAbstractBarSeries* bars = nullptr;
        for (QAbstractSeries* s : view->chart()->series())
            if ((bars = qobject_cast<QAbstractBarSeries*>(s)))
                break;
        QVERIFY(bars);
        int k = -1;
        for (size_t i = 0; i < charts->data().records.size(); ++i)
            if (charts->data().records[i].forwardCt == 1215)
                k = int(i);
        QVERIFY(k >= 0);
        const QPointF pos = view->chart()->mapToPosition(QPointF(k, *charts->data().records[k].stepMs / 2), bars);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->mapFromScene(view->chart()->mapToScene(pos)));
        const int row1215 = rowOf(set, 1215);
        QCOMPARE(w.stepPanel()->currentSourceRow(), row1215);
        QCOMPARE(charts->currentRecordRow(), std::optional<size_t>(row1215));
        const StepAlignmentRow& align = set.alignment.rows[row1215];
        QVERIFY(w.timeline()->zoom()->startNs() <= align.windowStartNs());
        QVERIFY(w.timeline()->zoom()->endNs() >= align.windowEndNs());
        QVERIFY(w.timeline()->zoom()->spanNs() < 2 * (align.windowEndNs() - align.windowStartNs()));
    }

    void fileExportImageWritesWhatTheDialogSays()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(showDemo(w));
        w.showStep(rowOf(*m_profile->stepRecords, 1219), false);
        w.action(QStringLiteral("exportImage"))->trigger();
        ExportDialog* dialog = w.reports()->exportDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        dialog->setImageSize(1300, 800);
        dialog->setScale(1.0);
        dialog->setPath(m_out.filePath(QStringLiteral("window.png")));
        QCOMPARE(dialog->exportNow(), QString());
        QCOMPARE(QImage(m_out.filePath(QStringLiteral("window.png"))).size(), QSize(1300, 800));
        dialog->close();

        QGuiApplication::clipboard()->clear();
        w.action(QStringLiteral("copyImage"))->trigger();
        QVERIFY(!QGuiApplication::clipboard()->image().isNull());
    }

    void tablesExportAsShown()
    {
        MainWindow w;
        QVERIFY(showDemo(w));
        const QString csv = m_out.filePath(QStringLiteral("steps.csv"));
        QCOMPARE(w.reports()->exportStepTable(csv), QString());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QTableView* table = w.stepPanel()->table();
        // Header + one line per shown row (+ the empty string after the last newline).
        QCOMPARE(lines.size() - (lines.last().isEmpty() ? 1 : 0), table->model()->rowCount() + 1);
        QVERIFY(lines.first().contains("forward_ct"));
        const QString md = m_out.filePath(QStringLiteral("steps.md"));
        QCOMPARE(w.reports()->exportStepTable(md), QString());
        QFile m(md);
        QVERIFY(m.open(QIODevice::ReadOnly));
        QVERIFY(m.readLine().startsWith("|"));
    }

    void annotationsComeBackWhenTheProfileIsReopened()
    {
        Annotation placed;
        {
            MainWindow w;
            w.resize(1400, 900);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(showDemo(w));
            w.showStep(rowOf(*m_profile->stepRecords, 1207), false);
            QApplication::processEvents();
            AnnotationTool* tool = w.reports()->annotationTool();
            tool->setTextPrompt([](QWidget*, const QString&, const QString&, const QString&) -> std::optional<QString> {
                return QStringLiteral("commit ×4 here");
            });
            w.action(QStringLiteral("annotateNote"))->trigger();
            QCOMPARE(tool->mode(), AnnotationTool::Mode::Note);
            QWidget* vp = w.timeline()->view()->viewport();
            QTest::mouseClick(vp, Qt::LeftButton, {}, QPoint(w.timeline()->labelWidth() + 250, vp->height() / 2));
            QCOMPARE(w.reports()->annotations()->count(), 1);
            QVERIFY(!w.action(QStringLiteral("annotateNote"))->isChecked());
            placed = w.reports()->annotations()->at(0);
            QCOMPARE(placed.text, QStringLiteral("commit ×4 here"));
        }
        MainWindow again;
        QVERIFY(showDemo(again));
        QCOMPARE(again.reports()->annotations()->count(), 1);
        QCOMPARE(again.reports()->annotations()->at(0), placed);
        QFile::remove(annotationSessionPath(*m_profile));
    }
};

QTEST_MAIN(TestExportWindow)
#include "tst_export_window.moc"
