#pragma once

#include "model/Profile.h"

namespace dspark {

struct StepRecordSet;

// What is derived from the step records alone: the anomaly flags and the stable windows, with the
// set's own options. Run after the records are loaded (and again after they change).
void deriveStepRecordAnalyses(StepRecordSet& set);

// Everything derived from a loaded, finalized profile, in one place: the step records' analyses and
// their alignment to the timeline. Loaders only fill the model; loadProfile() calls this once at the
// end. (The per-step timeline analyses are a session's: StepAnalyses.)
void deriveProfileAnalyses(Profile& profile);

} // namespace dspark
