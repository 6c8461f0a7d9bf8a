#include "report/ReportContent.h"

#include "overlays/AnalysisPalette.h"
#include "steps/StepRecords.h"
#include "steps/StepTable.h"
#include "steps/StepTableModel.h"
#include "timeline/TimeFormat.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <algorithm>

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
    const int rank = haveRecord ? set->rows[step.row].rank : step.window.rank;
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
    title << QCoreApplication::translate("ReportContent", "span %1").arg(formatDuration(endNs - startNs))
          << QCoreApplication::translate("ReportContent", "from %1 after the profile start")
                 .arg(formatDuration(startNs - profile.firstNs()));
    h.title = title.join(kSep);
    return h;
}

std::vector<LegendItem> analysisLegend(const ReportParts& parts)
{
    using S = LegendItem::Swatch;
    std::vector<LegendItem> items;
    if (!parts.legend)
        return items;
    if (parts.stageBands) {
        for (Stage s : {Stage::Draft, Stage::Planner, Stage::Verify, Stage::Accept, Stage::Commit})
            items.push_back({S::Band, AnalysisPalette::stage(s), stageLabel(s)});
        items.push_back(
            {S::Hatch, AnalysisPalette::plannerGap(), QCoreApplication::translate("ReportContent", "Planner gap")});
        items.push_back({S::Hatch, AnalysisPalette::hostGap(),
                         QCoreApplication::translate("ReportContent", "Host gap before next step")});
        items.push_back({S::BackHatch, AnalysisPalette::replayGap(),
                         QCoreApplication::translate("ReportContent", "Device idle before graph replay")});
    }
    if (parts.commBrackets) {
        items.push_back({S::Bar, AnalysisPalette::commInflight(),
                         QCoreApplication::translate("ReportContent", "Communication in flight (issue → wait)")});
        items.push_back({S::Bar, AnalysisPalette::commExposed(),
                         QCoreApplication::translate("ReportContent", "Exposed: the consumer waited")});
    }
    if (parts.criticalPath)
        items.push_back({S::Outline, AnalysisPalette::criticalPath(),
                         QCoreApplication::translate("ReportContent", "Critical path")});
    return items;
}

} // namespace dspark::ui
