#pragma once

#include "analysis/AnalysisRules.h"
#include "io/ProfileScanner.h"
#include "model/Profile.h"
#include "util/LoadProgress.h"

namespace dspark {

// Loads DSpark step records (formats.md §4, all shapes) into profile.stepRecords.
// Returns an empty string on success, else one line naming the file.
QString loadStepRecords(const ScannedFile& file, Profile& profile, const LoadProgress& progress);

// After the timeline is finalized: aligns the step records to the trace's step spans (`stepSpan`: the
// step_span rule).
void alignStepRecords(Profile& profile, const NameRule& stepSpan = AnalysisRules::builtin().rule(RuleId::StepSpan));

} // namespace dspark
