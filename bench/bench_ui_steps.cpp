// The step charts and the step table with many step records: how long the window's step panels take to
// take a long DSpark run (setData / setStepRecords) and to paint. Offscreen.
// Usage: bench_ui_steps [records...]   (default 1000 10000 50000); DSPARK_SCREENSHOT_DIR=DIR saves the charts
// Figures go to docs/performance.md ("Step records").
#include "charts/StepChartsPanel.h"
#include "io/ProfileLoader.h"
#include "steps/StepRecords.h"
#include "steps/StepTableModel.h"
#include "util/Memory.h"

#include <QApplication>
#include <QChartView>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

using namespace dspark;
using Clock = std::chrono::steady_clock;

static double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

int main(int argc, char** argv)
{
    keepFreedMemoryForReuse(); // (the allocator's settings for loading, as the app sets them)
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::vector<long> sizes;
    for (int i = 1; i < argc; ++i)
        sizes.push_back(std::stol(argv[i]));
    if (sizes.empty())
        sizes = {1000, 10000, 50000};
    QTemporaryDir dir(QStringLiteral("/tmp/bench-ui-steps-XXXXXX"));
    for (const long n : sizes) {
        // JSON Lines, one record per step: GPU segment times, two requests, every 97th step slow.
        const std::string path = dir.filePath(QStringLiteral("steps_%1.jsonl").arg(n)).toStdString();
        {
            std::ofstream out(path);
            for (long k = 0; k < n; ++k) {
                const double verify = 20.0 + (k % 97 == 0 ? 30.0 : double(k % 7) * 0.1);
                out << "{\"forward_ct\": " << 1000 + k << ", \"bs\": 8, \"step_gpu_ms\": " << verify + 9.0
                    << ", \"draft_gpu_ms\": 5.5, \"target_verify_gpu_ms\": " << verify
                    << ", \"step_cpu_ms\": " << verify + 9.5
                    << ", \"reqs\": [{\"acc_len\": 3, \"correct_drafts\": 2, \"verify_len\": 4}, "
                    << "{\"acc_len\": 2, \"correct_drafts\": 1, \"verify_len\": 4}]}\n";
            }
        }
        auto t0 = Clock::now();
        const LoadOutcome o = loadProfile(path);
        if (!o.profile || !o.profile->stepRecords) {
            std::fprintf(stderr, "load failed: %s\n", qPrintable(o.error));
            return 1;
        }
        const double load = msSince(t0);
        std::shared_ptr<const StepRecordSet> records = o.profile->stepRecords;

        StepTableModel model;
        t0 = Clock::now();
        model.setStepRecords(records);
        const double table = msSince(t0);

        ui::StepChartsPanel panel;
        panel.resize(1200, 500);
        t0 = Clock::now();
        panel.setData(records, nullptr);
        const double charts = msSince(t0);
        panel.show();
        t0 = Clock::now();
        QImage image(1200, 500, QImage::Format_ARGB32_Premultiplied);
        {
            QPainter painter(&image);
            panel.chartView(ui::StepChartsPanel::Chart::StepTimes)->render(&painter);
        }
        const double paintBars = msSince(t0);
        panel.showChart(ui::StepChartsPanel::Chart::TpotCommit);
        t0 = Clock::now();
        {
            QPainter painter(&image);
            panel.chartView(ui::StepChartsPanel::Chart::TpotCommit)->render(&painter);
        }
        const double paintLines = msSince(t0);
        if (const QString out = qEnvironmentVariable("DSPARK_SCREENSHOT_DIR"); !out.isEmpty()) {
            for (auto chart : {ui::StepChartsPanel::Chart::StepTimes, ui::StepChartsPanel::Chart::TpotCommit}) {
                panel.showChart(chart);
                panel.currentChartImage().save(
                    QStringLiteral("%1/steps-%2-chart-%3.png").arg(out).arg(n).arg(int(chart)));
            }
        }
        std::printf("%7ld records: load %.0f ms, step table %.1f ms, step charts setData %.0f ms, paint bars %.0f ms, "
                    "paint TPOT lines %.0f ms, anomalies %zu\n",
                    n, load, table, charts, paintBars, paintLines, model.anomalyCount());
        std::fflush(stdout);
    }
    return 0;
}
