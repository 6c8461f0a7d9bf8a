// Issue 23, the window's half: a comparison of two runs opened as a user opens one (File › Compare
// With…, Shift+drop, `--compare A B`, the recent list, `--demo-compare`), both sides loading under one
// progress bar with Cancel; the changed run in a second timeline below the baseline on one shared
// range, offset so that the matched steps start together; `[` / `]` move both; swap and close; the
// comparison figure in three formats; what cannot be compared between an Ascend and a GPU run.
#include "../demo/DemoTestSupport.h"
#include "MainWindowTestSupport.h"
#include "TestSupport.h"

#include "compare/ComparisonController.h"
#include "overlays/StageBandOverlay.h"
#include "panels/StepTablePanel.h"
#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QAction>
#include <QApplication>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <filesystem>

using namespace dspark;
using namespace dspark::test;
using namespace dspark::ui;

namespace {

// Answers the next file dialog with `path` (as a user typing it and pressing Open).
void answerNextFileDialog(const QString& path)
{
    auto* timer = new QTimer(qApp);
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, path]() {
        if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
            timer->stop();
            timer->deleteLater();
            dialog->selectFile(path);
            static_cast<QDialog*>(dialog)->accept(); // (public in QDialog)
        }
    });
    timer->start();
}

bool waitCompared(ComparisonController* c, int timeoutMs = 60000)
{
    QSignalSpy opened(c, &ComparisonController::comparisonOpened);
    QSignalSpy failed(c, &ComparisonController::loadFailed);
    (void)QTest::qWaitFor([&]() { return opened.count() > 0 || failed.count() > 0; }, timeoutMs);
    if (failed.count() > 0)
        qWarning() << "comparison failed:" << failed.first().first().toString();
    return opened.count() > 0;
}

// Copies a folder under another name: nothing may depend on what the runs are called.
QString copyFolder(const QString& from, const QString& to)
{
    std::error_code ec;
    std::filesystem::copy(from.toStdString(), to.toStdString(), std::filesystem::copy_options::recursive, ec);
    return ec ? QString() : to;
}

} // namespace

class TestCompareWindow : public QObject {
    Q_OBJECT
    WrittenDemo m_a, m_b;
    QTemporaryDir m_tmp;
    QString m_baseline, m_changed;

private Q_SLOTS:
    void initTestCase()
    {
        useTestSettings(QStringLiteral("tst_compare_window"));
        m_a = writeTestDemo(24, 7, 1, false);
        m_b = writeTestDemo(24, 11, 1, false);
        QVERIFY2(m_a.result.error.isEmpty() && m_b.result.error.isEmpty(), qPrintable(m_a.result.error));
        m_baseline = copyFolder(m_a.dir, m_tmp.filePath(QStringLiteral("run one")));
        m_changed = copyFolder(m_b.dir, m_tmp.filePath(QStringLiteral("zz")));
        QVERIFY(!m_baseline.isEmpty() && !m_changed.isEmpty());
    }

    void compareWithFromTheFileMenu()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        w->openPath(m_baseline);
        QVERIFY(waitLoaded(w.get(), 60000));
        ComparisonController* c = w->comparison();
        QVERIFY(!c->isActive());
        QVERIFY(!c->changedTimeline()->isVisible());

        // File › Compare With Folder…, answered like a user would.
        QAction* compare = w->action(QStringLiteral("compareWithFolder"));
        QVERIFY(compare && w->fileMenu()->actions().contains(compare));
        answerNextFileDialog(m_changed);
        compare->trigger();
        QVERIFY(waitCompared(c));

