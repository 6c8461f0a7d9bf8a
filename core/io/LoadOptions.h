#pragma once

#include "io/trace/TraceLoadTuning.h"
#include "util/Parallel.h"

#include <cstdint>
#include <memory>

namespace dspark {

struct AnalysisRules;

// How one load runs, passed to loadProfile() and on down to the loaders: nothing about a load is
// process-wide, so two loads in one process do not affect each other. (Profile::finalize() uses
// defaultLoaderThreads() whatever `threads` says; its result does not depend on it.) The defaults suit
// large files on two cores; tests change them to take every path with small files (the model must not
// change).
struct LoadOptions {
    int threads = defaultLoaderThreads(); // 1 or 2 (util/Parallel.h)
    // From this many rows on (in a database's per-task detail tables together, or in TASK), a second core
    // reads them: the detail tables while the loading thread reads the host tables, the second half of
    // TASK while it places the first (with threads > 1). 0: always, INT64_MAX: never.
    int64_t dbParallelRows = 20000;
    trace::LoadTuning trace; // the Chrome-trace loader's
    // The name rules the step alignment reads (its step_span rule); null: the built-in defaults.
    std::shared_ptr<const AnalysisRules> rules;
};

} // namespace dspark
