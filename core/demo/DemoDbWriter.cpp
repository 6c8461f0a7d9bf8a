#include "demo/DemoDbWriter.h"

#include "demo/DemoNames.h"
#include "demo/DemoSimulator.h"

#include <QCoreApplication>

#include <sqlite3.h>

#include <algorithm>
#include <numeric>
#include <sstream>

namespace dspark::demo {

namespace n = names;

const char* taskTypeName(TaskKind kind)
{
    switch (kind) {
    case TaskKind::AiCore: return "KERNEL_AICORE";
    case TaskKind::AiVec: return "KERNEL_AIVEC";
    case TaskKind::MixAic: return "KERNEL_MIX_AIC";
    case TaskKind::MixAiv: return "KERNEL_MIX_AIV";
    case TaskKind::EventRecord: return "EVENT_RECORD";
    case TaskKind::EventWait: return "EVENT_WAIT";
    case TaskKind::Memcpy: return "MEMCPY_ASYNC";
    case TaskKind::WriteValue: return "Write Value";
    case TaskKind::NotifyWait: return "Notify Wait";
    case TaskKind::Sdma: return "SDMA";
    case TaskKind::ProfilingEnable: return "PROFILING_ENABLE";
    case TaskKind::ProfilingDisable: return "PROFILING_DISABLE";
    }
    return "UNKNOWN";
}

const char* computeTaskTypeName(TaskKind kind)
{
    switch (kind) {
    case TaskKind::AiCore: return "AI_CORE";
    case TaskKind::AiVec: return "AI_VECTOR_CORE";
    case TaskKind::MixAic: return "MIX_AIC";
    case TaskKind::MixAiv: return "MIX_AIV";
    default: break;
    }
    return "N/A";
}

const char* traceTaskTypeName(TaskKind kind)
{
    switch (kind) {
    case TaskKind::AiCore: return "AI_CORE";
    case TaskKind::AiVec: return "AI_VECTOR_CORE";
    case TaskKind::MixAic: return "MIX_AIC";
    case TaskKind::MixAiv: return "MIX_AIV";
    case TaskKind::EventRecord: return "EVENT_RECORD_SQE";
    case TaskKind::EventWait: return "EVENT_WAIT_SQE";
    case TaskKind::Memcpy: return "PCIE_DMA_SQE";
    case TaskKind::WriteValue: return "Write Value";
    case TaskKind::NotifyWait: return "Notify Wait";
    case TaskKind::Sdma: return "SDMA";
    case TaskKind::ProfilingEnable:
    case TaskKind::ProfilingDisable: return "PLACE_HOLDER_SQE";
    }
    return "UNKNOWN";
}

const char* hcclTaskTypeName(HcclTaskType type)
{
    switch (type) {
    case HcclTaskType::NotifyRecord: return "Notify_Record";
    case HcclTaskType::NotifyWait: return "Notify_Wait";
    case HcclTaskType::ReduceInline: return "Reduce_Inline";
    }
    return "N/A";
}

std::vector<DemoOverlapRow> DemoOverlap::rowsFor(const DemoIteration& it)
{
    std::vector<Interval> compute, comm;
    for (const SimTask& t : it.tasks)
        if (isComputeKind(t.kind))
            compute.push_back({t.start, t.end});
    for (const SimCommOp& c : it.commOps)
        comm.push_back({c.start, c.end});
    const IntervalSet computing = IntervalSet::fromUnsorted(std::move(compute));
    const IntervalSet communication = IntervalSet::fromUnsorted(std::move(comm));
    const IntervalSet busy = computing.unitedWith(communication);
    std::vector<DemoOverlapRow> rows;
    for (const Interval& i : computing.intervals())
        rows.push_back({i.startNs, i.endNs, 0});
    for (const Interval& i : communication.intervals())
        rows.push_back({i.startNs, i.endNs, 1});
    const IntervalSet notOverlapped = communication.minus(computing);
    for (const Interval& i : notOverlapped.intervals())
        rows.push_back({i.startNs, i.endNs, 2});
    for (const Interval& i : busy.intervals()) {
        if (m_lastBusyEnd >= 0 && i.startNs > m_lastBusyEnd)
            rows.push_back({m_lastBusyEnd, i.startNs, 3});
        m_lastBusyEnd = std::max(m_lastBusyEnd, i.endNs);
    }
    std::stable_sort(rows.begin(), rows.end(), [](const DemoOverlapRow& a, const DemoOverlapRow& b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.type < b.type;
    });
    return rows;
}

// The schema of the real torch_npu db fixture (sqlite3 .schema of ascend_pytorch_profiler_0.db, msprof
// schema 1.0.0), plus OVERLAP_ANALYSIS as formats.md §2 lists it.
static const char* const kSchema = R"SQL(
CREATE TABLE NPU_INFO (id INTEGER,name TEXT);
CREATE TABLE SESSION_TIME_INFO (startTimeNs INTEGER,endTimeNs INTEGER);
CREATE TABLE HOST_INFO (hostUid TEXT,hostName TEXT);
CREATE TABLE ENUM_HCCL_RDMA_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE ENUM_MSTX_EVENT_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE ENUM_HCCL_LINK_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim INTEGER,mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes INTEGER,inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes INTEGER,attrInfo INTEGER);
CREATE TABLE ENUM_HCCL_TRANSPORT_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER,globalTaskId INTEGER,taskType INTEGER,planeId INTEGER,groupName INTEGER,notifyId INTEGER,rdmaType INTEGER,srcRank INTEGER,dstRank INTEGER,transportType INTEGER,size INTEGER,dataType INTEGER,linkType INTEGER,opId INTEGER);
CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,globalTaskId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,taskId INTEGER,modelId INTEGER);
CREATE TABLE NPU_MEM (type INTEGER,ddr NUMERIC,hbm NUMERIC,timestampNs INTEGER,deviceId INTEGER);
CREATE TABLE COMMUNICATION_OP (opName INTEGER,startNs INTEGER,endNs INTEGER,connectionId INTEGER,groupName INTEGER,opId INTEGER PRIMARY KEY,relay INTEGER,retry INTEGER,dataType INTEGER,algType INTEGER,count NUMERIC,opType INTEGER);
CREATE TABLE CANN_API (startNs INTEGER,endNs INTEGER,type INTEGER,globalTid INTEGER,connectionId INTEGER PRIMARY KEY,name INTEGER);
CREATE TABLE NPU_OP_MEM (operatorName INTEGER,addr INTEGER,type INTEGER,size INTEGER,timestampNs INTEGER,globalTid INTEGER,totalAllocate NUMERIC,totalReserve NUMERIC,component INTEGER,deviceId INTEGER);
CREATE TABLE HBM (deviceId INTEGER,timestampNs INTEGER,bandwidth NUMERIC,hbmId INTEGER,type INTEGER);
CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER,name INTEGER,value NUMERIC);
CREATE TABLE ENUM_HCCL_DATA_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE LLC (deviceId INTEGER,llcId INTEGER,timestampNs INTEGER,hitRate REAL,throughput INTEGER,mode INTEGER);
CREATE TABLE ACC_PMU (accId INTEGER,readBwLevel INTEGER,writeBwLevel INTEGER,readOstLevel INTEGER,writeOstLevel INTEGER,timestampNs NUMERIC,deviceId INTEGER);
CREATE TABLE SOC_BANDWIDTH_LEVEL (l2BufferBwLevel INTEGER,mataBwLevel INTEGER,timestampNs NUMERIC,deviceId INTEGER);
CREATE TABLE META_DATA (name TEXT,value TEXT);
CREATE TABLE AICORE_FREQ (deviceId INTEGER,timestampNs NUMERIC,freq INTEGER);
CREATE TABLE ENUM_MODULE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE NPU_MODULE_MEM (moduleId INTEGER,timestampNs INTEGER,totalReserved NUMERIC,deviceId INTEGER);
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);
CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);
CREATE TABLE MEMORY_RECORD (component INTEGER, timestamp INTEGER, totalAllocated INTEGER, totalReserved INTEGER, totalActive INTEGER, streamPtr INTEGER, deviceId INTEGER);
CREATE TABLE OP_MEMORY (name INTEGER, size INTEGER, allocationTime INTEGER, releaseTime INTEGER, activeReleaseTime INTEGER, duration INTEGER, activeDuration INTEGER, allocationTotalAllocated INTEGER, allocationTotalReserved INTEGER, allocationTotalActive INTEGER, releaseTotalAllocated INTEGER, releaseTotalReserved INTEGER, releaseTotalActive INTEGER, streamPtr INTEGER, deviceId INTEGER);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);
CREATE TABLE PYTORCH_CALLCHAINS (id INTEGER, stack INTEGER, stackDepth INTEGER);
CREATE TABLE OVERLAP_ANALYSIS (id INTEGER, deviceId INTEGER, startNs INTEGER, endNs INTEGER, type INTEGER);
)SQL";

