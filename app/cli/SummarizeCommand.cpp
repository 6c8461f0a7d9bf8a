#include "cli/CliCommand.h"

#include "analysis/AnalysisRules.h"
#include "cluster/RankSummary.h"

#include <QCoreApplication>
#include <QFile>
#include <QSaveFile>

namespace dspark::cli {

// `summarize RANKDIR --out FILE.json`: the per-rank summary a cluster opens instead of the rank's events
// (docs/cluster.md), made where the data is.
int runSummarize(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const QString out = takeOption(args, QStringLiteral("--out"));
    const QString rankText = takeOption(args, QStringLiteral("--rank"));
    const QString rulesPath = takeOption(args, QStringLiteral("--rules"));
    if (args.size() != 1 || args.first().startsWith(QLatin1String("--")) || out.isEmpty()) {
        printError(QCoreApplication::translate(
            "cli", "usage: dspark-timeline summarize RANKDIR --out FILE.json [--rank R] [--rules FILE]"));
        return 2;
    }
    const auto rules = loadRulesOption(rulesPath);
    if (!rules)
        return 1;
    const LoadOutcome outcome = loadForCommand(args.first(), rules);
    if (!outcome.profile) {
        printError(outcome.error);
        return 1;
    }
    const Profile& profile = *outcome.profile;
    int rankIndex = profile.ranks.size() == 1 ? 0 : -1;
    bool ok = true;
    const int wanted = rankText.isNull() ? -1 : rankText.toInt(&ok);
    for (size_t i = 0; i < profile.ranks.size() && wanted >= 0; ++i)
        if (profile.ranks[i].rankNumber == wanted)
            rankIndex = static_cast<int>(i);
    if (!ok || (wanted >= 0 && (rankIndex < 0 || profile.ranks[rankIndex].rankNumber != wanted)) || rankIndex < 0) {
        printError(QCoreApplication::translate("cli", "%1 holds %2 rank(s); name the one to summarize with --rank R")
                       .arg(args.first())
                       .arg(profile.ranks.size()));
        return 2;
    }
    const RankSummary summary = summarizeRank(profile, rankIndex, *rules, outcome.profile->rootPath);
    QSaveFile file(out);
    const std::string text = rankSummaryJson(summary);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0 ||
        !file.commit()) {
        printError(QCoreApplication::translate("cli", "%1: cannot write the file (%2)").arg(out, file.errorString()));
        return 1;
    }
    return 0;
}

} // namespace dspark::cli
