#include "cli/CliCommand.h"

#include "analysis/AnalysisRules.h"
#include "compare/CompareReport.h"
#include "compare/OpenComparison.h"
#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"
#include "util/BoundedJson.h"

#include <QCoreApplication>

namespace dspark::cli {

namespace {

QString usage()
{
    return QCoreApplication::translate("cli", "usage: dspark-timeline compare BASELINE CHANGED [--json|--csv|--md] "
                                              "[--class MODE:BS:VT]");
}

} // namespace

int runCompare(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const bool asJson = takeFlag(args, QStringLiteral("--json"));
    const bool asCsv = takeFlag(args, QStringLiteral("--csv"));
    const bool asMd = takeFlag(args, QStringLiteral("--md"));
    const QString classText = takeOption(args, QStringLiteral("--class"));
    CompareOptions options;
    if (!classText.isEmpty()) {
        options.onlyClass = StepClass::parse(classText);
        if (!options.onlyClass) {
            printError(
                QCoreApplication::translate("cli", "--class %1: expected MODE:BS:VT, e.g. static:8:16").arg(classText));
            return 2;
        }
    }
    if (args.size() != 2 || args[0].startsWith(QLatin1String("--")) || args[1].startsWith(QLatin1String("--")) ||
        int(asJson) + int(asCsv) + int(asMd) > 1) {
        printError(usage());
        return 2;
    }
    const auto rules = std::make_shared<const AnalysisRules>(AnalysisRules::load({}, nullptr));
    // Side by side (a comparison costs about what the slower side costs alone: docs/performance.md).
    AnalysedPair runs = loadAndAnalyseBoth(args[0], args[1], rules, sideBySideLoaderThreads(), options);
    AnalysedRun& base = runs.baseline;
    AnalysedRun& changed = runs.changed;
    for (const AnalysedRun* side : {&base, &changed})
        if (!side->outcome.profile) {
            printError(side->outcome.error);
            return 1;
        }
    warnIfStepsRefused(*base.outcome.profile);
    warnIfStepsRefused(*changed.outcome.profile);

    const RunComparison comparison = compareRuns(base.side, changed.side, options);
    if (asCsv) {
        printOut(pairTableCsv(comparison));
        return 0;
    }
    if (asMd) {
        printOut(pairTableMarkdown(comparison));
        return 0;
    }
    const std::vector<PairKernels> kernels = alignMatchedPairs(comparison, *base.session, *changed.session);
    if (asJson)
        printOut(dumpJson(comparisonJson(comparison, kernels), 2) + "\n");
    else
        printOut(comparisonText(comparison, kernels));
    return 0;
}

} // namespace dspark::cli
