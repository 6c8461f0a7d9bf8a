// Issue 26, the first view: device streams above the host stacks, deep lanes (host threads, device
// streams) folded to LaneLayout::kFoldedDepths levels (a click on the name or key E unfolds one; the lane menu too),
// the state saved with the lane layout; an event picked in a folded level unfolds its lane. On a hand-built profile and
// on the real Kineto trace and torch_npu database.
#include "MainWindowTestSupport.h"
#include "TestSupport.h"

#include "MainWindow.h"
#include "panels/EventTableModel.h"
#include "panels/EventTablePanel.h"
#include "summary/SummaryDocks.h"
#include "summary/SummaryPanels.h"
#include "timeline/LaneLayout.h"
#include "timeline/LanePainter.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QTemporaryDir>

using namespace dspark;
using namespace dspark::ui;

namespace {

constexpr TimeNs kBase = 1'800'000'000'000'000'000LL;

// Python thread: a stack 6 deep ("d0" 600 µs ⊃ "d1" ... ⊃ "d5" 100 µs, each 50 µs in from its parent)
// plus a flat 2-level lane; Stream 3: 4 kernels of 10 µs. In the profile's own order the host lanes come
// first; the first view puts the stream first.
std::shared_ptr<Profile> makeProfile(const std::string& format = "handmade")
{
    auto p = std::make_shared<Profile>();
    p->rootPath = "/first-view";
    SourceFile f;
    f.path = "/first-view/trace." + format;
    f.format = format;
    f.loaded = true;
    p->files.push_back(f);
    const int rank = p->ensureRank(0, 0);
    const uint32_t deep = p->laneFor({LaneKind::Host, rank, -1, -1, 1, "Python", "Thread 1", 0});
    for (int d = 0; d < 6; ++d)
        p->lanes[deep].append(kBase + d * 50'000, 600'000 - d * 100'000, p->strings.intern("d" + std::to_string(d)),
                              EventKind::TorchOp);
    const uint32_t flat = p->laneFor({LaneKind::Host, rank, -1, -1, 2, "Python", "Thread 2", 0});
    p->lanes[flat].append(kBase, 300'000, p->strings.intern("outer"), EventKind::TorchOp);
    p->lanes[flat].append(kBase + 10'000, 100'000, p->strings.intern("inner"), EventKind::TorchOp);
    const uint32_t s3 = p->laneFor({LaneKind::NpuStream, rank, 0, 3, -1, "Ascend Hardware", "Stream 3", 0});
    for (int k = 0; k < 4; ++k)
        p->lanes[s3].append(kBase + k * 100'000, 10'000, p->strings.intern("MatMul"), EventKind::Kernel);
    p->finalize();
    return p;
}

// Copies a folder with its sub-folders (a real fixture under another name); false on any failure.
bool copyFolder(const QString& from, const QString& to)
{
    if (!QDir().mkpath(to))
        return false;
    const QDir source(from);
    for (const QFileInfo& f : source.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString target = to + QLatin1Char('/') + f.fileName();
        if (!(f.isDir() ? copyFolder(f.filePath(), target) : QFile::copy(f.filePath(), target)))
            return false;
    }
    return true;
}

// "R <title>", "P <title>" or "L <title>" (+ " [3/6]" for a foldable lane: levels shown / levels).
QStringList describeRows(const LaneLayout& layout)
{
    QStringList out;
    for (const LaneLayout::Row& r : layout.rows()) {
        const QString title = layout.rowTitle(r);
        switch (r.kind) {
        case LaneLayout::RowKind::Rank: out << QStringLiteral("R ") + title; break;
        case LaneLayout::RowKind::Process: out << QStringLiteral("P ") + title; break;
        case LaneLayout::RowKind::Lane: {
            QString s = QStringLiteral("L ") + title;
            if (layout.isFoldable(r.lane))
                s += QStringLiteral(" [%1/%2]")
                         .arg(layout.shownDepths(r.lane))
                         .arg(layout.profile()->lanes[r.lane].maxDepth + 1);
            out << s;
            break;
        }
        }
    }
    return out;
}

} // namespace

class TestFirstView : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w;

    TimelineWidget* timeline() const { return w->timeline(); }
    LaneLayout* layout() const { return timeline()->layout(); }
    QWidget* viewport() const { return timeline()->view()->viewport(); }
    int rowOf(const std::string& process, const std::string& name) const
    {
        return layout()->rowOfLane(test::laneNamed(*w->profile(), process, name));
    }
    // Viewport point on a lane row's name (its first nesting level).
    QPoint nameOf(int row) const
    {
        const LaneLayout::Row& r = layout()->rows()[size_t(row)];
        timeline()->ensureLaneVisible(r.lane);
        QApplication::processEvents();
        const QPointF scene(40, r.y + timeline()->context().style.lanePadding + 5);
        return timeline()->view()->mapFromScene(scene);
    }

