#pragma once

// Which lane a Chrome-trace track becomes, and what kind each of its events is (naming conventions
// shared by every loader). Tracks are recognised by their process/thread names and by the args of
// their events, never by pid arithmetic: formats.md §3 and the real files in testdata/real.
#include "io/trace/TraceRecords.h"
#include "model/Lane.h"

#include <optional>
#include <string>

namespace dspark::trace {

// What a track is, for event kinds and links.
enum class TrackRole : uint8_t {
    HostGeneric, // a CPU thread of any other process (Kineto "python3.10", ...)
    HostCann,    // Ascend "CANN" thread: CANN API calls
    HostPython,  // Ascend "Python" thread: PyTorch ops, python functions
    NpuStream,   // "Ascend Hardware" / "Task Scheduler" thread "Stream N"
    GpuStream,   // Kineto device events (args stream/device)
    CommGroup,   // "HCCL"/"Communication" thread "Group g Communication": collectives
    CommPlane,   // "HCCL"/"Communication" thread "Plane p": HCCL sub-tasks
    Overlap,     // "Overlap Analysis" thread
};

// The metadata and first-event facts of one track (pid, tid), merged over the whole file.
struct TrackFacts {
    std::string pidText; // the pid as written ("3096504", "Spans", "-1", "" when absent)
    std::string tidText;
    std::optional<int64_t> pid; // when an integer
    std::optional<int64_t> tid;
    std::optional<std::string> processName;
    std::optional<std::string> threadName;
    std::optional<int64_t> processSortIndex;
    std::optional<int64_t> threadSortIndex;
    TrackGpu gpu;
};

struct LanePlan {
    LaneInfo info;
    TrackRole role = TrackRole::HostGeneric;
};

// Ascend pids are (hostPid << 10) | (processSortIndex << 5) | deviceId in current msprof/torch_npu
// output. The device id is taken from the pid only when the pid agrees with the process's own sort
// index metadata (so the scheme is verified for this file, not assumed); otherwise -1.
int ascendDeviceFromPid(const TrackFacts& facts);

// The lane of a track with slices. `rank` is the Profile::ranks index; `fallbackDevice` is used for
// NPU lanes when the pid does not tell the device.
LanePlan planTrackLane(const TrackFacts& facts, int rankIndex, int fallbackDevice);

// The lane of a counter series (ph C): process = the pid's process name, name = the series.
LaneInfo counterLane(const TrackFacts& processFacts, const std::string& series, int rankIndex);

// The event kind of a slice on a track of the given role (hint from TraceIngest).
EventKind eventKindFor(TrackRole role, uint8_t hint);

// The class of an Ascend device task whose type is not given (older exports write no "Task Type", or
// "Other"): EVENT_RECORD / EVENT_WAIT / MEMCPY_ASYNC and other task-type names keep their class, any
// other name is a kernel's.
TaskClass untypedTaskClass(std::string_view name);
// The hint with its task class replaced.
inline uint8_t withTask(uint8_t hint, TaskClass task)
{
    return makeHint(hintCat(hint), task);
}

// True for the Ascend category of a flow that links a launch to its device task, etc.
enum class FlowClass : uint8_t { HostToDevice, OpToDevice, Other };
FlowClass flowClassOf(std::string_view category);

} // namespace dspark::trace
