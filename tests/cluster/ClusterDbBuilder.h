#pragma once

// Writes one rank's small torch_npu database (formats.md §2): profiler steps (STEP_TIME), HCCL
// collectives (COMMUNICATION_OP) and compute tasks, every row chosen by the test; the tests' own code,
// read back through the real loader. Times are given on the true clock in ns from kBase; the file holds
// kBase + t + skew (the rank's host clock).
#include "model/Profile.h"

#include <QDir>
#include <QString>

#include <sqlite3.h>

#include <map>
#include <string>
#include <vector>

namespace dspark::test {

class ClusterDbBuilder {
public:
    static constexpr TimeNs kBase = 1'736'400'000'000'000'000;

    ClusterDbBuilder(int rank, TimeNs skewNs) : m_rank(rank), m_skew(skewNs) {}

    void step(int64_t id, TimeNs start, TimeNs end) { m_steps.push_back({id, start, end}); }
    void collective(const std::string& name, const std::string& opType, const std::string& group, int64_t count,
                    TimeNs issue, TimeNs end)
    {
        m_colls.push_back({name, opType, group, count, issue, end});
    }
    void kernel(const std::string& name, TimeNs start, TimeNs end) { m_kernels.push_back({name, start, end}); }
    // An HCCL sub-task (TASK on stream 3 + COMMUNICATION_TASK_INFO) of the collective added `op`-th (from 1);
    // transport 0 SDMA, 1 RDMA, 2 LOCAL (ENUM_HCCL_TRANSPORT_TYPE as the real files have it).
    void commTask(const std::string& type, int64_t op, int64_t src, int64_t dst, int transport, int64_t size,
                  TimeNs start, TimeNs end)
    {
        m_commTasks.push_back({type, op, src, dst, transport, size, start, end});
    }

