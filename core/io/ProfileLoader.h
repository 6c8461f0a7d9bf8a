#pragma once

#include "io/LoadOptions.h"
#include "io/ProfileScanner.h"
#include "model/Profile.h"
#include "util/LoadProgress.h"

#include <QString>

#include <memory>
#include <string>

namespace dspark {

struct LoadOutcome {
    std::shared_ptr<Profile> profile; // null on error or cancel
    QString error;                    // one line naming the file and the problem
    bool cancelled = false;
};

// Loads a profile folder or a single file: scans it, loads every selected file with the loader of
// its format, then finalizes the model. A file that fails becomes a warning when anything else
// loads, the error otherwise. Runs on any thread, also next to another load (`options` is all a load
// reads of its settings); never writes to the profile folder.
LoadOutcome loadProfile(const std::string& path, const LoadProgress& progress = {}, const LoadOptions& options = {});

// loadProfile() after its scan: loads the files `scan` selected (`path`: what the user opened, for the
// messages). The fuzz harnesses call it with a scan of their own whose files are in memory
// (ScannedFile::image).
LoadOutcome loadScannedProfile(const ScanResult& scan, const std::string& path, const LoadProgress& progress = {},
                               const LoadOptions& options = {});

} // namespace dspark
