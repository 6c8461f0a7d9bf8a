// Issue 27: lanes, driven as a user would. View › Filter Lanes… filters the rows by name, kind and
// rank (and keeps them filtered while zooming); a lane dragged by its name moves within its group; the
// rank and process headers stay at the top while their lanes scroll under them (a click on one
// collapses its group); a pinned lane carries its group's name; the arrangement is saved per profile
// kind and comes back on the next profile of that kind; Reset Lane Layout forgets it.
#include "MainWindowTestSupport.h"
#include "SyntheticProfile.h"
#include "TestSupport.h"

#include "MainWindow.h"
#include "timeline/LaneActions.h"
#include "timeline/LaneFilter.h"
#include "timeline/LaneLayout.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSettings>

using namespace dspark;
using namespace dspark::ui;
using dspark::test::laneNamed;

// A synthetic profile filed as `format` (the kind its lane layout is saved under).
static std::shared_ptr<Profile> makeProfile(const std::string& format, int ranks = 2, int streams = 2)
{
    test::SyntheticSpec spec;
    spec.kernelsPerStream = 200;
    spec.ranks = ranks;
    spec.streams = streams;
    auto p = test::makeSyntheticProfile(spec);
    SourceFile f;
    f.path = "/synthetic/rank0." + format;
    f.format = format;
    f.loaded = true;
    p->files.push_back(f);
    return p;
}

class TestLanes : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> w;
    std::shared_ptr<Profile> profile;
    QStringList m_default; // the rows of a fresh profile (the profile's own order)

    TimelineWidget* timeline() const { return w->timeline(); }
    LaneLayout* layout() const { return timeline()->layout(); }
    QWidget* viewport() const { return timeline()->view()->viewport(); }
    // The lanes that have a row, in row order, as "process/name" (rank number in front when > 0).
    QStringList rowLanes() const
    {
        QStringList out;
        for (const LaneLayout::Row& r : layout()->rows())
            if (r.kind == LaneLayout::RowKind::Lane) {
                const LaneInfo& info = profile->lanes[r.lane].info;
                out << QString::fromStdString((info.rankIndex > 0 ? "r" + std::to_string(info.rankIndex) + ":" : "") +
                                              info.process + "/" + info.name);
            }
        return out;
    }
    int rankHeaders() const
    {
        int n = 0;
        for (const LaneLayout::Row& r : layout()->rows())
            n += r.kind == LaneLayout::RowKind::Rank;
        return n;
    }
    void typeFilter(const QString& text)
    {
        QLineEdit* edit = timeline()->laneFilterBar()->edit();
        edit->selectAll();
        QTest::keyClick(edit, Qt::Key_Backspace);
        QTest::keyClicks(edit, text);
    }
    // Viewport point on the name of the lane's row.
    QPoint nameOf(uint32_t lane) const
    {
        const int row = layout()->rowOfLane(lane);
        const LaneLayout::Row& r = layout()->rows()[row];
        const double top = r.pinned ? r.y : r.y - timeline()->scrollY();
        return {40, int(top + r.height / 2)};
    }
    void open(std::shared_ptr<Profile> p)
    {
        profile = std::move(p);
        w->setProfile(profile, QStringLiteral("/synthetic"));
        QApplication::processEvents();
    }