    // `dir`/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_<rank>.db; empty on success.
    QString writeRunFolder(const QString& dir) const
    {
        QDir().mkpath(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT"));
        return write(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_%1.db").arg(m_rank));
    }

    QString write(const QString& path) const
    {
        std::map<std::string, int64_t> ids;
        std::string rows;
        const auto id = [&](const std::string& s) {
            auto [it, added] = ids.emplace(s, int64_t(ids.size()) + 1);
            if (added)
                rows += "INSERT INTO STRING_IDS VALUES(" + std::to_string(it->second) + ",'" + s + "');";
            return std::to_string(it->second);
        };
        const auto ns = [&](TimeNs t) { return std::to_string(kBase + t + m_skew); };
        TimeNs first = INT64_MAX, last = INT64_MIN;
        for (const Step& s : m_steps) {
            rows += "INSERT INTO STEP_TIME VALUES(" + std::to_string(s.id) + "," + ns(s.start) + "," + ns(s.end) + ");";
            rows += "INSERT INTO PYTORCH_API VALUES('" + ns(s.start) + "','" + ns(s.end) + "',4242," + "NULL," +
                    id("ProfilerStep#" + std::to_string(s.id)) + ",0,0,NULL,NULL,NULL,50003);";
            first = std::min(first, s.start);
            last = std::max(last, s.end);
        }
        int64_t opId = 0;
        for (const Coll& c : m_colls)
            rows += "INSERT INTO COMMUNICATION_OP VALUES(" + id(c.name) + "," + ns(c.issue) + "," + ns(c.end) +
                    ",NULL," + id(c.group) + "," + std::to_string(++opId) + ",0,0,NULL,NULL," +
                    std::to_string(c.count) + "," + id(c.opType) + ");";
        int64_t task = 0;
        for (const Kernel& k : m_kernels) {
            ++task;
            rows += "INSERT INTO TASK VALUES(" + ns(k.start) + "," + ns(k.end) + "," + std::to_string(m_rank) +
                    ",4294967295," + std::to_string(task) + ",4242," + id("KERNEL_AICORE") + ",0,2," +
                    std::to_string(task) + ",4294967295);" + "INSERT INTO COMPUTE_TASK_INFO VALUES(" + id(k.name) +
                    "," + std::to_string(task) + ",24,0," + id("AI_CORE") + "," + id(k.name) +
                    ",NULL,NULL,NULL,NULL,NULL,NULL,NULL);";
        }
        for (const CommTask& c : m_commTasks) {
            ++task;
            rows += "INSERT INTO TASK VALUES(" + ns(c.start) + "," + ns(c.end) + "," + std::to_string(m_rank) +
                    ",4294967295," + std::to_string(task) + ",4242," + id("COMMUNICATION") + ",0,3," +
                    std::to_string(task) + ",4294967295);" + "INSERT INTO COMMUNICATION_TASK_INFO VALUES(" +
                    id(m_colls.at(size_t(c.op - 1)).name) + "," + std::to_string(task) + "," + id(c.type) + ",0," +
                    id(m_colls.at(size_t(c.op - 1)).group) + ",0,65535," + std::to_string(c.src) + "," +
                    std::to_string(c.dst) + "," + std::to_string(c.transport) + "," + std::to_string(c.size) + ",0,1," +
                    std::to_string(c.op) + ");";
        }
        const std::string r = std::to_string(m_rank);
        const std::string sql =
            "BEGIN;CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);"
            "CREATE TABLE META_DATA (name TEXT,value TEXT);INSERT INTO META_DATA VALUES('SCHEMA_VERSION','1.0.0');"
            "CREATE TABLE SESSION_TIME_INFO (startTimeNs INTEGER,endTimeNs INTEGER);"
            "CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);INSERT INTO RANK_DEVICE_MAP VALUES(" +
            r + "," + r +
            ");CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name "
            "INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, "
            "callchainId INTEGER, type INTEGER);"
            "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);"
            "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,globalTaskId "
            "INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,taskId INTEGER,modelId "
            "INTEGER);"
            "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim INTEGER,"
            "mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes INTEGER,"
            "inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes INTEGER,attrInfo "
            "INTEGER);"
            "CREATE TABLE COMMUNICATION_OP (opName INTEGER,startNs INTEGER,endNs INTEGER,connectionId INTEGER,"
            "groupName INTEGER,opId INTEGER PRIMARY KEY,relay INTEGER,retry INTEGER,dataType INTEGER,algType "
            "INTEGER,count NUMERIC,opType INTEGER);" +
            commTables() + rows + "INSERT INTO SESSION_TIME_INFO VALUES(" + ns(first) + "," + ns(last) + ");COMMIT;";
        sqlite3* db = nullptr;
        if (sqlite3_open(path.toUtf8().constData(), &db) != SQLITE_OK) {
            sqlite3_close(db);
            return QStringLiteral("cannot create %1").arg(path);
        }
        char* message = nullptr;
        const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
        const QString error = rc == SQLITE_OK ? QString() : QString::fromUtf8(message ? message : "sqlite error");
        sqlite3_free(message);
        sqlite3_close(db);
        return error;
    }

private:
    // Only when the test adds HCCL sub-tasks: the other tests' files stay byte for byte as they were
    // (the folder scan tells duplicates by size and sampled bytes).
    std::string commTables() const
    {
        if (m_commTasks.empty())
            return {};
        return "CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER,globalTaskId INTEGER,taskType INTEGER,planeId "
               "INTEGER,groupName INTEGER,notifyId INTEGER,rdmaType INTEGER,srcRank INTEGER,dstRank INTEGER,"
               "transportType INTEGER,size INTEGER,dataType INTEGER,linkType INTEGER,opId INTEGER);"
               "CREATE TABLE ENUM_HCCL_TRANSPORT_TYPE (id INTEGER PRIMARY KEY,name TEXT);"
               "INSERT INTO ENUM_HCCL_TRANSPORT_TYPE VALUES(0,'SDMA'),(1,'RDMA'),(2,'LOCAL');";
    }

    struct Step {
        int64_t id;
        TimeNs start, end;
    };
    struct Coll {
        std::string name, opType, group;
        int64_t count;
        TimeNs issue, end;
    };
    struct Kernel {
        std::string name;
        TimeNs start, end;
    };
    int m_rank;
    TimeNs m_skew;
    std::vector<Step> m_steps;
    std::vector<Coll> m_colls;
    std::vector<Kernel> m_kernels;
    struct CommTask {
        std::string type;
        int64_t op, src, dst;
        int transport;
        int64_t size;
        TimeNs start, end;
    };
    std::vector<CommTask> m_commTasks;
};

} // namespace dspark::test
