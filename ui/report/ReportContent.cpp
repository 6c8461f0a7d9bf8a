#include "report/ReportContent.h"

#include "overlays/AnalysisPalette.h"
#include "steps/StepRecords.h"
#include "steps/StepTable.h"
#include "steps/StepTableModel.h"
#include "timeline/TimeFormat.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <algorithm>
#include <map>

namespace dspark::ui {

static const QString kSep = QStringLiteral("  ·  ");

QString profileDisplayName(const Profile& profile)
{
    QString root = QString::fromStdString(profile.rootPath);
    while (root.endsWith(QLatin1Char('/')) && root.size() > 1)
        root.chop(1);
    const QString name = QFileInfo(root).fileName();
    return name.isEmpty() ? root : name;
}

ReportHeader stepReportHeader(const Profile& profile, const StepAnalysis& analysis, const RecordWindow& step)
{
    ReportHeader h;
    const StepRecordSet* set = profile.stepRecords.get();
    const bool haveRecord = set && step.row < set->size();
    auto column = [&](StepColumn c) -> QString {
        if (!haveRecord)
            return QStringLiteral("–");
        const std::optional<double> v = stepColumnNumber(*set, step.row, c);
        return v ? StepTableModel::formatValue(c, *v) : QStringLiteral("–");
    };
    const int rank = haveRecord ? set->rows[step.row].dpRank : step.window.rankIndex;
    QStringList title;
    title << profileDisplayName(profile) << QCoreApplication::translate("ReportContent", "rank %1").arg(rank)
          << QCoreApplication::translate("ReportContent", "forward_ct %1").arg(step.window.forwardCt)
          << QCoreApplication::translate("ReportContent", "bs %1").arg(column(StepColumn::Bs))
          << QCoreApplication::translate("ReportContent", "verify tokens %1").arg(column(StepColumn::NumVerifyTokens))
          << QCoreApplication::translate("ReportContent", "step wall %1").arg(formatDuration(step.window.wallNs()))
          << QCoreApplication::translate("ReportContent", "effective TPOT %1").arg(column(StepColumn::EffectiveTpotMs));
    h.title = title.join(kSep);

    if (haveRecord) {
        QStringList rec;
        rec << QCoreApplication::translate("ReportContent", "record: step GPU %1").arg(column(StepColumn::StepGpuMs))
            << QCoreApplication::translate("ReportContent", "draft GPU %1").arg(column(StepColumn::DraftGpuMs))
            << QCoreApplication::translate("ReportContent", "verify GPU %1").arg(column(StepColumn::TargetVerifyGpuMs))
            << QCoreApplication::translate("ReportContent", "out of segment %1").arg(column(StepColumn::UnattributedMs))
            << QCoreApplication::translate("ReportContent", "mean commit length %1")
                   .arg(column(StepColumn::MeanCommitLen));
        h.details << rec.join(kSep);
    }

    const TimeNs wall = std::max<TimeNs>(1, analysis.window.wallNs());
    std::vector<std::pair<TimeNs, PathCategory>> cats;
    for (size_t c = 0; c < kPathCategoryCount; ++c)
        if (analysis.criticalPath.byCategory[c] > 0)
            cats.emplace_back(analysis.criticalPath.byCategory[c], PathCategory(c));
    std::stable_sort(cats.begin(), cats.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    QStringList path;
    for (const auto& [ns, c] : cats)
        path << QStringLiteral("%1 %2 (%3 %)")
                    .arg(pathCategoryLabel(c), formatDuration(ns))
                    .arg(100.0 * double(ns) / double(wall), 0, 'f', 1);
    if (!path.isEmpty())
        h.details << QCoreApplication::translate("ReportContent", "critical path: %1").arg(path.join(kSep));

    QStringList comm;
    comm << QCoreApplication::translate("ReportContent", "communication: %1 in flight, %2 exposed (%n operation(s))",
                                        nullptr, int(analysis.comm.operations.size()))
                .arg(formatDuration(analysis.comm.totalNs), formatDuration(analysis.comm.exposedNs));
    if (!analysis.replay.replays.empty())
        comm << QCoreApplication::translate("ReportContent", "pre-replay host gap %1")
                    .arg(formatDuration(analysis.replay.preReplayGapNs));
    if (analysis.bands.hostGapNs > 0)
        comm << QCoreApplication::translate("ReportContent", "host gap before next step %1")
                    .arg(formatDuration(analysis.bands.hostGapNs));
    h.details << comm.join(kSep);

    if (haveRecord && step.row < set->anomalies.size() && !set->anomalies[step.row].isEmpty())
        h.warning = QCoreApplication::translate("ReportContent", "Anomaly: %1").arg(set->anomalies[step.row]);
    return h;
}

ReportHeader rangeReportHeader(const Profile& profile, TimeNs startNs, TimeNs endNs)
{
    ReportHeader h;
    QStringList title;
    title << profileDisplayName(profile);
    if (profile.ranks.size() == 1)
        title << QString::fromStdString(profile.ranks.front().label);
    else
        title << QCoreApplication::translate("ReportContent", "%n rank(s)", nullptr, int(profile.ranks.size()));
    // What the picture is: the whole profile, or which part of it (offsets from the profile start).
    const TimeNs first = profile.firstNs(), last = profile.lastNs();
    if (startNs <= first && endNs >= last)
        title << QCoreApplication::translate("ReportContent", "the whole profile (%1)")
                     .arg(formatDuration(endNs - startNs));
    else
        title << QCoreApplication::translate("ReportContent", "%1 to %2 after the profile start (%3)")
                     .arg(formatDuration(std::max<TimeNs>(0, startNs - first)),
                          formatDuration(std::max<TimeNs>(0, endNs - first)), formatDuration(endNs - startNs));
    h.title = QCoreApplication::translate("ReportContent", "Timeline of %1").arg(title.join(kSep));
    return h;
}

std::vector<LegendItem> analysisLegend(const ReportParts& parts, const std::vector<const StepAnalysis*>& shown)
{
    using S = LegendItem::Swatch;
    std::vector<LegendItem> items;
    if (!parts.legend)
        return items;
    auto any = [&](auto&& has) { return std::any_of(shown.begin(), shown.end(), has); };
    if (parts.stageBands) {
        const std::pair<Stage, std::optional<StageBand> StepBands::*> stages[] = {{Stage::Draft, &StepBands::draft},
                                                                                  {Stage::Planner, &StepBands::planner},
                                                                                  {Stage::Verify, &StepBands::verify},
                                                                                  {Stage::Accept, &StepBands::accept},
                                                                                  {Stage::Commit, &StepBands::commit}};
        for (const auto& [stage, band] : stages)
            if (any([band](const StepAnalysis* a) { return (a->bands.*band).has_value(); }))
                items.push_back({S::Band, AnalysisPalette::stage(stage), stageLabel(stage)});
        if (any([](const StepAnalysis* a) { return a->bands.plannerGapNs > 0; }))
            items.push_back(
                {S::Hatch, AnalysisPalette::plannerGap(), QCoreApplication::translate("ReportContent", "Planner gap")});
        if (any([](const StepAnalysis* a) { return a->bands.hostGapNs > 0; }))
            items.push_back({S::Hatch, AnalysisPalette::hostGap(),
                             QCoreApplication::translate("ReportContent", "Host gap before next step")});
        if (any([](const StepAnalysis* a) { return !a->replay.replays.empty(); }))
            items.push_back({S::BackHatch, AnalysisPalette::replayGap(),
                             QCoreApplication::translate("ReportContent", "Device idle before graph replay")});
    }
    if (parts.commBrackets && any([](const StepAnalysis* a) { return !a->comm.operations.empty(); })) {
        items.push_back({S::Bar, AnalysisPalette::commInflight(),
                         QCoreApplication::translate("ReportContent", "Communication in flight (issue → wait)")});
        if (any([](const StepAnalysis* a) { return a->comm.exposedNs > 0; }))
            items.push_back({S::Bar, AnalysisPalette::commExposed(),
                             QCoreApplication::translate("ReportContent", "Exposed: the consumer waited")});
    }
    if (parts.criticalPath && any([](const StepAnalysis* a) { return !a->criticalPath.hops.empty(); }))
        items.push_back({S::Outline, AnalysisPalette::criticalPath(),
                         QCoreApplication::translate("ReportContent", "Critical path")});
    return items;
}

// Sorted, overlapping and touching intervals merged.
static std::vector<Interval> mergedIntervals(std::vector<Interval> v)
{
    std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.startNs < b.startNs; });
    std::vector<Interval> out;
    for (const Interval& i : v) {
        if (!out.empty() && i.startNs <= out.back().endNs)
            out.back().endNs = std::max(out.back().endNs, i.endNs);
        else
            out.push_back(i);
    }
    return out;
}

