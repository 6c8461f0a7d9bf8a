#include "cli/CliCommand.h"

#include "cluster/ClusterLayout.h"
#include "cluster/ClusterReport.h"
#include "io/ProfileLoader.h"
#include "report/AnalyzeJson.h"
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
    QString rulesError;
    const auto rules = std::make_shared<const AnalysisRules>(AnalysisRules::load(rulesPath, &rulesError));
    if (!rulesError.isEmpty()) {
        printError(rulesError);
        return 1;
    }
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
    if (asJson)
        printOut(dumpJson(analyzeJson(*outcome.profile, analysis), 2) + "\n");
    else
        printOut(analyzeText(*outcome.profile, analysis));
    return 0;
}

} // namespace dspark::cli
