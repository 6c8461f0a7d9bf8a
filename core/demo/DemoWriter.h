#pragma once

#include "demo/DemoDbWriter.h"
#include "demo/DemoSimulator.h"
#include "util/LoadProgress.h"

#include <QString>

#include <string>

namespace dspark::demo {

struct DemoResult {
    QString error;           // one line naming the path and the problem; empty on success
    std::string outDir;      // absolute
    std::string runFolder;   // absolute path of the *_ascend_pt folder
    int64_t iterations = 0;  // traced scheduler iterations
    int64_t records = 0;     // step records in server_info.json
    int64_t traceEvents = 0; // trace_view.json events (0 without --trace-json)
    DemoCounts counts;
};

// Writes the demo profile (docs/demo.md §1) into `outDir`, which must not exist or be empty.
DemoResult writeDemo(const DemoOptions& options, const std::string& outDir, const LoadProgress& progress = {});

} // namespace dspark::demo
