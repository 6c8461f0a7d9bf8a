#include "cli/CliCommand.h"

#include "analysis/PlainSteps.h"
#include "cluster/ClusterLayout.h"
#include "cluster/ClusterReport.h"
#include "io/ProfileLoader.h"
#include "report/AnalyzeJson.h"
#include "report/KernelsReport.h"
#include "util/BoundedJson.h"

#include <QCoreApplication>

namespace dspark::cli {

// A folder of several ranks (or their summaries): each rank opened on its own, then compared.
static int analyzeClusterFolder(const ClusterLayout& layout, std::shared_ptr<const AnalysisRules> rules, bool asJson)
{
    ClusterLoadOptions options;
    options.load.rules = std::move(rules);
    options.keepProfiles = false; // the report reads the summaries only
    const ClusterLoad load = loadCluster(layout, {}, nullptr, options);
    if (!load.error.isEmpty()) {
        printError(load.error);
        return 1;
    }
    for (const LoadedRank& r : load.ranks)
        if (!r.ok())
            printError(QCoreApplication::translate("cli", "warning: rank %1 not opened: %2")
                           .arg(r.where.rankNumber)
                           .arg(r.error));
    for (const QString& w : layout.warnings)
        printError(QCoreApplication::translate("cli", "warning: %1").arg(w));
    const ClusterAnalysis analysis = analyzeCluster(load.summaries());
    printOut(asJson ? dumpJson(clusterJson(load, analysis), 2) + "\n" : clusterText(load, analysis));
    return 0;
}

int runAnalyze(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const bool asJson = takeFlag(args, QStringLiteral("--json"));
    const QString rulesPath = takeOption(args, QStringLiteral("--rules"));
    if (args.size() != 1 || args.first().startsWith(QLatin1String("--"))) {
        printError(QCoreApplication::translate("cli", "usage: dspark-timeline analyze PATH [--json] [--rules FILE]"));
        return 2;
    }
    const auto rules = loadRulesOption(rulesPath);
    if (!rules)
        return 1;
    const ClusterLayout layout = findClusterRanks(args.first().toStdString());
    if (layout.isCluster())
        return analyzeClusterFolder(layout, rules, asJson);
    const LoadOutcome outcome = loadForCommand(args.first(), rules);
    if (!outcome.profile) {
        printError(outcome.error);
        return 1;
    }
    warnIfStepsRefused(*outcome.profile);
    const ProfileAnalysis analysis = analyzeProfile(*outcome.profile, *rules);
    // Without aligned DSpark steps: the profile's own steps (ProfilerStep#N, scheduler iterations).
    PlainSteps plain;
    if (analysis.steps.empty())
        plain = analyzePlainSteps(*outcome.profile, *rules);
    if (asJson) {
        nlohmann::ordered_json doc = analyzeJson(*outcome.profile, analysis);
        if (!plain.steps.empty())
            doc["profiler_steps"] = plainStepsJson(*outcome.profile, plain);
        printOut(dumpJson(doc, 2) + "\n");
    } else {
        printOut(analyzeText(*outcome.profile, analysis));
        if (!plain.steps.empty())
            printOut(plainStepsText(*outcome.profile, plain));
    }
    return 0;
}

} // namespace dspark::cli
