// Issue 26, two timeline defects: with pinned lanes the measurement's dimension line was drawn twice
// (once over the pinned strip, once over the scrolling rows); the rank / process headers the window
// holds at the top while lanes scroll under them were missing from exported images.
#include "MainWindowTestSupport.h"
#include "SyntheticProfile.h"
#include "TestSupport.h"

#include "MainWindow.h"
#include "timeline/LaneLayout.h"
#include "timeline/MeasureOverlay.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "timeline/TimelineZoom.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QScrollBar>

using namespace dspark;
using namespace dspark::ui;

namespace {

const QRgb kMeasure = qRgb(0x0f, 0x76, 0x6e); // MeasureOverlay's colour

// Bands of consecutive image rows where at least 90 % of the pixels in [x0, x1) are the measure colour:
// the dimension line (the dashed vertical lines are one pixel wide).
int dimensionLines(const QImage& image, int x0, int x1)
{
    int bands = 0;
    bool inBand = false;
    for (int y = 0; y < image.height(); ++y) {
        int hits = 0;
        for (int x = x0; x < x1; ++x)
            hits += (image.pixel(x, y) & 0xffffff) == (kMeasure & 0xffffff);
        const bool line = hits * 10 >= (x1 - x0) * 9;
        bands += line && !inBand;
        inBand = line;
    }
    return bands;
}

} // namespace

class TestOverlayExport : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w;
    std::shared_ptr<Profile> profile;

    TimelineWidget* timeline() const { return w->timeline(); }
    // The current view as the exporter paints it (ruler on top), at the viewport's size.
    QImage exported() const
    {
        const QSize size = timeline()->view()->viewport()->size();
        const double ruler = timeline()->context().style.rulerHeight;
        QImage image(size.width(), size.height() + int(ruler), QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter p(&image);
        timeline()->render(p, QRectF(0, 0, image.width(), image.height()), timeline()->currentViewOptions());
        return image;
    }

private Q_SLOTS:
    void initTestCase() { test::useTestSettings(QStringLiteral("tst_overlay_export")); }
    void init()
    {
        w = test::openMainWindow(QSize(1300, 800));
        QVERIFY(w);
        test::SyntheticSpec spec;
        spec.kernelsPerStream = 300;
        spec.ranks = 4; // more lanes than the timeline shows at once: theHeldHeaders… scrolls
        spec.streams = 3;
        profile = test::makeSyntheticProfile(spec);
        w->setProfile(profile, QStringLiteral("/overlay-export"));
        QApplication::processEvents();
    }
    void cleanup() { w.reset(); }

    void theMeasurementLineIsDrawnOnceWithPinnedLanes()
    {
        TimelineWidget* t = timeline();
        const TimeNs a = t->visibleStartNs() + (t->visibleEndNs() - t->visibleStartNs()) / 5;
        const TimeNs b = t->visibleStartNs() + (t->visibleEndNs() - t->visibleStartNs()) * 4 / 5;
        t->measurement()->addPoint(a);
        t->measurement()->addPoint(b);
        // A stretch of the dimension line left of its centred label.
        const int xa = int(t->scale().x(a)) + 10, xb = xa + 60;
        for (bool pinned : {false, true}) {
            if (pinned) {
                t->layout()->setPinned(test::laneNamed(*profile, "Ascend Hardware", "Stream 3"), true);
                t->layout()->setPinned(test::laneNamed(*profile, "Ascend Hardware", "Stream 2"), true);
                QCOMPARE(t->layout()->pinnedRowCount(), 2);
            }
            QApplication::processEvents();
            const QImage screen = t->view()->viewport()->grab().toImage();
            QCOMPARE(dimensionLines(screen, xa, xb), 1);
            QCOMPARE(dimensionLines(exported(), xa, xb), 1);
        }
    }

    void theHeldHeadersAreInTheExportedImage()
    {
        TimelineWidget* t = timeline();
        // Scroll into the second rank's lanes: its rank header (and a process header) are held at the top.
        const LaneLayout& layout = *t->layout();
        double y = -1;
        for (const LaneLayout::Row& r : layout.rows())
            if (r.kind == LaneLayout::RowKind::Lane && r.rankIndex == 1 && y < 0)
                y = r.y + r.height + 3;
        QVERIFY(y > 0);
        t->view()->verticalScrollBar()->setValue(int(y));
        QCOMPARE(t->view()->verticalScrollBar()->value(), int(y));
        QApplication::processEvents();
        const std::vector<TimelineView::StickyHeader> held = t->view()->stickyHeaders();
        QCOMPARE(held.size(), size_t(2));
        QCOMPARE(layout.rows()[size_t(held[0].row)].kind, LaneLayout::RowKind::Rank);
        QCOMPARE(layout.rows()[size_t(held[0].row)].rankIndex, 1);
        QCOMPARE(layout.rows()[size_t(held[1].row)].kind, LaneLayout::RowKind::Process);
        // The name column of the screen and of the export, row for row below the ruler, match.
        const QImage screen = t->view()->viewport()->grab().toImage();
        const QImage image = exported();
        const int ruler = int(t->context().style.rulerHeight);
        const QColor rankHeader = t->context().style.rankHeaderBackground;
        const QPoint inRankHeader(4, int(held[0].rect.center().y()));
        QCOMPARE(QColor(screen.pixel(inRankHeader)), rankHeader);
        QCOMPARE(QColor(image.pixel(inRankHeader + QPoint(0, ruler))), rankHeader);
        const QPoint inProcessHeader(4, int(held[1].rect.center().y()));
        QCOMPARE(QColor(image.pixel(inProcessHeader + QPoint(0, ruler))), QColor(screen.pixel(inProcessHeader)));
        QCOMPARE(QColor(screen.pixel(inProcessHeader)), t->context().style.processHeaderBackground);
    }
};

QTEST_MAIN(TestOverlayExport)
#include "tst_overlay_export.moc"
