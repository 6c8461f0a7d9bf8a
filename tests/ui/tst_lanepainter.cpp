// Painting one lane: boxes where the events are, in their name's colour; sub-pixel events merged into
// one mark per pixel column; hit testing; counter area charts. Pixels are checked exactly.
#include "model/Profile.h"
#include "timeline/LanePainter.h"
#include "timeline/TimelineSelection.h"

#include <QImage>
#include <QPainter>
#include <QTest>

using namespace dspark;
using namespace dspark::ui;

namespace {

struct Fixture {
    std::shared_ptr<Profile> profile = std::make_shared<Profile>();
    TimelineContext ctx;
    TimelineSelection selection;
    uint32_t lane = 0;

    explicit Fixture(LaneKind kind = LaneKind::NpuStream)
    {
        const int rank = profile->ensureRank(0, 0);
        lane = profile->laneFor({kind, rank, 0, 2, -1, "Ascend Hardware", "Stream 2", 0});
    }
    void finish()
    {
        profile->finalize();
        ctx.reset(profile);
        ctx.selection = &selection;
    }
    QImage paint(const TimeScale& scale, int width, int height)
    {
        QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter p(&image);
        LanePainter(ctx, scale).paint(p, lane, QRectF(0, 0, width, height), 0, width);
        return image;
    }
};

constexpr QRgb kWhite = 0xffffffff;

} // namespace

