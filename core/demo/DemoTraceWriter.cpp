#include "demo/DemoTraceWriter.h"

#include "demo/DemoNames.h"
#include "demo/DemoSimulator.h"

#include <QCoreApplication>

#include <cerrno>
#include <cstring>

namespace dspark::demo {

namespace n = names;

namespace {

// Ascend pids: (hostPid << 10) | (sortIndex << 5) | deviceId, sort indices as in the text fixture.
constexpr int64_t kPythonPid = n::Pid;
constexpr int64_t pidOf(int sortIndex)
{
    return (int64_t(n::Pid) << 10) | (int64_t(sortIndex) << 5);
}
constexpr int64_t kCannPid = pidOf(7);
constexpr int64_t kHardwarePid = pidOf(13);
constexpr int64_t kFreqPid = pidOf(14);
constexpr int64_t kHcclPid = pidOf(15);
constexpr int64_t kOverlapPid = pidOf(23);

// µs with exactly 3 decimals: the ns digits, never through a double.
std::string micros(TimeNs ns)
{
    const bool negative = ns < 0;
    const uint64_t v = negative ? uint64_t(-ns) : uint64_t(ns);
    std::string frac = std::to_string(v % 1000);
    frac.insert(0, 3 - frac.size(), '0');
    return (negative ? "-" : "") + std::to_string(v / 1000) + "." + frac;
}
std::string ts(TimeNs ns)
{
    return "\"" + micros(ns) + "\"";
}

std::string quote(const std::string& s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

std::string meta(const char* what, int64_t pid, int64_t tid, const std::string& argKey, const std::string& argValue)
{
    return "{\"ph\":\"M\",\"name\":\"" + std::string(what) + "\",\"pid\":" + std::to_string(pid) +
           ",\"tid\":" + std::to_string(tid) + ",\"args\":{\"" + argKey + "\":" + argValue + "}}";
}

const char* cannPrefix(int type)
{
    switch (type) {
    case n::ApiAcl: return "AscendCL@";
    case n::ApiNode: return "Node@";
    case n::ApiModel: return "Model@";
    case n::ApiHccl: return "Hccl@";
    default: return "Runtime@";
    }
}
const char* cannLevel(int type)
{
    switch (type) {
    case n::ApiAcl: return "acl";
    case n::ApiNode: return "node";
    case n::ApiModel: return "model";
    case n::ApiHccl: return "hccl";
    default: return "runtime";
    }
}

const char* taskName(const SimTask& t)
{
    if (t.kernel >= 0)
        return DemoSimulator::kernel(t.kernel).name;
    return taskTypeName(t.kind);
}

} // namespace

DemoTraceWriter::DemoTraceWriter(const DemoSimulator& sim) : m_sim(sim)
{
}

DemoTraceWriter::~DemoTraceWriter()
{
    if (m_file)
        std::fclose(m_file);
}

QString DemoTraceWriter::ioError() const
{
    return QCoreApplication::translate("DemoTraceWriter", "%1: cannot write the demo trace (%2)")
        .arg(QString::fromStdString(m_path), QString::fromLocal8Bit(std::strerror(errno)));
}

void DemoTraceWriter::put(const std::string& event)
{
    if (m_events++ > 0)
        m_buffer += ",\n";
    m_buffer += event;
    if (m_buffer.size() > (4u << 20))
        flush();
}

bool DemoTraceWriter::flush()
{
    if (!m_file || m_buffer.empty())
        return !m_failed;
    if (std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file) != m_buffer.size())
        m_failed = true;
    m_buffer.clear();
    return !m_failed;
}

QString DemoTraceWriter::open(const std::string& path)
{
    m_path = path;
    m_file = std::fopen(path.c_str(), "wbx"); // a new file only
    if (!m_file)
        return ioError();
    m_buffer.reserve(5u << 20);
    m_buffer = "[\n";
    const std::string tid = std::to_string(n::Pid);
    put(meta("process_name", kPythonPid, 0, "name", "\"Python\""));
    put(meta("process_labels", kPythonPid, 0, "labels", "\"CPU\""));
    put(meta("process_sort_index", kPythonPid, 0, "sort_index", "0"));
    put(meta("thread_name", kPythonPid, n::Pid, "name", "\"Thread " + tid + "\""));
    put(meta("thread_sort_index", kPythonPid, n::Pid, "sort_index", tid));
    put(meta("process_name", kCannPid, 0, "name", "\"CANN\""));
    put(meta("process_labels", kCannPid, 0, "labels", "\"CPU\""));
    put(meta("process_sort_index", kCannPid, 0, "sort_index", "7"));
    put(meta("thread_name", kCannPid, n::Pid, "name", "\"Thread " + tid + "\""));
    put(meta("thread_sort_index", kCannPid, n::Pid, "sort_index", tid));
    put(meta("process_name", kHardwarePid, 0, "name", "\"Ascend Hardware\""));
    for (int s : {n::StreamProfiler, n::StreamCompute, n::StreamSharedExpert, n::StreamDeepEp, n::StreamHccl}) {
        put(meta("thread_name", kHardwarePid, s, "name", "\"Stream " + std::to_string(s) + "\""));
        put(meta("thread_sort_index", kHardwarePid, s, "sort_index", std::to_string(s)));
    }
    put(meta("process_labels", kHardwarePid, 0, "labels", "\"NPU\""));
    put(meta("process_sort_index", kHardwarePid, 0, "sort_index", "13"));
    put(meta("process_name", kFreqPid, 0, "name", "\"AI Core Freq\""));
    put(meta("process_labels", kFreqPid, 0, "labels", "\"NPU\""));
    put(meta("process_sort_index", kFreqPid, 0, "sort_index", "14"));
    put(meta("process_name", kHcclPid, 0, "name", "\"HCCL\""));
    put(meta("thread_name", kHcclPid, 0, "name", "\"Group 0 Communication\""));
    put(meta("thread_sort_index", kHcclPid, 0, "sort_index", "0"));
    for (int p = 0; p < 15; ++p) {
        put(meta("thread_name", kHcclPid, p + 1, "name", "\"Plane " + std::to_string(p) + "\""));
        put(meta("thread_sort_index", kHcclPid, p + 1, "sort_index", std::to_string(p + 1)));
    }
    put(meta("process_labels", kHcclPid, 0, "labels", "\"NPU\""));
    put(meta("process_sort_index", kHcclPid, 0, "sort_index", "15"));
    put(meta("process_name", kOverlapPid, 0, "name", "\"Overlap Analysis\""));
    const char* overlapThreads[] = {"Computing", "Communication", "Communication(Not Overlapped)", "Free"};
    for (int i = 0; i < 4; ++i) {
        put(meta("thread_name", kOverlapPid, i, "name", quote(overlapThreads[i])));
        put(meta("thread_sort_index", kOverlapPid, i, "sort_index", std::to_string(i)));
    }
    put(meta("process_labels", kOverlapPid, 0, "labels", "\"NPU\""));
    put(meta("process_sort_index", kOverlapPid, 0, "sort_index", "23"));
    return flush() ? QString() : ioError();
}

QString DemoTraceWriter::write(const DemoIteration& it)
{
    const std::string hostTid = std::to_string(n::Pid);
    m_tasksByConnection.clear();
    for (size_t i = 0; i < it.tasks.size(); ++i)
        m_tasksByConnection[it.tasks[i].connectionId].push_back(static_cast<int32_t>(i));

    // Python ops and their async_npu flows (one s/f pair per device task). As torch_npu does, a flow's
    // id is its op's start in ns (an op with several tasks reuses it: each s starts a new flow).
    std::unordered_map<int64_t, std::vector<int64_t>> connectionsOfLink;
    for (const SimConnection& c : it.connections)
        connectionsOfLink[c.id].push_back(c.connectionId);
    for (const SimTorchOp& o : it.ops) {
        put("{\"ph\":\"X\",\"name\":" + quote(m_sim.string(o.name)) + ",\"pid\":" + std::to_string(kPythonPid) +
            ",\"tid\":" + hostTid + ",\"ts\":" + ts(o.start) + ",\"dur\":" + micros(o.end - o.start) +
            ",\"cat\":\"cpu_op\",\"args\":{\"Sequence number\":-1,\"Fwd thread id\":0}}");
        if (o.linkId < 0)
            continue;
        for (int64_t conn : connectionsOfLink[o.linkId]) {
            auto tasks = m_tasksByConnection.find(conn);
            if (tasks == m_tasksByConnection.end())
                continue;
            for (int32_t ti : tasks->second) {
                const SimTask& t = it.tasks[static_cast<size_t>(ti)];
                const std::string id = std::to_string(o.start);
                put("{\"ph\":\"s\",\"bp\":\"e\",\"name\":\"torch_to_npu\",\"id\":" + id +
                    ",\"pid\":" + std::to_string(kPythonPid) + ",\"tid\":" + hostTid + ",\"ts\":" + ts(o.start) +
                    ",\"cat\":\"async_npu\"}");
                put("{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"torch_to_npu\",\"id\":" + id +
                    ",\"pid\":" + std::to_string(kHardwarePid) + ",\"tid\":" + std::to_string(t.stream) +
                    ",\"ts\":" + ts(t.start) + ",\"cat\":\"async_npu\"}");
            }
        }
    }

    // CANN calls and their HostToDevice flows (one s, one f per task it launched).
    for (const SimCannCall& c : it.calls) {
        const std::string& name = m_sim.string(c.name);
        const std::string conn = std::to_string(c.connectionId);
        put("{\"name\":" + quote(cannPrefix(c.type) + name) + ",\"pid\":" + std::to_string(kCannPid) +
            ",\"tid\":" + hostTid + ",\"ts\":" + ts(c.start) + ",\"dur\":" + micros(c.end - c.start) +
            ",\"args\":{\"Thread Id\":" + hostTid + ",\"Mode\":\"ACL_RTS\",\"level\":\"" + cannLevel(c.type) +
            "\",\"id\":" + quote(name) + ",\"item_id\":\"0\",\"connection_id\":" + conn + "},\"ph\":\"X\"}");
        auto tasks = m_tasksByConnection.find(c.connectionId);
        if (tasks == m_tasksByConnection.end())
            continue;
        put("{\"name\":\"HostToDevice" + conn + "\",\"ph\":\"s\",\"cat\":\"HostToDevice\",\"id\":\"" + conn +
            "\",\"pid\":" + std::to_string(kCannPid) + ",\"tid\":" + hostTid + ",\"ts\":" + ts(c.start) + "}");
        for (int32_t ti : tasks->second) {
            const SimTask& t = it.tasks[static_cast<size_t>(ti)];
            put("{\"name\":\"HostToDevice" + conn + "\",\"ph\":\"f\",\"id\":\"" + conn + "\",\"ts\":" + ts(t.start) +
                ",\"cat\":\"HostToDevice\",\"pid\":" + std::to_string(kHardwarePid) +
                ",\"tid\":" + std::to_string(t.stream) + ",\"bp\":\"e\"}");
        }
    }

    // Device tasks.
    for (const SimTask& t : it.tasks) {
        put("{\"name\":" + quote(taskName(t)) + ",\"pid\":" + std::to_string(kHardwarePid) +
            ",\"tid\":" + std::to_string(t.stream) + ",\"ts\":" + ts(t.start) + ",\"dur\":" + micros(t.end - t.start) +
            ",\"args\":{\"Model Id\":" + std::to_string(t.modelId) + ",\"Task Type\":\"" + traceTaskTypeName(t.kind) +
            "\",\"Physic Stream Id\":" + std::to_string(t.stream) + ",\"Task Id\":" + std::to_string(t.taskId) +
            ",\"Batch Id\":0,\"Subtask Id\":" + std::to_string(t.contextId) +
            ",\"connection_id\":" + std::to_string(t.connectionId) + "},\"ph\":\"X\"}");
    }

    // HCCL: the collective on its group thread, sub-tasks on their planes.
    for (const SimCommOp& c : it.commOps)
        put("{\"name\":" + quote(m_sim.string(c.name)) + ",\"pid\":" + std::to_string(kHcclPid) +
            ",\"tid\":0,\"ts\":" + ts(c.start) + ",\"dur\":" + micros(c.end - c.start) +
            ",\"args\":{\"connection_id\":" + std::to_string(c.connectionId) +
            ",\"model id\":4294967295,\"data_type\":\"INT32\",\"alg_type\":\"" + n::HcclAlg +
            "\",\"count\":" + std::to_string(c.count) + "},\"ph\":\"X\"}");
    for (const SimCommTask& c : it.commTasks) {
        const SimTask& t = it.tasks[static_cast<size_t>(c.task)];
        const bool reduce = c.type == HcclTaskType::ReduceInline;
        put("{\"name\":\"" + std::string(hcclTaskTypeName(c.type)) + "\",\"pid\":" + std::to_string(kHcclPid) +
            ",\"tid\":" + std::to_string(c.plane + 1) + ",\"ts\":" + ts(t.start) +
            ",\"dur\":" + micros(t.end - t.start) + ",\"args\":{\"notify_id\":\"" + std::to_string(c.notifyId) +
            "\",\"stream id\":" + std::to_string(t.stream) + ",\"task id\":" + std::to_string(t.taskId) +
            ",\"context id\":" + std::to_string(t.contextId) + ",\"task type\":\"" + hcclTaskTypeName(c.type) +
            "\",\"src rank\":0,\"dst rank\":" + std::to_string(c.dstRank) +
            ",\"transport type\":\"SDMA\",\"size(Byte)\":" + std::to_string(c.size) + ",\"data type\":\"" +
            (reduce ? "INT32" : "INVALID_TYPE") + "\",\"link type\":\"HCCS\",\"model id\":4294967295},\"ph\":\"X\"}");
    }

    static const char* const overlapNames[] = {"Computing", "Communication", "Communication(Not Overlapped)", "Free"};
    for (const DemoOverlapRow& r : m_overlap.rowsFor(it))
        put("{\"name\":" + quote(overlapNames[r.type]) + ",\"pid\":" + std::to_string(kOverlapPid) +
            ",\"tid\":" + std::to_string(r.type) + ",\"ts\":" + ts(r.startNs) +
            ",\"dur\":" + micros(r.endNs - r.startNs) + ",\"ph\":\"X\"}");
    put("{\"name\":\"AI Core Freq\",\"ts\":" + ts(it.windowStart) + ",\"pid\":" + std::to_string(kFreqPid) +
        ",\"tid\":0,\"args\":{\"MHz\":" + (it.decode ? "1800" : "1650") + "},\"ph\":\"C\"}");
    return m_failed ? ioError() : QString();
}

QString DemoTraceWriter::finish()
{
    m_buffer += "\n]\n";
    if (!flush())
        return ioError();
    const bool closed = std::fclose(m_file) == 0;
    m_file = nullptr;
    return closed ? QString() : ioError();
}

} // namespace dspark::demo
