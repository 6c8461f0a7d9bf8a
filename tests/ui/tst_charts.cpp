// The step charts (issue 8): the figures they plot come from the step records and the analyses of
// the demo profile exactly; clicking a bar selects that step; the selection shows in every chart and
// in the breakdown of the selected step; charts export like screenshots.
#include "../demo/DemoTestSupport.h"
#include "TestSupport.h"

#include "charts/StepBreakdownView.h"
#include "charts/StepChartData.h"
#include "charts/StepChartsPanel.h"
#include "io/ProfileLoader.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"

#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <cmath>

using namespace dspark;
using namespace dspark::test;
using namespace dspark::ui;

namespace {

QAbstractBarSeries* barSeries(QChartView* view)
{
    for (QAbstractSeries* s : view->chart()->series())
        if (auto* b = qobject_cast<QAbstractBarSeries*>(s))
            return b;
    return nullptr;
}

// Viewport position of the middle of bar `index` (of the stacked total height `value`).
QPoint barPoint(QChartView* view, QAbstractBarSeries* series, int index, double value)
{
    const QPointF scene = view->chart()->mapToScene(view->chart()->mapToPosition(QPointF(index, value), series));
    return view->mapFromScene(scene);
}

} // namespace

class TestCharts : public QObject {
    Q_OBJECT
    WrittenDemo m_demo;
    std::shared_ptr<const Profile> m_profile;
    std::unique_ptr<StepAnalyses> m_analyses;
    QTemporaryDir m_out;

private Q_SLOTS:
    void initTestCase()
    {
        m_demo = writeTestDemo(24, 7, 1, false);
        QVERIFY2(m_demo.result.error.isEmpty(), qPrintable(m_demo.result.error));
        LoadOutcome loaded = loadProfile(m_demo.dir.toStdString());
        QVERIFY2(loaded.profile, qPrintable(loaded.error));
        m_profile = std::move(loaded.profile);
        QVERIFY(m_profile->stepRecords);
        m_analyses = std::make_unique<StepAnalyses>();
        m_analyses->setProfile(m_profile);
        m_analyses->computeNow();
    }

    void theChartFiguresAreTheRecordsAndTheAnalyses()
    {
        const StepChartData d = StepChartData::build(m_profile->stepRecords.get(), m_analyses.get(), -1);
        QCOMPARE(d.dpRanks, std::vector<int>{0});
        QCOMPARE(int64_t(d.records.size()), m_demo.result.records);
        QVERIFY(d.gpuStepTimes);
        for (size_t i = 1; i < d.records.size(); ++i)
            QVERIFY(d.records[i - 1].forwardCt < d.records[i].forwardCt);
        for (int64_t fct : {1201, 1205, 1209, 1219}) {
            const nlohmann::json& t = m_demo.truthStep(fct);
            const auto it = std::find_if(d.records.begin(), d.records.end(),
                                         [&](const StepChartRecord& r) { return r.forwardCt == fct; });
            QVERIFY(it != d.records.end());
            QCOMPARE(*it->draftMs, t["gpu_ms"]["draft"].get<double>());
            QCOMPARE(*it->verifyMs, t["gpu_ms"]["target_verify"].get<double>());
            QCOMPARE(*it->stepMs, t["gpu_ms"]["step"].get<double>());
            QVERIFY(std::fabs(*it->outOfSegmentMs - t["unattributed_ms"].get<double>()) < 1e-6);
        }
        // Every aligned decode step is analysed; its critical path sums to its wall time.
        QCOMPARE(d.analysed.size(), size_t(23));
        for (const StepChartAnalysis& a : d.analysed) {
            double sum = 0;
            for (double ms : a.pathMs)
                sum += ms;
            QVERIFY(std::fabs(sum - a.wallMs) < 1e-6);
            const StepAnalysis& full = *m_analyses->analysis(a.step);
            QCOMPARE(a.commExposedMs, double(full.comm.exposedNs) / 1e6);
            QCOMPARE(a.commInflightMs, double(full.comm.totalNs) / 1e6);
        }
        // The histogram holds every timed record once; anomalous ones apart.
        int ordinary = 0, anomalous = 0, timed = 0, flagged = 0;
        for (const StepTimeBin& b : d.histogram) {
            ordinary += b.ordinary;
            anomalous += b.anomalous;
            QVERIFY(b.loMs <= b.hiMs);
        }
        for (const StepChartRecord& r : d.records)
            if (r.stepMs) {
                ++timed;
                flagged += !r.anomaly.isEmpty();
            }
        QCOMPARE(ordinary + anomalous, timed);
        QCOMPARE(anomalous, flagged);
        QCOMPARE(d.histogram.size(), size_t(std::ceil(std::sqrt(double(timed)))));
        QVERIFY(flagged > 0);
    }

