#include "cli/CliCommand.h"

#include "demo/ClusterDemo.h"
#include "demo/DemoPairWriter.h"
#include "demo/DemoWriter.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <sstream>

namespace dspark::cli {

static bool parseCount(const QString& text, long long lo, long long hi, long long& out)
{
    bool ok = false;
    out = text.toLongLong(&ok);
    return ok && out >= lo && out <= hi;
}

// --compare: the baseline and changed runs of the comparison demo (docs/demo.md §9).
static int writePair(const demo::DemoOptions& options, const QString& outDir, const QElapsedTimer& timer)
{
    const demo::DemoPairResult result = demo::writeDemoPair(options, outDir.toStdString());
    if (!result.error.isEmpty()) {
        printError(result.error);
        return 1;
    }
    std::ostringstream out;
    out << QCoreApplication::translate("cli", "Wrote the comparison demo to").toStdString() << " " << result.outDir
        << "\n";
    for (const demo::DemoResult* run : {&result.baseline, &result.changed})
        out << "  " << run->outDir << ": " << run->iterations << " "
            << QCoreApplication::translate("cli", "iterations").toStdString() << ", " << run->counts.tasks << " "
            << QCoreApplication::translate("cli", "device tasks").toStdString() << ", " << run->records << " "
            << QCoreApplication::translate("cli", "step records").toStdString() << "\n";
    out.setf(std::ios::fixed);
    out.precision(2);
    out << "  " << QCoreApplication::translate("cli", "time").toStdString() << ": "
        << static_cast<double>(timer.nsecsElapsed()) / 1e9 << " s\n";
    printOut(out.str());
    return 0;
}

// `demo OUTDIR --ranks N`: the many-rank EP demo (docs/cluster.md); steps 0 = its default.
static int runClusterDemo(int ranks, int steps, uint64_t seed, bool defaultSeed, const QString& outDir)
{
    demo::ClusterDemoOptions options;
    options.ranks = ranks;
    if (steps > 0) {
        options.steps = steps;
        options.slowFromStep = steps * 2 / 5; // the slow window keeps its place in the run
        options.slowToStep = steps * 3 / 5;
    }
    if (!defaultSeed)
        options.seed = seed;
    const demo::ClusterDemoResult result = demo::writeClusterDemo(options, outDir.toStdString());
    if (!result.error.isEmpty()) {
        printError(result.error);
        return 1;
    }
    std::ostringstream out;
    out << QCoreApplication::translate("cli", "Wrote the %1-rank demo to").arg(ranks).toStdString() << " "
        << result.outDir << "\n"
        << "  " << QCoreApplication::translate("cli", "collectives per rank").toStdString() << ": "
        << result.collectives << "\n"
        << "  " << QCoreApplication::translate("cli", "device tasks").toStdString() << ": " << result.tasks << "\n";
    printOut(out.str());
    return 0;
}

int runDemo(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const QString usage = QCoreApplication::translate(
        "cli",
        "usage: dspark-timeline demo OUTDIR [--steps N] [--seed S] [--scale K] [--trace-json] [--compare | --ranks N]");
    demo::DemoOptions options;
    options.traceJson = takeFlag(args, QStringLiteral("--trace-json"));
    const bool pair = takeFlag(args, QStringLiteral("--compare"));
    const QString steps = takeOption(args, QStringLiteral("--steps"));
    const QString seed = takeOption(args, QStringLiteral("--seed"));
    const QString scale = takeOption(args, QStringLiteral("--scale"));
    const QString ranks = takeOption(args, QStringLiteral("--ranks"));
    long long value = 0;
    if (!steps.isNull()) {
        if (!parseCount(steps, 1, 100000, value)) {
            printError(QCoreApplication::translate("cli", "--steps must be a whole number from 1 to 100000, not \"%1\"")
                           .arg(steps));
            return 2;
        }
        options.steps = static_cast<int>(value);
    }
    if (!scale.isNull()) {
        if (!parseCount(scale, 1, 10000, value)) {
            printError(QCoreApplication::translate("cli", "--scale must be a whole number from 1 to 10000, not \"%1\"")
                           .arg(scale));
            return 2;
        }
        options.scale = static_cast<int>(value);
    }
    if (!seed.isNull()) {
        bool ok = false;
        options.seed = seed.toULongLong(&ok);
        if (!ok) {
            printError(
                QCoreApplication::translate("cli", "--seed must be a non-negative whole number, not \"%1\"").arg(seed));
            return 2;
        }
    }
    if (args.size() != 1 || args.first().startsWith(QLatin1String("--"))) {
        printError(usage);
        return 2;
    }

    if (!ranks.isNull()) {
        if (!parseCount(ranks, 2, 512, value)) {
            printError(QCoreApplication::translate("cli", "--ranks must be a whole number from 2 to 512, not \"%1\"")
                           .arg(ranks));
            return 2;
        }
        return runClusterDemo(static_cast<int>(value), steps.isNull() ? 0 : options.steps, options.seed, seed.isNull(),
                              args.first());
    }

    QElapsedTimer timer; // only reported, never written into the files
    timer.start();
    if (pair)
        return writePair(options, args.first(), timer);
    const demo::DemoResult result = demo::writeDemo(options, args.first().toStdString());
    if (!result.error.isEmpty()) {
        printError(result.error);
        return 1;
    }
    const double seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    std::ostringstream out;
    out << QCoreApplication::translate("cli", "Wrote the demo profile to").toStdString() << " " << result.outDir << "\n"
        << "  " << QCoreApplication::translate("cli", "iterations").toStdString() << ": " << result.iterations << "\n"
        << "  " << QCoreApplication::translate("cli", "device tasks").toStdString() << ": " << result.counts.tasks
        << " (" << result.counts.computeTasks << " " << QCoreApplication::translate("cli", "kernels").toStdString()
        << ")\n"
        << "  " << QCoreApplication::translate("cli", "host events").toStdString() << ": "
        << result.counts.pytorchApi + result.counts.cannApi << "\n"
        << "  " << QCoreApplication::translate("cli", "step records").toStdString() << ": " << result.records << "\n";
    if (options.traceJson)
        out << "  " << QCoreApplication::translate("cli", "trace events").toStdString() << ": " << result.traceEvents
            << "\n";
    out.setf(std::ios::fixed);
    out.precision(2);
    out << "  " << QCoreApplication::translate("cli", "time").toStdString() << ": " << seconds << " s\n";
    printOut(out.str());
    return 0;
}

} // namespace dspark::cli