private Q_SLOTS:
    void initTestCase() { test::useTestSettings(QStringLiteral("tst_lanes")); }
    void init()
    {
        w = test::openMainWindow(QSize(1400, 700));
        QVERIFY(w);
        open(makeProfile("kineto_json"));
        QCOMPARE(rowLanes().size(), 12);
        m_default = rowLanes();
    }
    void cleanup() { w.reset(); }

    void theFilterKeepsLanesByNameKindAndRank()
    {
        QVERIFY(!timeline()->laneFilterBar()->isVisible());
        const TimelineZoom::Range all = timeline()->zoom()->range();
        timeline()->view()->setFocus();
        QTest::keyClick(w.get(), Qt::Key_L, Qt::ControlModifier | Qt::ShiftModifier); // View › Filter Lanes…
        QVERIFY(timeline()->laneFilterBar()->isVisible());
        QVERIFY(timeline()->laneFilterBar()->edit()->hasFocus());

        QTest::keyClicks(timeline()->laneFilterBar()->edit(), QStringLiteral("stream"));
        QCOMPARE(rowLanes(),
                 QStringList({QStringLiteral("Ascend Hardware/Stream 2"), QStringLiteral("Ascend Hardware/Stream 3"),
                              QStringLiteral("r1:Ascend Hardware/Stream 2"),
                              QStringLiteral("r1:Ascend Hardware/Stream 3")}));
        QCOMPARE(timeline()->laneFilterBar()->countLabel()->text(), QStringLiteral("4 of 12 lanes"));
        // Typing did not reach the timeline's single-key shortcuts (S zooms out, M adds a marker).
        QCOMPARE(timeline()->zoom()->range(), all);

        typeFilter(QStringLiteral("kind:comm"));
        QCOMPARE(rowLanes(), QStringList({QStringLiteral("HCCL/Group 0 Communication"),
                                          QStringLiteral("r1:HCCL/Group 0 Communication")}));
        typeFilter(QStringLiteral("rank:1 thread"));
        QCOMPARE(rowLanes(),
                 QStringList({QStringLiteral("r1:CANN/Thread 101"), QStringLiteral("r1:Python/Thread 100")}));
        QCOMPARE(rankHeaders(), 1); // rank 0 has nothing left: no header either
        typeFilter(QStringLiteral("-stream -thread"));
        QCOMPARE(rowLanes().size(), 4);
        QVERIFY(!rowLanes().join(QLatin1Char(',')).contains(QStringLiteral("Stream")));

        // Zooming and panning keep the filter.
        const QStringList filtered = rowLanes();
        timeline()->view()->setFocus();
        QTest::keyClick(timeline()->view(), Qt::Key_W);
        QTest::keyClick(timeline()->view(), Qt::Key_D);
        QVERIFY(timeline()->zoom()->spanNs() < all.spanNs());
        QCOMPARE(rowLanes(), filtered);

        // Esc in the field clears the filter and closes the bar.
        timeline()->laneFilterBar()->edit()->setFocus();
        QTest::keyClick(timeline()->laneFilterBar()->edit(), Qt::Key_Escape);
        QVERIFY(!timeline()->laneFilterBar()->isVisible());
        QCOMPARE(rowLanes().size(), 12);
        QCOMPARE(rankHeaders(), 2);
    }

    void aLaneDraggedByItsNameMovesWithinItsGroup()
    {
        const uint32_t s2 = laneNamed(*profile, "Ascend Hardware", "Stream 2");
        const uint32_t s3 = laneNamed(*profile, "Ascend Hardware", "Stream 3");
        const int first = int(rowLanes().indexOf(QStringLiteral("Ascend Hardware/Stream 2")));
        QVERIFY(first >= 0);
        QCOMPARE(rowLanes().mid(first, 2),
                 QStringList({QStringLiteral("Ascend Hardware/Stream 2"), QStringLiteral("Ascend Hardware/Stream 3")}));
        const QPoint from = nameOf(s3), to = nameOf(s2);
        QTest::mousePress(viewport(), Qt::LeftButton, {}, from);
        QTest::mouseMove(viewport(), from - QPoint(0, 6));
        QTest::mouseMove(viewport(), to);
        QTest::mouseRelease(viewport(), Qt::LeftButton, {}, to);
        QCOMPARE(rowLanes().mid(first, 2),
                 QStringList({QStringLiteral("Ascend Hardware/Stream 3"), QStringLiteral("Ascend Hardware/Stream 2")}));
        // Onto a lane of another group: nothing moves.
        const QStringList before = rowLanes();
        const uint32_t python = laneNamed(*profile, "Python", "Thread 100");
        const QPoint a = nameOf(s2), b = nameOf(python);
        QTest::mousePress(viewport(), Qt::LeftButton, {}, a);
        QTest::mouseMove(viewport(), a + QPoint(0, 6));
        QTest::mouseMove(viewport(), b);
        QTest::mouseRelease(viewport(), Qt::LeftButton, {}, b);
        QCOMPARE(rowLanes(), before);
    }

    void headersStayOnScreenWhileTheirLanesScroll()
    {
        open(makeProfile("kineto_json", 2, 24)); // rank 0's streams are taller than the window
        TimelineView* view = timeline()->view();
        QVERIFY(view->stickyHeaders().empty()); // at the top every header is where it is
        const uint32_t s20 = laneNamed(*profile, "Ascend Hardware", "Stream 20");
        const LaneLayout::Row& row = layout()->rows()[layout()->rowOfLane(s20)];
        view->verticalScrollBar()->setValue(int(row.y));
        QApplication::processEvents();
        const std::vector<TimelineView::StickyHeader> held = view->stickyHeaders();
        QCOMPARE(int(held.size()), 2);
        QCOMPARE(layout()->rows()[held[0].row].kind, LaneLayout::RowKind::Rank);
        QCOMPARE(layout()->rows()[held[0].row].rankIndex, 0);
        QCOMPARE(layout()->rows()[held[1].row].kind, LaneLayout::RowKind::Process);
        QCOMPARE(layout()->rowTitle(layout()->rows()[held[1].row]), QStringLiteral("Ascend Hardware"));
        QCOMPARE(held[0].rect.top(), 0.0);
        QCOMPARE(held[1].rect.top(), held[0].rect.bottom());
        // They are painted there: the rank header's colour at the top of the name column.
        const QImage shot = viewport()->grab().toImage();
        QCOMPARE(shot.pixelColor(4, 3), timeline()->context().style.rankHeaderBackground);
        // A click on the held group header collapses that group.
        const int group = layout()->rows()[held[1].row].group;
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, held[1].rect.center().toPoint());
        QVERIFY(layout()->groups()[group].collapsed);
    }

    void aPinnedLaneKeepsItsGroupName()
    {
        const uint32_t s3 = laneNamed(*profile, "Ascend Hardware", "Stream 3");
        layout()->setPinned(s3, true);
        const LaneLayout::Row& row = layout()->rows()[layout()->rowOfLane(s3)];
        QVERIFY(row.pinned);
        QCOMPARE(layout()->rowTitle(row), QStringLiteral("Ascend Hardware › Stream 3"));
        const LaneLayout::Row& other =
            layout()->rows()[layout()->rowOfLane(laneNamed(*profile, "Ascend Hardware", "Stream 2"))];
        QCOMPARE(layout()->rowTitle(other), QStringLiteral("Stream 2"));
    }

    void theLayoutIsSavedPerProfileKindAndReset()
    {
        const uint32_t s3 = laneNamed(*profile, "Ascend Hardware", "Stream 3");
        const uint32_t python = laneNamed(*profile, "Python", "Thread 100");
        const uint32_t hbm = laneNamed(*profile, "HBM", "Read");
        layout()->moveLane(s3, -1);
        layout()->setHidden(hbm, true);
        layout()->setPinned(python, true);
        int cann = -1;
        for (int g = 0; g < int(layout()->groups().size()); ++g)
            if (layout()->groups()[g].process == "CANN" && layout()->groups()[g].rankIndex == 1)
                cann = g;
        QVERIFY(cann >= 0);
        layout()->setGroupCollapsed(cann, true);
        const QStringList arranged = rowLanes();
        QVERIFY(QSettings().contains(QStringLiteral("laneLayouts/kineto_json")));

        // Another window, another profile of the same kind: the same arrangement.
        w.reset();
        w = std::make_unique<MainWindow>();
        w->resize(1400, 700);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        open(makeProfile("kineto_json"));
        QCOMPARE(rowLanes(), arranged);
        QVERIFY(layout()->isHidden(laneNamed(*profile, "HBM", "Read")));
        QVERIFY(layout()->isPinned(laneNamed(*profile, "Python", "Thread 100")));
        QVERIFY(layout()->groups()[cann].collapsed);

        QVERIFY(arranged != m_default);
        // A profile of another kind opens with its own (default) layout.
        open(makeProfile("torch_npu_db"));
        QCOMPARE(rowLanes(), m_default);
        QVERIFY(layout()->pinnedLanes().empty());

        // Back to the first kind, then View › Reset Lane Layout.
        open(makeProfile("kineto_json"));
        QCOMPARE(rowLanes(), arranged);
        w->action(QStringLiteral("resetLaneLayout"))->trigger();
        QCOMPARE(rowLanes(), m_default);
        QVERIFY(layout()->pinnedLanes().empty());
        QVERIFY(layout()->hiddenLanes().empty());
        open(makeProfile("kineto_json"));
        QCOMPARE(rowLanes(), m_default);
    }

    void filterTermsWorkedByHand()
    {
        // kind: by contract or shown name, rank: by number, bare words anywhere, -word excludes.
        const auto p = makeProfile("kineto_json");
        auto kept = [&](const QString& text) {
            int n = 0;
            for (const bool k : laneFilterMatches(*p, text))
                n += k;
            return n;
        };
        QCOMPARE(kept(QString()), 12);
        QCOMPARE(kept(QStringLiteral("kind:npu_stream")), 4);
        QCOMPARE(kept(QStringLiteral("KIND:COUNTER")), 2);
        QCOMPARE(kept(QStringLiteral("rank:0")), 6);
        QCOMPARE(kept(QStringLiteral("rank:7")), 0);
        QCOMPARE(kept(QStringLiteral("hbm")), 2);
        QCOMPARE(kept(QStringLiteral("stream -3")), 2);
        QCOMPARE(kept(QStringLiteral("-")), 0); // a lone "-" is a word no lane has
    }
};

QTEST_MAIN(TestLanes)
#include "tst_lanes.moc"
