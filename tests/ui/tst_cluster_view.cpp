// The cluster view driven as a user does: three ranks made by the test (summaries with known skews and
// arrivals, the story of tests/cluster/tst_cluster_handmade.cpp), a click on a heat-map cell names that
// rank's step, the quantity box changes what the cells show, and an offset typed into the rank table
// replaces the estimate until it is undone.
#include "../cluster/ClusterDbBuilder.h"

#include "cluster/ClusterStepTableModel.h"
#include "cluster/ClusterView.h"
#include "cluster/ClusterWindow.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace dspark;
using namespace dspark::ui;

namespace {

constexpr TimeNs us = 1000;

// Ranks 0..2 (skews 0, +50 µs, −30 µs), steps 1 and 2, four all-reduces (issues and ends in µs, true clock).
std::vector<RankSummary> story()
{
    const TimeNs skew[3] = {0, 50 * us, -30 * us};
    const TimeNs issue[4][3] = {{100, 105, 400}, {600, 500, 610}, {1300, 1100, 1150}, {1600, 1600, 1605}};
    const TimeNs end[4][3] = {{450, 450, 450}, {660, 660, 660}, {1350, 1350, 1350}, {1650, 1652, 1650}};
    std::vector<RankSummary> ranks(3);
    for (int r = 0; r < 3; ++r) {
        RankSummary& s = ranks[r];
        s.rankNumber = r;
        for (int k = 1; k <= 2; ++k) {
            RankStep step;
            step.stepId = k;
            step.startNs = (k - 1) * 1000 * us + skew[r];
            step.endNs = step.startNs + 1000 * us;
            step.commExposedNs = (10 * r + k) * us;
            step.pathNs[static_cast<size_t>(PathCategory::ExposedComm)] = 600 * us;
            step.pathNs[static_cast<size_t>(PathCategory::Idle)] = 400 * us;
            s.steps.push_back(step);
        }
        for (int c = 0; c < 4; ++c)
            s.collectives.push_back({"g", "hcom_allReduce__" + std::to_string(c), "hcom_allReduce", 100 + c % 2,
                                     issue[c][r] * us + skew[r], end[c][r] * us + skew[r]});
    }
    return ranks;
}

} // namespace

