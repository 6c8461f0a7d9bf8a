// Undo / redo of annotation edits in the main window, driven with the mouse and keys: placing a note,
// dragging it, editing its text and deleting it are each one Ctrl+Z, interleaved with view changes in
// the order they were made; Ctrl+Shift+Z brings them back; the session file follows.
#include "MainWindowTestSupport.h"
#include "SyntheticProfile.h"
#include "TestSupport.h"

#include "MainWindow.h"
#include "overlays/AnnotationOverlay.h"
#include "overlays/AnnotationSession.h"
#include "overlays/AnnotationTool.h"
#include "report/ReportActions.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "timeline/UndoHistory.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QUndoStack>

using namespace dspark;
using namespace dspark::ui;
using dspark::test::laneNamed;

class TestAnnotationUndo : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> w;
    std::shared_ptr<Profile> profile;

    TimelineView* view() const { return w->timeline()->view(); }
    QWidget* viewport() const { return view()->viewport(); }
    AnnotationOverlay* overlay() const { return w->reports()->annotations(); }
    QVector<Annotation> items() const { return overlay()->annotations().items; }
    TimelineZoom::Range range() const { return w->timeline()->zoom()->range(); }
    void undo() { QTest::keyClick(view(), Qt::Key_Z, Qt::ControlModifier); }
    void redo() { QTest::keyClick(view(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier); }
    // What the session file holds now (it is saved after every edit, undo and redo).
    QVector<Annotation> saved() const
    {
        AnnotationSet set;
        if (!QFile::exists(w->reports()->annotationSession()->path()))
            return {};
        set.load(w->reports()->annotationSession()->path());
        return set.items;
    }

private Q_SLOTS:
    void initTestCase() { test::useTestSettings(QStringLiteral("tst_annotation_undo")); }
    void init()
    {
        w = test::openMainWindow();
        QVERIFY(w);
        test::SyntheticSpec spec;
        spec.kernelsPerStream = 1000;
        profile = test::makeSyntheticProfile(spec);
        QFile::remove(annotationSessionPath(*profile)); // a previous run's notes
        w->setProfile(profile, QStringLiteral("/synthetic"));
        QApplication::processEvents();
        QCOMPARE(overlay()->count(), 0);
    }
    void cleanup() { w.reset(); }

    void addMoveEditDeleteAreUndoneInOrderWithViewChanges()
    {
        AnnotationTool* tool = w->reports()->annotationTool();
        QString nextText = QStringLiteral("first");
        tool->setTextPrompt([&](QWidget*, const QString&, const QString&, const QString&) -> std::optional<QString> {
            return nextText;
        });
        QAction* undoAction = w->action(QStringLiteral("undo"));
        QAction* redoAction = w->action(QStringLiteral("redo"));
        QVERIFY(undoAction && redoAction);

        // A view change first: zoom to kernel 500 of stream 2.
        const TimelineZoom::Range r0 = range();
        const EventRef kernel{laneNamed(*profile, "Ascend Hardware", "Stream 2"), 500};
        const TimeNs start = profile->startNs(kernel);
        w->timeline()->zoom()->setRange(start - 5'000, start + 5'000);
        QApplication::processEvents();
        const TimelineZoom::Range r1 = range();
        const std::optional<QPoint> at = w->timeline()->eventCenterInViewport(kernel);
        QVERIFY(at);
        const QPoint p = *at;
        view()->setFocus();

        // Place a note with a click.
        tool->setMode(AnnotationTool::Mode::Note);
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, p);
        QCOMPARE(overlay()->count(), 1);
        const QVector<Annotation> added = items();
        QCOMPARE(added[0].text, QStringLiteral("first"));
        QCOMPARE(undoAction->text(), QStringLiteral("&Undo Add Annotation"));

        // Drag it 120 px to the right.
        viewport()->repaint();
        QTest::mousePress(viewport(), Qt::LeftButton, {}, p);
        QTest::mouseMove(viewport(), p + QPoint(60, 0));
        QTest::mouseRelease(viewport(), Qt::LeftButton, {}, p + QPoint(120, 0));
        const QVector<Annotation> moved = items();
        QVERIFY(moved[0].startNs > added[0].startNs);
        QCOMPARE(moved[0].text, QStringLiteral("first"));
        QCOMPARE(undoAction->text(), QStringLiteral("&Undo Move Annotation"));

        // A 2 px drag is a click: the note stays where it was and nothing is recorded.
        viewport()->repaint();
        QTest::mousePress(viewport(), Qt::LeftButton, {}, p + QPoint(120, 0));
        QTest::mouseMove(viewport(), p + QPoint(121, 0));
        QTest::mouseRelease(viewport(), Qt::LeftButton, {}, p + QPoint(122, 0));
        QCOMPARE(items()[0].startNs, moved[0].startNs);
        QCOMPARE(undoAction->text(), QStringLiteral("&Undo Move Annotation"));

        // Double-click: new text.
        viewport()->repaint();
        nextText = QStringLiteral("second");
        QTest::mouseDClick(viewport(), Qt::LeftButton, {}, p + QPoint(120, 0));
        const QVector<Annotation> edited = items();
        QCOMPARE(edited[0].text, QStringLiteral("second"));
        QCOMPARE(edited[0].startNs, moved[0].startNs);
        QCOMPARE(undoAction->text(), QStringLiteral("&Undo Edit Annotation Text"));

        // Another view change (W), then Delete removes the selected note.
        QTest::keyClick(view(), Qt::Key_W);
        w->timeline()->zoom()->endGesture();
        const TimelineZoom::Range r2 = range();
        QVERIFY(r2.spanNs() < r1.spanNs());
        QCOMPARE(undoAction->text(), QStringLiteral("&Undo View Change"));
        QCOMPARE(overlay()->selected(), 0);
        QTest::keyClick(view(), Qt::Key_Delete);
        QCOMPARE(overlay()->count(), 0);
        QCOMPARE(saved().size(), 0);
        QCOMPARE(undoAction->text(), QStringLiteral("&Undo Delete Annotation"));
        QVERIFY(!redoAction->isEnabled());

        // Ctrl+Z takes everything back, the latest first.
        undo();
        QCOMPARE(items(), edited); // the deletion
        QCOMPARE(saved(), edited);
        QCOMPARE(range(), r2);
        undo();
        QCOMPARE(range(), r1); // the W zoom
        QCOMPARE(items(), edited);
        undo();
        QCOMPARE(items(), moved); // the text
        QCOMPARE(saved(), moved);
        undo();
        QCOMPARE(items(), added); // the drag
        undo();
        QCOMPARE(overlay()->count(), 0); // the note itself
        QCOMPARE(saved().size(), 0);
        QCOMPARE(range(), r1);
        QCOMPARE(undoAction->text(), QStringLiteral("&Undo View Change"));
        undo();
        QCOMPARE(range(), r0); // the first zoom
        QVERIFY(!w->timeline()->history()->canUndo());
        QVERIFY(!undoAction->isEnabled());

        // Ctrl+Shift+Z brings it all back in the order it was made.
        QCOMPARE(redoAction->text(), QStringLiteral("&Redo View Change"));
        redo();
        QCOMPARE(range(), r1);
        QCOMPARE(redoAction->text(), QStringLiteral("&Redo Add Annotation"));
        redo();
        QCOMPARE(items(), added);
        redo();
        QCOMPARE(items(), moved);
        redo();
        QCOMPARE(items(), edited);
        QCOMPARE(saved(), edited);
        redo();
        QCOMPARE(range(), r2);
        redo();
        QCOMPARE(overlay()->count(), 0);
        QVERIFY(!w->timeline()->history()->canRedo());

        // A new edit after an undo drops what could have been redone.
        undo();
        QCOMPARE(items(), edited);
        tool->setMode(AnnotationTool::Mode::Note);
        nextText = QStringLiteral("third");
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, p + QPoint(-100, 0));
        QCOMPARE(overlay()->count(), 2);
        QVERIFY(!redoAction->isEnabled());
        undo();
        QCOMPARE(items(), edited);
    }

    void undoLabelsFollowALanguageSwitch()
    {
        Annotation a;
        a.kind = Annotation::Kind::Range;
        a.startNs = profile->firstNs();
        a.endNs = a.startNs + 5'000;
        overlay()->add(a);
        QCOMPARE(overlay()->undoStack()->undoText(), QStringLiteral("Add Annotation"));
        {
            // Recorded in English, shown in Chinese once the translation is installed.
            const test::InstalledTranslator zh = test::installTranslation(QStringLiteral("zh_CN"));
            QVERIFY2(zh, "the compiled zh_CN translation (dspark-timeline_zh_CN.qm) is missing");
            QApplication::processEvents(); // QEvent::LanguageChange
            QCOMPARE(overlay()->undoStack()->undoText(), QStringLiteral("添加标注"));
            QVERIFY2(w->action(QStringLiteral("undo"))->text().contains(QStringLiteral("添加标注")),
                     qPrintable(w->action(QStringLiteral("undo"))->text()));
        }
        QApplication::processEvents(); // and back
        QCOMPARE(w->action(QStringLiteral("undo"))->text(), QStringLiteral("&Undo Add Annotation"));
    }

    void clearingAllIsOneUndoStep()
    {
        for (int i = 0; i < 3; ++i) {
            Annotation a;
            a.kind = Annotation::Kind::Range;
            a.startNs = profile->firstNs() + i * 10'000;
            a.endNs = a.startNs + 5'000;
            a.text = QStringLiteral("r%1").arg(i);
            overlay()->add(a);
        }
        const QVector<Annotation> three = items();
        overlay()->removeAll();
        QCOMPARE(overlay()->count(), 0);
        QCOMPARE(w->action(QStringLiteral("undo"))->text(), QStringLiteral("&Undo Clear Annotations"));
        view()->setFocus();
        undo();
        QCOMPARE(items(), three);
        // Opening the profile again starts a new history: nothing of this one can be undone.
        w->setProfile(profile, QStringLiteral("/synthetic"));
        QApplication::processEvents();
        QCOMPARE(items(), three); // the session came back
        QVERIFY(overlay()->undoStack()->count() == 0);
        undo();
        QCOMPARE(items(), three);
    }
};

QTEST_MAIN(TestAnnotationUndo)
#include "tst_annotation_undo.moc"