std::vector<SummaryRow> stepSummaryRows(const StepAnalysis& analysis, const ReportParts& parts)
{
    std::vector<SummaryRow> rows;
    const StepWindow& w = analysis.window;
    const TimeNs wall = std::max<TimeNs>(1, w.wallNs());
    auto percent = [wall](TimeNs ns) { return QString::number(100.0 * double(ns) / double(wall), 'f', 0); };
    // Exposed communication by the stream that waited for it (-2: the host; -1: consumed in its own stream).
    std::map<int64_t, std::vector<Interval>> byStream;
    for (const CommOperation& op : analysis.comm.operations) {
        if (!parts.commBrackets)
            break;
        const Interval e = op.exposedInterval();
        if (e.endNs <= e.startNs)
            continue;
        const int64_t key = op.waitOnHost ? -2 : op.waitStreamId >= 0 ? op.waitStreamId : op.streamId;
        byStream[key].push_back({std::max(e.startNs, w.startNs), std::min(e.endNs, w.endNs)});
    }
    for (auto& [stream, list] : byStream) {
        SummaryRow row;
        for (const Interval& i : mergedIntervals(std::move(list)))
            if (i.endNs > i.startNs) {
                row.pieces.push_back({i, AnalysisPalette::commExposed(), QString()});
                row.totalNs += i.endNs - i.startNs;
            }
        const QString where = stream == -2 ? QCoreApplication::translate("ReportContent", "host")
                                           : QCoreApplication::translate("ReportContent", "stream %1").arg(stream);
        row.label = QCoreApplication::translate("ReportContent", "Exposed communication, %1").arg(where);
        row.total = QCoreApplication::translate("ReportContent", "%1, %2 % of the step")
                        .arg(formatDuration(row.totalNs), percent(row.totalNs));
        rows.push_back(std::move(row));
    }
    // The critical path, longest category first, laid end to end from the window start: to scale.
    std::vector<std::pair<TimeNs, PathCategory>> cats;
    for (size_t c = 0; c < kPathCategoryCount; ++c)
        if (analysis.criticalPath.byCategory[c] > 0)
            cats.emplace_back(analysis.criticalPath.byCategory[c], PathCategory(c));
    std::stable_sort(cats.begin(), cats.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    if (!cats.empty() && parts.criticalPath) {
        SummaryRow row;
        TimeNs t = w.startNs;
        for (const auto& [ns, c] : cats) {
            row.pieces.push_back({{t, t + ns},
                                  AnalysisPalette::category(c),
                                  QStringLiteral("%1 %2 %").arg(pathCategoryLabel(c), percent(ns))});
            t += ns;
            row.totalNs += ns;
        }
        row.label = QCoreApplication::translate("ReportContent", "Critical path by category");
        row.total = QCoreApplication::translate("ReportContent", "%1 = the step wall").arg(formatDuration(row.totalNs));
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace dspark::ui
