#pragma once

#include "demo/DemoDbWriter.h"
#include "demo/DemoIteration.h"

#include <QString>

#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

namespace dspark::demo {

class DemoSimulator;

// Writes the same iterations as ASCEND_PROFILER_OUTPUT/trace_view.json in the torch_npu text-export
// format (formats.md §3): a top-level array, string `ts` in µs with 3 decimals, metadata events naming
// the processes/threads, "Stream N" threads of "Ascend Hardware", HCCL groups and planes, Overlap
// Analysis, HostToDevice and async_npu flows matched by (cat, id). Streams to disk as it goes.
class DemoTraceWriter {
public:
    explicit DemoTraceWriter(const DemoSimulator& sim);
    ~DemoTraceWriter();
    DemoTraceWriter(const DemoTraceWriter&) = delete;
    DemoTraceWriter& operator=(const DemoTraceWriter&) = delete;

    QString open(const std::string& path);
    QString write(const DemoIteration& it);
    QString finish();
    int64_t events() const { return m_events; }

private:
    void put(const std::string& event);
    bool flush();
    QString ioError() const;

    const DemoSimulator& m_sim;
    std::string m_path;
    std::FILE* m_file = nullptr;
    std::string m_buffer;
    int64_t m_events = 0;
    bool m_failed = false;
    DemoOverlap m_overlap;
    std::unordered_map<int64_t, std::vector<int32_t>> m_tasksByConnection;
};

} // namespace dspark::demo
