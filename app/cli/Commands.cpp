#include "cli/CliCommand.h"

#include <QCoreApplication>

#include <cstdio>
#include <iostream>

namespace dspark::cli {

const std::vector<Command>& commands()
{
    static const std::vector<Command> list = {
        {"info", "info PATH [--json]", QT_TRANSLATE_NOOP("cli", "List the files, ranks, lanes and totals of a profile"),
         false, &runInfo},
        {"analyze", "analyze PATH [--json] [--rules FILE]",
         QT_TRANSLATE_NOOP("cli", "Stage bands, communication waits, pre-replay gaps and critical path per step; "
                                  "overlap per device"),
         false, &runAnalyze},
        {"steps", "steps PATH [--csv|--json] [--rank R] [--anomaly-threshold Z]",
         QT_TRANSLATE_NOOP("cli", "Print the DSpark step table: derived columns, anomalies, timeline alignment"), false,
         &runSteps},
        {"demo", "demo OUTDIR [--steps N] [--seed S] [--scale K] [--trace-json]",
         QT_TRANSLATE_NOOP("cli", "Write the simulated DeepSeek-V4 + DSpark demo profile with its ground truth"), false,
         &runDemo},
        {"export",
         "export PATH --step N --out FILE [--width W] [--height H] [--lanes PATTERN] [--scale S] [--rank R] "
         "[--from MS] [--to MS] [--annotations FILE] [--no-annotations] [--no-legend]",
         QT_TRANSLATE_NOOP("cli", "Render a step (or the whole profile) with its analyses to PNG, SVG or PDF"), true,
         &runExport},
    };
    return list;
}

const Command* findCommand(const QString& name)
{
    for (const Command& c : commands())
        if (name == QLatin1String(c.name))
            return &c;
    return nullptr;
}

void printError(const QString& message)
{
    std::fflush(stdout);
    const QByteArray line = (QStringLiteral("dspark-timeline: ") + message.simplified()).toUtf8();
    std::fprintf(stderr, "%s\n", line.constData());
    std::fflush(stderr);
}

void printOut(const std::string& text)
{
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

QString takeOption(QStringList& args, const QString& name, const QString& fallback)
{
    const int i = args.indexOf(name);
    if (i < 0 || i + 1 >= args.size())
        return fallback;
    const QString value = args.at(i + 1);
    args.remove(i, 2);
    return value;
}

bool takeFlag(QStringList& args, const QString& name)
{
    return args.removeAll(name) > 0;
}

} // namespace dspark::cli
