#include "session/ProfileAnalyses.h"

#include "steps/StepRecordLoader.h"
#include "steps/StepRecords.h"

namespace dspark {

void deriveStepRecordAnalyses(StepRecordSet& set)
{
    set.anomalies = detectStepAnomalies(set, set.anomalyOptions);
    set.stableWindows = findStableWindows(set, set.stableWindowOptions);
}

void deriveProfileAnalyses(Profile& profile, const AnalysisRules& rules)
{
    if (!profile.stepRecords)
        return;
    deriveStepRecordAnalyses(*profile.stepRecords);
    alignStepRecords(profile, rules.rule(RuleId::StepSpan));
}

} // namespace dspark
