#include "cli/CliCommand.h"

#include "analysis/KernelSummary.h"
#include "analysis/PlainSteps.h"
#include "analysis/StepAnalysis.h"
#include "report/KernelsReport.h"
#include "util/BoundedJson.h"

#include <QCoreApplication>

#include <optional>
#include <sstream>

namespace dspark::cli {

namespace {

struct KernelsArgs {
    bool json = false, csv = false;
    std::optional<int64_t> step;
    std::optional<double> fromMs, toMs;
    std::optional<int> rank; // rank number
};

QString usage()
{
    return QCoreApplication::translate(
        "cli", "usage: dspark-timeline kernels PATH [--step N|--from MS --to MS] [--rank R] [--json|--csv]");
}

// 0, else the exit code (the message printed).
int parseArgs(QStringList& args, KernelsArgs& out)
{
    out.json = takeFlag(args, QStringLiteral("--json"));
    out.csv = takeFlag(args, QStringLiteral("--csv"));
    const QString step = takeOption(args, QStringLiteral("--step"));
    const QString from = takeOption(args, QStringLiteral("--from"));
    const QString to = takeOption(args, QStringLiteral("--to"));
    const QString rank = takeOption(args, QStringLiteral("--rank"));
    if (args.size() != 1 || args.first().startsWith(QLatin1String("--")) || (out.json && out.csv)) {
        printError(usage());
        return 2;
    }
    bool ok = true;
    if (!step.isEmpty())
        out.step = step.toLongLong(&ok);
    if (ok && !rank.isEmpty())
        out.rank = rank.toInt(&ok);
    for (auto [text, value] : {std::pair{&from, &out.fromMs}, std::pair{&to, &out.toMs}})
        if (ok && !text->isEmpty()) {
            *value = text->toDouble(&ok);
            ok = ok && **value >= 0;
        }
    if (!ok) {
        printError(QCoreApplication::translate("cli", "kernels: --step and --rank take integers, --from and --to "
                                                      "milliseconds from the start (0 or more)"));
        return 2;
    }
    if (out.fromMs && out.toMs && *out.toMs <= *out.fromMs) {
        printError(QCoreApplication::translate("cli", "kernels: --to must be after --from"));
        return 2;
    }
    return 0;
}

int rankIndexOf(const Profile& profile, int rankNumber)
{
    for (size_t i = 0; i < profile.ranks.size(); ++i)
        if (profile.ranks[i].rankNumber == rankNumber)
            return static_cast<int>(i);
    return -2; // no such rank: nothing matches
}

// The query of --step / --from / --to: a DSpark step (with its stage bands, kept in `analysis`), else a
// step of the profile's own steps. Empty message when found.
QString resolveStep(const Profile& profile, const AnalysisRules& rules, const KernelsArgs& a, KernelQuery& q,
                    std::optional<StepAnalysis>& analysis)
{
    if (!a.step)
        return {};
    for (const RecordWindow& w : stepWindows(profile, rules.rule(RuleId::StepSpan)))
        if (w.window.forwardCt == *a.step && (q.rankIndex < 0 || w.window.rankIndex == q.rankIndex)) {
            const StepAnalyzer analyzer(profile, rules);
            analysis = analyzer.analyze(w.window);
            q.fromNs = w.window.startNs;
            q.toNs = w.window.horizonNs();
            q.rankIndex = w.window.rankIndex;
            q.bands = &analysis->bands;
            return {};
        }
    const PlainSteps plain = findPlainSteps(profile, rules);
    for (const PlainStep& s : plain.steps)
        if (s.window.forwardCt == *a.step && (q.rankIndex < 0 || s.window.rankIndex == q.rankIndex)) {
            q.fromNs = s.window.startNs;
            q.toNs = s.deviceEndNs;
            q.rankIndex = s.window.rankIndex;
            q.step = *a.step;
            return {};
        }
    return QCoreApplication::translate("cli", "%1: no step %2 (neither a DSpark step record on the timeline nor a "
                                              "step of the profile: %3)")
        .arg(QString::fromStdString(profile.rootPath))
        .arg(*a.step)
        .arg(plain.steps.empty() ? stepSourceText(StepSource::None) : stepSourceText(plain.source));
}

std::string textReport(const KernelSummary& s)
{
    std::ostringstream out;
    out << kernelSourceText(s).toStdString() << "\n";
    if (!s.note.isEmpty())
        out << s.note.toStdString() << "\n";
    std::vector<bool> right(9, true);
    right[0] = right[1] = false;
    out << alignedColumns(kernelRowsText(s.kernels), right) << "\n";
    std::vector<bool> groupRight(8, true);
    groupRight[0] = false;
    out << alignedColumns(kernelGroupRowsText(s.byCore, QCoreApplication::translate("KernelsReport", "Core")),
                          groupRight);
    if (!s.byStage.empty())
        out << "\n"
            << alignedColumns(kernelGroupRowsText(s.byStage, QCoreApplication::translate("KernelsReport", "Stage")),
                              groupRight);
    return out.str();
}

} // namespace

int runKernels(const QStringList& argsIn)
{
    QStringList args = argsIn;
    KernelsArgs a;
    if (const int rc = parseArgs(args, a))
        return rc;
    const auto rules = std::make_shared<const AnalysisRules>(AnalysisRules::load({}, nullptr));
    const LoadOutcome outcome = loadForCommand(args.first(), rules);
    if (!outcome.profile) {
        printError(outcome.error);
        return 1;
    }
    const Profile& profile = *outcome.profile;
    KernelQuery q;
    if (a.rank)
        q.rankIndex = rankIndexOf(profile, *a.rank);
    std::optional<StepAnalysis> analysis;
    if (const QString error = resolveStep(profile, *rules, a, q, analysis); !error.isEmpty()) {
        printError(error);
        return 1;
    }
    // --from / --to: ms after the step's start, else after the profile's first event.
    const TimeNs origin = a.step ? q.fromNs : profile.firstNs();
    if (a.fromMs)
        q.fromNs = origin + static_cast<TimeNs>(*a.fromMs * 1e6);
    if (a.toMs)
        q.toNs = origin + static_cast<TimeNs>(*a.toMs * 1e6);
    if (a.fromMs || a.toMs)
        q.step.reset(); // a part of a step: the CSV is filtered by time
    const KernelSummary summary = summarizeKernels(profile, q, *rules);
    if (a.json)
        printOut(dumpJson(kernelsJson(summary, q), 2) + "\n");
    else if (a.csv)
        printOut(kernelsCsv(summary));
    else
        printOut(textReport(summary));
    return 0;
}

} // namespace dspark::cli