class TestClusterView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void clickingACellNamesThatRanksStep()
    {
        ClusterView view;
        view.resize(900, 600);
        view.setRanks(story());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.stepModel()->rowCount(), 2);
        QCOMPARE(view.stepModel()->columnCount(), 3);
        QCOMPARE(view.rankTable()->item(1, 1)->text(), QStringLiteral("-50.000"));
        QCOMPARE(view.rankTable()->item(2, 1)->text(), QStringLiteral("30.000"));

        QSignalSpy clicked(&view, &ClusterView::stepClicked);
        QSignalSpy activated(&view, &ClusterView::stepActivated);
        QTableView* table = view.stepTable();
        const QRect cell = table->visualRect(view.stepModel()->index(1, 2));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked[0][0].value<size_t>(), size_t(2));
        QCOMPARE(clicked[0][1].toLongLong(), qint64(2));
        QCOMPARE(activated.size(), 0);
        table->setFocus();
        QTest::keyClick(table, Qt::Key_Return); // the clicked cell is current: Enter activates it
        QCOMPARE(activated.size(), 1);
        QCOMPARE(activated[0][0].toInt(), 2);
        QCOMPARE(activated[0][1].toLongLong(), qint64(2));
    }

    void theQuantityBoxChangesTheCells()
    {
        ClusterView view;
        view.setRanks(story());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // Step wall: 1 ms everywhere.
        QCOMPARE(view.stepModel()->data(view.stepModel()->index(0, 0), Qt::DisplayRole).toString(),
                 QStringLiteral("1.000"));
        // Waiting for late peers, rank 0, step 1: 300 µs at A and 10 µs at B.
        QComboBox* box = view.quantityBox();
        box->setFocus();
        QTest::keyClick(box, Qt::Key_Down); // exposed communication… then on
        QTest::keyClick(box, Qt::Key_Down);
        QTest::keyClick(box, Qt::Key_Down);
        QCOMPARE(view.stepModel()->quantity(), ClusterStepTableModel::Quantity::WaitForPeers);
        QCOMPARE(view.stepModel()->data(view.stepModel()->index(0, 0), Qt::DisplayRole).toString(),
                 QStringLiteral("0.310"));
        QCOMPARE(view.stepModel()->data(view.stepModel()->index(1, 1), Qt::DisplayRole).toString(),
                 QStringLiteral("0.205")); // rank 1, step 2: 200 µs at C, 5 µs at D
        // The heat map: the largest wait (rank 1, step 1: 295 + 110 µs) is the deepest colour.
        const QColor deepest =
            view.stepModel()->data(view.stepModel()->index(0, 1), Qt::BackgroundRole).value<QColor>();
        const QColor palest = view.stepModel()->data(view.stepModel()->index(0, 2), Qt::BackgroundRole).value<QColor>();
        QVERIFY(deepest.greenF() < palest.greenF());
        QTest::keyClick(box, Qt::Key_Down);
        QTest::keyClick(box, Qt::Key_Down);
        QCOMPARE(view.stepModel()->data(view.stepModel()->index(0, 0), Qt::DisplayRole).toString(),
                 QStringLiteral("Exposed communication 60 %"));
    }

    void anOffsetTypedInReplacesTheEstimateUntilUndone()
    {
        ClusterView view;
        view.setRanks(story());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.analysis().collectives[0].lateByNs, 295 * us);
        QTableWidget* ranks = view.rankTable();
        ranks->setCurrentCell(1, 1);
        ranks->editItem(ranks->item(1, 1));
        QLineEdit* editor = qobject_cast<QLineEdit*>(QApplication::focusWidget());
        QVERIFY(editor);
        editor->selectAll();
        QTest::keyClicks(editor, QStringLiteral("-40"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_VERIFY(view.offsetOverride(1).has_value());
        QCOMPARE(*view.offsetOverride(1), -40 * us);
        QVERIFY(view.analysis().clocks[1].overridden);
        // Rank 1 now issues A at 115 µs on the cluster clock: rank 2 is late by 285 µs.
        QCOMPARE(view.analysis().collectives[0].lateByNs, 285 * us);
        QCOMPARE(ranks->item(1, 2)->text(), QStringLiteral("set by you"));
        QCOMPARE(view.undoStack()->count(), 1);

        view.undoStack()->undo();
        QVERIFY(!view.offsetOverride(1));
        QCOMPARE(view.analysis().clocks[1].offsetNs, -50 * us);
        QCOMPARE(view.analysis().collectives[0].lateByNs, 295 * us);
        QCOMPARE(ranks->item(1, 1)->text(), QStringLiteral("-50.000"));
        view.undoStack()->redo();
        QCOMPARE(view.analysis().collectives[0].lateByNs, 285 * us);

        // Not a number: nothing changes.
        ranks->editItem(ranks->item(2, 1));
        editor = qobject_cast<QLineEdit*>(QApplication::focusWidget());
        QVERIFY(editor);
        editor->selectAll();
        QTest::keyClicks(editor, QStringLiteral("soon"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(ranks->item(2, 1)->text(), QStringLiteral("30.000"));
        QCOMPARE(view.undoStack()->count(), 1);
    }

    void aClusterFolderLoadsInItsWindowAndAStepOpensItsRank()
    {
        // Ranks 0 and 1 written by the test (rank 1's clock 20 µs ahead), and a rank whose database is junk.
        QTemporaryDir dir;
        for (int r = 0; r < 2; ++r) {
            test::ClusterDbBuilder b(r, r * 20 * us);
            b.step(7, 0, 1000 * us);
            b.collective("hcom_allReduce__" + std::to_string(r), "hcom_allReduce_", "g", 10, 100 * us, 400 * us);
            QCOMPARE(b.writeRunFolder(dir.filePath(QStringLiteral("n_%1_20250101080000001_ascend_pt").arg(r))),
                     QString());
        }
        const QString broken = dir.filePath(
            QStringLiteral("n_2_20250101080000001_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_2.db"));
        QVERIFY(QDir().mkpath(QFileInfo(broken).path()));
        QFile junk(broken);
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write(QByteArray("SQLite format 3") + QByteArray(4000, 'x'));
        junk.close();

        ClusterWindow window;
        QSignalSpy loaded(&window, &ClusterWindow::loaded);
        window.open(dir.path());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 60000);
        QVERIFY(!window.loading());
        QVERIFY(window.cancelButton()->isHidden());
        QCOMPARE(window.view()->ranks().size(), size_t(2));
        QCOMPARE(window.view()->analysis().clocks[1].offsetNs, -20 * us);
        QVERIFY2(window.statusLabel()->text().startsWith(QStringLiteral("Rank 2 not opened: ") + broken),
                 qPrintable(window.statusLabel()->text()));

        QSignalSpy openRank(&window, &ClusterWindow::openRankRequested);
        QTableView* table = window.view()->stepTable();
        table->setFocus();
        table->setCurrentIndex(window.view()->stepModel()->index(0, 1));
        QTest::keyClick(table, Qt::Key_Return); // activates the cell, as a double-click does
        QCOMPARE(openRank.size(), 1);
        QCOMPARE(openRank[0][0].toString(), dir.filePath(QStringLiteral("n_1_20250101080000001_ascend_pt")));
        QCOMPARE(openRank[0][1].toLongLong(), qint64(7));
    }
};

QTEST_MAIN(TestClusterView)
#include "tst_cluster_view.moc"
