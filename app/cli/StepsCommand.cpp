#include "cli/CliCommand.h"

#include "analysis/PlainSteps.h"
#include "io/ProfileLoader.h"
#include "report/KernelsReport.h"
#include "report/StepsJson.h"
#include "steps/StepRecords.h"
#include "steps/StepTable.h"
#include "steps/StepTableModel.h"
#include "util/BoundedJson.h"

#include <QCoreApplication>

#include <sstream>

namespace dspark::cli {

// What the step records were aligned against, in words (`--json` keeps stepAlignMethodName's identifier).
static QString alignMethodText(StepAlignMethod method)
{
    switch (method) {
    case StepAlignMethod::None: return QCoreApplication::translate("cli", "none");
    case StepAlignMethod::StepSpans:
        return QCoreApplication::translate("cli", "the trace's step spans (batch size and token counts checked)");
    case StepAlignMethod::StepTimeSpans:
        return QCoreApplication::translate("cli", "the trace's STEP_TIME spans (nothing to check them by)");
    case StepAlignMethod::ProfilerStepSpans:
        return QCoreApplication::translate("cli", "the trace's ProfilerStep spans (nothing to check them by)");
    }
    return QString();
}

// Columns of the human table (the JSON / CSV carry all of them).
static const StepColumn kTableColumns[] = {
    StepColumn::Rank,
    StepColumn::ForwardCt,
    StepColumn::Bs,
    StepColumn::NumVerifyTokens,
    StepColumn::StepCpuMs,
    StepColumn::StepGpuMs,
    StepColumn::DraftGpuMs,
    StepColumn::TargetVerifyGpuMs,
    StepColumn::UnattributedMs,
    StepColumn::MeanCommitLen,
    StepColumn::AcceptanceRate,
    StepColumn::EffectiveTpotMs,
};

static std::string humanTable(const Profile& profile, const StepsReportOptions& options)
{
    const StepRecordSet& set = *profile.stepRecords;
    const std::vector<QString> anomalies = stepAnomalyTexts(profile, options);
    const bool aligned = set.alignment.aligned() && set.alignment.rows.size() == set.rows.size();

    std::vector<std::vector<QString>> cells;
    std::vector<QString> header;
    for (StepColumn c : kTableColumns) {
        const StepColumnInfo& info = stepColumnInfo(c);
        QString h = QCoreApplication::translate("StepTable", info.header);
        if (*info.unit && c != StepColumn::AcceptanceRate)
            h += QStringLiteral(" (%1)").arg(QLatin1String(info.unit));
        header.push_back(h);
    }
    if (aligned)
        header.push_back(QCoreApplication::translate("StepTable", "Timeline"));
    header.push_back(QCoreApplication::translate("StepTable", "Anomaly"));
    size_t shown = 0, flagged = 0;
    for (size_t i = 0; i < set.rows.size(); ++i) {
        if (options.rank && *options.rank != set.rows[i].dpRank)
            continue;
        ++shown;
        std::vector<QString> row;
        for (StepColumn c : kTableColumns) {
            QString text = QStringLiteral("-");
            if (const std::optional<double> v = stepColumnNumber(set, i, c))
                text = StepTableModel::formatValue(c, *v);
            if (*stepColumnInfo(c).unit)
                text.remove(QStringLiteral(" ms")).remove(QStringLiteral(" %"));
            row.push_back(text);
        }
        if (aligned) {
            // The words of the step table's Timeline column (translated), not the JSON identifiers.
            const QString match = stepMatchText(set.alignment.rows[i].status);
            row.push_back(match.isEmpty() ? QStringLiteral("-") : match);
        }
        if (!anomalies[i].isEmpty())
            ++flagged;
        row.push_back(anomalies[i]);
        cells.push_back(std::move(row));
    }
    // Padded by terminal columns (a CJK header is twice as wide as its character count); numbers to
    // the right, the Timeline words and the anomaly reasons to the left.
    std::ostringstream out;
    std::vector<bool> right(header.size(), true);
    right.back() = false;
    if (aligned)
        right[right.size() - 2] = false;
    cells.insert(cells.begin(), header);
    out << alignedColumns(cells, right);

    out << "\n"
        << QCoreApplication::translate("cli", "%1 steps, %2 anomalous").arg(shown).arg(flagged).toStdString() << "\n";
    for (const StableWindow& w : set.stableWindows) {
        if (options.rank && *options.rank != w.dpRank)
            continue;
        out << QCoreApplication::translate("cli", "stable window, rank %1: forward_ct %2-%3 (%4 steps%5)")
                   .arg(w.dpRank)
                   .arg(w.firstForwardCt)
                   .arg(w.lastForwardCt)
                   .arg(w.steps)
                   .arg(w.bs ? QStringLiteral(", bs=%1").arg(*w.bs) : QString())
                   .toStdString()
            << "\n";
    }
    if (set.alignment.aligned()) {
        const StepAlignment& a = set.alignment;
        out << QCoreApplication::translate(
                   "cli",
                   "alignment: %1, agreement %2 (%3 of %4 compared steps agree; %5 mismatched, %6 not in the trace, "
                   "%7 trace steps without record)")
                   .arg(alignMethodText(a.method))
                   .arg(a.agreement ? QString::number(*a.agreement, 'f', 3)
                                    : QCoreApplication::translate("cli", "not measurable"))
                   .arg(a.agreeing)
                   .arg(a.compared)
                   .arg(a.mismatched)
                   .arg(a.noTraceStep)
                   .arg(a.unmatchedTraceSteps.size())
                   .toStdString()
            << "\n";
        for (const QString& n : a.notes)
            out << "  " << n.toStdString() << "\n";
    } else {
        for (const QString& n : set.alignment.notes)
            out << n.toStdString() << "\n";
    }
    for (const QString& w : profile.warnings)
        out << QCoreApplication::translate("cli", "warning: %1").arg(w).toStdString() << "\n";
    return out.str();
}

std::string plainStepsText(const Profile& profile, const PlainSteps& steps)
{
    std::ostringstream out;
    out << QCoreApplication::translate("cli", "No DSpark step records: the steps are %1.")
               .arg(stepSourceText(steps.source))
               .toStdString()
        << "\n";
    const auto rows = plainStepsRowsText(profile, steps);
    std::vector<bool> right(rows.front().size(), true);
    right[right.size() - 1] = right[right.size() - 2] = right[right.size() - 3] = false;
    out << alignedColumns(rows, right);
    size_t flagged = 0;
    for (const PlainStep& s : steps.steps)
        flagged += !s.anomaly.isEmpty();
    out << "\n"
        << QCoreApplication::translate("cli", "%1 steps, %2 anomalous")
               .arg(steps.steps.size())
               .arg(flagged)
               .toStdString()
        << "\n";
    return out.str();
}

// --rank R on plain steps: keeps the steps of rank number R (anomalies are per rank already); false,
// with the ranks that have steps named, when R has none.
static bool keepRank(const Profile& profile, PlainSteps& steps, int rank, const QString& path)
{
    const auto rankNumber = [&profile](const PlainStep& s) { return rankNumberOf(profile, s.window.rankIndex); };
    QStringList have;
    for (const PlainStep& s : steps.steps)
        if (const QString n = QString::number(rankNumber(s)); !have.contains(n))
            have << n;
    std::erase_if(steps.steps, [&](const PlainStep& s) { return rankNumber(s) != rank; });
    if (!steps.steps.empty())
        return true;
    printError(QCoreApplication::translate("cli", "%1: no steps for rank %2 (ranks: %3)")
                   .arg(path)
                   .arg(rank)
                   .arg(have.join(QStringLiteral(", "))));
    return false;
}

// `steps` on a profile without DSpark records: its own steps, or the error when it has none.
static int printPlainSteps(const Profile& profile, const QString& path, bool asJson, bool asCsv,
                           const StepsReportOptions& options)
{
    const auto rules = std::make_shared<const AnalysisRules>(AnalysisRules::load({}, nullptr));
    PlainSteps steps =
        analyzePlainSteps(profile, *rules, options.anomalies ? options.anomalies->robustZ : AnomalyOptions().robustZ);
    if (options.rank && !steps.steps.empty() && !keepRank(profile, steps, *options.rank, path))
        return 1;
    if (steps.steps.empty()) {
        printError(QCoreApplication::translate(
                       "cli", "%1: no DSpark step records found (expected a server_info JSON, a dspark_info_record or "
                              "JSON Lines of DecodeStepRecords), and no ProfilerStep#N, STEP_TIME or scheduler "
                              "iteration spans on the timeline")
                       .arg(path));
        return 1;
    }
    if (asJson)
        printOut(dumpJson(plainStepsJson(profile, steps), 2) + "\n");
    else if (asCsv)
        printOut(plainStepsCsv(profile, steps));
    else
        printOut(plainStepsText(profile, steps));
    return 0;
}

int runSteps(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const bool asJson = takeFlag(args, QStringLiteral("--json"));
    const bool asCsv = takeFlag(args, QStringLiteral("--csv"));
    const QString rankText = takeOption(args, QStringLiteral("--rank"));
    const QString thresholdText = takeOption(args, QStringLiteral("--anomaly-threshold"));
    if (args.size() != 1 || (asJson && asCsv) || args.first().startsWith(QLatin1String("--"))) {
        printError(QCoreApplication::translate(
            "cli", "usage: dspark-timeline steps PATH [--csv|--json] [--rank R] [--anomaly-threshold Z]"));
        return 2;
    }
    StepsReportOptions options;
    if (!rankText.isEmpty()) {
        bool ok = false;
        options.rank = rankText.toInt(&ok);
        if (!ok) {
            printError(QCoreApplication::translate("cli", "--rank expects a number, got \"%1\"").arg(rankText));
            return 2;
        }
    }
    if (!thresholdText.isEmpty()) {
        bool ok = false;
        AnomalyOptions ao;
        ao.robustZ = thresholdText.toDouble(&ok);
        if (!ok || ao.robustZ <= 0) {
            printError(QCoreApplication::translate("cli", "--anomaly-threshold expects a positive number, got \"%1\"")
                           .arg(thresholdText));
            return 2;
        }
        options.anomalies = ao;
    }
    const LoadOutcome outcome = loadForCommand(args.first());
    if (!outcome.profile) {
        printError(outcome.error);
        return 1;
    }
    const Profile& profile = *outcome.profile;
    warnIfStepsRefused(profile);
    if (!profile.stepRecords || profile.stepRecords->empty())
        return printPlainSteps(profile, args.first(), asJson, asCsv, options);
    if (options.rank) {
        bool found = false;
        QStringList have;
        for (const RankStepRecords& r : profile.stepRecords->ranks) {
            found = found || r.dpRank == *options.rank;
            have << QString::number(r.dpRank);
        }
        if (!found) {
            printError(QCoreApplication::translate("cli", "%1: no step records for rank %2 (ranks: %3)")
                           .arg(args.first())
                           .arg(*options.rank)
                           .arg(have.join(QStringLiteral(", "))));
            return 1;
        }
    }
    if (asJson) {
        std::string buffer; // written a megabyte at a time
        writeStepsJson(profile, options, [&](const std::string& text) {
            buffer += text;
            if (buffer.size() >= (1 << 20)) {
                printOut(buffer);
                buffer.clear();
            }
        });
        printOut(buffer);
    } else if (asCsv)
        printOut(stepsCsv(profile, options));
    else
        printOut(humanTable(profile, options));
    return 0;
}

} // namespace dspark::cli
