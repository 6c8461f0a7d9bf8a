#include "io/trace/LaneClassifier.h"

#include "model/TaskNames.h"

#include <algorithm>
#include <charconv>

namespace dspark::trace {

static std::optional<int64_t> trailingNumber(const std::string& text, std::string_view prefix)
{
    if (text.size() <= prefix.size() || text.compare(0, prefix.size(), prefix) != 0)
        return std::nullopt;
    std::string_view rest(text);
    rest.remove_prefix(prefix.size());
    while (!rest.empty() && rest.back() == ' ')
        rest.remove_suffix(1);
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
    if (ec != std::errc() || end != rest.data() + rest.size())
        return std::nullopt;
    return value;
}

static std::string trimmed(const std::string& s)
{
    const size_t b = s.find_first_not_of(' ');
    const size_t e = s.find_last_not_of(' ');
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// A process without a process_name: "Process <pid>" for numbers, the string itself for string pids.
static std::string processLabel(const TrackFacts& f)
{
    if (f.pid)
        return "Process " + std::to_string(*f.pid);
    if (!f.pidText.empty() && f.pidText.find_first_not_of("0123456789") == std::string::npos)
        return "Process " + f.pidText; // above INT64_MAX
    return f.pidText.empty() ? std::string("Process") : f.pidText;
}

static int clampSort(std::optional<int64_t> v)
{
    if (!v)
        return 0;
    return static_cast<int>(std::clamp<int64_t>(*v, INT32_MIN, INT32_MAX));
}

int ascendDeviceFromPid(const TrackFacts& f)
{
    if (!f.pid || *f.pid < 0 || !f.processSortIndex)
        return -1;
    const auto pid = static_cast<uint64_t>(*f.pid);
    if (static_cast<int64_t>((pid >> 5) & 31) != *f.processSortIndex || (pid >> 10) == 0)
        return -1;
    return static_cast<int>(pid & 31);
}

LanePlan planTrackLane(const TrackFacts& f, int rankIndex, int fallbackDevice)
{
    LanePlan plan;
    LaneInfo& info = plan.info;
    info.rankIndex = rankIndex;
    info.sortIndex = clampSort(f.threadSortIndex);
    const std::string process = f.processName ? *f.processName : std::string();
    const std::string thread = f.threadName ? trimmed(*f.threadName) : std::string();
    const std::string tidText = f.tid ? std::to_string(*f.tid) : f.tidText;

    if (process == "Ascend Hardware" || process == "Task Scheduler") {
        plan.role = TrackRole::NpuStream;
        info.kind = LaneKind::NpuStream;
        info.process = "Ascend Hardware";
        const std::optional<int64_t> stream = trailingNumber(thread, "Stream ");
        info.streamId = stream ? *stream : f.tid.value_or(-1);
        info.name = "Stream " + std::to_string(info.streamId);
        const int device = ascendDeviceFromPid(f);
        info.deviceId = device >= 0 ? device : std::max(fallbackDevice, 0);
        return plan;
    }
    if (process == "HCCL" || process == "Communication") {
        info.kind = LaneKind::Comm;
        info.process = process;
        info.deviceId = ascendDeviceFromPid(f);
        if (const std::optional<int64_t> plane = trailingNumber(thread, "Plane ")) {
            plan.role = TrackRole::CommPlane;
            info.streamId = *plane;
        } else {
            plan.role = TrackRole::CommGroup;
        }
        info.name = thread.empty() ? "Thread " + tidText : thread;
        return plan;
    }
    if (process == "Overlap Analysis") {
        plan.role = TrackRole::Overlap;
        info.kind = LaneKind::Overlap;
        info.process = process;
        info.deviceId = ascendDeviceFromPid(f);
        info.name = thread.empty() ? "Thread " + tidText : thread;
        return plan;
    }
    if (process == "CANN" || process == "Python") {
        plan.role = process == "CANN" ? TrackRole::HostCann : TrackRole::HostPython;
        info.kind = LaneKind::Host;
        info.process = process;
        info.threadId = f.tid.value_or(-1);
        info.name = "Thread " + tidText;
        return plan;
    }
    if (f.gpu.known) {
        // Kineto device activity: the lane is the (device, stream) of the args, named like Kineto's UI.
        plan.role = TrackRole::GpuStream;
        info.kind = LaneKind::GpuStream;
        // Without args (older or hand-made traces) Kineto's own layout applies: pid = device, tid = stream.
        const int64_t device = f.gpu.device != TrackGpu::kAbsent ? f.gpu.device : f.pid.value_or(0);
        info.deviceId = static_cast<int>(std::clamp<int64_t>(device, 0, INT32_MAX));
        const int64_t stream = f.gpu.stream != TrackGpu::kAbsent ? f.gpu.stream : f.tid.value_or(-1);
        info.streamId = stream >= 0 ? stream : -1;
        info.process = "GPU " + std::to_string(info.deviceId);
        if (info.streamId >= 0)
            info.name = "Stream " + std::to_string(info.streamId);
        else
            info.name = thread.empty() ? "Device " + std::to_string(info.deviceId) : thread;
        return plan;
    }
    plan.role = TrackRole::HostGeneric;
    info.kind = LaneKind::Host;
    info.process = !process.empty() ? process : processLabel(f);
    info.threadId = f.tid.value_or(-1);
    // A string tid ("PyTorch Profiler") already is a name; a number becomes "Thread <tid>".
    info.name = !thread.empty()   ? thread
                : f.tid           ? "Thread " + tidText
                : tidText.empty() ? std::string("Thread")
                                  : tidText;
    return plan;
}

LaneInfo counterLane(const TrackFacts& f, const std::string& series, int rankIndex)
{
    LaneInfo info;
    info.kind = LaneKind::Counter;
    info.rankIndex = rankIndex;
    info.process = f.processName ? *f.processName : processLabel(f);
    info.name = series;
    info.deviceId = ascendDeviceFromPid(f);
    info.sortIndex = clampSort(f.processSortIndex);
    return info;
}

EventKind eventKindFor(TrackRole role, uint8_t hint)
{
    const CatClass cat = hintCat(hint);
    if (cat == CatInstant)
        return EventKind::Instant;
    switch (role) {
    case TrackRole::NpuStream:
        switch (hintTask(hint)) {
        case TaskCompute: return EventKind::Kernel;
        case TaskEventRecord: return EventKind::EventRecord;
        case TaskEventWait: return EventKind::EventWait;
        case TaskMemcpy: return EventKind::Memcpy;
        default: return EventKind::Other;
        }
    case TrackRole::GpuStream:
        switch (cat) {
        case CatKernel: return EventKind::Kernel;
        case CatNcclKernel: return EventKind::CommOp;
        case CatGpuMemcpy:
        case CatGpuMemset: return EventKind::Memcpy;
        case CatGpuUserAnnotation: return EventKind::Annotation;
        case CatCudaStreamWait: return EventKind::EventWait;
        default: return EventKind::Other;
        }
    case TrackRole::CommGroup: return EventKind::CommOp;
    case TrackRole::CommPlane: return EventKind::CommTask;
    case TrackRole::Overlap: return EventKind::OverlapSpan;
    case TrackRole::HostCann: return EventKind::HostApi;
    case TrackRole::HostPython:
        return cat == CatUserAnnotation || cat == CatGpuUserAnnotation ? EventKind::Annotation : EventKind::TorchOp;
    case TrackRole::HostGeneric:
        switch (cat) {
        case CatCudaRuntime:
        case CatCudaDriver: return EventKind::HostApi;
        case CatCpuOp:
        case CatPythonFunction: return EventKind::TorchOp;
        case CatUserAnnotation:
        case CatGpuUserAnnotation: return EventKind::Annotation;
        default: return EventKind::Other;
        }
    }
    return EventKind::Other;
}

TaskClass untypedTaskClass(std::string_view name)
{
    if (name == "EVENT_RECORD")
        return TaskEventRecord;
    if (name == "EVENT_WAIT")
        return TaskEventWait;
    if (name == "MEMCPY_ASYNC")
        return TaskMemcpy;
    return isTaskTypeName(name) ? TaskOther : TaskCompute;
}

FlowClass flowClassOf(std::string_view c)
{
    if (c == "HostToDevice" || c == "ac2g" || c == "async_cpu_to_gpu")
        return FlowClass::HostToDevice;
    if (c == "async_npu")
        return FlowClass::OpToDevice;
    return FlowClass::Other;
}

} // namespace dspark::trace