    void clickingABarSelectsThatStepEverywhere()
    {
        StepChartsPanel panel;
        panel.resize(1000, 520);
        panel.setData(m_profile->stepRecords, m_analyses.get());
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy activated(&panel, &StepChartsPanel::recordRowActivated);

        QChartView* view = panel.chartView(StepChartsPanel::Chart::StepTimes);
        QAbstractBarSeries* bars = barSeries(view);
        QVERIFY(bars);
        QCOMPARE(bars->barSets().size(), 3);
        QCOMPARE(size_t(bars->barSets().front()->count()), panel.data().records.size());
        // The step of forward_ct 1209 (index k in the chart).
        int k = -1;
        for (size_t i = 0; i < panel.data().records.size(); ++i)
            if (panel.data().records[i].forwardCt == 1209)
                k = int(i);
        QVERIFY(k >= 0);
        const double half = (*panel.data().records[k].stepMs) / 2;
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, barPoint(view, bars, k, half));
        QCOMPARE(activated.count(), 1);
        const size_t row = activated.first().first().value<size_t>();
        QCOMPARE(row, panel.data().records[k].recordRow);
        QCOMPARE(m_profile->stepRecords->record(row).forwardCt, int64_t(1209));

        panel.setCurrentRecordRow(row);
        for (QBarSet* set : bars->barSets()) {
            QVERIFY(set->isBarSelected(k));
            QCOMPARE(set->selectedBars().size(), 1);
        }
        QAbstractBarSeries* comm = barSeries(panel.chartView(StepChartsPanel::Chart::Communication));
        QVERIFY(comm);
        int a = -1;
        for (size_t i = 0; i < panel.data().analysed.size(); ++i)
            if (panel.data().analysed[i].forwardCt == 1209)
                a = int(i);
        QVERIFY(comm->barSets().front()->isBarSelected(a));
        // The communication chart: exposed + hidden of the step, in ms.
        QCOMPARE(comm->barSets().at(0)->at(a), panel.data().analysed[a].commExposedMs);
        QCOMPARE(comm->barSets().at(1)->at(a), panel.data().analysed[a].commHiddenMs);

        // The breakdown of the selected step: the categories sum to its wall.
        QTreeWidget* table = panel.breakdownView()->table();
        QVERIFY(panel.breakdownView()->caption().contains(QStringLiteral("forward_ct 1209")));
        QTreeWidgetItem* path = table->topLevelItem(0);
        QCOMPARE(path->childCount(), int(kPathCategoryCount));
        qlonglong sum = 0;
        for (int c = 0; c < path->childCount(); ++c)
            sum += path->child(c)->data(1, Qt::UserRole).toLongLong();
        const StepAnalysis& analysis = *m_analyses->analysis(*m_analyses->stepOfRecordRow(row));
        QCOMPARE(sum, qlonglong(analysis.window.wallNs()));

