// Issue 27: markers and the two-point measurement, driven as a user would. M marks the mouse position
// (or the Ctrl+dragged range), the Markers dock lists, renames, recolours and deletes them, , and .
// jump between them, a double-click in the dock goes there, every edit is one Ctrl+Z, they are saved
// with the profile's annotations and drawn in exported figures. Shift+click twice measures; Esc clears.
#include "MainWindowTestSupport.h"
#include "SyntheticProfile.h"
#include "TestSupport.h"

#include "MainWindow.h"
#include "overlays/AnnotationOverlay.h"
#include "overlays/AnnotationSession.h"
#include "overlays/MarkerActions.h"
#include "panels/MarkersPanel.h"
#include "report/ReportActions.h"
#include "report/TimelineReport.h"
#include "session/StepAnalyses.h"
#include "timeline/MeasureOverlay.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTreeWidget>

using namespace dspark;
using namespace dspark::ui;

class TestMarkers : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> w;
    std::shared_ptr<Profile> profile;

    TimelineWidget* timeline() const { return w->timeline(); }
    TimelineView* view() const { return timeline()->view(); }
    QWidget* viewport() const { return view()->viewport(); }
    AnnotationOverlay* overlay() const { return w->reports()->annotations(); }
    MarkersPanel* panel() const { return w->markers()->panel(); }
    QTreeWidget* list() const { return panel()->list(); }
    // The viewport point over the lanes at time `t` (profile ns), halfway down the first lane rows.
    QPoint pointAt(TimeNs t) const { return {int(std::lround(timeline()->viewportX(t))), 60}; }
    TimeNs middle() const
    {
        return timeline()->visibleStartNs() + (timeline()->visibleEndNs() - timeline()->visibleStartNs()) / 2;
    }
    int markerCount() const
    {
        int n = 0;
        for (int i = 0; i < overlay()->count(); ++i)
            n += overlay()->at(i).kind == Annotation::Kind::Marker;
        return n;
    }
    void showRange(TimeNs a, TimeNs b)
    {
        timeline()->zoom()->setRange(a, b);
        QApplication::processEvents();
    }
    void clickButton(const char* name)
    {
        auto* b = panel()->findChild<QPushButton*>(QString::fromLatin1(name));
        QVERIFY(b && b->isEnabled());
        QTest::mouseClick(b, Qt::LeftButton);
    }
    void clickListRow(int row, bool twice = false)
    {
        // The dock shares its place with the details: its tab first, as a user would.
        w->markers()->dock()->raise();
        QApplication::processEvents();
        QVERIFY(list()->isVisible());
        QTreeWidgetItem* item = list()->topLevelItem(row);
        QVERIFY(item);
        list()->scrollToItem(item);
        const QRect r = list()->visualItemRect(item);
        QVERIFY(list()->viewport()->rect().contains(r.center()));
        QTest::mouseClick(list()->viewport(), Qt::LeftButton, {}, r.center());
        if (twice)
            QTest::mouseDClick(list()->viewport(), Qt::LeftButton, {}, r.center());
    }

