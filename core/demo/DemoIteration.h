#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace dspark::demo {

using TimeNs = int64_t;

// Device task types the demo writes (TASK.taskType / trace "Task Type").
enum class TaskKind : uint8_t {
    AiCore,
    AiVec,
    MixAic,
    MixAiv,
    EventRecord,
    EventWait,
    Memcpy,
    WriteValue, // HCCL Notify_Record
    NotifyWait, // HCCL Notify_Wait
    Sdma,       // HCCL Memcpy / Reduce_Inline
    ProfilingEnable,
    ProfilingDisable,
};
inline bool isComputeKind(TaskKind k)
{
    return k == TaskKind::AiCore || k == TaskKind::AiVec || k == TaskKind::MixAic || k == TaskKind::MixAiv;
}
inline bool isHcclKind(TaskKind k)
{
    return k == TaskKind::WriteValue || k == TaskKind::NotifyWait || k == TaskKind::Sdma;
}

// Which part of the iteration a device task belongs to (ground-truth stages and path categories).
enum class Stage : uint8_t { Control, Draft, Planner, PreReplay, Verify, Accept, TpSync, Commit, Publish, Prefill };

// Critical-path categories (docs/demo.md §5), in ground_truth.json order.
enum class PathCategory : uint8_t {
    Draft,
    VerifyCompute,
    ExposedComm,
    AcceptTpSync,
    Commit,
    HostGap,
    Idle,
    Prefill,
    Count
};
const char* pathCategoryName(PathCategory c);

// What an EVENT_WAIT waits for.
enum class WaitRole : uint8_t { None, CommStart, SideStart, Join, DeepEpHook, TpSyncHook };

struct SimTask {
    TimeNs start = 0;
    TimeNs end = 0;
    TimeNs prevEnd = 0;     // end of the previous task on this stream (0 when none)
    TimeNs launchReady = 0; // when the launch made it runnable (call end + latency)
    TimeNs callEnd = 0;     // end of the host call that launched it
    int64_t connectionId = 0;
    int32_t prev = -1;     // previous task on this stream within this iteration
    int32_t waitFor = -1;  // EVENT_WAIT: its record (index in this iteration)
    int32_t kernel = -1;   // compute task: kernel catalogue index
    int32_t shape = -1;    // compute task: input shape string (simulator string table)
    int32_t commTask = -1; // HCCL sub-task: index into DemoIteration::commTasks
    uint32_t modelId = 4294967295u;
    uint32_t contextId = 4294967295u;
    uint32_t taskId = 0;
    uint8_t stream = 0;
    TaskKind kind = TaskKind::AiCore;
    Stage stage = Stage::Control;
    WaitRole waitRole = WaitRole::None;
    bool waited = false; // EVENT_WAIT that was blocked on its record
};

struct SimTorchOp {
    TimeNs start = 0;
    TimeNs end = 0;
    int32_t name = -1;   // simulator string table
    int64_t linkId = -1; // PYTORCH_API.connectionId → CONNECTION_IDS.id, -1 = NULL
};

struct SimConnection {
    int64_t id = 0;           // CONNECTION_IDS.id
    int64_t connectionId = 0; // CANN connection id
};

struct SimCannCall {
    TimeNs start = 0;
    TimeNs end = 0;
    int32_t name = -1;
    int type = 0;
    int64_t connectionId = 0;
};

// A host interval blocked on the device (a sync that had to wait).
struct SimHostBlock {
    TimeNs start = 0;
    TimeNs end = 0;
    int32_t releasedBy = -1; // task whose end released it
};

struct SimCommOp {
    TimeNs start = 0;
    TimeNs end = 0;
    int32_t name = -1;
    int64_t connectionId = 0;
    int64_t opId = 0;
    int count = 0;
};

enum class HcclTaskType : uint8_t { NotifyRecord, NotifyWait, ReduceInline };
struct SimCommTask {
    int32_t task = -1;
    HcclTaskType type = HcclTaskType::NotifyRecord;
    int plane = 0;
    int64_t notifyId = 0;
    int dstRank = 0;
    int64_t size = 0;
    int64_t opId = 0;
    int32_t opName = -1;
};

struct SimDeepEpOp {
    Stage stage = Stage::Verify;
    int layer = 0;
    int pass = -1;
    bool combine = false;
    int32_t issue = -1;     // EVENT_RECORD on the compute stream
    int32_t firstComm = -1; // first comm kernel on the DeepEP stream
    int32_t lastComm = -1;
    int32_t hook = -1; // EVENT_WAIT on the compute stream
};

// One simulated scheduler iteration: everything the writers need plus its ground truth.
struct DemoIteration {
    int64_t index = 0; // iteration index in the trace (negative: before start_step)
    int64_t forwardCt = 0;
    bool decode = true;
    bool inTrace = true;
    TimeNs windowStart = 0;
    TimeNs windowEnd = 0;

    std::vector<SimTask> tasks;
    std::vector<SimTorchOp> ops;
    std::vector<SimConnection> connections;
    std::vector<SimCannCall> calls;
    std::vector<SimHostBlock> blocks;
    std::vector<SimCommOp> commOps;
    std::vector<SimCommTask> commTasks;
    std::vector<SimDeepEpOp> deepep;

    nlohmann::ordered_json record;           // DecodeStepRecord (decode iterations), else null
    nlohmann::ordered_json groundTruth;      // ground_truth.json "steps" entry
    std::vector<std::string> anomalies;      // kinds (docs/demo.md §6)
    std::vector<std::string> anomalyDetails; // one line each

    void clear();
};

} // namespace dspark::demo