        // Clicking in the communication chart selects through the analysed step's record.
        activated.clear();
        panel.showChart(StepChartsPanel::Chart::Communication);
        QChartView* commView = panel.chartView(StepChartsPanel::Chart::Communication);
        const double total = panel.data().analysed[0].commExposedMs + panel.data().analysed[0].commHiddenMs;
        QTest::mouseClick(commView->viewport(), Qt::LeftButton, {}, barPoint(commView, comm, 0, total / 2));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().first().value<size_t>(), panel.data().analysed[0].recordRow);
    }

    // A long run (2,500 steps here, 200,000 in a day of serving): a bar per step would be thousands of
    // Qt Charts items (seconds to build and to paint, unreadable); the charts show bins of consecutive
    // steps instead, with means, the anomaly kept, and clicks and selection still reaching steps.
    void longRunsAreShownInBinsOfSteps()
    {
        QTemporaryDir dir;
        QByteArray lines;
        for (int k = 0; k < 2500; ++k) {
            const double verify = 20.0 + (k == 1234 ? 40.0 : (k % 5) * 0.2);
            lines += QStringLiteral(R"({"forward_ct": %1, "bs": 8, "step_gpu_ms": %2, "draft_gpu_ms": 5, )"
                                    R"("target_verify_gpu_ms": %3})")
                         .arg(1000 + k)
                         .arg(verify + 9.0)
                         .arg(verify)
                         .toUtf8() +
                     "\n";
        }
        const QString path = dir.filePath(QStringLiteral("steps.jsonl"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(lines) == lines.size());
        file.close();
        LoadOutcome loaded = loadProfile(path.toStdString());
        QVERIFY2(loaded.profile && loaded.profile->stepRecords, qPrintable(loaded.error));
        const std::shared_ptr<const StepRecordSet> set = loaded.profile->stepRecords;
        const size_t slow = 1234; // its row: one rank, rows in forward_ct order
        QCOMPARE(set->record(slow).forwardCt, int64_t(2234));
        QVERIFY(!set->anomalies[slow].isEmpty());

        const StepChartData d = StepChartData::build(set.get(), nullptr, -1);
        QCOMPARE(d.stepsPerBar, size_t(3));
        QCOMPARE(d.records.size(), size_t(834)); // 833 bins of 3, one of 1
        size_t total = 0;
        for (const StepTimeBin& b : d.histogram)
            total += size_t(b.ordinary + b.anomalous);
        QCOMPARE(total, size_t(2500)); // the histogram counts every step
        // Bin 411 holds rows 1233..1235: the mean of their verify times, and the slow step as its own.
        const StepChartRecord& bin = d.records[411];
        QCOMPARE(bin.firstRecordRow, size_t(1233));
        QCOMPARE(bin.lastRecordRow, size_t(1235));
        QCOMPARE(bin.recordRow, slow);
        QVERIFY(!bin.anomaly.isEmpty());
        QCOMPARE(*bin.verifyMs, (20.0 + 3 * 0.2 + 60.0 + 20.0) / 3); // k = 1233, 1234, 1235
        QCOMPARE(*bin.anomalyStepMs, 69.0); // its marker: at the slow step's own time, not the mean
        QVERIFY(d.records[410].anomaly.isEmpty());
        QCOMPARE(d.records.back().firstRecordRow, size_t(2499));

        StepChartsPanel panel;
        panel.resize(1000, 520);
        panel.setData(set, nullptr);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QChartView* view = panel.chartView(StepChartsPanel::Chart::StepTimes);
        QVERIFY(view->chart()->title().contains(QStringLiteral("mean of 3 steps each")));
        QAbstractBarSeries* bars = barSeries(view);
        QVERIFY(bars);
        QCOMPARE(bars->barSets().front()->count(), 834);
        // A step inside a bin selects that bin.
        panel.setCurrentRecordRow(1235);
        QVERIFY(bars->barSets().front()->isBarSelected(411));
        QCOMPARE(bars->barSets().front()->selectedBars().size(), 1);
        // Clicking the bin goes to its slow step. (A bin is about a pixel wide here: the bar series' click
        // is sent directly; clickingABarSelectsThatStepEverywhere clicks with the mouse.)
        QSignalSpy activated(&panel, &StepChartsPanel::recordRowActivated);
        Q_EMIT bars->clicked(411, bars->barSets().front());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().first().value<size_t>(), slow);
    }

    void chartsExportLikeScreenshots()
    {
        StepChartsPanel panel;
        panel.resize(900, 500);
        panel.setData(m_profile->stepRecords, m_analyses.get());
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        for (auto chart : {StepChartsPanel::Chart::StepTimes, StepChartsPanel::Chart::Histogram,
                           StepChartsPanel::Chart::Breakdown}) {
            panel.showChart(chart);
            QApplication::processEvents();
            const QSize size = panel.chartView(StepChartsPanel::Chart::StepTimes)->size();
            const QString png = m_out.filePath(QStringLiteral("chart%1.png").arg(int(chart)));
            QCOMPARE(panel.exportCurrentChart(png, 2.0), QString());
            if (chart != StepChartsPanel::Chart::Breakdown)
                QCOMPARE(QImage(png).size(), size * 2);
            else
                QVERIFY(!QImage(png).isNull());
        }
        panel.showChart(StepChartsPanel::Chart::CriticalPath);
        const QString svg = m_out.filePath(QStringLiteral("chart.svg"));
        QCOMPARE(panel.exportCurrentChart(svg), QString());
        QVERIFY(QSvgRenderer(svg).isValid());
        const QString pdf = m_out.filePath(QStringLiteral("chart.pdf"));
        QCOMPARE(panel.exportCurrentChart(pdf), QString());
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5) == "%PDF-");
        QVERIFY(!panel.exportCurrentChart(m_out.filePath(QStringLiteral("chart.bmp"))).isEmpty());
    }

    void withoutRecordsTheChartsSaySo()
    {
        StepChartsPanel panel;
        panel.setData(nullptr, nullptr);
        QVERIFY(panel.chartView(StepChartsPanel::Chart::StepTimes)
                    ->chart()
                    ->title()
                    .contains(QStringLiteral("no step records")));
        QCOMPARE(barSeries(panel.chartView(StepChartsPanel::Chart::StepTimes)), nullptr);
        QVERIFY(panel.breakdownView()->caption().startsWith(QStringLiteral("Select an aligned step")));
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
