#pragma once

#include "analysis/IntervalSet.h"
#include "demo/DemoIteration.h"

#include <QString>

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace dspark::demo {

class DemoSimulator;

// What the demo wrote, counted while writing (ground_truth.json "counts").
struct DemoCounts {
    std::map<int, int64_t> tasksByStream;
    int64_t tasks = 0;
    int64_t computeTasks = 0;
    int64_t eventRecords = 0;
    int64_t eventWaits = 0;
    int64_t memcpy = 0;
    int64_t hcclTasks = 0;
    int64_t commOps = 0;
    int64_t cannApi = 0;
    int64_t pytorchApi = 0;
    int64_t connectionIds = 0;
    int64_t hostToDeviceLinks = 0;
    int64_t opToDeviceLinks = 0;
    int64_t overlapRows = 0;
    std::map<std::string, int64_t> kernelsByName;
};

// One msprof Overlap Analysis row (type 0 computing, 1 communication, 2 not overlapped, 3 free).
struct DemoOverlapRow {
    TimeNs startNs;
    TimeNs endNs;
    int type;
};

// Computes msprof's Overlap Analysis rows iteration by iteration (windows never share device work).
class DemoOverlap {
public:
    std::vector<DemoOverlapRow> rowsFor(const DemoIteration& it);

private:
    TimeNs m_lastBusyEnd = -1;
};

// Writes the iterations into ascend_pytorch_profiler_0.db with the msprof / torch_npu schema of the
// real fixture (formats.md §2): one transaction, prepared statements, journal and sync off (the file
// is new and ours).
class DemoDbWriter {
public:
    explicit DemoDbWriter(const DemoSimulator& sim);
    ~DemoDbWriter();
    DemoDbWriter(const DemoDbWriter&) = delete;
    DemoDbWriter& operator=(const DemoDbWriter&) = delete;

    // Creates the database (the file must not exist yet). Returns an error line or "".
    QString open(const std::string& path);
    QString write(const DemoIteration& it);
    QString finish(TimeNs sessionStartNs, TimeNs sessionEndNs);
    const DemoCounts& counts() const { return m_counts; }

private:
    bool exec(const char* sql);
    sqlite3_stmt* prepare(const char* sql);
    int64_t fixedString(const std::string& value);
    int64_t simString(int32_t id);   // msprof id space (0…)
    int64_t torchString(int32_t id); // torch_npu id space (268435456…)
    int64_t putString(int64_t id, const std::string& value);
    QString sqlError(const char* what) const;
    void finalizeStatements();

    const DemoSimulator& m_sim;
    std::string m_path;
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_insTask = nullptr;
    sqlite3_stmt* m_insCompute = nullptr;
    sqlite3_stmt* m_insCommTask = nullptr;
    sqlite3_stmt* m_insCommOp = nullptr;
    sqlite3_stmt* m_insCann = nullptr;
    sqlite3_stmt* m_insTorch = nullptr;
    sqlite3_stmt* m_insConn = nullptr;
    sqlite3_stmt* m_insString = nullptr;
    sqlite3_stmt* m_insStep = nullptr;
    sqlite3_stmt* m_insOverlap = nullptr;
    sqlite3_stmt* m_insFreq = nullptr;
    std::unordered_map<std::string, int64_t> m_fixed;
    std::vector<int64_t> m_simIds;
    std::array<int64_t, 16> m_taskKindIds{};
    std::array<int64_t, 16> m_computeKindIds{};
    std::vector<int64_t> m_kernelIds;
    std::vector<int64_t> m_shapeIds;
    std::vector<int64_t> m_kernelCounts;
    std::vector<int64_t> m_torchIds;
    int64_t m_nextMsprofId = 0;
    int64_t m_nextTorchId = 268435456;
    int64_t m_nextGlobalTaskId = 0;
    int64_t m_nextOverlapId = 0;
    DemoOverlap m_overlap;
    DemoCounts m_counts;
    std::vector<uint32_t> m_order;
    std::vector<int64_t> m_globalIds;
    std::unordered_map<int64_t, int64_t> m_tasksPerConnection;
    bool m_failed = false;
};

const char* taskTypeName(TaskKind kind);         // TASK.taskType string
const char* computeTaskTypeName(TaskKind kind);  // COMPUTE_TASK_INFO.taskType string
const char* traceTaskTypeName(TaskKind kind);    // trace_view.json "Task Type"
const char* hcclTaskTypeName(HcclTaskType type); // COMMUNICATION_TASK_INFO.taskType string

} // namespace dspark::demo
