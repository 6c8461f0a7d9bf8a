// The newer panels close cleanly: a table whose row is current, deleted with its panel, emits nothing
// into the half-destroyed panel (the hazard found in ClusterView: QWidget's destructor deletes the
// children after the derived members are gone). Each panel is shown, given a current row, and deleted.
#include "cluster/ClusterView.h"
#include "compare/ComparisonPanels.h"
#include "summary/SummaryTable.h"

#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace dspark;
using namespace dspark::ui;

class TestPanelTeardown : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aSummaryPanelWithACurrentRowEmitsNothingWhileDeleted()
    {
        auto* panel = new SummaryPanel;
        panel->model()->setHeaders({QStringLiteral("Name"), QStringLiteral("Time")}, {false, true});
        panel->model()->setRows({{{QStringLiteral("a"), {}}, {QStringLiteral("1"), 1}},
                                 {{QStringLiteral("b"), {}}, {QStringLiteral("2"), 2}}},
                                {10, 20});
        panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(panel));
        int clicked = 0, lastKey = -1;
        QObject observer;
        connect(panel, &SummaryPanel::rowClicked, &observer, [&](int key) {
            ++clicked;
            lastKey = key;
        });
        panel->table()->setCurrentIndex(panel->proxy()->index(1, 0));
        QCOMPARE(clicked, 1); // a current row is announced (the table works)
        QCOMPARE(lastKey, panel->keyAtRow(1));
        delete panel;
        QCOMPARE(clicked, 1); // nothing while the panel went
    }

    void theComparisonAndClusterPanelsCloseCleanly()
    {
        QWidget window;
        auto* pairs = new PairTablePanel(&window);
        auto* kernels = new KernelDiffPanel(&window);
        auto* config = new ConfigDiffPanel(&window);
        auto* distributions = new DistributionPanel(&window);
        auto* cluster = new ClusterView(&window);
        pairs->setPlaceholder(QStringLiteral("none"));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QPointer<QWidget> alive[] = {pairs, kernels, config, distributions, cluster};
        delete pairs;
        delete kernels;
        delete config;
        delete distributions;
        delete cluster;
        for (const auto& p : alive)
            QVERIFY(p.isNull());
    }
};

QTEST_MAIN(TestPanelTeardown)
#include "tst_panel_teardown.moc"
