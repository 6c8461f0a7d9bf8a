#include "cli/CliCommand.h"

#include "analysis/PlainSteps.h"
#include "io/ProfileLoader.h"
#include "report/AnalyzeJson.h"
#include "report/KernelsReport.h"
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
