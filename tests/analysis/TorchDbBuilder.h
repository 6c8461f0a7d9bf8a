#pragma once

// Writes small torch_npu profiler databases (the ascend_pytorch_profiler_*.db schema of formats.md §2)
// whose every row a test chooses: Python spans and ops, CANN runtime calls, device tasks and the
// connection ids between them. The tests' own code (not core/demo): the analyses see only the file,
// through the real loader. Times given to the builder are ns from kBase (the file holds kBase + t).
#include "model/Profile.h"

#include <QString>

#include <sqlite3.h>

#include <map>
#include <string>
#include <vector>

namespace dspark::test {

class TorchDbBuilder {
public:
    static constexpr TimeNs kBase = 1'736'400'000'000'000'000; // a local Unix time in ns (2025)
    static constexpr int64_t kPid = 4242;
    static constexpr int64_t kDevice = 0;

    // A PyTorch / Python span on thread `tid` (python trace, no device work of its own).
    void span(int64_t tid, const std::string& name, TimeNs start, TimeNs end)
    {
        m_torch.push_back({start, end, tid, -1, name, 50003});
    }
    // A runtime call on thread `tid`; returns its connection id (0 = a call that launches nothing).
    int64_t call(int64_t tid, const std::string& name, TimeNs start, TimeNs end, bool launches = true)
    {
        const int64_t conn = launches ? ++m_lastConn : 0;
        m_cann.push_back({start, end, tid, launches ? conn : 4'000'000'000 + int64_t(m_cann.size()), name});
        return conn;
    }
    // A device task on `stream` connected to `conn` (0 = none). `kernel` names a compute kernel
    // (COMPUTE_TASK_INFO); empty: the task is named by its type (EVENT_RECORD, EVENT_WAIT, MEMCPY_ASYNC).
    void task(int64_t stream, const std::string& type, const std::string& kernel, TimeNs start, TimeNs end,
              int64_t conn)
    {
        m_tasks.push_back({start, end, stream, type, kernel, conn});
    }
    // One launch as torch_npu records it: the framework op on the Python thread `pyTid` over
    // [callStart − 2 µs, callEnd + 1 µs] (with the task queue on, the op only enqueues, so it ends at
    // callStart), the runtime call on `callTid` (== pyTid: TASK_QUEUE_ENABLE=0) and the task. `lead` =
    // task start − call end: how far ahead of the device the host issued the launch.
    void launch(int64_t pyTid, int64_t callTid, const std::string& callName, TimeNs callStart, TimeNs callEnd,
                int64_t stream, const std::string& type, const std::string& kernel, TimeNs start, TimeNs end)
    {
        const int64_t conn = call(callTid, callName, callStart, callEnd);
        const bool queued = pyTid != callTid;
        const int64_t opId = ++m_lastOp;
        m_torch.push_back({callStart - 2'000, queued ? callStart : callEnd + 1'000, pyTid, opId,
                           "aten::" + (kernel.empty() ? type : kernel), 50001});
        m_connectionIds.emplace_back(opId, conn);
        task(stream, type, kernel, start, end, conn);
    }

    // Writes the database; empty on success, else SQLite's message.
    QString write(const QString& path) const
    {
        sqlite3* db = nullptr;
        if (sqlite3_open(path.toUtf8().constData(), &db) != SQLITE_OK) {
            sqlite3_close(db);
            return QStringLiteral("cannot create %1").arg(path);
        }
        std::string sql = "BEGIN;" + schema();
        std::map<std::string, int64_t> ids;
        const auto id = [&](const std::string& s) {
            auto [it, added] = ids.emplace(s, int64_t(ids.size()) + 1);
            if (added)
                sql += "INSERT INTO STRING_IDS VALUES(" + std::to_string(it->second) + "," + quote(s) + ");";
            return std::to_string(it->second);
        };
        const auto ns = [](TimeNs t) { return std::to_string(kBase + t); };
        const auto tid = [](int64_t t) { return std::to_string((kPid << 32) | t); };
        TimeNs first = INT64_MAX, last = INT64_MIN;
        for (const Torch& t : m_torch) {
            sql += "INSERT INTO PYTORCH_API VALUES('" + ns(t.start) + "','" + ns(t.end) + "'," + tid(t.tid) + "," +
                   (t.conn < 0 ? std::string("NULL") : std::to_string(t.conn)) + "," + id(t.name) +
                   ",0,0,NULL,NULL,NULL," + std::to_string(t.type) + ");";
            first = std::min(first, t.start);
            last = std::max(last, t.end);
        }
        for (const auto& [op, conn] : m_connectionIds)
            sql += "INSERT INTO CONNECTION_IDS VALUES(" + std::to_string(op) + "," + std::to_string(conn) + ");";
        for (const Cann& c : m_cann)
            sql += "INSERT INTO CANN_API VALUES(" + ns(c.start) + "," + ns(c.end) + ",5000," + tid(c.tid) + "," +
                   std::to_string(c.conn) + "," + id(c.name) + ");";
        int64_t globalTaskId = 0;
        for (const Task& t : m_tasks) {
            ++globalTaskId;
            sql += "INSERT INTO TASK VALUES(" + ns(t.start) + "," + ns(t.end) + "," + std::to_string(kDevice) + "," +
                   (t.conn > 0 ? std::to_string(t.conn) : std::string("4294967295")) + "," +
                   std::to_string(globalTaskId) + "," + std::to_string(kPid) + "," + id(t.type) + ",0," +
                   std::to_string(t.stream) + "," + std::to_string(globalTaskId) + ",4294967295);";
            if (!t.kernel.empty())
                sql += "INSERT INTO COMPUTE_TASK_INFO VALUES(" + id(t.kernel) + "," + std::to_string(globalTaskId) +
                       ",24,0," + id("AI_CORE") + "," + id(t.kernel) + ",NULL,NULL,NULL,NULL,NULL,NULL,NULL);";
            first = std::min(first, t.start);
            last = std::max(last, t.end);
        }
        sql += "INSERT INTO SESSION_TIME_INFO VALUES(" + ns(first) + "," + ns(last) + ");COMMIT;";
        char* message = nullptr;
        const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
        QString error = rc == SQLITE_OK ? QString() : QString::fromUtf8(message ? message : "sqlite error");
        sqlite3_free(message);
        sqlite3_close(db);
        return error;
    }

private:
    static std::string quote(const std::string& s)
    {
        std::string q = "'";
        for (char ch : s)
            q += ch == '\'' ? std::string("''") : std::string(1, ch);
        return q + "'";
    }
    static std::string schema()
    {
        return "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);"
               "CREATE TABLE META_DATA (name TEXT,value TEXT);"
               "INSERT INTO META_DATA VALUES('SCHEMA_VERSION','1.0.0');"
               "CREATE TABLE SESSION_TIME_INFO (startTimeNs INTEGER,endTimeNs INTEGER);"
               "CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);"
               "INSERT INTO RANK_DEVICE_MAP VALUES(0,0);"
               "CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY,name TEXT);"
               "INSERT INTO ENUM_API_TYPE VALUES(5000,'runtime');"
               "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, "
               "name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes "
               "INTEGER, callchainId INTEGER, type INTEGER);"
               "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
               "CREATE TABLE CANN_API (startNs INTEGER,endNs INTEGER,type INTEGER,globalTid INTEGER,connectionId "
               "INTEGER PRIMARY KEY,name INTEGER);"
               "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,globalTaskId "
               "INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,taskId "
               "INTEGER,modelId INTEGER);"
               "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim "
               "INTEGER,mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes "
               "INTEGER,inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes "
               "INTEGER,attrInfo INTEGER);";
    }

    struct Torch {
        TimeNs start, end;
        int64_t tid, conn;
        std::string name;
        int type;
    };
    struct Cann {
        TimeNs start, end;
        int64_t tid, conn;
        std::string name;
    };
    struct Task {
        TimeNs start, end;
        int64_t stream;
        std::string type, kernel;
        int64_t conn;
    };
    std::vector<Torch> m_torch;
    std::vector<Cann> m_cann;
    std::vector<Task> m_tasks;
    std::vector<std::pair<int64_t, int64_t>> m_connectionIds;
    int64_t m_lastConn = 0, m_lastOp = 0;
};

} // namespace dspark::test
