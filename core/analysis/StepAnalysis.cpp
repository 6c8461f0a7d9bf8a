#include "analysis/StepAnalysis.h"

#include "steps/StepRecords.h"

#include <algorithm>
#include <map>

namespace dspark {

StepAnalyzer::StepAnalyzer(const Profile& profile, const AnalysisRules& rules)
    : m_rules(rules), m_index(std::make_unique<TimelineIndex>(profile, m_rules)),
      m_pairing(std::make_unique<EventPairing>(*m_index)), m_activity(collectDeviceActivity(profile))
{
}

StepAnalyzer::~StepAnalyzer() = default;

StepAnalysis StepAnalyzer::analyze(const StepWindow& window) const
{
    StepAnalysis a;
    a.window = window;
    a.bands = computeStageBands(*m_index, window);
    a.comm = computeStepComm(*m_index, *m_pairing, a.bands, window);
    a.replay = computeReplayGaps(*m_index, a.bands, window);
    a.criticalPath = computeCriticalPath(*m_index, *m_pairing, a.bands, window);
    for (const DeviceActivity& d : m_activity)
        if (d.rankIndex == window.rankIndex) {
            a.overlap = overlapOf(d, window.startNs, window.endNs);
            break;
        }
    return a;
}

std::vector<RecordWindow> stepWindows(const Profile& profile, const NameRule& stepSpan)
{
    return profile.stepRecords ? stepWindows(profile, *profile.stepRecords, stepSpan) : std::vector<RecordWindow>{};
}

std::vector<RecordWindow> stepWindows(const Profile& profile, const StepRecordSet& set, const NameRule& stepSpan)
{
    std::vector<RecordWindow> out;
    const StepAlignment& alignment = set.alignment;
    if (!alignment.aligned() || alignment.rows.size() != set.rows.size())
        return out;

    // Start of every scheduler iteration of each trace rank, to end a window where the next begins.
    std::map<int, std::vector<TimeNs>> iterationStarts;
    for (const StepAlignmentRow& row : alignment.rows)
        if (row.hasWindow() && !iterationStarts.count(row.traceRankIndex)) {
            StepAlignMethod method = StepAlignMethod::None;
            std::vector<TimeNs>& starts = iterationStarts[row.traceRankIndex];
            for (const TraceStep& t : collectTraceSteps(profile, row.traceRankIndex, stepSpan, method))
                starts.push_back(t.hostStartNs);
            std::sort(starts.begin(), starts.end());
        }
    // End of each rank's last event (host or device): the last window ends there.
    std::map<int, TimeNs> rankEnd;
    for (const Lane& lane : profile.lanes)
        if (!lane.empty() && (lane.info.kind == LaneKind::Host || isDeviceLane(lane.info.kind)))
            rankEnd[lane.info.rankIndex] = std::max(rankEnd[lane.info.rankIndex], lane.lastNs());

    for (size_t r = 0; r < set.rows.size(); ++r) {
        const StepAlignmentRow& row = alignment.rows[r];
        if (!row.hasWindow() || row.traceRankIndex < 0)
            continue;
        const StepRecord& record = set.record(r);
        RecordWindow w;
        w.row = r;
        w.window.rankIndex = row.traceRankIndex;
        w.window.forwardCt = record.forwardCt;
        w.window.startNs = row.hostStartNs;
        const std::vector<TimeNs>& starts = iterationStarts[row.traceRankIndex];
        auto next = std::upper_bound(starts.begin(), starts.end(), row.hostStartNs);
        w.window.endNs = next != starts.end() ? *next : std::max(row.windowEndNs(), rankEnd[row.traceRankIndex]);
        w.window.deviceHorizonNs = row.deviceEndNs;
        w.window.stepGpuMs = record.stepGpuMs;
        w.window.draftGpuMs = record.draftGpuMs;
        w.window.targetVerifyGpuMs = record.targetVerifyGpuMs;
        out.push_back(w);
    }
    return out;
}

ProfileAnalysis analyzeProfile(const Profile& profile, const AnalysisRules& rules)
{
    ProfileAnalysis out;
    const StepAnalyzer analyzer(profile, rules);
    for (const RecordWindow& w : stepWindows(profile, rules.rule(RuleId::StepSpan))) {
        out.steps.push_back(analyzer.analyze(w.window));
        out.steps.back().recordRow = static_cast<int64_t>(w.row);
    }
    for (const DeviceActivity& d : analyzer.activity())
        out.overlap.push_back(overlapOf(d));
    return out;
}

} // namespace dspark
