#pragma once

#include "analysis/IntervalSet.h"
#include "analysis/StageBands.h"
#include "analysis/StepWindow.h"

#include <vector>

namespace dspark {

// A host span that was running while the verify stream idled before a graph replay.
struct HostSpanInGap {
    EventRef span;
    TimeNs overlapNs = 0; // of the span with the gap
};

// The idle time of the verify stream right before one verify graph replay, and what the host did
// meanwhile (primer §4.4: batch / buffer / metadata preparation — for DeepSeek-V4 not graph.update).
struct ReplayGap {
    EventRef replayCall;   // the host call that replays the graph (replay_call rule)
    EventRef firstTask;    // the replay's first device task
    EventRef previousTask; // the task before it on the same stream (invalid when none)
    int64_t streamId = -1;
    Interval gap;                         // previous task's end → first replay task's start ({0,0} when none)
    TimeNs hostPrepNs = 0;                // verify span start → replay call start (host preparation before the call)
    std::vector<HostSpanInGap> hostSpans; // host spans overlapping the gap, by lane then start (≤ 64)
};

struct StepReplayGaps {
    std::vector<ReplayGap> replays;
    TimeNs preReplayGapNs = 0; // Σ gap lengths
};

// Replay calls are host events of the replay_call rule inside the step's verify span (anywhere in the
// window when there is none); a call's replay is the device tasks launched from inside the call.
StepReplayGaps computeReplayGaps(const TimelineIndex& index, const StepBands& bands, const StepWindow& window);

} // namespace dspark
