// The rank overview's folded rows draw each rank's measured activity: two ranks written by the test
// (tests/cluster/ActivityRank.h: computing, communicating and idle intervals chosen by hand, the second
// rank's clock 30 µs ahead) open in the cluster window, and the strips' pixels are read back where each
// rank computed, communicated and idled. A third rank from a version-2 summary (no activity bins) draws
// the estimate and says so in its header, until (a lazy rank) its events load and measure it.
#include "../cluster/ActivityRank.h"
#include "MainWindowTestSupport.h"

#include "cluster/ClusterWindow.h"
#include "cluster/RankOverview.h"
#include "timeline/TimelineZoom.h"

#include <QApplication>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace dspark;
using namespace dspark::ui;
using test::ActivityStory;
using test::ClusterDbBuilder;

namespace {

constexpr TimeNs us = 1000;
const QColor kBusy(0x2f, 0x6f, 0xb5), kComm(0xe0, 0x8a, 0x1e), kIdle(0xe9, 0xeb, 0xee);

// The colour drawn at `timeUs` (µs after kBase on the cluster clock) in the middle of the rank's strip.
QColor colourAt(RankOverview* o, const QImage& strip, TimeNs timeUs)
{
    const double x = double(ClusterDbBuilder::kBase + timeUs * us - o->zoom()->startNs()) /
                     double(o->zoom()->spanNs()) * strip.width();
    return strip.pixelColor(int(x), strip.height() / 2);
}

// A summary from an older build (version 2, no activity bins) of `rank` over the story's 2 ms, no steps:
// busy all along as far as the estimate can tell.
bool writeOlderSummary(const QTemporaryDir& dir, int rank)
{
    QFile f(dir.filePath(QStringLiteral("rank%1.summary.json").arg(rank)));
    if (!f.open(QIODevice::WriteOnly))
        return false;
    f.write(QStringLiteral(R"({"format":"dspark-rank-summary","version":2,"rank":%1,"time_range_ns":[%2,%3],)"
                           R"("steps":[],"collectives":[],"lanes":[],"links":[]})")
                .arg(rank)
                .arg(ClusterDbBuilder::kBase)
                .arg(ClusterDbBuilder::kBase + 2000 * us)
                .toUtf8());
    return true;
}

} // namespace

class TestRankStrip : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::useTestSettings(QStringLiteral("tst_rank_strip")); }

    void theStripsShowWhereEachRankWasBusy()
    {
        QTemporaryDir dir;
        QCOMPARE(ActivityStory::write(dir.filePath(QStringLiteral("a_1_20250101080000001_ascend_pt")), 0, 0),
                 QString());
        QCOMPARE(ActivityStory::write(dir.filePath(QStringLiteral("b_2_20250101080000001_ascend_pt")), 1, 30 * us),
                 QString());
        // Rank 2: a summary from an older build.
        QVERIFY(writeOlderSummary(dir, 2));

        ClusterWindow window;
        QSignalSpy loaded(&window, &ClusterWindow::loaded);
        window.open(dir.path());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(QTest::qWaitFor([&] { return loaded.size() == 1; }, 60000));
        RankOverview* o = window.overview();
        QCOMPARE(o->rankCount(), size_t(3));
        QCOMPARE(o->offsetNs(1), -30 * us); // the two all-reduces end together: rank 1 is put back 30 µs
        o->zoom()->setRange(ClusterDbBuilder::kBase, ClusterDbBuilder::kBase + 2000 * us);
        QApplication::processEvents();

        for (size_t r = 0; r < 2; ++r) {
            const QImage strip = o->strip(r)->grab().toImage();
            QVERIFY(strip.width() > 400);
            QCOMPARE(colourAt(o, strip, 250), kBusy);  // MatMul
            QCOMPARE(colourAt(o, strip, 700), kComm);  // the all-reduce, nothing computing
            QCOMPARE(colourAt(o, strip, 1050), kIdle); // between
            QCOMPARE(colourAt(o, strip, 1500), kIdle);
            QCOMPARE(colourAt(o, strip, 1750), kBusy); // the second MatMul
            QCOMPARE(colourAt(o, strip, 1925), kComm);
            QVERIFY(!o->header(r)->text().contains(QStringLiteral("estimated")));
        }
        // The older summary: the estimate (busy all along), said in its header and tooltip.
        const QImage estimated = o->strip(2)->grab().toImage();
        QCOMPARE(colourAt(o, estimated, 1050), kBusy);
        QCOMPARE(o->header(2)->text(), QStringLiteral("Rank 2 (estimated)"));
        QVERIFY(o->header(2)->toolTip().contains(QStringLiteral("older than version 3")));
    }

    // A lazy rank opened from a version-2 summary beside its profile: estimated until its events load,
    // then its bins are measured from them and the strip shows the real idle time.
    void anEstimatedRowIsMeasuredOnceTheRanksEventsArrive()
    {
        QTemporaryDir dir;
        QCOMPARE(ActivityStory::write(dir.filePath(QStringLiteral("a_1_20250101080000001_ascend_pt")), 0, 0),
                 QString());
        QCOMPARE(ActivityStory::write(dir.filePath(QStringLiteral("b_2_20250101080000001_ascend_pt")), 1, 0),
                 QString());
        QVERIFY(writeOlderSummary(dir, 0));

        ClusterWindow window;
        ClusterLoadOptions options;
        options.memoryBudgetBytes = 1; // both lazy: rank 0 opens from its (older) summary
        QSignalSpy loaded(&window, &ClusterWindow::loaded);
        window.open(dir.path(), options);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(QTest::qWaitFor([&] { return loaded.size() == 1; }, 60000));
        RankOverview* o = window.overview();
        QCOMPARE(o->header(0)->text(), QStringLiteral("Rank 0 (estimated)"));
        o->zoom()->setRange(ClusterDbBuilder::kBase, ClusterDbBuilder::kBase + 2000 * us);
        QApplication::processEvents();
        QCOMPARE(colourAt(o, o->strip(0)->grab().toImage(), 1050), kBusy); // the estimate: busy all along

        QSignalSpy arrived(&window, &ClusterWindow::rankLoaded);
        QTest::mouseClick(o->header(0), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return arrived.size() == 1; }, 60000));
        QVERIFY(o->session(0));
        QCOMPARE(o->header(0)->text(), QStringLiteral("Rank 0"));
        o->setExpanded(0, false); // the folded row alone
        QApplication::processEvents();
        const QImage strip = o->strip(0)->grab().toImage();
        QCOMPARE(colourAt(o, strip, 1050), kIdle); // measured from its events now
        QCOMPARE(colourAt(o, strip, 250), kBusy);
        QCOMPARE(colourAt(o, strip, 700), kComm);
    }
};

QTEST_MAIN(TestRankStrip)
#include "tst_rank_strip.moc"
