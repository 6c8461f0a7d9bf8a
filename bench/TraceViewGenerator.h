#pragma once

// Writes a synthetic torch_npu trace_view.json of a chosen size, shaped like the real export in
// testdata/real (same processes, pids, args keys, string timestamps with ns digits, CRLF call stacks,
// flows HostToDevice / async_npu / async_task_queue, HCCL ops with plane sub-tasks, Overlap Analysis
// and counter tracks), interleaved the way torch_npu writes them (per batch of ops: the Python
// events, then the CANN launches with their device tasks). Python spans are written after their
// children, so host lanes need sorting like real files do. Used by bench_json_load (1 GB) and by
// the loader tests (a few MB, where the returned counts are the expected figures).
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace dspark::bench {

struct TraceViewCounts {
    uint64_t bytes = 0;
    uint64_t completeEvents = 0; // ph X
    uint64_t counterSamples = 0; // ph C
    uint64_t flowStarts = 0;
    uint64_t flowFinishes = 0; // every finish has its start in this generator
    uint64_t deviceTasks = 0;  // Ascend Hardware slices
    uint64_t kernels = 0;      // of those, compute tasks (AI_CORE / MIX_AIV)
    uint64_t hostEvents = 0;   // Python + CANN slices
    uint64_t commOps = 0;
    uint64_t commTasks = 0;
    uint64_t overlapSpans = 0;
};

// (hostPid << 10) | (sortIndex << 5) | device 0, as current torch_npu writes pids.
constexpr uint64_t ascendPid(uint64_t hostPid, uint64_t sortIndex)
{
    return (hostPid << 10) | (sortIndex << 5);
}

class TraceViewGenerator {
public:
    // Writes about `targetBytes` bytes to `path`; returns the counts (bytes == 0 on I/O failure).
    static TraceViewCounts write(const std::string& path, uint64_t targetBytes, uint32_t seed = 1)
    {
        TraceViewGenerator g(seed);
        FILE* f = std::fopen(path.c_str(), "wb");
        if (!f)
            return {};
        g.m_file = f;
        g.m_out.reserve(kFlushBytes + 65536);
        g.run(targetBytes);
        g.flush();
        const bool ok = std::fclose(f) == 0 && !g.m_failed;
        g.m_counts.bytes = ok ? g.m_written : 0;
        return g.m_counts;
    }

private:
    static constexpr size_t kFlushBytes = size_t(1) << 22;
    static constexpr uint64_t kHostPid = 3096504;
    static constexpr uint64_t kCannPid = ascendPid(kHostPid, 7);
    static constexpr uint64_t kHardwarePid = ascendPid(kHostPid, 13);
    static constexpr uint64_t kHcclPid = ascendPid(kHostPid, 15);
    static constexpr uint64_t kOverlapPid = ascendPid(kHostPid, 23);
    static constexpr uint64_t kQosPid = ascendPid(kHostPid, 22);
    static constexpr uint64_t kAccPmuPid = ascendPid(kHostPid, 21);
    static constexpr uint64_t kMainTid = 3096504;
    static constexpr uint64_t kWorkerTid = 3099702; // dequeue thread (torch_npu task queue)

    explicit TraceViewGenerator(uint32_t seed) : m_rng(seed * 2654435761u + 12345u) {}

    uint32_t next()
    {
        m_rng ^= m_rng << 13;
        m_rng ^= m_rng >> 17;
        m_rng ^= m_rng << 5;
        return m_rng;
    }

    void put(const char* s) { m_out += s; }
    void put(const std::string& s) { m_out += s; }
    void num(uint64_t v)
    {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, v);
        m_out.append(buf, r.ptr);
    }
    // ns → "µs.fff" (3 decimals), as Ascend writes ts strings.
    void micros(uint64_t ns)
    {
        num(ns / 1000);
        const unsigned frac = static_cast<unsigned>(ns % 1000);
        char buf[4] = {char('0' + frac / 100), char('0' + frac / 10 % 10), char('0' + frac % 10), 0};
        m_out += '.';
        m_out += buf;
    }
    void ts(uint64_t ns)
    {
        put("\"ts\": \"");
        micros(ns);
        put("\"");
    }
    void dur(uint64_t ns, bool subNs = false)
    {
        put("\"dur\": ");
        micros(ns);
        if (subNs)
            num(next() % 9000 + 1000); // sub-ns digits, as hardware durations have
    }

    void separator()
    {
        if (m_first)
            m_first = false;
        else
            m_out += ",\n";
        if (m_out.size() >= kFlushBytes)
            flush();
    }
    void flush()
    {
        if (!m_out.empty() && std::fwrite(m_out.data(), 1, m_out.size(), m_file) != m_out.size())
            m_failed = true;
        m_written += m_out.size();
        m_out.clear();
    }
    uint64_t size() const { return m_written + m_out.size(); }

    void meta(const char* what, uint64_t pid, uint64_t tid, const std::string& key, const std::string& value,
              bool quoted)
    {
        separator();
        put("{\"name\": \"");
        put(what);
        put("\", \"pid\": ");
        num(pid);
        put(", \"tid\": ");
        num(tid);
        put(", \"args\": {\"");
        put(key);
        put("\": ");
        if (quoted)
            put("\"" + value + "\"");
        else
            put(value);
        put("}, \"ph\": \"M\"}");
    }
    void process(uint64_t pid, const char* name, uint64_t sortIndex, const char* labels)
    {
        meta("process_name", pid, 0, "name", name, true);
        meta("process_labels", pid, 0, "labels", labels, true);
        meta("process_sort_index", pid, 0, "sort_index", std::to_string(sortIndex), false);
    }
    void thread(uint64_t pid, uint64_t tid, const std::string& name, uint64_t sortIndex)
    {
        meta("thread_name", pid, tid, "name", name, true);
        meta("thread_sort_index", pid, tid, "sort_index", std::to_string(sortIndex), false);
    }

    void metadata()
    {
        process(kHostPid, "Python", 0, "CPU");
        thread(kHostPid, kMainTid, "Thread " + std::to_string(kMainTid), kMainTid);
        thread(kHostPid, kWorkerTid, "Thread " + std::to_string(kWorkerTid), kWorkerTid);
        process(kCannPid, "CANN", 7, "CPU");
        thread(kCannPid, kWorkerTid, "Thread " + std::to_string(kWorkerTid), kWorkerTid);
        process(kHardwarePid, "Ascend Hardware", 13, "NPU");
        for (uint64_t s : {2, 3, 4})
            thread(kHardwarePid, s, "Stream " + std::to_string(s), s);
        process(kHcclPid, "HCCL", 15, "NPU");
        thread(kHcclPid, 0, "Group 0 Communication", 0);
        for (uint64_t p = 0; p < 8; ++p)
            thread(kHcclPid, p + 1, "Plane " + std::to_string(p), p + 1);
        process(kOverlapPid, "Overlap Analysis", 23, "NPU");
        thread(kOverlapPid, 0, "Computing", 0);
        thread(kOverlapPid, 1, "Communication", 1);
        process(kQosPid, "QoS", 22, "NPU");
        process(kAccPmuPid, "Acc PMU", 21, "NPU");
    }

    void slice(uint64_t pid, uint64_t tid, const std::string& name, const char* cat, uint64_t startNs, uint64_t durNs,
               bool subNs, const std::string& args)
    {
        separator();
        put("{\"ph\": \"X\", \"name\": \"");
        put(name);
        put("\", \"pid\": ");
        num(pid);
        put(", \"tid\": ");
        num(tid);
        put(", ");
        ts(startNs);
        put(", ");
        dur(durNs, subNs);
        if (cat) {
            put(", \"cat\": \"");
            put(cat);
            put("\"");
        }
        if (!args.empty()) {
            put(", \"args\": {");
            put(args);
            put("}");
        }
        put("}");
        ++m_counts.completeEvents;
    }

    void flow(char ph, const char* cat, const std::string& name, const std::string& id, bool quotedId, uint64_t pid,
              uint64_t tid, uint64_t tsNs)
    {
        separator();
        put("{\"name\": \"");
        put(name);
        put("\", \"ph\": \"");
        m_out += ph;
        put("\", \"cat\": \"");
        put(cat);
        put("\", \"id\": ");
        put(quotedId ? "\"" + id + "\"" : id);
        put(", \"pid\": ");
        num(pid);
        put(", \"tid\": ");
        num(tid);
        put(", ");
        ts(tsNs);
        if (ph == 'f')
            put(", \"bp\": \"e\"");
        put("}");
        if (ph == 's')
            ++m_counts.flowStarts;
        else
            ++m_counts.flowFinishes;
    }

    void counter(uint64_t pid, const char* name, uint64_t tsNs, const std::string& args)
    {
        separator();
        put("{\"name\": \"");
        put(name);
        put("\", ");
        ts(tsNs);
        put(", \"pid\": ");
        num(pid);
        put(", \"tid\": 0, \"args\": {");
        put(args);
        put("}, \"ph\": \"C\"}");
        ++m_counts.counterSamples;
    }

    struct Kernel {
        uint64_t launchNs, launchDur, taskNs, taskDur, connection;
        int type; // 0 AI_CORE, 1 MIX_AIV, 2 EVENT_RECORD, 3 EVENT_WAIT, 4 MEMCPY_ASYNC
        uint64_t stream;
    };

    void run(uint64_t targetBytes)
    {
        static const char* const ops[] = {
            "aten::mm",         "aten::add",  "aten::mul",   "aten::softmax",
            "aten::layer_norm", "aten::gelu", "aten::copy_", "npu::npu_fused_infer_attention_score"};
        static const char* const kernels[] = {"MatMulV2",  "Add",  "Mul",        "SoftmaxV2",
                                              "LayerNorm", "Gelu", "TensorMove", "FusedInferAttentionScore"};
        m_out += "[";
        metadata();
        uint64_t hostNs = 1736408883000000000ull; // host clock, ns
        uint64_t deviceNs = hostNs + 2000000;
        uint64_t sequence = 0, connection = 1000, queueId = 1;
        constexpr int kBatch = 64;
        while (size() + 4096 < targetBytes) {
            std::string batchPython;
            std::vector<Kernel> batchKernels;
            // Python events of the batch: ops, then their enclosing python_function (written after).
            const uint64_t batchStart = hostNs;
            for (int i = 0; i < kBatch; ++i) {
                const int op = static_cast<int>(next() % 8);
                const uint64_t opStart = hostNs + 500;
                const int nKernels = 3 + static_cast<int>(next() % 4);
                const uint64_t opDur = 4000 + nKernels * 3000 + next() % 2000;
                std::string args = "\"Sequence number\": " + std::to_string(sequence++) +
                                   ", \"Fwd thread id\": 0, \"Input Dims\": \"[8, 4096];\\r\\n[4096, 4096]\", "
                                   "\"Input type\": \"float16;\\r\\nfloat16\", \"Call stack\": "
                                   "\"model/layers.py(" +
                                   std::to_string(100 + op) +
                                   "): forward;\\r\\ntorch/nn/modules/module.py(1501): _call_impl\"";
                slice(kHostPid, kMainTid, ops[op], "cpu_op", opStart, opDur, false, args);
                ++m_counts.hostEvents;
                // torch_npu's task queue: enqueue on the main thread, dequeue on the worker.
                const uint64_t enqueueNs = opStart + 200;
                slice(kHostPid, kMainTid, "Enqueue", "enqueue", enqueueNs, 1500, false, "");
                ++m_counts.hostEvents;
                flow('s', "async_task_queue", "enqueue_to_dequeue", std::to_string(queueId), false, kHostPid, kMainTid,
                     enqueueNs);
                const uint64_t dequeueNs = enqueueNs + 2500;
                slice(kHostPid, kWorkerTid, "Dequeue", "dequeue", dequeueNs, opDur - 2500, false, "");
                ++m_counts.hostEvents;
                flow('f', "async_task_queue", "enqueue_to_dequeue", std::to_string(queueId++), false, kHostPid,
                     kWorkerTid, dequeueNs);
                // torch_npu's async_npu id is the op's start in ns (a 19-digit number), as in the real traces.
                const uint64_t asyncId = opStart;
                flow('s', "async_npu", "async_npu", std::to_string(asyncId), false, kHostPid, kMainTid, opStart);
                uint64_t launchNs = dequeueNs + 300;
                for (int k = 0; k < nKernels; ++k) {
                    Kernel kernel;
                    kernel.launchNs = launchNs;
                    kernel.launchDur = 1800 + next() % 800;
                    kernel.connection = connection++;
                    const uint32_t r = next() % 100;
                    kernel.type = r < 80 ? 0 : r < 85 ? 1 : r < 90 ? 2 : r < 95 ? 3 : 4;
                    kernel.stream = kernel.type == 4 ? 3 : 2;
                    deviceNs = std::max(deviceNs + 200, launchNs + 20000);
                    kernel.taskNs = deviceNs;
                    kernel.taskDur = kernel.type <= 1 ? 5000 + next() % 30000 : 800 + next() % 1000;
                    deviceNs += kernel.taskDur;
                    batchKernels.push_back(kernel);
                    launchNs += kernel.launchDur + 400;
                    // The Python op's async_npu flow ends at its first device task.
                    if (k == 0)
                        m_pendingAsync.push_back({asyncId, kernel.connection});
                }
                hostNs = std::max(opStart + opDur, launchNs) + 1000 + next() % 2000;
            }
            slice(kHostPid, kMainTid, "model/runner.py(88): forward_batch", "python_function", batchStart,
                  hostNs - batchStart, false, "\"Python id\": " + std::to_string(sequence));
            ++m_counts.hostEvents;

            // CANN launches and their device tasks.
            for (const Kernel& k : batchKernels) {
                const bool compute = k.type <= 1;
                const std::string kname =
                    compute       ? kernels[next() % 8] + std::string("_") + std::to_string(k.connection % 7)
                    : k.type == 2 ? "EVENT_RECORD"
                    : k.type == 3 ? "EVENT_WAIT"
                                  : "MEMCPY_ASYNC";
                slice(kCannPid, kWorkerTid, "Node@launch", nullptr, k.launchNs, k.launchDur, false,
                      "\"Thread Id\": " + std::to_string(kWorkerTid) +
                          ", \"Mode\": \"ACL_RTS\", \"level\": \"node\", "
                          "\"id\": \"launch\", \"item_id\": \"" +
                          kname + "\", \"connection_id\": " + std::to_string(k.connection));
                ++m_counts.hostEvents;
                flow('s', "HostToDevice", "HostToDevice" + std::to_string(k.connection), std::to_string(k.connection),
                     true, kCannPid, kWorkerTid, k.launchNs);
                static const char* const taskTypes[] = {"AI_CORE", "MIX_AIV", "EVENT_RECORD_SQE", "EVENT_WAIT_SQE",
                                                        "PCIE_DMA_SQE"};
                slice(kHardwarePid, k.stream, kname, nullptr, k.taskNs, k.taskDur, true,
                      "\"Model Id\": 4294967295, \"Task Type\": \"" + std::string(taskTypes[k.type]) +
                          "\", \"Physic Stream Id\": " + std::to_string(k.stream) +
                          ", \"Task Id\": " + std::to_string(k.connection % 65536) +
                          ", \"Batch Id\": 0, \"Subtask Id\": 4294967295, \"connection_id\": " +
                          std::to_string(k.connection));
                ++m_counts.deviceTasks;
                if (compute)
                    ++m_counts.kernels;
                flow('f', "HostToDevice", "HostToDevice" + std::to_string(k.connection), std::to_string(k.connection),
                     true, kHardwarePid, k.stream, k.taskNs);
                if (!m_pendingAsync.empty() && m_pendingAsync.front().second == k.connection) {
                    flow('f', "async_npu", "async_npu", std::to_string(m_pendingAsync.front().first), false,
                         kHardwarePid, k.stream, k.taskNs);
                    m_pendingAsync.erase(m_pendingAsync.begin());
                }
                if (compute) {
                    slice(kOverlapPid, 0, "Computing", nullptr, k.taskNs, k.taskDur, false, "");
                    ++m_counts.overlapSpans;
                }
                if (++m_kernelCount % 4 == 0)
                    counter(kQosPid, "QoS OTHERS", k.taskNs, "\"value\": " + std::to_string(1800 + next() % 200));
                if (m_kernelCount % 16 == 0)
                    for (const char* series : {"read_bandwidth", "read_ost", "write_band_width", "write_ost"})
                        counter(kAccPmuPid, series, k.taskNs,
                                "\"value\": " + std::to_string(next() % 5000) + ", \"acc_id\": 0");
            }
            // Every batch: one all-reduce on the HCCL stream with sub-tasks on two planes.
            const uint64_t opStart = deviceNs + 1000;
            const uint64_t opDur = 40000;
            slice(kHcclPid, 0, "hcom_allReduce__586_" + std::to_string(m_commOps++) + "_1", nullptr, opStart, opDur,
                  true,
                  "\"connection_id\": " + std::to_string(connection) +
                      ", \"model id\": 4294967295, \"data_type\": \"FP32\", \"alg_type\": \"MESH-RING\", \"count\": "
                      "4097000");
            ++m_counts.commOps;
            slice(kOverlapPid, 1, "Communication", nullptr, opStart, opDur, false, "");
            ++m_counts.overlapSpans;
            for (int t = 0; t < 6; ++t) {
                const uint64_t plane = static_cast<uint64_t>(t % 2);
                const uint64_t taskStart = opStart + 2000 + static_cast<uint64_t>(t) * 6000;
                const char* names[] = {"Notify_Wait", "Memcpy", "Notify_Record"};
                slice(kHcclPid, plane + 1, names[t % 3], nullptr, taskStart, 4000, true,
                      "\"notify_id\": \"" + std::to_string(t) +
                          "\", \"duration estimated(us)\": 4.0, \"stream id\": 4, \"task id\": " + std::to_string(t) +
                          ", \"task type\": \"" + names[t % 3] +
                          "\", \"src rank\": 0, \"dst rank\": 1, \"transport type\": \"SDMA\", \"size(Byte)\": 4096, "
                          "\"data type\": \"FP32\", \"link type\": \"HCCS\", \"bandwidth(GB/s)\": 12.5");
                ++m_counts.commTasks;
            }
            deviceNs = opStart + opDur + 1000;
            // The host runs at most 2 ms ahead of the device (the launch queue is bounded), so host and
            // device lanes span the same time, as in real traces.
            hostNs = std::max(hostNs, deviceNs > 2000000 ? deviceNs - 2000000 : hostNs);
        }
        m_out += "\n]\n";
    }

    FILE* m_file = nullptr;
    std::string m_out;
    uint64_t m_written = 0;
    bool m_first = true;
    bool m_failed = false;
    uint32_t m_rng;
    uint64_t m_kernelCount = 0;
    uint64_t m_commOps = 0;
    std::vector<std::pair<uint64_t, uint64_t>> m_pendingAsync; // (async id, connection of its first task)
    TraceViewCounts m_counts;
};

} // namespace dspark::bench
