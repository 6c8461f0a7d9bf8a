// Writes the demo profile at a given scale and reports how fast (docs/performance.md, "Demo writer").
// usage: bench_demo_write [SCALE=40] [--trace-json] [--keep DIR]
#include "demo/DemoWriter.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <cstdint>

#include <cstdio>
#include <filesystem>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    dspark::demo::DemoOptions options;
    options.scale = 40;
    QString keep;
    for (int i = 1; i < argc; ++i) {
        const QString a = QString::fromLocal8Bit(argv[i]);
        if (a == QLatin1String("--trace-json"))
            options.traceJson = true;
        else if (a == QLatin1String("--keep") && i + 1 < argc)
            keep = QString::fromLocal8Bit(argv[++i]);
        else
            options.scale = a.toInt();
    }
    QTemporaryDir tmp(QStringLiteral("/tmp/bench-demo-XXXXXX"));
    const QString out = keep.isEmpty() ? tmp.filePath(QStringLiteral("demo")) : keep;
    QElapsedTimer timer;
    timer.start();
    const dspark::demo::DemoResult r = dspark::demo::writeDemo(options, out.toStdString());
    const double seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    if (!r.error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(r.error));
        return 1;
    }
    std::error_code ec;
    uint64_t bytes = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(out.toStdString(), ec))
        if (e.is_regular_file(ec))
            bytes += e.file_size(ec);
    // Database rows of events: device tasks, HCCL ops, CANN calls, PyTorch ops.
    const int64_t dbEvents = r.counts.tasks + r.counts.commOps + r.counts.cannApi + r.counts.pytorchApi;
    std::printf("scale %d: %lld iterations, %lld tasks, %lld host events, %lld db events, %lld trace events, %.1f MB "
                "on disk, %.2f s, %.0f tasks/s, %.0f db events/s, %.1f MB/s\n",
                options.scale, static_cast<long long>(r.iterations), static_cast<long long>(r.counts.tasks),
                static_cast<long long>(r.counts.pytorchApi + r.counts.cannApi), static_cast<long long>(dbEvents),
                static_cast<long long>(r.traceEvents), static_cast<double>(bytes) / 1e6, seconds,
                static_cast<double>(r.counts.tasks) / seconds, static_cast<double>(dbEvents) / seconds,
                static_cast<double>(bytes) / 1e6 / seconds);
    return 0;
}
