#pragma once

#include "io/LoadOptions.h"
#include "io/ProfileScanner.h"
#include "io/db/RowArgs.h"
#include "io/db/SqliteDatabase.h"
#include "io/db/StringIdMap.h"
#include "model/Profile.h"
#include "util/LoadProgress.h"

#include <QString>

#include <atomic>
#include <functional>
#include <map>
#include <unordered_map>
#include <vector>

namespace dspark::db {

// Reads one msprof_*.db / ascend_pytorch_profiler_*.db (formats.md §2) into a Profile, following the
// lane conventions of docs/architecture.md. Tables are streamed row by row through prepared
// statements; joins (kernel names, HCCL sub-tasks, host→device links) are done in memory on sorted
// id vectors, never per row in SQL. On error or cancel every lane row and link it added is removed.
class MsprofDbReader {
public:
    MsprofDbReader(const ScannedFile& file, Profile& profile, const LoadProgress& progress,
                   const LoadOptions& options = {});
    // Empty on success, else one line naming the file.
    QString read();
    // Removes every lane row, lane, rank and link read so far (after an exception).
    void rollback();

private:
    // Result columns of a SELECT built from the columns a table really has (resolved by name).
    class TableQuery;

    struct ConnRef { // a connection id and the event that carries it
        int64_t conn;
        EventRef ref;
    };
    struct OpConn { // PYTORCH_API row reached through CONNECTION_IDS
        int64_t conn;
        EventRef ref;
        int64_t type;
        bool matchedTask;
    };
    struct TaskInfo { // COMPUTE_TASK_INFO / COMMUNICATION_TASK_INFO / ... row keyed by globalTaskId
        int64_t globalTaskId;
        int64_t opId;
        uint32_t nameId;
        uint64_t argsRef; // RowArgs local reference
    };

    QString checkFile();
    bool openDatabase(SqliteDatabase& db) const; // the file, or its image in memory (ScannedFile::image)
    QString checkSchema();
    void takeSnapshot();
    RowArgs& rowArgs();
    int64_t rowCount(const char* table);                              // SELECT count(*), once per table; 0 when absent
    bool hasTimes(int startColumn, int endColumn, const char* table); // warns when a column is missing
    uint16_t addSchema(std::initializer_list<std::pair<const char*, RowArgs::Type>> fields);
    uint64_t argsRef(uint64_t local) const { return local ? Profile::makeArgsRef(m_argsSourceId, local) : 0; }

    QString readStrings();
    void readEnum(const char* table, std::unordered_map<int64_t, uint32_t>& out);
    void readMetadata();
    void resolveRanks();
    int rankIndexForDevice(int64_t deviceId);

    QString readCannApi();
    QString readConnectionIds();
    QString readCallChains();
    QString readPytorchApi();
    QString readMstx();
    QString readGcRecords();
    QString readCommOps();
    // A per-task detail table (COMPUTE_TASK_INFO, ...): its SELECT and args schema, set up on the
    // loading thread (plan), then its rows read there or on a worker (readTaskInfoRows).
    struct TaskInfoColumn {
        int column;
        RowArgs::Type type;
        const std::unordered_map<int64_t, uint32_t>* enumTable; // String columns: enum instead of STRING_IDS
        int enumBit;       // its bit in a schema variant (below); -1: not an enum (or an empty enum table)
        std::string where; // "TABLE.column" for warnings
    };
    struct TaskInfoPlan {
        const char* table = nullptr;
        std::vector<TaskInfo>* out = nullptr;
        std::string sql; // empty: the table is absent or skipped
        std::vector<TaskInfoColumn> columns;
        std::vector<std::string> keys; // args keys, interned by internKeys()
        int cTask = -1, cName = -1, cType = -1, cOpId = -1;
        int enumColumns = 0;
        uint16_t schema = 0; // with every enum value in its table; + bits of enum columns that hold numbers
    };
    TaskInfoPlan planTaskInfo(const char* table, std::vector<TaskInfo>& out);
    void internKeys(const TaskInfoPlan& plan);
    template <typename Names>
    QString readTaskInfoRows(const TaskInfoPlan& plan, const SqliteDatabase& db, RowArgs& args, Names& names,
                             bool loadingThread);
    // The host tables (CANN_API ... COMMUNICATION_OP) and the detail tables, these on a worker when large.
    QString readHostAndDetailTables();
    QString readTasks();
    class TaskPlacer; // what a TASK row means: its lane, event, args and links
    int64_t taskSplitRowid(const TableQuery& q, double rows);
    QString readTaskHalves(const TableQuery& q, int64_t splitAfter, TaskPlacer& placer);
    void linkTorchFlows();
    QString readStepTime();
    QString readOverlap();
    QString readCounters();
    void reportWarnings();

