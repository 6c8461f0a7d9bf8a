#include "analysis/StepAnomalies.h"

#include "steps/StepRecords.h"

#include <QCoreApplication>

#include <algorithm>
#include <map>

namespace dspark {

namespace {

double ms(TimeNs ns)
{
    return static_cast<double>(ns) / 1e6;
}

// Exposed communication outside the accept tail (SpecTpSync's wait is the tail's, not a transfer's).
TimeNs exposedOutsideTail(const StepAnalysis& a)
{
    TimeNs exposed = 0;
    for (const CommOperation& op : a.comm.operations)
        if (op.stage != Stage::Accept && op.stage != Stage::Commit && op.stage != Stage::Publish)
            exposed += op.exposedNs;
    return exposed;
}

double tailShare(const StepAnalysis& a)
{
    const TimeNs wall = a.window.wallNs();
    const CriticalPath& p = a.criticalPath;
    return wall > 0
               ? static_cast<double>(p.categoryNs(PathCategory::AcceptTpSync) + p.categoryNs(PathCategory::Commit)) /
                     static_cast<double>(wall)
               : 0.0;
}

QString tailText(const StepAnalysis& a, double share, const RobustStats& s)
{
    const CriticalPath& p = a.criticalPath;
    return QCoreApplication::translate("StepAnomalies",
                                       "accept / commit tail growth: accept / TP sync %1 ms + commit %2 ms on the "
                                       "critical path, %3 % of the step vs median %4 % of %5 steps (accept band %6 "
                                       "ms, commit band %7 ms)")
        .arg(ms(p.categoryNs(PathCategory::AcceptTpSync)), 0, 'f', 3)
        .arg(ms(p.categoryNs(PathCategory::Commit)), 0, 'f', 3)
        .arg(share * 100.0, 0, 'f', 1)
        .arg(s.median * 100.0, 0, 'f', 1)
        .arg(s.count)
        .arg(a.bands.accept ? ms(a.bands.accept->extent.lengthNs()) : 0.0, 0, 'f', 3)
        .arg(a.bands.commit ? ms(a.bands.commit->extent.lengthNs()) : 0.0, 0, 'f', 3);
}

// One measure over the analysed steps of a rank: flags the rows whose value rises above the median
// by at least `jump` and by robustZ robust deviations.
template <typename Value, typename Text>
void flagRise(const std::vector<size_t>& rows, const std::vector<const StepAnalysis*>& analysisOfRow,
              const AnomalyOptions& options, double madFloor, Value value, double jump, bool relativeJump,
              AnomalyCause cause, Text text, std::vector<StepFindings>& out)
{
    std::vector<double> values;
    for (size_t r : rows)
        values.push_back(value(*analysisOfRow[r]));
    const RobustStats s = robustStats(values, madFloor);
    for (size_t k = 0; k < rows.size(); ++k) {
        const double rise = values[k] - s.median;
        if (rise < (relativeJump ? jump * s.median : jump) || rise / s.sigma <= options.robustZ)
            continue;
        out[rows[k]].push_back({cause, text(*analysisOfRow[rows[k]], values[k], s)});
    }
}

} // namespace

std::vector<const StepAnalysis*> analysisByRow(const StepRecordSet& set, const std::vector<StepAnalysis>& steps)
{
    std::vector<const StepAnalysis*> out(set.rows.size(), nullptr);
    for (const StepAnalysis& a : steps)
        if (a.recordRow >= 0 && static_cast<size_t>(a.recordRow) < out.size())
            out[a.recordRow] = &a;
    return out;
}

std::vector<StepFindings> explainStepAnomalies(const StepRecordSet& set,
                                               const std::vector<const StepAnalysis*>& analysisOfRow,
                                               const AnomalyOptions& options)
{
    std::vector<StepFindings> out = detectStepFindings(set, options);
    std::map<int, std::vector<size_t>> byRank;
    for (size_t i = 0; i < set.rows.size() && i < analysisOfRow.size(); ++i)
        if (analysisOfRow[i] && analysisOfRow[i]->window.wallNs() > 0)
            byRank[set.rows[i].dpRank].push_back(i);

    for (const auto& [rank, rows] : byRank) {
        if (rows.size() < options.minGroupSize)
            continue;
        flagRise(rows, analysisOfRow, options, options.tailShareMadFloor, tailShare, options.tailShareJump, false,
                 AnomalyCause::TailGrowth, tailText, out);
        flagRise(
            rows, analysisOfRow, options, 1'000.0,
            [](const StepAnalysis& a) { return static_cast<double>(a.replay.preReplayGapNs); },
            static_cast<double>(options.preReplayJumpNs), false, AnomalyCause::PreReplayGap,
            [](const StepAnalysis&, double v, const RobustStats& s) {
                return QCoreApplication::translate("StepAnomalies",
                                                   "pre-replay gap: the verify stream idled %1 ms before the graph "
                                                   "replay vs median %2 ms of %3 steps (host preparation)")
                    .arg(v / 1e6, 0, 'f', 3)
                    .arg(s.median / 1e6, 0, 'f', 3)
                    .arg(s.count);
            },
            out);
        flagRise(
            rows, analysisOfRow, options, 1'000.0,
            [](const StepAnalysis& a) { return static_cast<double>(exposedOutsideTail(a)); }, options.exposedRise, true,
            AnomalyCause::ExposedComm,
            [](const StepAnalysis& a, double v, const RobustStats& s) {
                return QCoreApplication::translate("StepAnomalies",
                                                   "exposed communication: the consumers waited %1 ms on "
                                                   "communication vs median %2 ms of %3 steps (%4 ms in flight)")
                    .arg(v / 1e6, 0, 'f', 3)
                    .arg(s.median / 1e6, 0, 'f', 3)
                    .arg(s.count)
                    .arg(ms(a.comm.totalNs), 0, 'f', 3);
            },
            out);
    }

    // A tail growth the timeline measured is what the records' unattributed share pointed at; a named
    // cause explains a worse TPOT better than the step's longer acceptance does.
    const auto has = [](const StepFindings& f, AnomalyCause c) {
        return std::any_of(f.begin(), f.end(), [c](const StepFinding& x) { return x.cause == c; });
    };
    const auto drop = [](StepFindings& f, AnomalyCause c) {
        f.erase(std::remove_if(f.begin(), f.end(), [c](const StepFinding& x) { return x.cause == c; }), f.end());
    };
    for (StepFindings& f : out) {
        if (has(f, AnomalyCause::TailGrowth))
            drop(f, AnomalyCause::UnattributedShare);
        if (has(f, AnomalyCause::TailGrowth) || has(f, AnomalyCause::PreReplayGap) || has(f, AnomalyCause::ExposedComm))
            drop(f, AnomalyCause::LongAcceptWorseTpot);
    }
    return out;
}

} // namespace dspark