        QVERIFY(c->isActive());
        QCOMPARE(w->sessions().size(), size_t(2));
        QCOMPARE(w->session()->path(), m_baseline); // the baseline stays the window's session
        QCOMPARE(c->changedSession()->path(), m_changed);
        QVERIFY(c->changedTimeline()->isVisible());
        QCOMPARE(c->changedTimeline()->profile(), c->changedSession()->profile().get());
        // Baseline above, changed below, in one vertical splitter, on the window's zoom.
        auto* splitter = w->findChild<QSplitter*>(QStringLiteral("comparisonSplitter"));
        QVERIFY(splitter && splitter->orientation() == Qt::Vertical);
        QVERIFY(w->timeline()->mapTo(w.get(), QPoint(0, 0)).y() <
                c->changedTimeline()->mapTo(w.get(), QPoint(0, 0)).y());
        QCOMPARE(c->changedTimeline()->zoom(), w->timeline()->zoom());
        QVERIFY(w->findChild<QWidget*>(QStringLiteral("comparisonBanner"))->isVisible());
        // Events of the changed run resolve in its own session only.
        const EventRef e{0, 0};
        QCOMPARE(c->changedSession()->resolve(c->changedSession()->tag(e)), e);
        QVERIFY(!w->session()->resolve(c->changedSession()->tag(e)).valid());

