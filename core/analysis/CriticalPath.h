#pragma once

#include "analysis/EventPairing.h"
#include "analysis/IntervalSet.h"
#include "analysis/StageBands.h"
#include "analysis/StepWindow.h"

#include <array>
#include <vector>

namespace dspark {

// Where a nanosecond of a step's critical path went (primer §5).
enum class PathCategory : uint8_t {
    Draft,         // draft forward, planner, step-start events
    VerifyCompute, // target verify: pre-replay copies, replay, verify events
    ExposedComm,   // a consumer blocked on communication (DeepEP hooks, comm on the path)
    AcceptTpSync,  // eager accept kernels, SpecTpSync (incl. its wait), FinalizeAcceptLens, BuildOutTokens
    Commit,        // eager commit of hidden / KV, end-of-step event, output copy
    HostGap,       // the device waited for the host: launch-bound starts, host work after a sync
    Idle,          // a stream gap between a task and its predecessor, or an unexplained wait
    Count
};
constexpr size_t kPathCategoryCount = static_cast<size_t>(PathCategory::Count);
const char* pathCategoryKey(PathCategory c); // the `analyze --json` key, e.g. "verify_compute"
QString pathCategoryLabel(PathCategory c);

// One piece of the path, in time order: a device task (or the blocked part of a wait), a host
// stretch (event = the host call the walk went through, or invalid), or a gap.
struct PathHop {
    EventRef event;    // the task / host call, invalid for a plain gap
    Interval interval; // the part of the window charged
    PathCategory category = PathCategory::Idle;
    bool onHost = false; // the walk was on the host thread here
    // The files cannot decide this hop's cause: the launch call ended within a launch latency of the
    // stream's previous task (either could have held the task back), or the walk returned from the host
    // to the device at a launch that was queued behind running work (docs/analysis.md §7).
    bool ambiguous = false;
};

struct CriticalPath {
    std::vector<PathHop> hops;                           // in time order, tiling the window
    std::array<TimeNs, kPathCategoryCount> byCategory{}; // Σ == window length
    TimeNs categoryNs(PathCategory c) const { return byCategory[static_cast<size_t>(c)]; }
    TimeNs totalNs() const;
};

// The critical path of a step: walked backwards from the window's end over what made each piece of
// work start — the task before it on its stream, the host call that launched it (launch-bound: only
// when the stream had nothing outstanding when the call ended; a tie goes to the device), the record a
// blocked wait waited for (charged to what it waited for, walk stays on the waiting stream: work that
// finished before its consumer waited is hidden), and the device task that released a blocking host
// sync. On the host the walk follows the thread's own syncs and launches back to the device.
// Linear in the step's tasks. Every ns of the window goes to one category.
CriticalPath computeCriticalPath(const TimelineIndex& index, const EventPairing& pairing, const StepBands& bands,
                                 const StepWindow& window);

} // namespace dspark
