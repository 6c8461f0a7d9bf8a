#pragma once

#include "io/LoadOptions.h"
#include "io/ProfileScanner.h"
#include "model/Profile.h"
#include "util/LoadProgress.h"

namespace dspark {

// Loads a Chrome-trace JSON file (trace_view.json, msprof_*.json, Kineto *.trace.json[.gz]) into
// `profile` (formats.md §3). Returns an empty string on success, else one line naming the file.
QString loadChromeTrace(const ScannedFile& file, Profile& profile, const LoadProgress& progress,
                        const LoadOptions& options = {});

} // namespace dspark
