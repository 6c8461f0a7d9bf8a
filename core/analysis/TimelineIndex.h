#pragma once

#include "analysis/AnalysisRules.h"
#include "model/Profile.h"

#include <unordered_map>
#include <vector>

namespace dspark {

// What the analyses need to look up quickly, built once per profile in one pass over lanes and links:
// the lanes of each rank, the host call that launched each device task, which device tasks are
// communication, which host calls block on the device, and each rank's device tasks by end time.
class TimelineIndex {
public:
    TimelineIndex(const Profile& profile, const AnalysisRules& rules);

    const Profile& profile() const { return m_profile; }
    const NameClassifier& names() const { return m_names; }
    const AnalysisRules& rules() const { return m_names.rules(); }

    struct RankLanes {
        std::vector<uint32_t> device; // NPU / GPU stream lanes
        std::vector<uint32_t> host;   // host threads
        std::vector<uint32_t> comm;   // communication groups / planes
    };
    const RankLanes& lanesOf(int rankIndex) const;
    int rankCount() const { return static_cast<int>(m_ranks.size()); }

    bool isDevice(uint32_t lane) const { return isDeviceLane(m_profile.lanes[lane].info.kind); }
    // The host event that launched a device task: the HostToDevice source (the runtime call), else
    // the OpToDevice source (the framework op). Invalid when the task has neither.
    EventRef launchOf(EventRef task) const;
    // The framework op (OpToDevice source) of a device task, invalid when none.
    EventRef opOf(EventRef task) const;
    // End of the host call that launched a task (the op's end without a launch), INT64_MIN when none.
    TimeNs callEndNs(EventRef task) const;
    // When the task could have started at the earliest because of its launch: the call's end plus the
    // device's launch latency (never after the task's start); INT64_MIN when it has no launch.
    TimeNs launchReadyNs(EventRef task) const;
    // The task started because its launch arrived, not because its stream finished the task before.
    // Decided by which of the two explains its start: is the gap after its predecessor a usual stream
    // gap (≤ the 99th percentile of the device's stream gaps), is the delay after its launch call a
    // usual launch latency (≤ the 99th percentile of its launch latencies)? When exactly one does, that
    // one; when neither does, the one less beyond its usual range; when both do (or the profile has
    // fewer than 16 samples of either), the launch is binding if launch-ready (call end + median
    // latency) comes later than the predecessor's end plus the median stream gap.
    bool launchBound(EventRef task) const;
    // Per device, estimated from the profile: the delay from a launch call's end to its task's start
    // when the stream was idle (over tasks that followed a stream idle > 50 µs),
    // and the gap between consecutive tasks of a busy stream (over tasks launched ≥ 100 µs before their
    // predecessor ended); event waits are no sample of either. Medians; 0 when the profile does not tell.
    TimeNs launchLatencyNs(uint32_t lane) const;
    TimeNs streamGapNs(uint32_t lane) const;
    // Communication work on a device stream: HCCL sub-tasks and ops, kernels matched by the
    // comm_kernels / deepep_* rules, and any task but event records/waits on a rules' comm stream.
    bool isComm(EventRef task) const;
    // The task before `task` on its stream, invalid when it is the first.
    EventRef previousOnStream(EventRef task) const;
    EventRef nextOnStream(EventRef task) const;
    // The device tasks of an HCCL op (CommOp event): the lane and first/last index of its sub-tasks on
    // a device stream, from its CommOpToTask links, else (a JSON trace keeps the sub-tasks on "Plane"
    // lanes) the stream with the most non-compute tasks inside the op's interval. Invalid when none.
    struct Transfer {
        EventRef first, last;
    };
    Transfer transferOf(EventRef op) const;
    // A host call of the host_sync_calls rule (blocks until device work is done).
    bool isHostSync(EventRef hostEvent) const;
    // The device task of `rank` with the latest end in (afterNs, atOrBeforeNs], invalid when none.
    EventRef lastEndingIn(int rankIndex, TimeNs afterNs, TimeNs atOrBeforeNs) const;
    // The host lanes of `rank` that belong to the thread of host lane `lane` (CANN and Python lanes of
    // one OS thread share the thread id).
    std::vector<uint32_t> threadLanes(uint32_t lane) const;

    TimeNs start(EventRef e) const { return m_profile.lanes[e.lane].startNs[e.index]; }
    TimeNs end(EventRef e) const { return m_profile.lanes[e.lane].endNs(e.index); }
    EventKind kind(EventRef e) const { return m_profile.lanes[e.lane].kind[e.index]; }
    uint32_t nameId(EventRef e) const { return m_profile.lanes[e.lane].nameId[e.index]; }

private:
    void estimateLaunchTiming();
    void locateTransfers();

    const Profile& m_profile;
    NameClassifier m_names;
    std::vector<RankLanes> m_ranks;
    std::vector<std::vector<EventRef>> m_launch;        // per lane (device lanes only), per task
    std::vector<std::vector<EventRef>> m_op;            // per lane (device lanes only), per task
    std::vector<std::vector<uint8_t>> m_comm;           // per lane (device lanes only), per task
    std::unordered_map<uint64_t, Transfer> m_transfers; // HCCL op → its device tasks
    struct LaunchTiming {
        TimeNs latency = 0, latencyHigh = 0; // median, 99th percentile
        TimeNs gap = 0, gapHigh = 0;
        bool sampled = false; // enough samples for the percentiles
    };
    std::vector<LaunchTiming> m_timing; // per lane: its device's launch timing
    struct EndEntry {
        TimeNs endNs;
        EventRef task;
    };
    std::vector<std::vector<EndEntry>> m_byEnd; // per rank, device tasks by end time
};

} // namespace dspark
