// Event and lane kinds are shown as readable words, never as the JSON identifiers ("kernel",
// "host_api", "npu_stream"): in the details pane, the event table (sorted by what it shows) and the
// timeline tooltips; in English and, with the zh_CN translation installed, in Chinese.
#include "MainWindowTestSupport.h"
#include "SyntheticProfile.h"
#include "TestSupport.h"

#include "MainWindow.h"
#include "panels/EventDetailsPane.h"
#include "panels/EventTableModel.h"
#include "panels/EventTablePanel.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QApplication>
#include <QHeaderView>
#include <QHelpEvent>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QToolTip>

using namespace dspark;
using namespace dspark::ui;
using dspark::test::laneNamed;

class TestKindNames : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> w;
    std::shared_ptr<Profile> profile;
    EventRef kernel, launch, commOp, torchOp;

    QWidget* viewport() const { return w->timeline()->view()->viewport(); }

    // The timeline's tooltip at a viewport position, as the user's hover asks for it.
    QString tooltipAt(QPoint pos) const
    {
        QToolTip::hideText();
        QHelpEvent help(QEvent::ToolTip, pos, viewport()->mapToGlobal(pos));
        QApplication::sendEvent(viewport(), &help);
        return QToolTip::text();
    }

    // Clicks the kernel on the timeline; returns where it is drawn.
    QPoint clickKernel()
    {
        const TimeNs start = profile->startNs(kernel);
        w->timeline()->zoom()->setRange(start - 5'000, start + 5'000);
        QApplication::processEvents();
        const std::optional<QPoint> pos = w->timeline()->eventCenterInViewport(kernel);
        if (!pos)
            return {};
        QTest::mouseClick(viewport(), Qt::LeftButton, {}, *pos);
        return *pos;
    }

    // The Kind column of the event table, top to bottom, as shown.
    QStringList shownKinds() const
    {
        QStringList kinds;
        const QAbstractItemModel* m = w->eventTable()->table()->model();
        for (int r = 0; r < m->rowCount(); ++r)
            kinds << m->index(r, EventTableModel::Kind).data().toString();
        return kinds;
    }

    QString detailsKind() const
    {
        return w->detailsPane()->valueOf(QCoreApplication::translate("dspark::ui::EventDetailsPane", "Kind"));
    }

