// bench_db_load: load time and memory of the msprof / torch_npu database loader on generated files.
//
//   bench_db_load [N ...] [--keep DIR] [--mmap]
//
// For each N (default 100000 1000000 5000000) it writes, in a temp folder, a torch_npu-schema database
// (schema 1.0.0, the tables and indexes of the real fixture) with N device tasks and realistic companions:
// per 40 tasks one HCCL op with 12 sub-tasks, ~85 % kernels with a COMPUTE_TASK_INFO row, one CANN
// launch per kernel/other task, one PyTorch op per two tasks linked through CONNECTION_IDS, a string
// table of kernel names and shapes. Then it loads the file through loadProfile() (scan, load,
// finalize) and prints one row per N. Peak RSS is reset before each load (/proc/self/clear_refs).
// --mmap makes SQLite memory-map the file (the loader does not): to compare, the mapped pages then
// count in the RSS up to the file size.
#include "io/ProfileLoader.h"
#include "model/Profile.h"
#include "util/Memory.h"

#include <QDir>
#include <QTemporaryDir>

#include <sqlite3.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace dspark;
namespace fs = std::filesystem;

namespace {

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

long statusKb(const char* key)
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0)
            return std::strtol(line.c_str() + std::strlen(key), nullptr, 10);
    return -1;
}

double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

void resetPeakRss()
{
    std::ofstream("/proc/self/clear_refs") << "5";
}

bool exec(sqlite3* db, const char* sql)
{
    char* err = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
        std::fprintf(stderr, "sqlite: %s\n", err ? err : "?");
        sqlite3_free(err);
        return false;
    }
    return true;
}

