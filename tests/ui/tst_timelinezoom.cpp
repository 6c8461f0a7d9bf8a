// The shared zoom/range object: clamping to the profile, zoom around an anchor, gestures coalesced
// into one history entry, Back/Forward.
#include "timeline/TimelineZoom.h"

#include <QSignalSpy>
#include <QTest>

using namespace dspark;
using namespace dspark::ui;

class TestTimelineZoom : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fittingShowsTheWholeProfileAndClearsHistory()
    {
        TimelineZoom zoom;
        zoom.setBounds(1'000'000, 2'000'000);
        QCOMPARE(zoom.startNs(), TimeNs(1'000'000));
        QCOMPARE(zoom.endNs(), TimeNs(2'000'000));
        QVERIFY(!zoom.canGoBack());
        // The view may scroll 2 % past either end of the profile, no further.
        QCOMPARE(zoom.scrollLimits().startNs, TimeNs(980'000));
        QCOMPARE(zoom.scrollLimits().endNs, TimeNs(2'020'000));
    }

    void zoomingKeepsTheAnchorInPlace()
    {
        TimelineZoom zoom;
        zoom.setBounds(0, 1'000'000);
        // Anchor at 25 % of the view: after zooming in 2x it is still at 25 %.
        zoom.zoomAround(250'000, 0.5, TimelineZoom::Change::Commit);
        QCOMPARE(zoom.startNs(), TimeNs(125'000));
        QCOMPARE(zoom.endNs(), TimeNs(625'000));
    }

    void rangesAreClampedToTheProfileAndTheMinimumSpan()
    {
        TimelineZoom zoom;
        zoom.setBounds(0, 1'000'000);
        zoom.setRange(5'000'000, 6'000'000); // far right: pulled back inside the limits
        QCOMPARE(zoom.endNs(), TimeNs(1'020'000));
        QCOMPARE(zoom.spanNs(), TimeNs(1'000'000));
        zoom.setRange(500'000, 500'001); // below the minimum span: widened around its centre
        QCOMPARE(zoom.spanNs(), TimelineZoom::kMinSpanNs);
        QCOMPARE(zoom.startNs(), TimeNs(500'000 - TimelineZoom::kMinSpanNs / 2));
        zoom.setRange(-10'000'000, 10'000'000); // wider than the limits: everything
        QCOMPARE(zoom.startNs(), TimeNs(-20'000));
        QCOMPARE(zoom.endNs(), TimeNs(1'020'000));
    }

    void backAndForwardWalkTheHistory()
    {
        TimelineZoom zoom;
        zoom.setBounds(0, 1'000'000);
        zoom.setRange(100'000, 200'000);
        zoom.setRange(150'000, 160'000);
        QVERIFY(zoom.canGoBack());
        zoom.goBack();
        QCOMPARE(zoom.range(), (TimelineZoom::Range{100'000, 200'000}));
        zoom.goBack();
        QCOMPARE(zoom.range(), (TimelineZoom::Range{0, 1'000'000}));
        QVERIFY(!zoom.canGoBack());
        zoom.goForward();
        zoom.goForward();
        QCOMPARE(zoom.range(), (TimelineZoom::Range{150'000, 160'000}));
        QVERIFY(!zoom.canGoForward());
        // A new change drops the forward entries.
        zoom.goBack();
        zoom.setRange(0, 500'000);
        QVERIFY(!zoom.canGoForward());
    }

    void aGestureIsOneHistoryEntry()
    {
        TimelineZoom zoom;
        zoom.setBounds(0, 1'000'000);
        QSignalSpy changes(&zoom, &TimelineZoom::rangeChanged);
        for (int i = 0; i < 10; ++i) // e.g. ten wheel steps
            zoom.zoomAround(500'000, 0.9, TimelineZoom::Change::Gesture);
        QCOMPARE(changes.count(), 10);
        zoom.endGesture();
        zoom.panBy(1000, TimelineZoom::Change::Gesture); // a second gesture
        zoom.endGesture();
        zoom.goBack(); // undoes the pan
        zoom.goBack(); // undoes all ten zoom steps at once
        QCOMPARE(zoom.range(), (TimelineZoom::Range{0, 1'000'000}));
        QVERIFY(!zoom.canGoBack());
    }

    void aPausedGestureEndsByItself()
    {
        TimelineZoom zoom;
        zoom.setBounds(0, 1'000'000);
        zoom.panBy(10'000, TimelineZoom::Change::Gesture);
        QVERIFY(zoom.inGesture());
        // The pause timer ends it (waiting on the outcome, not on a time: a loaded machine may be late).
        QVERIFY(QTest::qWaitFor([&] { return !zoom.inGesture(); }, 30'000));
        zoom.panBy(10'000, TimelineZoom::Change::Gesture);
        zoom.goBack();
        QCOMPARE(zoom.startNs(), TimeNs(10'000));
    }

    void revealPansWithoutZoomingWhenTheIntervalFits()
    {
        TimelineZoom zoom;
        zoom.setBounds(0, 10'000'000);
        zoom.setRange(0, 1'000'000);
        zoom.reveal(5'000'000, 5'000'100);
        QCOMPARE(zoom.spanNs(), TimeNs(1'000'000));
        QCOMPARE(zoom.startNs(), TimeNs(5'000'050 - 500'000));
        zoom.reveal(5'000'000, 5'000'100); // already visible: nothing moves
        QCOMPARE(zoom.startNs(), TimeNs(4'500'050));
        zoom.reveal(0, 3'000'000); // wider than the view: zoom out to it with 5 % margins
        QCOMPARE(zoom.startNs(), TimeNs(-150'000));
        QCOMPARE(zoom.endNs(), TimeNs(3'150'000));
    }
};

QTEST_GUILESS_MAIN(TestTimelineZoom)
#include "tst_timelinezoom.moc"
