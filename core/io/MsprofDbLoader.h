#pragma once

#include "io/LoadOptions.h"
#include "io/ProfileScanner.h"
#include "model/Profile.h"
#include "util/LoadProgress.h"

namespace dspark {

// Loads an msprof_*.db / ascend_pytorch_profiler_*.db (formats.md §2) into `profile`, opened
// read-only and immutable. Returns an empty string on success, else one line naming the file.
QString loadMsprofDb(const ScannedFile& file, Profile& profile, const LoadProgress& progress,
                     const LoadOptions& options = {});

} // namespace dspark
