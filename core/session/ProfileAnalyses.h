#pragma once

#include "analysis/AnalysisRules.h"
#include "model/Profile.h"

namespace dspark {

struct StepRecordSet;

// What is derived from the step records alone: the anomaly flags and the stable windows, with the
// set's own options. Run after the records are loaded (and again after they change).
void deriveStepRecordAnalyses(StepRecordSet& set);

// Everything derived from a loaded, finalized profile, in one place: the step records' analyses and
// their alignment to the timeline. Loaders only fill the model; loadProfile() calls this once at the
// end, with the rules of its LoadOptions. (The per-step timeline analyses are a session's: StepAnalyses.)
void deriveProfileAnalyses(Profile& profile, const AnalysisRules& rules = AnalysisRules::builtin());

} // namespace dspark
