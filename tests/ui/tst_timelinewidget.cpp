// Driving the timeline with simulated input, as a user does: keys W/S/A/D, Ctrl+wheel, drag, right-drag,
// clicks on events and group headers, history, pinned lanes; and the render entry point that exports
// reuse paints exactly what the window shows.
#include "SyntheticProfile.h"

#include "timeline/LaneLayout.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimeRuler.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QScrollBar>
#include <QTest>
#include <QWheelEvent>

#include <cmath>

using namespace dspark;
using namespace dspark::ui;

class TestTimelineWidget : public QObject {
    Q_OBJECT

    std::unique_ptr<TimelineWidget> w;
    std::shared_ptr<Profile> profile;

    QWidget* viewport() const { return w->view()->viewport(); }
    uint32_t laneNamed(const std::string& process, const std::string& name) const
    {
        for (uint32_t i = 0; i < profile->lanes.size(); ++i)
            if (profile->lanes[i].info.process == process && profile->lanes[i].info.name == name)
                return i;
        return UINT32_MAX;
    }
    void wheel(QPoint pos, int deltaY, Qt::KeyboardModifiers mods)
    {
        QWheelEvent e(QPointF(pos), QPointF(viewport()->mapToGlobal(pos)), QPoint(), QPoint(0, deltaY), Qt::NoButton,
                      mods, Qt::NoScrollPhase, false);
        QApplication::sendEvent(viewport(), &e);
    }

private Q_SLOTS:
    void init()
    {
        test::SyntheticSpec spec;
        spec.kernelsPerStream = 1000;
        profile = test::makeSyntheticProfile(spec);
        w = std::make_unique<TimelineWidget>();
        w->resize(1200, 600);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        w->setProfile(profile);
        QApplication::processEvents();
    }
    void cleanup() { w.reset(); }