    // Opens a copy of the real torch_npu database folder under another name (nothing depends on it).
    void openRenamedDb(const QTemporaryDir& dir)
    {
        const QString copy = dir.filePath(QStringLiteral("renamed_db"));
        QVERIFY(copyFolder(test::realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt")), copy));
        w->openPath(copy);
        QVERIFY(test::waitLoaded(w.get(), 120'000));
        QApplication::processEvents();
    }

private Q_SLOTS:
    void initTestCase() { test::useTestSettings(QStringLiteral("tst_first_view")); }
    void init()
    {
        w = test::openMainWindow(QSize(1400, 900));
        QVERIFY(w);
    }
    void cleanup() { w.reset(); }

    void deviceStreamsComeFirstAndDeepHostLanesFold()
    {
        w->setProfile(makeProfile(), QStringLiteral("/first-view"));
        QApplication::processEvents();
        const QStringList expected{QStringLiteral("R rank 0 · device 0"), QStringLiteral("P Ascend Hardware"),
                                   QStringLiteral("L Stream 3"),          QStringLiteral("P Python"),
                                   QStringLiteral("L Thread 1 [3/6]"),    QStringLiteral("L Thread 2")};
        QCOMPARE(describeRows(*layout()), expected);
        // The folded lane is 3 levels high: 2 × padding + 3 × 17 px.
        const int deep = rowOf("Python", "Thread 1");
        const TimelineStyle& st = timeline()->context().style;
        QCOMPARE(layout()->rows()[size_t(deep)].height, 2 * st.lanePadding + 3 * st.depthRowHeight);
        // Level 3 ("d3") is not drawn: nothing is hit in the row, and the row has no room for it.
        const LaneLayout::Row& r = layout()->rows()[size_t(deep)];
        const QRectF rowRect(0, 0, 1000, r.height);
        LanePainter painter(timeline()->context(), timeline()->scale());
        QCOMPARE(painter.depthAt(r.lane, rowRect, st.lanePadding + 3.5 * st.depthRowHeight), -1);
        QCOMPARE(painter.depthAt(r.lane, rowRect, st.lanePadding + 2.5 * st.depthRowHeight), 2);
    }

    void aClickOnTheNameUnfoldsAndTheStateIsSaved()
    {
        w->setProfile(makeProfile(), QStringLiteral("/first-view"));
        QApplication::processEvents();
        const int deep = rowOf("Python", "Thread 1");
        const double folded = layout()->contentHeight();
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, nameOf(deep));
        const uint32_t lane = layout()->rows()[size_t(deep)].lane;
        QVERIFY(layout()->isUnfolded(lane));
        QCOMPARE(layout()->shownDepths(lane), 6);
        QCOMPARE(layout()->contentHeight(), folded + 3 * timeline()->context().style.depthRowHeight);
        // The next profile of this kind opens with the lane unfolded; another lane is not foldable.
        w->setProfile(makeProfile(), QStringLiteral("/first-view"));
        QApplication::processEvents();
        QVERIFY(layout()->isUnfolded(lane));
        QCOMPARE(describeRows(*layout())[4], QStringLiteral("L Thread 1 [6/6]"));
        // A click folds it again; a click on a lane with 2 levels changes nothing.
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, nameOf(rowOf("Python", "Thread 1")));
        QVERIFY(layout()->isFolded(lane));
        const double height = layout()->contentHeight();
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, nameOf(rowOf("Python", "Thread 2")));
        QCOMPARE(layout()->contentHeight(), height);
        // Another kind of profile starts folded.
        w->setProfile(makeProfile("other"), QStringLiteral("/first-view-other"));
        QApplication::processEvents();
        QVERIFY(layout()->isFolded(lane));
    }

    void keyEAndAPickedDeepEventUnfold()
    {
        w->setProfile(makeProfile("keys"), QStringLiteral("/first-view"));
        QApplication::processEvents();
        const Profile& p = *w->profile();
        const uint32_t lane = test::laneNamed(p, "Python", "Thread 1");
        QVERIFY(layout()->isFolded(lane));
        // Select "d1" (level 1, shown), then E unfolds, E again folds.
        const EventRef d1{lane, 1};
        QCOMPARE(p.lanes[lane].depthOf(1), 1);
        timeline()->selectEvent(d1, TimelineWidget::Reveal::None);
        timeline()->view()->setFocus();
        QTest::keyClick(timeline()->view(), Qt::Key_E);
        QVERIFY(layout()->isUnfolded(lane));
        QTest::keyClick(timeline()->view(), Qt::Key_E);
        QVERIFY(layout()->isFolded(lane));
        // "d4" (level 4) picked from a table or a search: its lane unfolds to show it.
        const EventRef d4{lane, 4};
        QCOMPARE(p.lanes[lane].depthOf(4), 4);
        timeline()->selectEvent(d4, TimelineWidget::Reveal::Pan);
        QVERIFY(layout()->isUnfolded(lane));
        QVERIFY(timeline()->eventCenterInViewport(d4).has_value());
        // Reset Lane Layout folds it again.
        w->findChild<QAction*>(QStringLiteral("resetLaneLayout"))->trigger();
        QVERIFY(layout()->isFolded(lane));
    }

    void realKinetoFirstView()
    {
        DSPARK_REQUIRE_REAL_DATA();
        // Renamed: nothing depends on the file's name.
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("renamed.json.gz"));
        QVERIFY(QFile::copy(test::realData(QStringLiteral("kineto/a100_2rank_nccl_rank0.pt.trace.json.gz")), copy));
        w->openPath(copy);
        QVERIFY(test::waitLoaded(w.get(), 120'000));
        QApplication::processEvents();
        // The GPU streams first (the profile's own order put the 5 host processes above them); the two
        // deep Python threads (8 and 6 levels) folded to 3.
        const QStringList expected{
            QStringLiteral("R rank 0 · device 0"),
            QStringLiteral("P GPU 0"),
            QStringLiteral("L Stream 7"),
            QStringLiteral("L Stream 40"),
            QStringLiteral("P Process"),
            QStringLiteral("L Thread"),
            QStringLiteral("P Spans"),
            QStringLiteral("L PyTorch Profiler"),
            QStringLiteral("P Traces"),
            QStringLiteral("L Trace PyTorch Profiler"),
            QStringLiteral("P python3.10"),
            QStringLiteral("L Thread -549452224"),
            QStringLiteral("L thread 2910249 (pt_main_thread) [3/8]"),
            QStringLiteral("L thread 2919752 (pt_autograd_0) [3/6]"),
        };
        QCOMPARE(describeRows(*layout()), expected);
        QCOMPARE(layout()->profile()->lanes[layout()->rows()[2].lane].info.kind, LaneKind::GpuStream);
        QVERIFY(layout()->rows()[2].lane > layout()->rows()[12].lane); // moved above, not renumbered
        // Both streams fit the first screen, above the host stacks.
        QVERIFY(layout()->rows()[3].bottom() < timeline()->view()->viewport()->height());
        // A click on the main thread's name shows its 8 levels: 5 more rows of 17 px.
        const int main = 12;
        const double before = layout()->rows()[main].height;
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, nameOf(main));
        QCOMPARE(describeRows(*layout())[main], QStringLiteral("L thread 2910249 (pt_main_thread) [8/8]"));
        QCOMPARE(layout()->rows()[main].height, before + 5 * timeline()->context().style.depthRowHeight);
    }

    void realTorchNpuDbFirstView()
    {
        DSPARK_REQUIRE_REAL_DATA();
        w->openPath(test::realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt")));
        QVERIFY(test::waitLoaded(w.get(), 120'000));
        QApplication::processEvents();
        // Streams, then HCCL, then the host threads (Python's main thread 38 levels deep, shown 3), the
        // profiler's step lane, then the 7 counter groups.
        const QStringList rows = describeRows(*layout());
        const QStringList expectedTop{
            QStringLiteral("R rank 0 · device 0"),
            QStringLiteral("P Ascend Hardware"),
            QStringLiteral("L Stream 0"),
            QStringLiteral("L Stream 2"),
            QStringLiteral("L Stream 3"),
            QStringLiteral("L Stream 4 [3/15]"),
            QStringLiteral("P HCCL"),
            QStringLiteral("L Group 0 Communication"),
            QStringLiteral("P CANN"),
            QStringLiteral("L Thread 3136493"),
            QStringLiteral("L Thread 3140046"),
            QStringLiteral("L Thread 3140047"),
            QStringLiteral("L Thread 3146352"),
            QStringLiteral("P Python"),
            QStringLiteral("L Thread 3136493 [3/38]"),
            QStringLiteral("L Thread 3140046"),
            QStringLiteral("L Thread 3146352 [3/8]"),
            QStringLiteral("P Steps"),
            QStringLiteral("L STEP_TIME"),
        };
        QCOMPARE(rows.mid(0, expectedTop.size()), expectedTop);
        int counterRows = 0, headers = 0;
        for (size_t i = size_t(expectedTop.size()); i < layout()->rows().size(); ++i) {
            const LaneLayout::Row& r = layout()->rows()[i];
            headers += r.kind == LaneLayout::RowKind::Process;
            counterRows += r.kind == LaneLayout::RowKind::Lane &&
                           layout()->profile()->lanes[r.lane].info.kind == LaneKind::Counter;
        }
        QCOMPARE(headers, 7);
        QCOMPARE(counterRows, int(layout()->rows().size()) - expectedTop.size() - 7);
        // Nothing collapsed; the 38-level thread takes 3 rows.
        for (const LaneLayout::Row& r : layout()->rows())
            QVERIFY(!r.collapsed);
        const TimelineStyle& st = timeline()->context().style;
        QCOMPARE(layout()->rows()[14].height, 2 * st.lanePadding + 3 * st.depthRowHeight);
        // The streams and HCCL fit the first screen (Stream 4's tasks overlap 15 deep, folded to 3), the
        // host threads below them too.
        QCOMPARE(layout()->profile()->lanes[layout()->rows()[5].lane].maxDepth, uint16_t(14));
        QVERIFY(layout()->rows()[7].bottom() < timeline()->view()->viewport()->height());
        QVERIFY(layout()->rows()[16].bottom() < timeline()->view()->viewport()->height());
        // Unfolded by a click: 35 more rows.
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, nameOf(14));
        QCOMPARE(layout()->rows()[14].height, 2 * st.lanePadding + 38 * st.depthRowHeight);
    }

    // The first view gives the timeline the room: the Kernels / Events dock is one line saying what fills
    // it until something does, and the bottom docks take a fifth of the window (the window at 1600 × 1000,
    // the database folder copied under another name).
    void theTimelineHasTheRoomAndTheEmptyDockSaysWhatFillsIt()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QTemporaryDir dir;
        w->resize(1600, 1000);
        openRenamedDb(dir);
        EventTablePanel* events = w->eventTable();
        auto* dock = w->findChild<QDockWidget*>(QStringLiteral("eventsDock"));
        QVERIFY(dock && dock->isVisible());
        QVERIFY(events->showsHint());
        auto* hint = events->findChild<QLabel*>(QStringLiteral("emptyHint"));
        QVERIFY(hint && hint->isVisible());
        QVERIFY2(hint->text().contains(QStringLiteral("Ctrl+drag")), qPrintable(hint->text()));
        QVERIFY(!events->table()->isVisible());
        // The timeline at least 3 times as high as the dock (before the change: 546 px over 402 px).
        QVERIFY2(timeline()->height() >= 3 * dock->height(),
                 qPrintable(QStringLiteral("%1 over %2").arg(timeline()->height()).arg(dock->height())));
        // The hint no wider than its line: the Profiler Steps table beside it gets the rest of the width.
        QTRY_VERIFY(w->summaries()->stepsDock()->isVisible());
        QVERIFY2(
            w->summaries()->stepsDock()->width() > dock->width(),
            qPrintable(QStringLiteral("%1 beside %2").arg(w->summaries()->stepsDock()->width()).arg(dock->width())));
        // The hint is translated (the window switched to Chinese; test executables do not embed the .qm)
        // and back.
        auto zh = test::installTranslation(QStringLiteral("zh_CN"));
        QVERIFY2(zh, "the compiled zh_CN translation (dspark-timeline_zh_CN.qm) is missing");
        w->setLanguage(QStringLiteral("zh_CN"));
        QApplication::processEvents();
        QVERIFY2(hint->text().contains(QStringLiteral("Ctrl+")) && !hint->text().contains(QStringLiteral("step")),
                 qPrintable(hint->text()));
        w->setLanguage(QString());
        zh.reset();
        QApplication::processEvents();
        QVERIFY2(hint->text().contains(QStringLiteral("step")), qPrintable(hint->text()));
        // A double-click on the profiler step lists its device tasks: the grid replaces the hint.
        QTableView* steps = w->summaries()->plainSteps()->table();
        QTRY_COMPARE(steps->model()->rowCount(), 1);
        test::clickRow(steps, 0, true);
        QVERIFY(!events->showsHint());
        QVERIFY(events->table()->isVisible() && !hint->isVisible());
        QVERIFY(events->rowCount() > 0);
        // The dock, narrow while it was a line, grew to show each task's name and duration.
        const QHeaderView* header = events->table()->horizontalHeader();
        QTRY_VERIFY2(events->table()->viewport()->width() >=
                         header->sectionViewportPosition(EventTableModel::Duration) +
                             header->sectionSize(EventTableModel::Duration),
                     qPrintable(QString::number(events->table()->viewport()->width())));
        QCOMPARE(dock->height(), events->parentWidget()->height());
    }

    // Device streams fold as host lanes do: the database's Stream 4 (tasks overlapping 15 deep) shows 3
    // levels and says how many it leaves out, unfolds by a click on its name, and the next profile of
    // the kind opens with it unfolded (saved with the lane layout).
    void aDeepDeviceStreamFoldsAndUnfoldsByClick()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QTemporaryDir dir;
        openRenamedDb(dir);
        QVERIFY(!QTest::currentTestFailed());
        const int row = rowOf("Ascend Hardware", "Stream 4");
        QVERIFY(row >= 0);
        const uint32_t lane = layout()->rows()[size_t(row)].lane;
        QCOMPARE(layout()->profile()->lanes[lane].info.kind, LaneKind::NpuStream);
        const TimelineStyle& st = timeline()->context().style;
        QCOMPARE(describeRows(*layout())[row], QStringLiteral("L Stream 4 [3/15]"));
        QCOMPARE(layout()->rows()[size_t(row)].height, 2 * st.lanePadding + 3 * st.depthRowHeight);
        QCOMPARE(layout()->foldedText(lane), QStringLiteral("+12 levels folded"));
        // The next stream, Group 0 Communication and the CANN threads come 12 rows of 17 px sooner.
        const double below = layout()->rows()[size_t(row) + 1].y;
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, nameOf(row));
        QVERIFY(layout()->isUnfolded(lane));
        QCOMPARE(describeRows(*layout())[row], QStringLiteral("L Stream 4 [15/15]"));
        QCOMPARE(layout()->rows()[size_t(row)].height, 2 * st.lanePadding + 15 * st.depthRowHeight);
        QCOMPARE(layout()->rows()[size_t(row) + 1].y, below + 12 * st.depthRowHeight);
        QCOMPARE(layout()->foldedText(lane), QString());
        // Saved with the lane layout: the database opened again shows all 15 levels; a click folds it.
        w->openPath(test::realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt")));
        QVERIFY(test::waitLoaded(w.get(), 120'000));
        QApplication::processEvents();
        QCOMPARE(describeRows(*layout())[rowOf("Ascend Hardware", "Stream 4")], QStringLiteral("L Stream 4 [15/15]"));
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, nameOf(rowOf("Ascend Hardware", "Stream 4")));
        QCOMPARE(describeRows(*layout())[rowOf("Ascend Hardware", "Stream 4")], QStringLiteral("L Stream 4 [3/15]"));
    }

    // With DSPARK_SCREENSHOT_DIR set: the first view of the real torch_npu database and Kineto trace, for
    // docs/images (DSPARK_SCREENSHOT_LANG=zh_CN for the Chinese ones).
    void screenshots()
    {
        const auto shots = test::startScreenshots(w.get());
        if (!shots)
            QSKIP("DSPARK_SCREENSHOT_DIR not set");
        DSPARK_REQUIRE_REAL_DATA();
        for (const auto& [path, name] :
             {std::pair{"ascend/torch_npu_db_rank0_ascend_pt", "window-first-view"},
              std::pair{"kineto/a100_2rank_nccl_rank0.pt.trace.json.gz", "window-first-view-kineto"}}) {
            w->openPath(test::realData(QString::fromLatin1(path)));
            QVERIFY(test::waitLoaded(w.get(), 120'000));
            QTRY_VERIFY(!w->summaries()->kernelSummary()->busy());
            QApplication::processEvents();
            QVERIFY(w->grab().save(shots->path(QString::fromLatin1(name))));
        }
        // The database's host threads below its 15-deep Stream 4: scrolled to, folded.
        w->openPath(test::realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt")));
        QVERIFY(test::waitLoaded(w.get(), 120'000));
        const int python = rowOf("Python", "Thread 3146352");
        QVERIFY(python >= 0);
        timeline()->ensureLaneVisible(layout()->rows()[size_t(python)].lane);
        QApplication::processEvents();
        QVERIFY(w->grab().save(shots->path(QStringLiteral("window-folded-host-lanes"))));
    }
};

QTEST_MAIN(TestFirstView)
#include "tst_first_view.moc"