private Q_SLOTS:
    void initTestCase() { test::useTestSettings(QStringLiteral("tst_kindnames")); }
    void init()
    {
        w = test::openMainWindow();
        QVERIFY(w);
        test::SyntheticSpec spec;
        spec.kernelsPerStream = 1000;
        spec.steps = 8;
        profile = test::makeSyntheticProfile(spec);
        w->setProfile(profile, QStringLiteral("/synthetic"));
        QApplication::processEvents();
        kernel = {laneNamed(*profile, "Ascend Hardware", "Stream 2"), 500}; // "MatMulV2", a Kernel
        launch = {laneNamed(*profile, "CANN", "Thread 101"), 500};          // its launch, a HostApi call
        commOp = {laneNamed(*profile, "HCCL", "Group 0 Communication"), 0};
        torchOp = {laneNamed(*profile, "Python", "Thread 100"), 0};
        QCOMPARE(profile->lanes[launch.lane].kind[launch.index], EventKind::HostApi);
        QCOMPARE(profile->lanes[commOp.lane].kind[commOp.index], EventKind::CommOp);
        QCOMPARE(profile->lanes[torchOp.lane].kind[torchOp.index], EventKind::TorchOp);
    }
    void cleanup() { w.reset(); }

    void detailsAndTooltipsShowReadableKinds()
    {
        const QPoint pos = clickKernel();
        QVERIFY(!pos.isNull());
        QCOMPARE(w->timeline()->selection()->event(), kernel);
        QCOMPARE(detailsKind(), QStringLiteral("Kernel"));

        const QString eventTip = tooltipAt(pos);
        QVERIFY2(eventTip.contains(QStringLiteral(" · Kernel<br>")), qPrintable(eventTip));
        QVERIFY2(!eventTip.contains(QStringLiteral("kernel")), qPrintable(eventTip));
        // Over the lane's name: the lane kind.
        const QString laneTip = tooltipAt(QPoint(20, pos.y()));
        QVERIFY2(laneTip.contains(QStringLiteral("NPU stream")), qPrintable(laneTip));
        QVERIFY2(!laneTip.contains(QStringLiteral("npu_stream")), qPrintable(laneTip));

        // The launch, as the link in the details pane selects it.
        w->timeline()->selectEvent(launch);
        QApplication::processEvents();
        QCOMPARE(detailsKind(), QStringLiteral("CANN/host API call"));

        // Chinese: the panes retranslate what they show.
        {
            const test::InstalledTranslator zh = test::installTranslation(QStringLiteral("zh_CN"));
            QVERIFY2(zh, "the compiled zh_CN translation (dspark-timeline_zh_CN.qm) is missing");
            QApplication::processEvents();
            QCOMPARE(detailsKind(), QStringLiteral("CANN/主机 API 调用"));
            QVERIFY(detailsKind() != QStringLiteral("host_api"));
            clickKernel();
            QCOMPARE(w->timeline()->selection()->event(), kernel);
            QCOMPARE(w->detailsPane()->valueOf(QStringLiteral("类型")), QStringLiteral("算子"));
            const QString zhTip = tooltipAt(pos);
            QVERIFY2(zhTip.contains(QStringLiteral(" · 算子<br>")), qPrintable(zhTip));
            const QString zhLaneTip = tooltipAt(QPoint(20, pos.y()));
            QVERIFY2(zhLaneTip.contains(QStringLiteral("NPU 流")), qPrintable(zhLaneTip));
        }
        QApplication::processEvents();
        QCOMPARE(detailsKind(), QStringLiteral("Kernel"));
    }

    void eventTableShowsAndSortsByTheShownKind()
    {
        EventTablePanel* table = w->eventTable();
        table->setEvents(QStringLiteral("mixed"), profile, {torchOp, kernel, commOp, launch}, false);
        QApplication::processEvents();
        // Click the Kind header: the rows follow the words shown.
        QHeaderView* header = table->table()->horizontalHeader();
        // The narrow columns show their whole header, sort arrow included.
        const auto headersFit = [&] {
            for (const int c : {int(EventTableModel::Duration), int(EventTableModel::Start)})
                if (table->table()->columnWidth(c) < header->sectionSizeHint(c))
                    return false;
            return true;
        };
        QVERIFY(headersFit());
        const QPoint kindHeader(header->sectionViewportPosition(EventTableModel::Kind) + 10, header->height() / 2);
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, kindHeader);
        QCOMPARE(header->sortIndicatorSection(), int(EventTableModel::Kind));
        if (header->sortIndicatorOrder() == Qt::DescendingOrder)
            QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, kindHeader);
        QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);
        QCOMPARE(shownKinds(),
                 (QStringList{QStringLiteral("CANN/host API call"), QStringLiteral("Collective communication"),
                              QStringLiteral("Kernel"), QStringLiteral("PyTorch/Python op")}));
        QCOMPARE(table->eventAtRow(2), kernel);

        const test::InstalledTranslator zh = test::installTranslation(QStringLiteral("zh_CN"));
        QVERIFY(zh);
        QApplication::processEvents();
        // Translated and sorted again by the Chinese words.
        QCOMPARE(shownKinds(), (QStringList{QStringLiteral("CANN/主机 API 调用"), QStringLiteral("PyTorch/Python 算子"),
                                            QStringLiteral("算子"), QStringLiteral("集合通信")}));
        QCOMPARE(table->eventAtRow(2), kernel);
        QCOMPARE(header->model()->headerData(EventTableModel::Kind, Qt::Horizontal).toString(), QStringLiteral("类型"));
        QVERIFY(headersFit());
    }
};

QTEST_MAIN(TestKindNames)
#include "tst_kindnames.moc"