    // Runs `perRow` for every row; checks cancel every 4096 rows and reports progress. On a worker
    // thread (over its own connection `worker`): counts its rows into m_workerRows instead, reports
    // nothing, and also ends (with no error) once `*stop` is set.
    QString forEachRow(SqliteStatement& st, const char* table, const std::function<void()>& perRow,
                       const SqliteDatabase* worker = nullptr, const bool* stop = nullptr);
    QString readError(const char* table) const { return readError(m_db, table); }
    QString readError(const SqliteDatabase& db, const char* table) const;
    QString cancelError() const;
    void beginPhase(const QString& phase) const;

    uint32_t str(int64_t dbId, const char* where) { return m_stringIds.resolve(dbId, m_profile.strings, where); }
    uint32_t enumName(const std::unordered_map<int64_t, uint32_t>& table, int64_t id, const char* where);
    enum class HostProcess { Cann, Python, Mstx };
    uint32_t hostLane(HostProcess process, int64_t globalTid, double expected);
    uint32_t deviceLane(int64_t deviceId, int64_t streamId, double expected);
    TimeNs duration(TimeNs start, TimeNs end, const char* table);
    void droppedFanOut(int64_t connectionId);
    // Warns of columns of `q` (all integers) that hold text that is no number (judged on the first rows).
    void checkIntegerColumns(const TableQuery& q, const char* table);
    static constexpr size_t kMaxFanOut = 16; // rows sharing one connection id that are linked
    std::unordered_map<uint64_t, double> sampleShares(const char* table, const char* col1, const char* col2);

    const ScannedFile& m_file;
    Profile& m_profile;
    const LoadProgress& m_progress;
    const int m_threads;          // LoadOptions::threads
    const int64_t m_parallelRows; // LoadOptions::dbParallelRows
    QString m_fileName;           // the path as shown in messages
    SqliteDatabase m_db;
    Profile::Contents m_snapshot;
    ArgsSourceId m_argsSourceId = 0;
    RowArgs* m_args = nullptr;

    StringIdMap m_stringIds;
    std::unordered_map<int64_t, uint32_t> m_apiTypes, m_mstxTypes, m_hcclDataTypes, m_hcclLinkTypes,
        m_hcclTransportTypes, m_hcclRdmaTypes, m_memcpyOps;

    int m_primaryRank = 0;                 // rank number of the file's main device (host lanes)
    int64_t m_primaryDevice = -1;          // its device id, -1 when unknown
    int m_hostRankIndex = 0;               // Profile::ranks index of m_primaryRank
    std::map<int64_t, int> m_rankOfDevice; // RANK_DEVICE_MAP
    std::unordered_map<int64_t, int> m_rankIndexOfDevice;

    std::unordered_map<uint64_t, uint32_t> m_hostLanes, m_deviceLanes, m_counterLanes;

    std::vector<ConnRef> m_cannByConn;                        // CANN_API rows, by connectionId
    std::vector<std::pair<int64_t, int64_t>> m_connectionIds; // CONNECTION_IDS (id, connectionId), by id
    std::unordered_map<int64_t, uint32_t> m_callChains;       // callchainId → interned stack text
    std::vector<OpConn> m_opByConn;                           // PYTORCH_API rows, by CANN connection id
    std::vector<ConnRef> m_mstxByConn;                        // MSTX_EVENTS rows, by connectionId (→ TASK)
    std::vector<std::pair<int64_t, EventRef>> m_commOps;      // COMMUNICATION_OP opId → event
    std::vector<TaskInfo> m_compute, m_comm, m_schedule, m_memcpy;

    std::map<std::string, int64_t> m_rowCounts;
    double m_rowsTotal = 1;
    double m_rowsDone = 0;
    std::atomic<uint64_t> m_workerRows{0}; // rows a worker has read so far (progress)
    uint64_t m_endBeforeStart = 0;
    std::vector<std::string> m_endBeforeStartExamples;
    uint64_t m_durationOverflow = 0; // rows whose end - start overflows
    std::string m_durationOverflowExample;
    std::vector<uint32_t> m_connectionUses; // PYTORCH_API rows so far per m_connectionIds run (by its first)
    uint64_t m_fanOutDropped = 0;           // links not made: a connection id shared past kMaxFanOut
    int64_t m_fanOutExample = -1;
    uint64_t m_missingOps = 0;
    int64_t m_missingOpExample = -1;
    QStringList m_warnings;
};

} // namespace dspark::db