        // The recent list remembers the pair, and reopens it.
        const QString pair =
            QFileInfo(m_baseline).absoluteFilePath() + QLatin1Char('\n') + QFileInfo(m_changed).absoluteFilePath();
        QCOMPARE(c->recentComparisons().value(0), pair);
        auto* recent = w->findChild<QMenu*>(QStringLiteral("recentComparisonsMenu"));
        QVERIFY(recent && !recent->actions().isEmpty());
        QVERIFY(recent->actions().first()->text().contains(QStringLiteral("zz")));
        c->closeChanged();
        QVERIFY(!c->isActive());
        QCOMPARE(w->sessions().size(), size_t(1));
        recent->actions().first()->trigger();
        QVERIFY(waitCompared(c));
        QCOMPARE(c->changedSession()->path(), QFileInfo(m_changed).absoluteFilePath());
    }

    void commandLineAndTheBracketKeysMoveBothSides()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        w->openFromCommandLine({QStringLiteral("--compare"), m_baseline, m_changed});
        QVERIFY(waitCompared(c));
        QCOMPARE(w->session()->path(), m_baseline);
        QCOMPARE(c->changedSession()->path(), m_changed);
        QVERIFY(c->pairs().size() >= 10);
        QCOMPARE(c->currentPair(), 0);

        // Pairs follow each run's stable window in order: forward_ct rises on both sides.
        const StepAnalyses& sa = *w->session()->analyses();
        const StepAnalyses& sb = *c->changedSession()->analyses();
        for (size_t i = 1; i < c->pairs().size(); ++i) {
            QVERIFY(sa.step(c->pairs()[i].baselineStep).window.forwardCt >
                    sa.step(c->pairs()[i - 1].baselineStep).window.forwardCt);
            QVERIFY(sb.step(c->pairs()[i].changedStep).window.forwardCt >
                    sb.step(c->pairs()[i - 1].changedStep).window.forwardCt);
        }

        w->timeline()->view()->setFocus();
        for (int expected : {1, 2, 3}) {
            QTest::keyClick(w->timeline()->view(), Qt::Key_BracketRight);
            QCOMPARE(c->currentPair(), expected);
        }
        QTest::keyClick(w->timeline()->view(), Qt::Key_BracketLeft);
        QCOMPARE(c->currentPair(), 2);

        // Both steps of pair 2 start at the same shared time, and the shared range shows both whole.
        const RecordWindow& a = sa.step(c->pairs()[2].baselineStep);
        const RecordWindow& b = sb.step(c->pairs()[2].changedStep);
        TimelineWidget* top = w->timeline();
        TimelineWidget* bottom = c->changedTimeline();
        QCOMPARE(bottom->toSharedNs(b.window.startNs), top->toSharedNs(a.window.startNs));
        QCOMPARE(c->changedSession()->timeOffsetNs(), a.window.startNs - b.window.startNs);
        QVERIFY(top->visibleStartNs() <= a.window.startNs && a.window.endNs <= top->visibleEndNs());
        QVERIFY(bottom->visibleStartNs() <= b.window.startNs && b.window.endNs <= bottom->visibleEndNs());
        // The baseline's step table follows the pair.
        QCOMPARE(w->stepPanel()->currentSourceRow(), int(a.row));

        // Pressed in the lower timeline, the keys move both as well.
        bottom->view()->setFocus();
        QTest::keyClick(bottom->view(), Qt::Key_BracketRight);
        QCOMPARE(c->currentPair(), 3);

        // The analyses' overlays draw on both timelines once the steps are analysed.
        QVERIFY(QTest::qWaitFor([&]() { return sa.ready() && sb.ready(); }, 60000));
        bottom->view()->viewport()->repaint();
        top->view()->viewport()->repaint();
        QVERIFY(c->changedStageBands()->lastBandCount() > 0);
    }

    void swapAndCloseEitherSide()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        c->openComparison(m_baseline, m_changed);
        QVERIFY(waitCompared(c));
        QTest::mouseClick(w->findChild<QPushButton*>(QStringLiteral("swapSidesButton")), Qt::LeftButton);
        QCOMPARE(w->session()->path(), m_changed);
        QCOMPARE(c->changedSession()->path(), m_baseline);
        QCOMPARE(w->sessions().size(), size_t(2));
        QCOMPARE(c->changedTimeline()->profile(), c->changedSession()->profile().get());
        QCOMPARE(w->timeline()->profile(), w->session()->profile().get());

        // Closing the baseline (now the changed folder) leaves an ordinary window on the other run.
        QTest::mouseClick(w->findChild<QPushButton*>(QStringLiteral("closeBaselineButton")), Qt::LeftButton);
        QVERIFY(!c->isActive());
        QCOMPARE(w->sessions().size(), size_t(1));
        QCOMPARE(w->session()->path(), m_baseline);
        QCOMPARE(w->session()->timeOffsetNs(), TimeNs(0));
        QVERIFY(!c->changedTimeline()->isVisible());
        QVERIFY(!w->findChild<QWidget*>(QStringLiteral("comparisonBanner"))->isVisible());
        // `[` / `]` are the step table's again.
        const int before = w->stepPanel()->currentSourceRow();
        w->timeline()->view()->setFocus();
        QTest::keyClick(w->timeline()->view(), Qt::Key_BracketRight);
        QVERIFY(w->stepPanel()->currentSourceRow() != before);

        // Opening another profile the ordinary way ends a comparison too.
        c->openComparison(m_baseline, m_changed);
        QVERIFY(waitCompared(c));
        w->openPath(m_changed);
        QVERIFY(waitLoaded(w.get(), 60000));
        QVERIFY(!c->isActive());
        QCOMPARE(w->sessions().size(), size_t(1));
    }

    void shiftDropComparesWithTheShownProfile()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        w->openPath(m_baseline);
        QVERIFY(waitLoaded(w.get(), 60000));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(m_changed)});
        const QPointF at(w->width() / 2.0, w->height() / 2.0);
        // (a drop is delivered only after the drag entered the window)
        QDragEnterEvent enter(at.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::ShiftModifier);
        QApplication::sendEvent(w.get(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::ShiftModifier);
        QApplication::sendEvent(w.get(), &drop);
        QVERIFY(waitCompared(w->comparison()));
        QCOMPARE(w->session()->path(), m_baseline);
        QCOMPARE(w->comparison()->changedSession()->path(), m_changed);
        // A plain drop opens the file alone, as before.
        QDragEnterEvent enterPlain(at.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w.get(), &enterPlain);
        QDropEvent plain(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w.get(), &plain);
        QVERIFY(waitLoaded(w.get(), 60000));
        QVERIFY(!w->comparison()->isActive());
        QCOMPARE(w->session()->path(), m_changed);
    }

    void oneProgressBarAndCancel()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        QSignalSpy cancelled(c, &ComparisonController::loadCancelled);
        c->openComparison(m_baseline, m_changed);
        auto* bar = w->findChild<QProgressBar*>(QStringLiteral("comparisonProgress"));
        auto* cancel = w->findChild<QPushButton*>(QStringLiteral("cancelComparisonButton"));
        QVERIFY(bar && bar->isVisible() && cancel && cancel->isVisible());
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&]() { return cancelled.count() > 0; }, 60000));
        QVERIFY(!c->isActive() && !c->isLoading());
        QVERIFY(!bar->isVisible());
        QVERIFY(!w->session());

        // A side that cannot be opened: one message naming that side and the file.
        QSignalSpy failed(c, &ComparisonController::loadFailed);
        const QString missing = m_tmp.filePath(QStringLiteral("no such run"));
        c->openComparison(m_baseline, missing);
        QVERIFY(QTest::qWaitFor([&]() { return failed.count() > 0; }, 60000));
        const QString error = failed.first().first().toString();
        QVERIFY2(error.contains(QStringLiteral("changed run")) && error.contains(QStringLiteral("no such run")),
                 qPrintable(error));
        QVERIFY(!c->isActive());
    }

    void theFigureExportsInThreeFormats()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        c->openComparison(m_baseline, m_changed);
        QVERIFY(waitCompared(c));
        QVERIFY(c->showPair(1));
        QTemporaryDir out;
        for (const char* name : {"pair.png", "pair.svg", "pair.pdf"}) {
            const QString path = out.filePath(QString::fromLatin1(name));
            QCOMPARE(c->exportFigure(path, 1400), QString());
            QVERIFY2(QFileInfo(path).size() > 1000, name);
        }
        const QImage png(out.filePath(QStringLiteral("pair.png")));
        QCOMPARE(png.width(), 1400);
        QVERIFY(png.height() > 400);
        QFile svg(out.filePath(QStringLiteral("pair.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        for (const char* expected : {"Comparison: baseline", "step wall", "effective TPOT", "mean commit length",
                                     "exposed communication", "critical path", "Target Verify"})
            QVERIFY2(text.contains(expected), expected);
        QFile pdf(out.filePath(QStringLiteral("pair.pdf")));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        QVERIFY(!c->exportFigure(out.filePath(QStringLiteral("pair.bmp"))).isEmpty());
    }

    void anAscendRunAgainstAGpuRunSaysWhatCannotBeCompared()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QTemporaryDir tmp;
        const QString gpu = tmp.filePath(QStringLiteral("other.json.gz"));
        QVERIFY(QFile::copy(realData(QStringLiteral("kineto/a100_event_sync_multi_stream.pt.trace.json.gz")), gpu));
        auto w = openMainWindow();
        QVERIFY(w);
        ComparisonController* c = w->comparison();
        c->openComparison(m_baseline, gpu);
        QVERIFY(waitCompared(c));
        auto* note = w->findChild<QLabel*>(QStringLiteral("comparisonLimitations"));
        QVERIFY(note && note->isVisible());
        QVERIFY2(note->text().contains(QStringLiteral("Ascend NPU")) && note->text().contains(QStringLiteral("GPU")),
                 qPrintable(note->text()));
        QVERIFY(note->text().contains(QStringLiteral("No matched steps")));
        QVERIFY(c->pairs().empty());
        // `[` does nothing harmful without pairs.
        QTest::keyClick(w->timeline()->view(), Qt::Key_BracketRight);
        QCOMPARE(c->currentPair(), -1);

        // Two runs of one platform carry no such note.
        c->openComparison(m_baseline, m_changed);
        QVERIFY(waitCompared(c));
        QVERIFY(!note->isVisible());
    }

    void demoCompareOpensTheDemoPair()
    {
        auto w = openMainWindow();
        QVERIFY(w);
        w->openFromCommandLine({QStringLiteral("--demo-compare")});
        QVERIFY(waitCompared(w->comparison(), 120000));
        QVERIFY(w->comparison()->isActive());
        QVERIFY(!w->comparison()->pairs().empty());
        QVERIFY(w->session()->path() != w->comparison()->changedSession()->path());
    }
};

QTEST_MAIN(TestCompareWindow)
#include "tst_compare_window.moc"