// Enum tables as the fixture holds them.
static const char* const kEnums = R"SQL(
INSERT INTO ENUM_API_TYPE VALUES (5000,'runtime'),(5500,'hccl'),(10000,'node'),(15000,'model'),(20000,'acl'),(50001,'op'),(50002,'queue'),(50003,'trace'),(50004,'mstx');
INSERT INTO ENUM_HCCL_RDMA_TYPE VALUES (0,'RDMA_SEND_NOTIFY'),(1,'RDMA_SEND_PAYLOAD'),(2,'RDMA_PAYLOAD_PREPARE'),(3,'RDMA_PAYLOAD_CHECK'),(4,'RDMA_PAYLOAD_ACK'),(5,'RDMA_SEND_OP'),(65534,'N/A'),(65535,'INVALID_TYPE');
INSERT INTO ENUM_HCCL_LINK_TYPE VALUES (0,'ON_CHIP'),(1,'HCCS'),(2,'PCIE'),(3,'ROCE'),(4,'SIO'),(5,'HCCS_SW'),(6,'STANDARD_ROCE'),(7,'RESERVED'),(65534,'N/A'),(65535,'INVALID_TYPE');
INSERT INTO ENUM_HCCL_TRANSPORT_TYPE VALUES (0,'SDMA'),(1,'RDMA'),(2,'LOCAL'),(65534,'N/A'),(65535,'INVALID_TYPE');
INSERT INTO ENUM_HCCL_DATA_TYPE VALUES (0,'INT8'),(1,'INT16'),(2,'INT32'),(3,'FP16'),(4,'FP32'),(5,'INT64'),(6,'UINT64'),(7,'UINT8'),(8,'UINT16'),(9,'UINT32'),(10,'FP64'),(11,'BFP16'),(12,'INT128'),(65534,'N/A'),(65535,'INVALID_TYPE');
INSERT INTO ENUM_MSTX_EVENT_TYPE VALUES (0,'marker'),(1,'push/pop'),(2,'start/end'),(3,'marker_ex');
INSERT INTO META_DATA VALUES ('SCHEMA_VERSION_MICRO','0'),('SCHEMA_VERSION_MINOR','0'),('SCHEMA_VERSION_MAJOR','1'),('SCHEMA_VERSION','1.0.0'),('ENV_VARIABLES','{"ASCEND_GLOBAL_LOG_LEVEL": "3", "HCCL_RDMA_TC": "", "HCCL_RDMA_SL": "", "ACLNN_CACHE_LIMIT": "", "HOST_CACHE_CAPACITY": "", "ASCEND_ENHANCE_ENABLE": "", "PYTORCH_NPU_ALLOC_CONF": "expandable_segments:True", "ASCEND_LAUNCH_BLOCKING": "", "TASK_QUEUE_ENABLE": "0", "SGLANG_DSPARK_DEBUG_DUMP": "core,step_cpu_time,step_gpu_time,draft_gpu_time,target_verify_gpu_time,reqs"}');
INSERT INTO NPU_INFO VALUES (0,'Ascend910C');
INSERT INTO HOST_INFO VALUES ('7429185307749713431','dspark-demo-910c');
INSERT INTO RANK_DEVICE_MAP VALUES (0,0);
)SQL";