class TestLanePainter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aKernelIsABoxInItsNameColour()
    {
        Fixture f;
        const char* names[] = {"MatMulV2", "RmsNorm"};
        for (int k = 0; k < 10; ++k)
            f.profile->lanes[f.lane].append(1000 + k * 1000, 600, f.profile->strings.intern(names[k % 2]),
                                            EventKind::Kernel);
        f.finish();
        // 0.1 px per ns: kernel k covers x = 100 + 100k … 160 + 100k, with a 1 px gap at its right end.
        const QImage img = f.paint(TimeScale(0, 20'000, 0, 2000), 2000, 21);
        const int y = int(f.ctx.style.lanePadding) + 1; // above the labels' glyphs
        for (int k = 0; k < 10; ++k) {
            const QRgb expected = EventPalette::colorForName(names[k % 2]);
            QCOMPARE(img.pixel(100 + 100 * k, y), expected);
            QCOMPARE(img.pixel(158 + 100 * k, y), expected);
            QCOMPARE(img.pixel(159 + 100 * k, y), kWhite);
            QCOMPARE(img.pixel(99 + 100 * k, y), kWhite);
        }
        QCOMPARE(img.pixel(1100, y), kWhite); // after the last kernel
        // The name colour is stable: a hash of the name, not of the profile or the order.
        QCOMPARE(EventPalette::colorForName("MatMulV2"), EventPalette::colorFor("MatMulV2", EventKind::Kernel));
        QVERIFY(EventPalette::colorForName("MatMulV2") != EventPalette::colorForName("RmsNorm"));
    }

    void subPixelEventsBecomeOneMarkPerPixelColumn()
    {
        Fixture f;
        Lane& lane = f.profile->lanes[f.lane];
        const uint32_t tiny = f.profile->strings.intern("Add");
        const uint32_t longName = f.profile->strings.intern("FlashAttentionScore");
        // 5000 one-ns events every 10 ns (10 per pixel at 100 ns/px), then one long event that starts
        // inside the last dense column.
        for (int k = 0; k < 5000; ++k)
            lane.append(k * 10, 1, tiny, EventKind::Kernel);
        lane.append(49'995, 40'005, longName, EventKind::Kernel);
        f.finish(); // (which may move the lanes: `lane` is not used past it)
        QCOMPARE(f.profile->lanes[f.lane].maxDepth, uint16_t(0));
        const QImage img = f.paint(TimeScale(0, 100'000, 0, 1000), 1000, 21);
        const int y = int(f.ctx.style.lanePadding) + 1; // above the labels' glyphs
        for (int x = 0; x < 499; ++x)
            QCOMPARE(img.pixel(x, y), EventPalette::colorForName("Add")); // every column has its mark
        // The long event keeps its own colour and extent (x 499.95 … 900, 1 px gap at the end).
        for (int x = 500; x < 899; ++x)
            QCOMPARE(img.pixel(x, y), EventPalette::colorForName("FlashAttentionScore"));
        QCOMPARE(img.pixel(899, y), kWhite);
        QCOMPARE(img.pixel(950, y), kWhite);

        // Hovering a merged column reports how many events it holds.
        const LanePainter painter(f.ctx, TimeScale(0, 100'000, 0, 1000));
        QCOMPARE(painter.eventsInColumn(f.lane, 0, 250.5), size_t(10));
    }

    void aMillionEventLaneStillPaintsEveryColumn()
    {
        Fixture f;
        Lane& lane = f.profile->lanes[f.lane];
        const uint32_t name = f.profile->strings.intern("MatMulV2");
        lane.reserve(1'000'000);
        for (int k = 0; k < 1'000'000; ++k)
            lane.append(TimeNs(k) * 1000, 300, name, EventKind::Kernel);
        f.finish();
        const QImage img = f.paint(TimeScale(0, 1'000'000'000, 0, 1920), 1920, 21);
        for (int x = 0; x < 1920; ++x)
            QCOMPARE(img.pixel(x, 8), EventPalette::colorForName("MatMulV2"));
    }

    void nestedEventsPaintOneRowPerDepth()
    {
        Fixture f(LaneKind::Host);
        Lane& lane = f.profile->lanes[f.lane];
        lane.append(0, 10'000, f.profile->strings.intern("step[DECODE bs=8]"), EventKind::TorchOp);
        lane.append(2'000, 3'000, f.profile->strings.intern("aten::mm"), EventKind::TorchOp);
        f.finish();
        const double rowH = f.ctx.style.depthRowHeight;
        const QImage img = f.paint(TimeScale(0, 10'000, 0, 1000), 1000, int(2 * rowH + 4));
        const int y0 = int(f.ctx.style.lanePadding) + 1;
        const int y1 = int(f.ctx.style.lanePadding + rowH) + 1;
        QCOMPARE(img.pixel(100, y0), EventPalette::colorForName("step[DECODE bs=8]"));
        QCOMPARE(img.pixel(250, y1), EventPalette::colorForName("aten::mm"));
        QCOMPARE(img.pixel(100, y1), kWhite); // before the child starts
    }

    void hitTestingFindsTheEventUnderTheCursorOrWithinThreePixels()
    {
        Fixture f;
        for (int k = 0; k < 10; ++k)
            f.profile->lanes[f.lane].append(1000 + k * 1000, 600, f.profile->strings.intern("k"), EventKind::Kernel);
        f.finish();
        const LanePainter painter(f.ctx, TimeScale(0, 20'000, 0, 2000));
        const QRectF row(0, 0, 2000, 21);
        QCOMPARE(painter.hitTest(f.lane, row, {130, 8}), (EventRef{f.lane, 0}));
        QCOMPARE(painter.hitTest(f.lane, row, {462, 8}), (EventRef{f.lane, 3})); // 2 px right of kernel 3
        QVERIFY(!painter.hitTest(f.lane, row, {180, 8}).valid());                // 20 px from both
        QVERIFY(!painter.hitTest(f.lane, row, {130, 20.5}).valid());             // below the event row
        const QRectF r = painter.eventRect({f.lane, 2}, row);
        QCOMPARE(r.left(), 300.0);
        QCOMPARE(r.width(), 60.0);
    }

    void theSelectedEventIsOutlined()
    {
        Fixture f;
        f.profile->lanes[f.lane].append(1000, 2000, f.profile->strings.intern("MatMulV2"), EventKind::Kernel);
        f.finish();
        f.selection.setEvent({f.lane, 0});
        const QImage img = f.paint(TimeScale(0, 4'000, 0, 400), 400, 21);
        // 2 px outline inside the box's rectangle (x 100 … 300, rows 2 … 18); the label is at the left.
        QCOMPARE(img.pixel(100, 10), f.ctx.style.selection.rgb());
        QCOMPARE(img.pixel(250, int(f.ctx.style.lanePadding)), f.ctx.style.selection.rgb());
        QCOMPARE(img.pixel(250, 10), EventPalette::colorForName("MatMulV2"));
    }

    void countersAreAreaChartsOfTheValueInForce()
    {
        Fixture f(LaneKind::Counter);
        Lane& lane = f.profile->lanes[f.lane];
        const uint32_t name = f.profile->strings.intern("Read");
        lane.appendSample(0, 0.0, name);
        lane.appendSample(10'000, 10.0, name);
        lane.appendSample(20'000, 5.0, name);
        f.finish();
        const int h = int(f.ctx.style.counterHeight); // area from y = 3 (max) to y = h - 2 (zero)
        const QImage img = f.paint(TimeScale(0, 30'000, 0, 300), 300, h);
        auto painted = [&](int x, int y) { return img.pixel(x, y) != kWhite; };
        QVERIFY(!painted(50, 20));                    // value 0 until 10 µs
        QVERIFY(painted(150, 6) && painted(150, 25)); // value 10: the full height
        QVERIFY(!painted(150, 1));
        QVERIFY(!painted(250, 12) && painted(250, 22)); // value 5: half height (top at y = 17.5)
    }
};

QTEST_MAIN(TestLanePainter)
#include "tst_lanepainter.moc"