    void openingShowsTheWholeProfile()
    {
        // Launches start 500 ns before the first kernel; the last kernel of stream 3 ends at +999.7 µs.
        QCOMPARE(profile->firstNs(), test::kSyntheticBaseNs - 500);
        QCOMPARE(profile->lastNs(), test::kSyntheticBaseNs + 999'700);
        QCOMPARE(w->zoom()->startNs(), profile->firstNs());
        QCOMPARE(w->zoom()->endNs(), profile->lastNs());
        QCOMPARE(w->scale().x0, double(w->labelWidth()));
        QCOMPARE(w->eventAreaWidth(), double(viewport()->width() - w->labelWidth()));
    }

    void keysWAndSZoomAroundTheCentreAndAAndDPan()
    {
        const TimeNs start0 = w->zoom()->startNs(), span0 = w->zoom()->spanNs();
        QCOMPARE(span0, TimeNs(1'000'200));
        w->view()->setFocus();
        QTest::keyClick(w->view(), Qt::Key_W);
        QCOMPARE(w->zoom()->spanNs(), TimeNs(750'150));             // 0.75 × span
        QCOMPARE(w->zoom()->startNs(), start0 + 500'100 - 375'075); // centre kept
        QTest::keyClick(w->view(), Qt::Key_S);
        QCOMPARE(w->zoom()->spanNs(), span0);
        QTest::keyClick(w->view(), Qt::Key_W);
        QTest::keyClick(w->view(), Qt::Key_W);
        const TimeNs span = w->zoom()->spanNs(), start = w->zoom()->startNs();
        QCOMPARE(span, TimeNs(562'613)); // 0.75² × span0, rounded at each step
        QTest::keyClick(w->view(), Qt::Key_D);
        QCOMPARE(w->zoom()->startNs(), start + TimeNs(double(span) * 0.15));
        QTest::keyClick(w->view(), Qt::Key_A);
        QTest::keyClick(w->view(), Qt::Key_A);
        QCOMPARE(w->zoom()->startNs(), start + TimeNs(double(span) * 0.15) - 2 * TimeNs(double(span) * 0.15));
        QCOMPARE(w->zoom()->spanNs(), span);
    }

    void ctrlWheelZoomsAroundTheMouse()
    {
        const QPoint pos(w->labelWidth() + 300, 100);
        const TimeNs under = w->scale().timeAt(pos.x());
        const TimeNs span0 = w->zoom()->spanNs();
        wheel(pos, 120, Qt::ControlModifier);
        QCOMPARE(w->zoom()->spanNs(), TimeNs(std::llround(double(span0) * 0.8)));
        QVERIFY(std::llabs(w->scale().timeAt(pos.x()) - under) <= TimeNs(std::ceil(w->scale().nsPerPx())));
        wheel(pos, -120, Qt::ControlModifier);
        QVERIFY(std::llabs(w->zoom()->spanNs() - span0) <= 1);
        // Without a modifier the wheel scrolls the lanes vertically, the range stays.
        w->zoom()->setRange(profile->firstNs(), profile->firstNs() + 300'000);
        const auto range = w->zoom()->range();
        wheel(pos, -120, Qt::NoModifier);
        QCOMPARE(w->zoom()->range(), range);
        // Shift+wheel pans by a tenth of the span per step.
        wheel(pos, -120, Qt::ShiftModifier);
        QCOMPARE(w->zoom()->startNs(), range.startNs + TimeNs(0.1 * double(range.spanNs())));
    }

    void draggingPansByTheDraggedDistance()
    {
        w->zoom()->setRange(profile->firstNs() + 200'000, profile->firstNs() + 400'000);
        const double nsPerPx = w->scale().nsPerPx();
        const TimeNs start0 = w->zoom()->startNs();
        const int y = 60;
        QTest::mousePress(viewport(), Qt::LeftButton, {}, QPoint(700, y));
        QTest::mouseMove(viewport(), QPoint(650, y));
        QTest::mouseMove(viewport(), QPoint(500, y));
        QTest::mouseRelease(viewport(), Qt::LeftButton, {}, QPoint(500, y));
        // 200 px to the left moves the view 200 px worth of time to the right.
        QVERIFY(std::llabs(w->zoom()->startNs() - (start0 + TimeNs(200 * nsPerPx))) <= 2);
        QCOMPARE(w->zoom()->spanNs(), TimeNs(200'000));
        QVERIFY(!w->selection()->event().valid()); // a drag is not a click
    }

    void rightDragZoomsToTheDraggedInterval()
    {
        const TimeScale before = w->scale();
        const int y = 80;
        QTest::mousePress(viewport(), Qt::RightButton, {}, QPoint(400, y));
        QTest::mouseMove(viewport(), QPoint(500, y));
        QTest::mouseMove(viewport(), QPoint(600, y));
        QTest::mouseRelease(viewport(), Qt::RightButton, {}, QPoint(600, y));
        QCOMPARE(w->zoom()->startNs(), before.timeAt(400));
        QCOMPARE(w->zoom()->endNs(), before.timeAtOrAfter(600));
        // Back restores the previous view; Forward returns.
        QTest::keyClick(w->view(), Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(w->zoom()->startNs(), before.startNs);
        QCOMPARE(w->zoom()->endNs(), before.endNs);
        QTest::keyClick(w->view(), Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(w->zoom()->startNs(), before.timeAt(400));
        QTest::keyClick(w->view(), Qt::Key_Z, Qt::ControlModifier); // undo of a view change
        QCOMPARE(w->zoom()->startNs(), before.startNs);
    }

    void ctrlDragSelectsATimeRange()
    {
        const TimeScale s = w->scale();
        QTest::mousePress(viewport(), Qt::LeftButton, Qt::ControlModifier, QPoint(500, 80));
        QTest::mouseMove(viewport(), QPoint(600, 80));
        QTest::mouseMove(viewport(), QPoint(700, 80));
        QTest::mouseRelease(viewport(), Qt::LeftButton, Qt::ControlModifier, QPoint(700, 80));
        QCOMPARE(w->selection()->rangeStartNs(), s.timeAt(500));
        QCOMPARE(w->selection()->rangeEndNs(), s.timeAtOrAfter(700));
        QCOMPARE(w->zoom()->range(), (TimelineZoom::Range{s.startNs, s.endNs})); // no zoom
        QTest::keyClick(w->view(), Qt::Key_F);                                   // zoom to the selection (2 % margins)
        const TimeNs span = s.timeAtOrAfter(700) - s.timeAt(500);
        QCOMPARE(w->zoom()->startNs(), s.timeAt(500) - TimeNs(double(span) * 0.02));
    }

    void clickingAnEventSelectsIt()
    {
        const uint32_t stream2 = laneNamed("Ascend Hardware", "Stream 2");
        QVERIFY(stream2 != UINT32_MAX);
        // Kernel 500 of stream 2 starts at +500 µs; zoom so that it is 60 px wide.
        const TimeNs k500 = test::syntheticKernelStart({}, 0, 500);
        w->zoom()->setRange(k500 - 5'000, k500 + 5'000);
        const EventRef kernel{stream2, 500};
        QCOMPARE(profile->startNs(kernel), k500);
        const std::optional<QPoint> pos = w->eventCenterInViewport(kernel);
        QVERIFY(pos);
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, *pos);
        QCOMPARE(w->selection()->event(), kernel);
        // A click on empty space clears it.
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, QPoint(pos->x() + 35, pos->y()));
        QVERIFY(!w->selection()->event().valid());
        // Double-click zooms to the event (its duration is half of the view).
        QTest::mouseDClick(viewport(), Qt::LeftButton, {}, *pos);
        QCOMPARE(w->selection()->event(), kernel);
        QCOMPARE(w->zoom()->startNs(), k500 - 150);
        QCOMPARE(w->zoom()->endNs(), k500 + 750);
    }

    void clickingAGroupHeaderCollapsesAndExpandsIt()
    {
        LaneLayout* layout = w->layout();
        const uint32_t stream2 = laneNamed("Ascend Hardware", "Stream 2");
        int header = -1;
        for (int i = 0; i < int(layout->rows().size()); ++i)
            if (layout->rows()[i].kind == LaneLayout::RowKind::Process &&
                layout->groups()[layout->rows()[i].group].process == "Ascend Hardware")
                header = i;
        QVERIFY(header >= 0);
        const size_t rows = layout->rows().size();
        const LaneLayout::Row r = layout->rows()[header];
        const QPoint pos(50, int(r.y + r.height / 2 - w->scrollY()));
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, pos);
        QCOMPARE(layout->rows().size(), rows - 2); // two streams folded into the header
        QCOMPARE(layout->rowOfLane(stream2), -1);
        QCOMPARE(layout->displayRowOfLane(stream2), header);
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, pos);
        QCOMPARE(layout->rows().size(), rows);
        QVERIFY(layout->rowOfLane(stream2) > header);
    }

    void aPinnedLaneStaysAtTheTopWhileScrolling()
    {
        w->resize(1200, 220); // shorter than the lanes: the view scrolls
        QApplication::processEvents();
        const uint32_t counter = laneNamed("HBM", "Read");
        w->layout()->setPinned(counter, true);
        QApplication::processEvents();
        QCOMPARE(w->layout()->rows().front().lane, counter);
        QScrollBar* bar = w->view()->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        bar->setValue(bar->maximum());
        QApplication::processEvents();
        const EventRef sample{counter, 50};
        const std::optional<QPoint> pos = w->eventCenterInViewport(sample);
        QVERIFY(pos);
        QVERIFY(pos->y() < w->layout()->pinnedHeight());
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, *pos);
        QCOMPARE(w->selection()->event().lane, counter);
    }

    void draggingTheNameColumnEdgeResizesIt()
    {
        const int label = w->labelWidth();
        QTest::mousePress(viewport(), Qt::LeftButton, {}, QPoint(label, 70));
        QTest::mouseMove(viewport(), QPoint(label + 30, 70));
        QTest::mouseMove(viewport(), QPoint(label + 60, 70));
        QTest::mouseRelease(viewport(), Qt::LeftButton, {}, QPoint(label + 60, 70));
        QCOMPARE(w->labelWidth(), label + 60);
        QCOMPARE(w->scale().x0, double(label + 60));
    }

    // A trace's displayTimeUnit labels the ruler in that unit ("ns": 3 ms reads "3000000 ns"; "ms": 3 µs
    // reads "0.003 ms"); without one the unit follows the step. The data is untouched.
    void theDeclaredDisplayUnitLabelsTheRuler()
    {
        QCOMPARE(displayUnitNs("ns"), TimeNs(1));
        QCOMPARE(displayUnitNs("ms"), TimeNs(1'000'000));
        QCOMPARE(displayUnitNs("us"), TimeNs(0));
        const auto label = [](TimeNs t, TimeNs step, TimeNs declared) {
            const TimeNs unit = rulerUnit(step, declared);
            return formatInUnit(t, unit, decimalsForStep(step, unit));
        };
        QCOMPARE(label(3'000'000, 1'000'000, 0), QStringLiteral("3 ms"));
        QCOMPARE(label(3'000'000, 1'000'000, displayUnitNs("ns")), QStringLiteral("3000000 ns"));
        QCOMPARE(label(3'000, 1'000, 0), QStringLiteral("3 µs"));
        QCOMPARE(label(3'000, 1'000, displayUnitNs("ms")), QStringLiteral("0.003 ms"));

        // The window's ruler changes with the declaration, the lanes do not.
        const auto grabBoth = [&] {
            QApplication::processEvents();
            return std::pair{w->ruler()->grab().toImage().convertToFormat(QImage::Format_RGB32),
                             viewport()->grab().toImage().convertToFormat(QImage::Format_RGB32)};
        };
        const auto [plainRuler, plainLanes] = grabBoth();
        const TimeNs firstEnd = profile->lanes[0].endNs(0);
        profile->metadata["trace.displayTimeUnit"] = "ns";
        w->setProfile(profile);
        const auto [nsRuler, nsLanes] = grabBoth();
        QVERIFY(nsRuler != plainRuler);
        QCOMPARE(nsLanes, plainLanes);
        QCOMPARE(profile->lanes[0].endNs(0), firstEnd);
    }

    void renderPaintsWhatTheWindowShows()
    {
        w->zoom()->setRange(profile->firstNs() + 100'000, profile->firstNs() + 140'000);
        w->selectEvent({laneNamed("Ascend Hardware", "Stream 3"), 110}, TimelineWidget::Reveal::None);
        QApplication::processEvents();
        const QImage window = viewport()->grab().toImage().convertToFormat(QImage::Format_RGB32);
        const double rulerH = w->context().style.rulerHeight;
        QImage exported(viewport()->width(), viewport()->height() + int(rulerH), QImage::Format_RGB32);
        {
            QPainter p(&exported);
            w->render(p, QRectF(0, 0, exported.width(), exported.height()), w->currentViewOptions());
        }
        const QImage lanes = exported.copy(0, int(rulerH), window.width(), window.height());
        int differing = 0;
        for (int y = 0; y < window.height(); ++y)
            for (int x = 0; x < window.width(); ++x)
                differing += window.pixel(x, y) != lanes.pixel(x, y);
        QCOMPARE(differing, 0);
        // The ruler of the export is the ruler widget's.
        const QImage ruler = w->ruler()->grab().toImage().convertToFormat(QImage::Format_RGB32);
        int rulerDiff = 0;
        for (int y = 0; y < ruler.height(); ++y)
            for (int x = 0; x < viewport()->width(); ++x)
                rulerDiff += ruler.pixel(x, y) != exported.pixel(x, y);
        QCOMPARE(rulerDiff, 0);
    }

    void theFrameTimeReadoutMeasuresRepaints()
    {
        w->setFrameTimeVisible(true);
        viewport()->repaint();
        QVERIFY(w->lastFrameMs() > 0);
        QVERIFY(w->lastFrameMs() < 1000);
    }
};

QTEST_MAIN(TestTimelineWidget)
#include "tst_timelinewidget.moc"