static const char* const kModules =
    "SLOG IDEDD IDEDH HCCL FMK HIAIENGINE DVPP RUNTIME CCE HDC DRV MDCFUSION MDCLOCATION MDCPERCEPTION MDCFSM "
    "MDCCOMMON MDCMONITOR MDCBSWP MDCDEFAULT MDCSC MDCPNC MLL DEVMM KERNEL LIBMEDIA CCECPU ASCENDDK ROS HCCP ROCE "
    "TEFUSION PROFILING DP APP TS TSDUMP AICPU LP TDT FE MD MB ME IMU IMP GE MDCFUSA CAMERA ASCENDCL TEEOS ISP SIS "
    "HSM DSS PROCMGR BBOX AIVECTOR TBE FV MDCMAP TUNE HSS FFTS OP UDF HICAID TSYNC AUDIO TPRT ASCENDCKERNEL ASYS "
    "ATRACE RTC SYSMONITOR AMP ADETECT MBUFF CUSTOM";

DemoDbWriter::DemoDbWriter(const DemoSimulator& sim)
    : m_sim(sim), m_kernelCounts(static_cast<size_t>(DemoSimulator::kernelCount()), 0)
{
    m_taskKindIds.fill(-1);
    m_computeKindIds.fill(-1);
}

void DemoDbWriter::finalizeStatements()
{
    for (sqlite3_stmt** s : {&m_insTask, &m_insCompute, &m_insCommTask, &m_insCommOp, &m_insCann, &m_insTorch,
                             &m_insConn, &m_insString, &m_insStep, &m_insOverlap, &m_insFreq}) {
        sqlite3_finalize(*s);
        *s = nullptr;
    }
}

