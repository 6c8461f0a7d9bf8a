#include "cli/CliCommand.h"

#include "io/ProfileLoader.h"
#include "report/AnalyzeJson.h"
#include "util/BoundedJson.h"

#include <QCoreApplication>

namespace dspark::cli {

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
