#pragma once

#include "analysis/AnalysisRules.h"
#include "analysis/CommAnalysis.h"
#include "analysis/CriticalPath.h"
#include "analysis/EventPairing.h"
#include "analysis/OverlapAnalysis.h"
#include "analysis/ReplayGap.h"
#include "analysis/StageBands.h"
#include "analysis/TimelineIndex.h"

#include <memory>
#include <vector>

namespace dspark {

struct StepRecordSet;

// Everything the analyses know about one step: what the UI draws (bands, comm brackets with their
// exposed part, the critical path's hops) and what the step table / `analyze --json` report.
struct StepAnalysis {
    StepWindow window;
    int64_t recordRow = -1; // StepRecordSet::rows index, -1 when the window did not come from a record
    StepBands bands;
    StepComm comm;
    StepReplayGaps replay;
    CriticalPath criticalPath;
    DeviceOverlap overlap; // of the rank's first device, over the window
};

// Runs the analyses of any number of steps of one profile. Builds the shared index and the
// record/wait pairing once (linear in the profile's events); each step then costs its own tasks.
// Not thread-safe (name rule results are cached on first use); use one analyzer per thread.
class StepAnalyzer {
public:
    StepAnalyzer(const Profile& profile, const AnalysisRules& rules);
    ~StepAnalyzer();

    StepAnalysis analyze(const StepWindow& window) const;
    const TimelineIndex& index() const { return *m_index; }
    const EventPairing& pairing() const { return *m_pairing; }
    const std::vector<DeviceActivity>& activity() const { return m_activity; }

private:
    AnalysisRules m_rules;
    std::unique_ptr<TimelineIndex> m_index;
    std::unique_ptr<EventPairing> m_pairing;
    std::vector<DeviceActivity> m_activity;
};

// The windows of the aligned DSpark step records (empty without records or alignment): from the start
// of the step's scheduler iteration on the timeline to the start of the next iteration of that rank
// (the last one: to the end of the rank's last event), with the record's segment times.
struct RecordWindow {
    StepWindow window;
    size_t row = 0; // StepRecordSet::rows index
};
// `stepSpan`: the step_span rule the alignment used.
std::vector<RecordWindow> stepWindows(const Profile& profile,
                                      const NameRule& stepSpan = AnalysisRules::builtin().rule(RuleId::StepSpan));
// The same for records aligned to `profile` that it does not hold (a cluster's records of one DP rank).
std::vector<RecordWindow> stepWindows(const Profile& profile, const StepRecordSet& set,
                                      const NameRule& stepSpan = AnalysisRules::builtin().rule(RuleId::StepSpan));

// The whole `analyze` result: every aligned step, and the overlap of every device over the profile.
struct ProfileAnalysis {
    std::vector<StepAnalysis> steps;
    std::vector<DeviceOverlap> overlap;
};
ProfileAnalysis analyzeProfile(const Profile& profile, const AnalysisRules& rules);

} // namespace dspark