DemoDbWriter::~DemoDbWriter()
{
    finalizeStatements();
    if (m_db)
        sqlite3_close(m_db);
}

QString DemoDbWriter::sqlError(const char* what) const
{
    return QCoreApplication::translate("DemoDbWriter", "%1: cannot write the demo database (%2: %3)")
        .arg(QString::fromStdString(m_path), QString::fromUtf8(what),
             QString::fromUtf8(m_db ? sqlite3_errmsg(m_db) : "out of memory"));
}

bool DemoDbWriter::exec(const char* sql)
{
    return sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
}

sqlite3_stmt* DemoDbWriter::prepare(const char* sql)
{
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(m_db, sql, -1, &s, nullptr) != SQLITE_OK)
        m_failed = true;
    return s;
}

QString DemoDbWriter::open(const std::string& path)
{
    m_path = path;
    // A new file only: the pragmas below are for a file we own, never for a user's database.
    if (sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_EXCLUSIVE,
                        nullptr) != SQLITE_OK)
        return sqlError("open");
    if (!exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE; "
              "PRAGMA cache_size=-65536; PRAGMA temp_store=MEMORY;"))
        return sqlError("pragma");
    if (!exec("BEGIN") || !exec(kSchema) || !exec(kEnums))
        return sqlError("schema");
    {
        std::istringstream modules(kModules);
        std::string name;
        std::string sql = "INSERT INTO ENUM_MODULE VALUES ";
        for (int id = 0; modules >> name; ++id)
            sql += (id ? ",(" : "(") + std::to_string(id) + ",'" + name + "')";
        if (!exec(sql.c_str()))
            return sqlError("ENUM_MODULE");
    }
    m_insTask = prepare("INSERT INTO TASK VALUES (?,?,?,?,?,?,?,?,?,?,?)");
    m_insCompute = prepare("INSERT INTO COMPUTE_TASK_INFO VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
    m_insCommTask = prepare("INSERT INTO COMMUNICATION_TASK_INFO VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    m_insCommOp = prepare("INSERT INTO COMMUNICATION_OP VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
    m_insCann = prepare("INSERT INTO CANN_API VALUES (?,?,?,?,?,?)");
    m_insTorch = prepare("INSERT INTO PYTORCH_API VALUES (?,?,?,?,?,NULL,NULL,NULL,NULL,NULL,?)");
    m_insConn = prepare("INSERT INTO CONNECTION_IDS VALUES (?,?)");
    m_insString = prepare("INSERT INTO STRING_IDS VALUES (?,?)");
    m_insStep = prepare("INSERT INTO STEP_TIME VALUES (?,?,?)");
    m_insOverlap = prepare("INSERT INTO OVERLAP_ANALYSIS VALUES (?,0,?,?,?)");
    m_insFreq = prepare("INSERT INTO AICORE_FREQ VALUES (0,?,?)");
    if (m_failed)
        return sqlError("prepare");
    return {};
}

int64_t DemoDbWriter::putString(int64_t id, const std::string& value)
{
    sqlite3_bind_int64(m_insString, 1, id);
    sqlite3_bind_text(m_insString, 2, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
    if (sqlite3_step(m_insString) != SQLITE_DONE)
        m_failed = true;
    sqlite3_reset(m_insString);
    return id;
}

int64_t DemoDbWriter::fixedString(const std::string& value)
{
    auto it = m_fixed.find(value);
    if (it != m_fixed.end())
        return it->second;
    const int64_t id = putString(m_nextMsprofId++, value);
    m_fixed.emplace(value, id);
    return id;
}

int64_t DemoDbWriter::simString(int32_t id)
{
    if (m_simIds.size() <= static_cast<size_t>(id))
        m_simIds.resize(static_cast<size_t>(id) + 1, -1);
    int64_t& out = m_simIds[static_cast<size_t>(id)];
    if (out < 0)
        out = fixedString(m_sim.string(id));
    return out;
}

int64_t DemoDbWriter::torchString(int32_t id)
{
    if (m_torchIds.size() <= static_cast<size_t>(id))
        m_torchIds.resize(static_cast<size_t>(id) + 1, -1);
    int64_t& out = m_torchIds[static_cast<size_t>(id)];
    if (out < 0)
        out = putString(m_nextTorchId++, m_sim.string(id));
    return out;
}

static void step(sqlite3_stmt* s, bool& failed)
{
    if (sqlite3_step(s) != SQLITE_DONE)
        failed = true;
    sqlite3_reset(s);
}

QString DemoDbWriter::write(const DemoIteration& it)
{
    const int64_t globalTid = (int64_t(n::Pid) << 32) | n::Pid;

    // Tasks in start order get consecutive globalTaskIds (as msprof numbers them).
    m_order.resize(it.tasks.size());
    std::iota(m_order.begin(), m_order.end(), 0u);
    std::stable_sort(m_order.begin(), m_order.end(), [&](uint32_t a, uint32_t b) {
        const SimTask& x = it.tasks[a];
        const SimTask& y = it.tasks[b];
        return x.start != y.start ? x.start < y.start : x.stream < y.stream;
    });
    m_globalIds.assign(it.tasks.size(), 0);
    m_tasksPerConnection.clear();
    const int64_t nd = fixedString("ND"), bf16 = fixedString("DT_BF16"), na = fixedString("N/A");
    // Per-task string ids come from small caches (no string is built per task).
    auto kindId = [&](TaskKind kind, bool compute) {
        int64_t& id = (compute ? m_computeKindIds : m_taskKindIds)[static_cast<size_t>(kind)];
        if (id < 0)
            id = fixedString(compute ? computeTaskTypeName(kind) : taskTypeName(kind));
        return id;
    };
    auto kernelId = [&](int kernel) {
        if (m_kernelIds.empty())
            m_kernelIds.assign(static_cast<size_t>(DemoSimulator::kernelCount()), -1);
        int64_t& id = m_kernelIds[static_cast<size_t>(kernel)];
        if (id < 0)
            id = fixedString(DemoSimulator::kernel(kernel).name);
        return id;
    };
    auto shapeId = [&](int32_t shape) {
        if (m_shapeIds.size() <= static_cast<size_t>(shape))
            m_shapeIds.resize(static_cast<size_t>(shape) + 1, -1);
        int64_t& id = m_shapeIds[static_cast<size_t>(shape)];
        if (id < 0)
            id = fixedString("\"" + m_sim.string(shape) + "\"");
        return id;
    };
    for (uint32_t i : m_order) {
        const SimTask& t = it.tasks[i];
        const int64_t gid = m_nextGlobalTaskId++;
        m_globalIds[i] = gid;
        sqlite3_bind_int64(m_insTask, 1, t.start);
        sqlite3_bind_int64(m_insTask, 2, t.end);
        sqlite3_bind_int64(m_insTask, 3, 0);
        sqlite3_bind_int64(m_insTask, 4, t.connectionId);
        sqlite3_bind_int64(m_insTask, 5, gid);
        sqlite3_bind_int64(m_insTask, 6, n::Pid);
        sqlite3_bind_int64(m_insTask, 7, kindId(t.kind, false));
        sqlite3_bind_int64(m_insTask, 8, t.contextId);
        sqlite3_bind_int64(m_insTask, 9, t.stream);
        sqlite3_bind_int64(m_insTask, 10, t.taskId);
        sqlite3_bind_int64(m_insTask, 11, t.modelId);
        step(m_insTask, m_failed);

        ++m_counts.tasks;
        ++m_counts.tasksByStream[t.stream];
        ++m_tasksPerConnection[t.connectionId];
        if (t.kind != TaskKind::ProfilingEnable && t.kind != TaskKind::ProfilingDisable)
            ++m_counts.hostToDeviceLinks;
        if (t.kind == TaskKind::EventRecord)
            ++m_counts.eventRecords;
        else if (t.kind == TaskKind::EventWait)
            ++m_counts.eventWaits;
        else if (t.kind == TaskKind::Memcpy)
            ++m_counts.memcpy;
        else if (isHcclKind(t.kind))
            ++m_counts.hcclTasks;

        if (isComputeKind(t.kind) && t.kernel >= 0) {
            const DemoKernel& k = DemoSimulator::kernel(t.kernel);
            const int64_t shape = shapeId(t.shape);
            const int64_t name = kernelId(t.kernel);
            sqlite3_bind_int64(m_insCompute, 1, name);
            sqlite3_bind_int64(m_insCompute, 2, gid);
            sqlite3_bind_int64(m_insCompute, 3, k.blockDim);
            sqlite3_bind_int64(m_insCompute, 4,
                               (t.kind == TaskKind::MixAic || t.kind == TaskKind::MixAiv) ? k.blockDim * 2 : 0);
            sqlite3_bind_int64(m_insCompute, 5, kindId(t.kind, true));
            sqlite3_bind_int64(m_insCompute, 6, name);
            sqlite3_bind_int64(m_insCompute, 7, nd);
            sqlite3_bind_int64(m_insCompute, 8, bf16);
            sqlite3_bind_int64(m_insCompute, 9, shape);
            sqlite3_bind_int64(m_insCompute, 10, nd);
            sqlite3_bind_int64(m_insCompute, 11, bf16);
            sqlite3_bind_int64(m_insCompute, 12, shape);
            sqlite3_bind_int64(m_insCompute, 13, na);
            step(m_insCompute, m_failed);
            ++m_counts.computeTasks;
            ++m_kernelCounts[static_cast<size_t>(t.kernel)];
        }
    }

    const int64_t group = fixedString(n::TpGroup);
    for (const SimCommTask& c : it.commTasks) {
        const bool reduce = c.type == HcclTaskType::ReduceInline;
        sqlite3_bind_int64(m_insCommTask, 1, simString(c.opName));
        sqlite3_bind_int64(m_insCommTask, 2, m_globalIds[static_cast<size_t>(c.task)]);
        sqlite3_bind_int64(m_insCommTask, 3, fixedString(hcclTaskTypeName(c.type)));
        sqlite3_bind_int64(m_insCommTask, 4, c.plane);
        sqlite3_bind_int64(m_insCommTask, 5, group);
        sqlite3_bind_int64(m_insCommTask, 6, c.notifyId);
        sqlite3_bind_int64(m_insCommTask, 7, 65535);
        sqlite3_bind_int64(m_insCommTask, 8, 0);
        sqlite3_bind_int64(m_insCommTask, 9, c.dstRank);
        sqlite3_bind_int64(m_insCommTask, 10, 0);
        sqlite3_bind_int64(m_insCommTask, 11, c.size);
        sqlite3_bind_int64(m_insCommTask, 12, reduce ? 2 : 65535);
        sqlite3_bind_int64(m_insCommTask, 13, 1);
        sqlite3_bind_int64(m_insCommTask, 14, c.opId);
        step(m_insCommTask, m_failed);
    }
    for (const SimCommOp& c : it.commOps) {
        sqlite3_bind_int64(m_insCommOp, 1, simString(c.name));
        sqlite3_bind_int64(m_insCommOp, 2, c.start);
        sqlite3_bind_int64(m_insCommOp, 3, c.end);
        sqlite3_bind_int64(m_insCommOp, 4, c.connectionId);
        sqlite3_bind_int64(m_insCommOp, 5, group);
        sqlite3_bind_int64(m_insCommOp, 6, c.opId);
        sqlite3_bind_int64(m_insCommOp, 7, 0);
        sqlite3_bind_int64(m_insCommOp, 8, 0);
        sqlite3_bind_int64(m_insCommOp, 9, 2);
        sqlite3_bind_int64(m_insCommOp, 10, fixedString(n::HcclAlg));
        sqlite3_bind_int64(m_insCommOp, 11, c.count);
        sqlite3_bind_int64(m_insCommOp, 12, fixedString(n::HcclOpType));
        step(m_insCommOp, m_failed);
        ++m_counts.commOps;
    }
    for (const SimCannCall& c : it.calls) {
        sqlite3_bind_int64(m_insCann, 1, c.start);
        sqlite3_bind_int64(m_insCann, 2, c.end);
        sqlite3_bind_int64(m_insCann, 3, c.type);
        sqlite3_bind_int64(m_insCann, 4, globalTid);
        sqlite3_bind_int64(m_insCann, 5, c.connectionId);
        sqlite3_bind_int64(m_insCann, 6, simString(c.name));
        step(m_insCann, m_failed);
        ++m_counts.cannApi;
    }
    for (const SimTorchOp& o : it.ops) {
        const std::string start = std::to_string(o.start), end = std::to_string(o.end);
        sqlite3_bind_text(m_insTorch, 1, start.data(), static_cast<int>(start.size()), SQLITE_TRANSIENT);
        sqlite3_bind_text(m_insTorch, 2, end.data(), static_cast<int>(end.size()), SQLITE_TRANSIENT);
        sqlite3_bind_int64(m_insTorch, 3, globalTid);
        if (o.linkId >= 0)
            sqlite3_bind_int64(m_insTorch, 4, o.linkId);
        else
            sqlite3_bind_null(m_insTorch, 4);
        sqlite3_bind_int64(m_insTorch, 5, torchString(o.name));
        sqlite3_bind_int64(m_insTorch, 6, n::TorchOpType);
        step(m_insTorch, m_failed);
        ++m_counts.pytorchApi;
    }
    for (const SimConnection& c : it.connections) {
        sqlite3_bind_int64(m_insConn, 1, c.id);
        sqlite3_bind_int64(m_insConn, 2, c.connectionId);
        step(m_insConn, m_failed);
        ++m_counts.connectionIds;
        if (auto f = m_tasksPerConnection.find(c.connectionId); f != m_tasksPerConnection.end())
            m_counts.opToDeviceLinks += f->second;
    }
    sqlite3_bind_int64(m_insStep, 1, it.forwardCt);
    sqlite3_bind_int64(m_insStep, 2, it.windowStart);
    sqlite3_bind_int64(m_insStep, 3, it.windowEnd);
    step(m_insStep, m_failed);
    sqlite3_bind_int64(m_insFreq, 1, it.windowStart);
    sqlite3_bind_int64(m_insFreq, 2, it.decode ? 1800 : 1650);
    step(m_insFreq, m_failed);
    for (const DemoOverlapRow& r : m_overlap.rowsFor(it)) {
        sqlite3_bind_int64(m_insOverlap, 1, m_nextOverlapId++);
        sqlite3_bind_int64(m_insOverlap, 2, r.startNs);
        sqlite3_bind_int64(m_insOverlap, 3, r.endNs);
        sqlite3_bind_int64(m_insOverlap, 4, r.type);
        step(m_insOverlap, m_failed);
        ++m_counts.overlapRows;
    }
    return m_failed ? sqlError("insert") : QString();
}

QString DemoDbWriter::finish(TimeNs sessionStartNs, TimeNs sessionEndNs)
{
    for (size_t k = 0; k < m_kernelCounts.size(); ++k)
        if (m_kernelCounts[k] > 0)
            m_counts.kernelsByName[DemoSimulator::kernel(static_cast<int>(k)).name] += m_kernelCounts[k];
    m_kernelCounts.clear();
    const std::string session = "INSERT INTO SESSION_TIME_INFO VALUES (" + std::to_string(sessionStartNs) + "," +
                                std::to_string(sessionEndNs) + ")";
    if (m_failed || !exec(session.c_str()) ||
        !exec("CREATE INDEX CommunicationTaskIndex ON COMMUNICATION_TASK_INFO (globalTaskId);"
              "CREATE INDEX TaskIndex ON TASK (startNs,globalTaskId);") ||
        !exec("COMMIT"))
        return sqlError("commit");
    finalizeStatements();
    if (sqlite3_close(m_db) != SQLITE_OK)
        return sqlError("close");
    m_db = nullptr;
    return {};
}

} // namespace dspark::demo
