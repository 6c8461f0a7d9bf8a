#pragma once

#include "io/ProfileScanner.h"
#include "model/Profile.h"
#include "util/LoadProgress.h"

namespace dspark {

// Loads DSpark step records (formats.md §4, all shapes) into profile.stepRecords.
// Returns an empty string on success, else one line naming the file.
QString loadStepRecords(const ScannedFile& file, Profile& profile, const LoadProgress& progress);

// After the timeline is finalized: aligns the step records to the trace's step spans.
void alignStepRecords(Profile& profile);

} // namespace dspark