private Q_SLOTS:
    void initTestCase() { test::useTestSettings(QStringLiteral("tst_markers")); }
    void init()
    {
        w = test::openMainWindow();
        QVERIFY(w);
        test::SyntheticSpec spec;
        spec.kernelsPerStream = 1000; // 1 ms of kernels, one every µs
        profile = test::makeSyntheticProfile(spec);
        QFile::remove(annotationSessionPath(*profile)); // a previous run's markers
        w->setProfile(profile, QStringLiteral("/synthetic"));
        QApplication::processEvents();
        QCOMPARE(overlay()->count(), 0);
        QCOMPARE(panel()->rowCount(), 0);
    }
    void cleanup() { w.reset(); }

    void theMKeyMarksTheMousePosition()
    {
        const TimeNs base = test::kSyntheticBaseNs;
        showRange(base, base + 100'000); // 100 µs in view
        const QPoint at = pointAt(base + 40'000);
        QTest::mouseMove(viewport(), at);
        QVERIFY(timeline()->cursorNs());
        const TimeNs expected = timeline()->scale().timeAt(at.x());
        QVERIFY(std::llabs(expected - (base + 40'000)) < 200); // within a pixel of 40 µs
        view()->setFocus();
        QTest::keyClick(view(), Qt::Key_M);
        QCOMPARE(markerCount(), 1);
        const Annotation& m = overlay()->at(0);
        QCOMPARE(m.startNs, expected);
        QCOMPARE(m.endNs, expected); // a point
        QCOMPARE(m.text, QStringLiteral("Marker 1"));
        QVERIFY(m.laneKey.isEmpty()); // across every lane
        // The dock opened and lists it with its time from the profile's start.
        QVERIFY(w->markers()->dock()->isVisible());
        QCOMPARE(panel()->rowCount(), 1);
        QCOMPARE(list()->topLevelItem(0)->text(0), QStringLiteral("Marker 1"));
        QCOMPARE(list()->topLevelItem(0)->text(1), formatDuration(expected - profile->firstNs()));
        QCOMPARE(list()->topLevelItem(0)->text(2), QStringLiteral("—"));
        QCOMPARE(w->action(QStringLiteral("undo"))->text(), QStringLiteral("&Undo Add Marker"));

        // A second one gets the next name and another colour; the menu action does the same as the key.
        QTest::mouseMove(viewport(), pointAt(base + 70'000));
        w->action(QStringLiteral("addMarker"))->trigger();
        QCOMPARE(markerCount(), 2);
        QCOMPARE(overlay()->at(1).text, QStringLiteral("Marker 2"));
        QVERIFY(overlay()->at(1).color != overlay()->at(0).color);
        QVERIFY(overlay()->at(1).startNs > overlay()->at(0).startNs);
    }

    void aCtrlDraggedRangeBecomesARangeMarker()
    {
        const TimeNs base = test::kSyntheticBaseNs;
        showRange(base, base + 100'000);
        const QPoint a = pointAt(base + 20'000), b = pointAt(base + 50'000);
        QTest::mousePress(viewport(), Qt::LeftButton, Qt::ControlModifier, a);
        QTest::mouseMove(viewport(), a + QPoint(10, 0));
        QTest::mouseMove(viewport(), b);
        QTest::mouseRelease(viewport(), Qt::LeftButton, Qt::ControlModifier, b);
        QVERIFY(timeline()->selection()->hasTimeRange());
        const TimeNs start = timeline()->selection()->rangeStartNs(), end = timeline()->selection()->rangeEndNs();
        QVERIFY(std::llabs(end - start - 30'000) < 400);
        QTest::keyClick(view(), Qt::Key_M);
        QCOMPARE(markerCount(), 1);
        QCOMPARE(overlay()->at(0).startNs, start);
        QCOMPARE(overlay()->at(0).endNs, end);
        QCOMPARE(list()->topLevelItem(0)->text(2), formatDuration(end - start));
    }

    void theDockRenamesRecoloursAndDeletesAndCtrlZTakesEachBack()
    {
        const TimeNs base = test::kSyntheticBaseNs;
        w->markers()->addMarkerAt(base + 30'000);
        w->markers()->addMarkerAt(base + 10'000);
        QCOMPARE(panel()->rowCount(), 2);
        // Rows are in time order: the one at 10 µs (Marker 2) first.
        QCOMPARE(list()->topLevelItem(0)->text(0), QStringLiteral("Marker 2"));
        panel()->setNamePrompt([](QWidget*, const QString& current) -> std::optional<QString> {
            return current + QStringLiteral(" — warm-up ends");
        });
        panel()->setColorPrompt(
            [](QWidget*, const QColor&) -> std::optional<QColor> { return QColor(0x11, 0x22, 0x33); });
        clickListRow(0);
        QCOMPARE(overlay()->selected(), 1);
        clickButton("renameMarker");
        QCOMPARE(overlay()->at(1).text, QStringLiteral("Marker 2 — warm-up ends"));
        QCOMPARE(list()->topLevelItem(0)->text(0), QStringLiteral("Marker 2 — warm-up ends"));
        QCOMPARE(w->action(QStringLiteral("undo"))->text(), QStringLiteral("&Undo Rename Marker"));
        clickButton("recolorMarker");
        QCOMPARE(overlay()->at(1).color, QStringLiteral("#112233"));
        QCOMPARE(w->action(QStringLiteral("undo"))->text(), QStringLiteral("&Undo Change Marker Colour"));
        clickListRow(1);
        QCOMPARE(overlay()->selected(), 0);
        clickButton("deleteMarker");
        QCOMPARE(markerCount(), 1);
        QCOMPARE(panel()->rowCount(), 1);
        QCOMPARE(w->action(QStringLiteral("undo"))->text(), QStringLiteral("&Undo Delete Marker"));

        // Ctrl+Z on the timeline: the deletion, the colour, the name, in that order.
        view()->setFocus();
        QTest::keyClick(view(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(markerCount(), 2);
        QCOMPARE(panel()->rowCount(), 2);
        QTest::keyClick(view(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(overlay()->at(1).color, QStringLiteral("#db2777")); // the second colour of new markers
        QTest::keyClick(view(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(overlay()->at(1).text, QStringLiteral("Marker 2"));
        QTest::keyClick(view(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(overlay()->at(1).text, QStringLiteral("Marker 2 — warm-up ends"));

        // The Delete key in the list removes the current marker too.
        clickListRow(0);
        QTest::keyClick(list(), Qt::Key_Delete);
        QCOMPARE(markerCount(), 1);
        QCOMPARE(overlay()->at(0).text, QStringLiteral("Marker 1"));
    }

    void commaAndPeriodJumpAndADoubleClickGoesThere()
    {
        const TimeNs base = test::kSyntheticBaseNs;
        // Markers at 200, 500 and 800 µs, a range at 600–700 µs; the view shows 0–50 µs.
        for (TimeNs t : {200'000, 800'000, 500'000})
            w->markers()->addMarkerAt(base + t);
        w->markers()->addMarkerAt(base + 600'000, base + 700'000);
        showRange(base, base + 50'000);
        const TimeNs span = timeline()->zoom()->spanNs();
        view()->setFocus();
        QTest::keyClick(view(), Qt::Key_Period);
        QCOMPARE(middle(), base + 200'000);
        QCOMPARE(timeline()->zoom()->spanNs(), span); // a point keeps the zoom
        QTest::keyClick(view(), Qt::Key_Period);
        QCOMPARE(middle(), base + 500'000);
        QTest::keyClick(view(), Qt::Key_Period); // the range: zoomed to it
        QVERIFY(timeline()->visibleStartNs() <= base + 600'000 && timeline()->visibleEndNs() >= base + 700'000);
        QVERIFY(timeline()->zoom()->spanNs() < 150'000);
        QTest::keyClick(view(), Qt::Key_Period);
        QCOMPARE(middle(), base + 800'000);
        QVERIFY(!w->markers()->goToNext(1)); // nothing after the last
        QTest::keyClick(view(), Qt::Key_Comma);
        QVERIFY(timeline()->visibleStartNs() <= base + 600'000 && timeline()->visibleEndNs() >= base + 700'000);
        QTest::keyClick(view(), Qt::Key_Comma);
        QCOMPARE(middle(), base + 500'000);
        QCOMPARE(overlay()->at(2).startNs, base + 500'000);
        QCOMPARE(overlay()->selected(), 2); // the marker gone to is the selected one (dock row too)
        QCOMPARE(panel()->currentAnnotation(), 2);

        // A double-click on the first row of the dock (200 µs) brings the view there.
        clickListRow(0, true);
        QCOMPARE(middle(), base + 200'000);
    }

    void markersAreSavedWithTheAnnotationsAndComeBack()
    {
        const TimeNs base = test::kSyntheticBaseNs;
        w->markers()->addMarkerAt(base + 123'456);
        w->markers()->addMarkerAt(base + 300'000, base + 400'000);
        const QString path = w->reports()->annotationSession()->path();
        QVERIFY(QFile::exists(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray json = f.readAll();
        QVERIFY(json.contains("\"kind\": \"marker\""));
        QVERIFY(json.contains(QByteArray::number(base + 123'456)));
        f.close();
        // A new window opening the same profile shows them in its dock.
        w.reset();
        w = std::make_unique<MainWindow>();
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        w->setProfile(profile, QStringLiteral("/synthetic"));
        QApplication::processEvents();
        QCOMPARE(markerCount(), 2);
        QCOMPARE(panel()->rowCount(), 2);
        QCOMPARE(list()->topLevelItem(0)->text(0), QStringLiteral("Marker 1"));
        QCOMPARE(overlay()->at(1).endNs, base + 400'000);
    }

    void exportedFiguresShowTheMarkers()
    {
        const TimeNs base = test::kSyntheticBaseNs;
        const int i = w->markers()->addMarkerAt(base + 250'000);
        Annotation m = overlay()->at(i);
        m.text = QStringLiteral("tail starts");
        m.color = QStringLiteral("#0a7b83");
        overlay()->update(i, m);
        TimelineReport report(w->reports()->analyses());
        report.showRange(base, base + 500'000);
        const auto count = [](const QImage& img, QColor c) {
            int n = 0;
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x)
                    n += img.pixelColor(x, y) == c;
            return n;
        };
        QCOMPARE(count(report.toImage(QSize(1200, 0), 1.0), QColor(0x0a, 0x7b, 0x83)), 0);
        report.setAnnotations(overlay()->annotations());
        const QImage img = report.toImage(QSize(1200, 0), 1.0);
        QVERIFY(count(img, QColor(0x0a, 0x7b, 0x83)) > 100); // the line down every lane and its flag
        QTemporaryDir out;
        const QString svg = out.filePath(QStringLiteral("markers.svg"));
        QCOMPARE(report.exportTo(svg, ImageFormat::Svg, QSize(1200, 0), 1.0), QString());
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("tail starts"));
    }

    void shiftClickTwiceMeasuresAndEscClears()
    {
        const TimeNs base = test::kSyntheticBaseNs;
        showRange(base, base + 100'000);
        MeasureOverlay* m = timeline()->measurement();
        QVERIFY(m->isEmpty());
        const QPoint a = pointAt(base + 20'000), b = pointAt(base + 65'000);
        view()->setFocus();
        QTest::mouseClick(viewport(), Qt::LeftButton, Qt::ShiftModifier, a);
        QVERIFY(!m->isEmpty());
        QVERIFY(!m->isComplete());
        QCOMPARE(*m->first(), timeline()->scale().timeAt(a.x()));
        QTest::mouseClick(viewport(), Qt::LeftButton, Qt::ShiftModifier, b);
        QVERIFY(m->isComplete());
        const TimeNs d = timeline()->scale().timeAt(b.x()) - timeline()->scale().timeAt(a.x());
        QCOMPARE(*m->durationNs(), d);
        QVERIFY(std::llabs(d - 45'000) < 300);
        // The bracket's label, in the ruler's unit (µs at this zoom) to about a pixel.
        viewport()->repaint();
        QCOMPARE(m->lastLabel(), MeasureOverlay::label(d, timeline()->scale().nsPerPx(), 0));
        QVERIFY(m->lastLabel().startsWith(QStringLiteral("Δ 45")));
        QVERIFY(m->lastLabel().endsWith(QStringLiteral(" µs")));
        // No event was selected, no view change was made: Shift+click is not a click nor a zoom.
        QVERIFY(!timeline()->selection()->event().valid());
        QCOMPARE(timeline()->visibleStartNs(), base);
        // Zooming keeps it (profile time), a third Shift+click starts a new one, Esc clears it.
        QTest::keyClick(view(), Qt::Key_W);
        QCOMPARE(*m->durationNs(), d);
        QTest::mouseClick(viewport(), Qt::LeftButton, Qt::ShiftModifier, a);
        QVERIFY(!m->isComplete());
        QTest::keyClick(view(), Qt::Key_Escape);
        QVERIFY(m->isEmpty());
    }

    void measureLabelsReadInTheRulersUnit()
    {
        // Worked by hand: at 1000 ns/px the ruler's step is 100 µs (µs labels) and a pixel is 1 µs;
        // at 10 ns/px the step is 1 µs and a pixel 10 ns (two decimals of µs); a trace that declares
        // "ms" labels its ruler in ms.
        QCOMPARE(MeasureOverlay::label(1'234'567, 1000.0, 0), QStringLiteral("Δ 1235 µs"));
        QCOMPARE(MeasureOverlay::label(1'234'567, 10.0, 0), QStringLiteral("Δ 1234.57 µs"));
        QCOMPARE(MeasureOverlay::label(1'234'567, 10.0, 1'000'000), QStringLiteral("Δ 1.23457 ms"));
        QCOMPARE(MeasureOverlay::label(2'500'000'000, 2e7, 0), QStringLiteral("Δ 2.50 s"));
    }
};

QTEST_MAIN(TestMarkers)
#include "tst_markers.moc"
