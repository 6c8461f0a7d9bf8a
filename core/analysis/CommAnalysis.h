#pragma once

#include "analysis/EventPairing.h"
#include "analysis/IntervalSet.h"
#include "analysis/StageBands.h"
#include "analysis/StepWindow.h"

#include <string>
#include <vector>

namespace dspark {

// One communication operation of a step: issue → in flight → the wait that consumes it (primer §4.5).
// exposed = how long the consumer was blocked on it: from when the consuming stream reached the wait
// to the end of the transfer, max(0, inflight end − wait reached); hidden = the part of the transfer
// before the consumer reached the wait, max(0, min(inflight end, wait reached) − inflight start).
struct CommOperation {
    std::string name;   // HCCL op name, or the communication kernel(s) of the run
    EventRef op;        // the HCCL op (comm lane), invalid for kernel runs
    EventRef firstTask; // first / last device task of the transfer (invalid when the op has none)
    EventRef lastTask;
    uint32_t lane = UINT32_MAX; // device stream lane of the transfer (UINT32_MAX when unknown)
    int64_t streamId = -1;
    Stage stage = Stage::Other;
    bool deepep = false; // matched by the deepep_dispatch / deepep_combine rules
    TimeNs issueNs = 0;  // the record the transfer's stream waited for, else the host call, else start
    EventRef issueEvent; // that record or host call (invalid when the start is used)
    Interval inflight;
    EventRef wait;                 // the consumer's EVENT_WAIT (or host hook call), invalid when none
    bool waitOnHost = false;       // the consumer is a host hook call
    Interval waitInterval;         // wait reached → wait done ({0,0} when no wait)
    int64_t waitStreamId = -1;     // stream of the consumer's wait, -1 when none / on the host
    bool consumedInStream = false; // no wait: the next task of the same stream consumed it
    TimeNs exposedNs = 0;
    TimeNs hiddenNs = 0;
    bool inferred = false; // the wait was paired with the transfer's record by inference
    PairMethod pairMethod = PairMethod::None;

    // The exposed part, for drawing: [wait reached, reached + exposed) — the whole transfer when it was
    // consumed in its own stream; {0,0} when nothing is exposed.
    Interval exposedInterval() const
    {
        if (exposedNs <= 0)
            return {};
        const TimeNs from = consumedInStream ? inflight.startNs : waitInterval.startNs;
        return {from, from + exposedNs};
    }
};

struct StepComm {
    std::vector<CommOperation> operations; // by in-flight start
    TimeNs totalNs = 0;                    // T_comm_total: Σ in-flight time
    TimeNs exposedNs = 0;                  // T_comm_exposed: Σ exposed time
};

// The communication operations whose transfer starts inside the window: HCCL ops (with their sub-tasks)
// and runs of consecutive communication tasks on a stream that belong to no HCCL op (DeepEP
// dispatch/combine kernels, NCCL kernels, …).
StepComm computeStepComm(const TimelineIndex& index, const EventPairing& pairing, const StepBands& bands,
                         const StepWindow& window);

} // namespace dspark