struct Insert {
    sqlite3_stmt* st = nullptr;
    Insert(sqlite3* db, const char* sql) { sqlite3_prepare_v2(db, sql, -1, &st, nullptr); }
    ~Insert() { sqlite3_finalize(st); }
    Insert& i(int col, int64_t v)
    {
        sqlite3_bind_int64(st, col, v);
        return *this;
    }
    Insert& t(int col, const std::string& v)
    {
        sqlite3_bind_text(st, col, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Insert& null(int col)
    {
        sqlite3_bind_null(st, col);
        return *this;
    }
    void run()
    {
        sqlite3_step(st);
        sqlite3_reset(st);
    }
};

// String ids as in the fixture: small ids for msprof strings, 2^28 + k for torch_npu's own.
constexpr int64_t kTorch = int64_t(1) << 28;
enum : int64_t {
    sKernelAicore = 0,
    sKernelAivec,
    sEventRecord,
    sEventWait,
    sMemcpyAsync,
    sNotifyWait,
    sWriteValue,
    sSdma,
    sAiCore,
    sAiVectorCore,
    sLaunch,
    sAclrtRecordEvent,
    sAclrtMemcpyAsync,
    sHcclAllreduce,
    sNotifyWaitSub,
    sNotifyRecordSub,
    sMemcpySub,
    sGroup,
    sAlg,
    sOpType,
    sFixed // kernel names, op types and shapes follow
};
constexpr int kKernelNames = 1500;
constexpr int kShapes = 3000;
constexpr int kTorchNames = 400;

bool generate(const std::string& path, int64_t tasks)
{
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK)
        return false;
    exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=4096; BEGIN;");
    exec(db, R"(
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE META_DATA (name TEXT,value TEXT);
CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);
CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE ENUM_HCCL_DATA_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE ENUM_HCCL_LINK_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE ENUM_HCCL_TRANSPORT_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE ENUM_HCCL_RDMA_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,globalTaskId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,taskId INTEGER,modelId INTEGER);
CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim INTEGER,mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes INTEGER,inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes INTEGER,attrInfo INTEGER);
CREATE TABLE COMMUNICATION_OP (opName INTEGER,startNs INTEGER,endNs INTEGER,connectionId INTEGER,groupName INTEGER,opId INTEGER PRIMARY KEY,relay INTEGER,retry INTEGER,dataType INTEGER,algType INTEGER,count NUMERIC,opType INTEGER);
CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER,globalTaskId INTEGER,taskType INTEGER,planeId INTEGER,groupName INTEGER,notifyId INTEGER,rdmaType INTEGER,srcRank INTEGER,dstRank INTEGER,transportType INTEGER,size INTEGER,dataType INTEGER,linkType INTEGER,opId INTEGER);
CREATE TABLE CANN_API (startNs INTEGER,endNs INTEGER,type INTEGER,globalTid INTEGER,connectionId INTEGER PRIMARY KEY,name INTEGER);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);
INSERT INTO META_DATA VALUES ('SCHEMA_VERSION','1.0.0');
INSERT INTO RANK_DEVICE_MAP VALUES (0, 0);
INSERT INTO ENUM_API_TYPE VALUES (5000,'runtime'),(5500,'hccl'),(10000,'node'),(15000,'model'),(20000,'acl'),(50001,'op'),(50002,'queue'),(50003,'trace'),(50004,'mstx');
INSERT INTO ENUM_HCCL_DATA_TYPE VALUES (3,'FP16'),(4,'FP32'),(11,'BFP16'),(65535,'INVALID_TYPE');
INSERT INTO ENUM_HCCL_LINK_TYPE VALUES (0,'ON_CHIP'),(1,'HCCS'),(65535,'INVALID_TYPE');
INSERT INTO ENUM_HCCL_TRANSPORT_TYPE VALUES (0,'SDMA'),(1,'RDMA'),(65535,'INVALID_TYPE');
INSERT INTO ENUM_HCCL_RDMA_TYPE VALUES (0,'RDMA_SEND_NOTIFY'),(1,'RDMA_SEND_PAYLOAD'),(65535,'INVALID_TYPE');
)");
    {
        Insert s(db, "INSERT INTO STRING_IDS VALUES (?,?)");
        const char* fixed[] = {"KERNEL_AICORE",    "KERNEL_AIVEC",   "EVENT_RECORD",
                               "EVENT_WAIT",       "MEMCPY_ASYNC",   "Notify Wait",
                               "Write Value",      "SDMA",           "AI_CORE",
                               "AI_VECTOR_CORE",   "launch",         "aclrtRecordEvent",
                               "aclrtMemcpyAsync", "HcclAllreduce",  "Notify_Wait",
                               "Notify_Record",    "Memcpy",         "90.91.105.46%enp189s0f0_60000_0_1736410538306028",
                               "MESH-RING",        "hcom_allReduce_"};
        for (int64_t id = 0; id < sFixed; ++id)
            s.i(1, id).t(2, fixed[id]).run();
        char text[96];
        for (int k = 0; k < kKernelNames; ++k) {
            std::snprintf(text, sizeof text, "aclnnFusedOp%d_MatMulV3AiCore_MatMulV3", k);
            s.i(1, sFixed + k).t(2, text).run();
        }
        for (int k = 0; k < kShapes; ++k) {
            std::snprintf(text, sizeof text, "\"%d,7168;7168,%d\"", 1 + k % 64, 128 * (1 + k % 96));
            s.i(1, sFixed + kKernelNames + k).t(2, text).run();
        }
        for (int k = 0; k < kTorchNames; ++k) {
            std::snprintf(text, sizeof text, k == 0 ? "Enqueue" : "aten::op_%d", k);
            s.i(1, kTorch + k).t(2, text).run();
        }
    }

    Insert task(db, "INSERT INTO TASK VALUES (?,?,0,?,?,3136493,?,4294967295,?,?,4294967295)");
    Insert compute(db, "INSERT INTO COMPUTE_TASK_INFO VALUES (?,?,?,0,?,?,?,?,?,?,?,?,4294967295)");
    Insert commOp(db, "INSERT INTO COMMUNICATION_OP VALUES (?,?,?,?,?,?,0,0,4,?,?,?)");
    Insert commTask(db, "INSERT INTO COMMUNICATION_TASK_INFO VALUES (?,?,?,?,?,?,65535,0,?,0,?,4,0,?)");
    Insert cann(db, "INSERT INTO CANN_API VALUES (?,?,?,?,?,?)");
    Insert torch(db, "INSERT INTO PYTORCH_API VALUES (?,?,?,?,?,-1,0,NULL,?,NULL,50001)");
    Insert conn(db, "INSERT INTO CONNECTION_IDS VALUES (?,?)");

    std::mt19937_64 rng(42);
    const int64_t tid = (int64_t(3136493) << 32) | 3140046;
    const int64_t pyTid = (int64_t(3136493) << 32) | 3136493;
    int64_t t = 1736410576375315901; // device clock (ns)
    int64_t connection = 1, opId = 1, torchId = 0, taskIds[8] = {};
    int64_t torchConn = -1, torchStart = 0, torchTasks = 0;
    for (int64_t g = 0; g < tasks;) {
        // Every 40 tasks an HCCL op of 12 sub-tasks on stream 4 (one launch for all): 30 % of the tasks,
        // between a decode step's share and the fixture's (296 of 552).
        if (g % 40 == 0 && g + 12 <= tasks) {
            const int64_t c = connection++;
            cann.i(1, t - 30000).i(2, t - 25000).i(3, 10000).i(4, tid).i(5, c).i(6, sLaunch).run();
            const int64_t opStart = t;
            for (int k = 0; k < 12; ++k, ++g) {
                const int64_t dur = 600 + static_cast<int64_t>(rng() % 3000);
                const int sub = k % 3;
                task.i(1, t)
                    .i(2, t + dur)
                    .i(3, c)
                    .i(4, g)
                    .i(5, sub == 0   ? sNotifyWait
                          : sub == 1 ? sWriteValue
                                     : sSdma)
                    .i(6, 4)
                    .i(7, taskIds[4]++)
                    .run();
                commTask.i(1, sOpType)
                    .i(2, g)
                    .i(3, sub == 0   ? sNotifyWaitSub
                          : sub == 1 ? sNotifyRecordSub
                                     : sMemcpySub)
                    .i(4, k % 8)
                    .i(5, sGroup)
                    .i(6, (int64_t(k % 8) << 32) | (60 + k))
                    .i(7, k % 8)
                    .i(8, sub == 2 ? 2064384 : 0)
                    .i(9, opId)
                    .run();
                t += dur + 200;
            }
            commOp.i(1, sOpType)
                .i(2, opStart)
                .i(3, t)
                .i(4, c)
                .i(5, sGroup)
                .i(6, opId++)
                .i(7, sAlg)
                .i(8, 4097000)
                .i(9, sOpType)
                .run();
            continue;
        }
        // A PyTorch op launches the next 1-3 tasks (its CANN connection ids go into CONNECTION_IDS).
        if (torchTasks == 0) {
            torchConn = torchId;
            torchStart = t - 80000;
            torchTasks = 1 + static_cast<int64_t>(rng() % 3);
            torch.t(1, std::to_string(torchStart))
                .t(2, std::to_string(torchStart + 20000))
                .i(3, pyTid)
                .i(4, torchConn)
                .i(5, kTorch + 1 + static_cast<int64_t>(rng() % (kTorchNames - 1)))
                .i(6, sFixed + kKernelNames + static_cast<int64_t>(rng() % kShapes))
                .run();
            ++torchId;
        }
        const uint64_t roll = rng() % 100;
        const int64_t c = connection++;
        const int64_t stream = roll < 80 ? 2 : 3;
        const int64_t dur = 2000 + static_cast<int64_t>(rng() % 60000);
        int64_t type = roll < 50   ? sKernelAicore
                       : roll < 89 ? sKernelAivec
                       : roll < 94 ? sEventRecord
                       : roll < 97 ? sEventWait
                                   : sMemcpyAsync;
        const int64_t api = type == sEventRecord   ? sAclrtRecordEvent
                            : type == sMemcpyAsync ? sAclrtMemcpyAsync
                                                   : sLaunch;
        cann.i(1, t - 40000).i(2, t - 36000).i(3, api == sLaunch ? 10000 : 20000).i(4, tid).i(5, c).i(6, api).run();
        task.i(1, t).i(2, t + dur).i(3, c).i(4, g).i(5, type).i(6, stream).i(7, taskIds[stream]++).run();
        if (type == sKernelAicore || type == sKernelAivec) {
            const int64_t shape = sFixed + kKernelNames + static_cast<int64_t>(rng() % kShapes);
            compute.i(1, sFixed + static_cast<int64_t>(rng() % kKernelNames))
                .i(2, g)
                .i(3, 1 + rng() % 48)
                .i(4, type == sKernelAicore ? sAiCore : sAiVectorCore)
                .i(5, sFixed + static_cast<int64_t>(rng() % 200))
                .i(6, sMemcpyAsync)
                .i(7, sAlg)
                .i(8, shape)
                .i(9, sMemcpyAsync)
                .i(10, sAlg)
                .i(11, shape)
                .run();
        }
        conn.i(1, torchConn).i(2, c).run();
        --torchTasks;
        t += dur + 500 + static_cast<int64_t>(rng() % 4000);
        ++g;
    }
    exec(db, "CREATE INDEX TaskIndex ON TASK (startNs,globalTaskId);"
             "CREATE INDEX CommunicationTaskIndex ON COMMUNICATION_TASK_INFO (globalTaskId);"
             "COMMIT;");
    sqlite3_close(db);
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    keepFreedMemoryForReuse(); // (the allocator's settings for loading, as the app sets them)
    std::vector<int64_t> sizes;
    std::string keep;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--keep") == 0 && i + 1 < argc)
            keep = argv[++i];
        else if (std::strcmp(argv[i], "--mmap") == 0)
            sqlite3_config(SQLITE_CONFIG_MMAP_SIZE, sqlite3_int64(1) << 40, sqlite3_int64(1) << 40);
        else
            sizes.push_back(std::atoll(argv[i]));
    }
    if (sizes.empty())
        sizes = {100000, 1000000, 5000000};
    QTemporaryDir temp(QStringLiteral("/tmp/bench-db-XXXXXX"));
    const std::string dir = keep.empty() ? temp.path().toStdString() : keep;
    fs::create_directories(dir);

    // load s: wall time; cpu s: user+sys of the load (the machine may be shared); events/s from cpu s.
    // B/event: Profile::bytesUsed() / events, then its parts: lane columns, links, args, strings.
    std::printf("%9s %10s %8s %6s %7s %7s %10s %7s %6s %6s %6s %6s %8s %8s\n", "N tasks", "events", "file MB", "gen s",
                "load s", "cpu s", "events/s", "B/event", "lanes", "links", "args", "strs", "model MB", "peak MB");
    for (int64_t n : sizes) {
        const std::string path = dir + "/ascend_pytorch_profiler_" + std::to_string(n) + ".db";
        fs::remove(path);
        auto t0 = std::chrono::steady_clock::now();
        if (!generate(path, n)) {
            std::fprintf(stderr, "cannot write %s\n", path.c_str());
            return 1;
        }
        const double gen = seconds(t0);
        const double mb = static_cast<double>(fs::file_size(path)) / 1e6;

        resetPeakRss();
        t0 = std::chrono::steady_clock::now();
        const double cpu0 = cpuSeconds();
        std::vector<std::pair<std::string, double>> phases; // phase text → seconds since the load began
        LoadProgress progress(
            [&](double, const QString& phase) {
                if (!phase.isEmpty())
                    phases.emplace_back(phase.section(QStringLiteral(" — "), 0, 0).toStdString(), seconds(t0));
            },
            nullptr);
        LoadOutcome outcome = loadProfile(path, progress);
        const double load = seconds(t0);
        const double cpu = cpuSeconds() - cpu0;
        const long peakKb = statusKb("VmHWM:");
        if (!outcome.profile) {
            std::fprintf(stderr, "load failed: %s\n", outcome.error.toLocal8Bit().constData());
            return 1;
        }
        const Profile& p = *outcome.profile;
        const ProfileStats s = p.stats();
        const double events = static_cast<double>(s.events);
        const double bytes = static_cast<double>(p.bytesUsed());
        double lanes = 0, args = 0;
        for (const Lane& lane : p.lanes)
            lanes += static_cast<double>(lane.bytesUsed());
        for (size_t id = 1; id < p.argsSourceCount(); ++id)
            if (const ArgsSource* source = p.argsSource(static_cast<uint8_t>(id)))
                args += static_cast<double>(source->bytesUsed());
        const double strings = static_cast<double>(p.strings.bytesUsed());
        const double links = bytes - lanes - args - strings;
        std::printf("%9lld %10llu %8.1f %6.1f %7.2f %7.2f %10.0f %7.1f %6.1f %6.1f %6.1f %6.1f %8.1f %8.1f\n",
                    static_cast<long long>(n), static_cast<unsigned long long>(s.events), mb, gen, load, cpu,
                    events / cpu, bytes / events, lanes / events, links / events, args / events, strings / events,
                    bytes / 1e6, static_cast<double>(peakKb) / 1024.0);
        std::string timeline;
        for (size_t i = 0; i < phases.size(); ++i) {
            const double end = i + 1 < phases.size() ? phases[i + 1].second : load;
            char part[128];
            std::snprintf(part, sizeof part, "%s%s %.2f",
                          i ? ", " : "           phases (wall s): ", phases[i].first.c_str(), end - phases[i].second);
            timeline += part;
        }
        std::printf("%s\n", timeline.c_str());
        std::fflush(stdout);
        outcome.profile.reset();
        if (keep.empty())
            fs::remove(path);
    }
    return 0;
}
