// Opening real msprof / torch_npu databases: every figure below was read independently from the
// fixture with the sqlite3 CLI on a copy (queries quoted next to the assertions).
#include "TestSupport.h"

#include "DbTestSupport.h"

#include "io/MsprofDbLoader.h"
#include "io/ProfileLoader.h"
#include "io/db/MsprofDbReader.h"
#include "model/Profile.h"
#include "util/Parallel.h"

#include <QTemporaryDir>
#include <QTest>

#include <atomic>

using namespace dspark;
using namespace dspark::test;

namespace {

const Lane* findLane(const Profile& p, const std::string& process, const std::string& name)
{
    for (const Lane& lane : p.lanes)
        if (lane.info.process == process && lane.info.name == name)
            return &lane;
    return nullptr;
}

uint32_t laneIndex(const Profile& p, const Lane* lane)
{
    return static_cast<uint32_t>(lane - p.lanes.data());
}

// The first event with this name on any lane.
EventRef findEvent(const Profile& p, std::string_view name)
{
    for (uint32_t l = 0; l < p.lanes.size(); ++l)
        for (uint32_t i = 0; i < p.lanes[l].size(); ++i)
            if (p.strings.view(p.lanes[l].nameId[i]) == name)
                return {l, i};
    return {};
}

std::string arg(const Profile& p, EventRef e, const std::string& key)
{
    for (const EventArg& a : p.args(e))
        if (a.key == key)
            return a.value;
    return "<absent>";
}

size_t countKind(const Profile& p, EventKind kind)
{
    size_t n = 0;
    for (const Lane& lane : p.lanes)
        n += std::count(lane.kind.begin(), lane.kind.end(), kind);
    return n;
}

size_t countLinks(const Profile& p, LinkKind kind, const char* category = nullptr)
{
    size_t n = 0;
    for (const Link& l : p.links)
        if (l.kind == kind && (!category || p.strings.view(l.categoryId) == category))
            ++n;
    return n;
}

size_t laneEvents(const Profile& p, LaneKind kind, const std::string& process)
{
    size_t n = 0;
    for (const Lane& lane : p.lanes)
        if (lane.info.kind == kind && lane.info.process == process)
            n += lane.size();
    return n;
}

// Everything a load gives, names and args by their text (not by their ids and references, which
// depend on the order things were stored in): two ways of reading a file must give the same text.
std::string modelText(const Profile& p)
{
    std::string out;
    for (const QString& w : p.warnings)
        out += "warning " + w.toStdString() + "\n";
    for (uint32_t l = 0; l < p.lanes.size(); ++l) {
        const Lane& lane = p.lanes[l];
        out += "lane " + lane.info.process + "/" + lane.info.name + "\n";
        for (uint32_t i = 0; i < lane.size(); ++i) {
            const EventRef e{l, i};
            out += std::to_string(p.startNs(e)) + " " + std::to_string(p.endNs(e)) + " " +
                   std::string(p.strings.view(lane.nameId[i])) + " " + eventKindName(lane.kind[i]) + " " +
                   std::to_string(lane.corrId[i]);
            for (const EventArg& a : p.args(e))
                out += " " + a.key + "=" + a.value;
            out += "\n";
        }
    }
    for (const Link& k : p.links)
        out += "link " + std::to_string(k.from.lane) + ":" + std::to_string(k.from.index) + " " +
               std::to_string(k.to.lane) + ":" + std::to_string(k.to.index) + " " +
               std::to_string(static_cast<int>(k.kind)) + " " + std::string(p.strings.view(k.categoryId)) + "\n";
    return out;
}

// A database loaded with its detail tables and the second half of TASK read on a worker (forced,
// whatever their size) or on the loading thread alone; the phases it reported.
struct DetailLoad {
    LoadOutcome outcome;
    QStringList phases;
};

DetailLoad loadDetailTables(const QString& path, bool worker, const std::atomic<bool>* cancel = nullptr,
                            const QString& cancelAt = {})
{
    LoadOptions options;
    options.threads = worker ? 2 : 1;
    options.dbParallelRows = worker ? 0 : INT64_MAX;
    DetailLoad load;
    LoadProgress progress(
        [&](double, const QString& phase) {
            if (phase.isEmpty())
                return;
            load.phases << phase;
            if (!cancelAt.isEmpty() && phase.startsWith(cancelAt))
                const_cast<std::atomic<bool>*>(cancel)->store(true);
        },
        cancel);
    load.outcome = loadProfile(path.toStdString(), progress, options);
    return load;
}

} // namespace

class TestMsprofDb : public QObject {
    Q_OBJECT

    std::shared_ptr<Profile> m_torch;  // ascend/torch_npu_db_rank0_ascend_pt, loaded once
    std::shared_ptr<Profile> m_edited; // ascend/msprof_edited_db

private Q_SLOTS:
    void initTestCase()
    {
        if (!haveRealData())
            return;
        LoadOutcome torch = loadProfile(realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt")).toStdString());
        QVERIFY2(torch.profile, qPrintable(torch.error));
        m_torch = torch.profile;
        LoadOutcome edited = loadProfile(realData(QStringLiteral("ascend/msprof_edited_db")).toStdString());
        QVERIFY2(edited.profile, qPrintable(edited.error));
        m_edited = edited.profile;
    }

    void torchDbTotalsMatchTheTables()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const ProfileStats s = m_torch->stats();
        QCOMPARE(s.deviceTasks, uint64_t(552));  // SELECT count(*) FROM TASK
        QCOMPARE(s.namedKernels, uint64_t(187)); // TASK JOIN COMPUTE_TASK_INFO USING(globalTaskId)
        QCOMPARE(s.commOps, uint64_t(4));        // COMMUNICATION_OP
        QCOMPARE(s.commTasks, uint64_t(296));    // COMMUNICATION_TASK_INFO JOIN TASK
        // CANN_API 710 + PYTORCH_API 2460 + STEP_TIME 1
        QCOMPARE(s.hostEvents, uint64_t(710 + 2460 + 1));
        QCOMPARE(laneEvents(*m_torch, LaneKind::Host, "CANN"), size_t(710));
        QCOMPARE(laneEvents(*m_torch, LaneKind::Host, "Python"), size_t(2460));
        // NPU_MEM 28x2 + HBM 104 + LLC 26x2 + AICORE_FREQ 3 + ACC_PMU 688x4 + SOC_BANDWIDTH_LEVEL 16x2
        // + MEMORY_RECORD 990x3
        QCOMPARE(s.counters, uint64_t(56 + 104 + 52 + 3 + 2752 + 32 + 2970));
        QCOMPARE(s.events, s.deviceTasks + s.commOps + s.hostEvents + s.counters);
        QCOMPARE(m_torch->ranks.size(), size_t(1));
        QCOMPARE(m_torch->ranks[0].rankNumber, 0); // RANK_DEVICE_MAP (0, 0) and profiler_info_0.json
        QCOMPARE(m_torch->ranks[0].deviceId, 0);
        QVERIFY2(m_torch->warnings.isEmpty(), qPrintable(m_torch->warnings.join(QLatin1Char('\n'))));
        QCOMPARE(m_torch->metadata.at("msprof_db.SCHEMA_VERSION"), std::string("1.0.0"));
    }

    void torchDbHasFourNpuStreams()
    {
        DSPARK_REQUIRE_REAL_DATA();
        // SELECT streamId, count(*) FROM TASK GROUP BY 1 → 0:2, 2:232, 3:6, 4:312
        const std::map<int64_t, size_t> expected = {{0, 2}, {2, 232}, {3, 6}, {4, 312}};
        std::map<int64_t, size_t> seen;
        for (const Lane& lane : m_torch->lanes) {
            if (lane.info.kind != LaneKind::NpuStream)
                continue;
            QCOMPARE(lane.info.process, std::string("Ascend Hardware"));
            QCOMPARE(lane.info.name, "Stream " + std::to_string(lane.info.streamId));
            QCOMPARE(lane.info.deviceId, 0);
            seen[lane.info.streamId] = lane.size();
        }
        QCOMPARE(seen, expected);
    }

    void deviceTaskKindsFollowTheTaskTables()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QCOMPARE(countKind(*m_torch, EventKind::Kernel), size_t(187));
        QCOMPARE(countKind(*m_torch, EventKind::CommTask), size_t(296)); // all on stream 4
        QCOMPARE(countKind(*m_torch, EventKind::EventRecord), size_t(16));
        QCOMPARE(countKind(*m_torch, EventKind::EventWait), size_t(10));
        QCOMPARE(countKind(*m_torch, EventKind::Memcpy), size_t(24));
        // AI_CORE 9 + KERNEL_AICORE without COMPUTE_TASK_INFO 8 + PROFILING_ENABLE + PROFILING_DISABLE
        const Lane* s4 = findLane(*m_torch, "Ascend Hardware", "Stream 4");
        QVERIFY(s4);
        QCOMPARE(size_t(std::count(s4->kind.begin(), s4->kind.end(), EventKind::CommTask)), size_t(296));
        size_t other = 0;
        for (const Lane& lane : m_torch->lanes)
            if (lane.info.kind == LaneKind::NpuStream)
                other += std::count(lane.kind.begin(), lane.kind.end(), EventKind::Other);
        QCOMPARE(other, size_t(19));
        QVERIFY(findEvent(*m_torch, "PROFILING_ENABLE").valid());
    }

    void aKernelHasItsNameTimesAndArgs()
    {
        DSPARK_REQUIRE_REAL_DATA();
        // COMPUTE_TASK_INFO globalTaskId 5: Conv2D1, start 1736410576404719328, 314667 ns, stream 2.
        const EventRef k = findEvent(*m_torch, "Conv2D1");
        QVERIFY(k.valid());
        QCOMPARE(m_torch->lanes[k.lane].info.name, std::string("Stream 2"));
        QCOMPARE(m_torch->startNs(k), TimeNs(1736410576404719328));
        QCOMPARE(m_torch->endNs(k) - m_torch->startNs(k), TimeNs(314667));
        QCOMPARE(m_torch->lanes[k.lane].kind[k.index], EventKind::Kernel);
        QCOMPARE(m_torch->lanes[k.lane].corrId[k.index], int64_t(964));
        QCOMPARE(arg(*m_torch, k, "taskType"), std::string("KERNEL_AICORE"));
        QCOMPARE(arg(*m_torch, k, "taskId"), std::string("11065"));
        QCOMPARE(arg(*m_torch, k, "globalTaskId"), std::string("5"));
        QCOMPARE(arg(*m_torch, k, "connectionId"), std::string("964"));
        QCOMPARE(arg(*m_torch, k, "contextId"), std::string("<absent>")); // 4294967295 = none
        QCOMPARE(arg(*m_torch, k, "opType"), std::string("Conv2D"));
        QCOMPARE(arg(*m_torch, k, "computeTaskType"), std::string("AI_CORE"));
        QCOMPARE(arg(*m_torch, k, "blockDim"), std::string("16")); // schema 1.0.0 spells it blockDim
        QCOMPARE(arg(*m_torch, k, "inputShapes"), std::string("\"32,1,224,224,8;121,4,16,8;64\""));
        // The first kernel of the run (ORDER BY startNs): trans_TransData_0, 53761 ns.
        const Lane* s2 = findLane(*m_torch, "Ascend Hardware", "Stream 2");
        QVERIFY(s2);
        size_t firstKernel = 0;
        while (s2->kind[firstKernel] != EventKind::Kernel)
            ++firstKernel;
        QCOMPARE(m_torch->strings.view(s2->nameId[firstKernel]), std::string_view("trans_TransData_0"));
        QCOMPARE(s2->durationNs[firstKernel], TimeNs(53761));
    }

    void aKernelLinksBackToItsLaunchAndItsPytorchOp()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const EventRef k = findEvent(*m_torch, "Conv2D1");
        QVERIFY(k.valid());
        const auto in = m_torch->linksTo(k);
        QCOMPARE(in.size(), size_t(2));
        const Link* launch = in[0]->kind == LinkKind::HostToDevice ? in[0] : in[1];
        const Link* op = in[0]->kind == LinkKind::OpToDevice ? in[0] : in[1];
        QCOMPARE(launch->kind, LinkKind::HostToDevice);
        QCOMPARE(op->kind, LinkKind::OpToDevice);
        // CANN_API connectionId 964: launch (node level), thread 3140046, start 1736410576404542450.
        QCOMPARE(m_torch->name(launch->from), std::string_view("Node@launch"));
        QCOMPARE(m_torch->lanes[launch->from.lane].info.name, std::string("Thread 3140046"));
        QCOMPARE(m_torch->startNs(launch->from), TimeNs(1736410576404542450));
        // PYTORCH_API → CONNECTION_IDS(connectionId 964): Conv2D, thread 3136493, start 1736410576401580120.
        QCOMPARE(m_torch->name(op->from), std::string_view("Conv2D"));
        QCOMPARE(m_torch->lanes[op->from.lane].info.process, std::string("Python"));
        QCOMPARE(m_torch->lanes[op->from.lane].info.name, std::string("Thread 3136493"));
        QCOMPARE(m_torch->startNs(op->from), TimeNs(1736410576401580120));
        // PYTORCH_CALLCHAINS 31, innermost frame first.
        QVERIFY(arg(*m_torch, op->from, "Call stack")
                    .starts_with("/home/z30057886/.local/lib/python3.9/site-packages/torch/nn/modules/conv.py(456): "
                                 "_conv_forward;\n"));
        QVERIFY(arg(*m_torch, op->from, "Call stack").ends_with("<string>(1): <module>"));
    }

    void linksMatchTheConnectionTables()
    {
        DSPARK_REQUIRE_REAL_DATA();
        // TASK rows whose connectionId is in CANN_API: 550 (tasks 0 and 551 carry 1646, no API row).
        QCOMPARE(countLinks(*m_torch, LinkKind::HostToDevice), size_t(550));
        QCOMPARE(m_torch->stats().hostToDevice, uint64_t(550));
        // PYTORCH_API JOIN CONNECTION_IDS ON id JOIN TASK ON connectionId: 500 rows (115 ops).
        QCOMPARE(countLinks(*m_torch, LinkKind::OpToDevice), size_t(500));
        // Ops sharing a CONNECTION_IDS connection id with no task: 159 Enqueue→Dequeue, 27 fwd→bwd.
        QCOMPARE(countLinks(*m_torch, LinkKind::Flow, "async_task_queue"), size_t(159));
        QCOMPARE(countLinks(*m_torch, LinkKind::Flow, "fwdbwd"), size_t(27));
        QCOMPARE(countLinks(*m_torch, LinkKind::CommOpToTask), size_t(296));
        QCOMPARE(m_torch->stats().flows, uint64_t(550 + 500 + 159 + 27));
        // One API call launches several tasks: CANN connectionId 1175 (Node@launch) → 75 TASK rows.
        const Lane* thread = findLane(*m_torch, "CANN", "Thread 3140046");
        QVERIFY(thread);
        size_t fanOut = 0;
        for (uint32_t i = 0; i < thread->size(); ++i)
            if (thread->corrId[i] == 1175)
                fanOut = m_torch->linksFrom({laneIndex(*m_torch, thread), i}).size();
        QCOMPARE(fanOut, size_t(75));
        for (const Link& l : m_torch->links)
            if (l.kind == LinkKind::Flow && m_torch->strings.view(l.categoryId) == "async_task_queue") {
                QCOMPARE(m_torch->name(l.from), std::string_view("Enqueue"));
                QVERIFY(m_torch->name(l.to).starts_with("Dequeue@"));
                QVERIFY(m_torch->startNs(l.from) <= m_torch->startNs(l.to));
            }
    }

    void hcclOpsSitOnTheirGroupLaneAndOwnTheirSubTasks()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const Lane* group = findLane(*m_torch, "HCCL", "Group 0 Communication");
        QVERIFY(group);
        QCOMPARE(group->info.kind, LaneKind::Comm);
        QCOMPARE(group->size(), size_t(4));
        const EventRef op{laneIndex(*m_torch, group), 0};
        // COMMUNICATION_OP opId 1: hcom_allReduce__210_0_1, 1736410576431631806, 88750993 ns.
        QCOMPARE(m_torch->name(op), std::string_view("hcom_allReduce__210_0_1"));
        QCOMPARE(m_torch->startNs(op), TimeNs(1736410576431631806));
        QCOMPARE(m_torch->endNs(op) - m_torch->startNs(op), TimeNs(88750993));
        QCOMPARE(arg(*m_torch, op, "groupName"), std::string("90.91.105.46%enp189s0f0_60000_0_1736410538306028"));
        QCOMPARE(arg(*m_torch, op, "algType"), std::string("MESH-RING"));
        QCOMPARE(arg(*m_torch, op, "dataType"), std::string("FP32")); // ENUM_HCCL_DATA_TYPE 4
        QCOMPARE(arg(*m_torch, op, "count"), std::string("4097000"));
        QCOMPARE(arg(*m_torch, op, "opType"), std::string("hcom_allReduce_"));
        // COMMUNICATION_TASK_INFO WHERE opId=1: 74 sub-tasks (28 Notify_Record, 28 Notify_Wait, 9 Memcpy,
        // 9 Reduce_Inline), all TASK rows on stream 4.
        const auto out = m_torch->linksFrom(op);
        QCOMPARE(out.size(), size_t(74));
        std::map<std::string, int> byName;
        for (const Link* l : out) {
            QCOMPARE(l->kind, LinkKind::CommOpToTask);
            QCOMPARE(m_torch->lanes[l->to.lane].info.name, std::string("Stream 4"));
            QCOMPARE(m_torch->lanes[l->to.lane].kind[l->to.index], EventKind::CommTask);
            ++byName[std::string(m_torch->name(l->to))];
        }
        QCOMPARE(byName, (std::map<std::string, int>{
                             {"Memcpy", 9}, {"Notify_Record", 28}, {"Notify_Wait", 28}, {"Reduce_Inline", 9}}));
        // The first sub-task (globalTaskId 112, Reduce_Inline, 600 ns): HCCL fields in the args.
        const EventRef first = out.front()->to;
        QCOMPARE(m_torch->startNs(first), TimeNs(1736410576431631806));
        QCOMPARE(m_torch->endNs(first) - m_torch->startNs(first), TimeNs(600));
        QCOMPARE(m_torch->name(first), std::string_view("Reduce_Inline"));
        QCOMPARE(arg(*m_torch, first, "size"), std::string("4"));
        QCOMPARE(arg(*m_torch, first, "dstRank"), std::string("4294967295"));
        QCOMPARE(arg(*m_torch, first, "transportType"), std::string("SDMA"));
        QCOMPARE(arg(*m_torch, first, "linkType"), std::string("ON_CHIP"));
        QCOMPARE(arg(*m_torch, first, "opName"), std::string("hcom_allReduce__210_0_1"));
        QCOMPARE(arg(*m_torch, first, "taskType"), std::string("SDMA")); // TASK.taskType of globalTaskId 112
        QCOMPARE(arg(*m_torch, first, "taskId"), std::string("807"));
        bool sawRecord = false;
        for (const Link* l : out)
            if (m_torch->startNs(l->to) == 1736410576431638326) { // globalTaskId 116
                sawRecord = true;
                QCOMPARE(m_torch->name(l->to), std::string_view("Notify_Record"));
                QCOMPARE(arg(*m_torch, l->to, "notifyId"), std::string("4294967380"));
                QCOMPARE(arg(*m_torch, l->to, "dstRank"), std::string("1"));
                QCOMPARE(arg(*m_torch, l->to, "planeId"), std::string("1"));
                QCOMPARE(arg(*m_torch, l->to, "linkType"), std::string("INVALID_TYPE"));
            }
        QVERIFY(sawRecord);
    }

    void hostLanesArePerThreadWithLevelPrefixedNames()
    {
        DSPARK_REQUIRE_REAL_DATA();
        // CANN_API GROUP BY globalTid & 0xffffffff → 3136493:69, 3140046:395, 3140047:90, 3146352:156
        const std::map<std::string, size_t> cann = {
            {"Thread 3136493", 69}, {"Thread 3140046", 395}, {"Thread 3140047", 90}, {"Thread 3146352", 156}};
        const std::map<std::string, size_t> python = {
            {"Thread 3136493", 1651}, {"Thread 3140046", 159}, {"Thread 3146352", 650}};
        for (const auto& [name, n] : cann) {
            const Lane* lane = findLane(*m_torch, "CANN", name);
            QVERIFY(lane);
            QCOMPARE(lane->size(), n);
            QCOMPARE(lane->info.kind, LaneKind::Host);
            QCOMPARE(lane->info.threadId, std::stoll(name.substr(7)));
            QCOMPARE(size_t(std::count(lane->kind.begin(), lane->kind.end(), EventKind::HostApi)), n);
        }
        for (const auto& [name, n] : python) {
            const Lane* lane = findLane(*m_torch, "Python", name);
            QVERIFY(lane);
            QCOMPARE(lane->size(), n);
            QCOMPARE(size_t(std::count(lane->kind.begin(), lane->kind.end(), EventKind::TorchOp)), n);
        }
        // CANN_API connectionId 936: aclrtMemcpyAsync at the acl level (type 20000).
        const EventRef memcpy = findEvent(*m_torch, "AscendCL@aclrtMemcpyAsync");
        QVERIFY(memcpy.valid());
        QCOMPARE(m_torch->startNs(memcpy), TimeNs(1736410576395215600));
        QCOMPARE(m_torch->lanes[memcpy.lane].corrId[memcpy.index], int64_t(936));
        // PYTORCH_API times are TEXT: the first Enqueue starts at 1736410576395167660 exactly.
        const EventRef enqueue = findEvent(*m_torch, "Enqueue");
        QVERIFY(enqueue.valid());
        QCOMPARE(m_torch->startNs(enqueue), TimeNs(1736410576395167660));
        QCOMPARE(m_torch->endNs(enqueue) - m_torch->startNs(enqueue), TimeNs(15000));
    }

    void stepTimeIsAnAnnotationLane()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const Lane* steps = findLane(*m_torch, "Steps", "STEP_TIME");
        QVERIFY(steps);
        QCOMPARE(steps->info.kind, LaneKind::Host);
        QCOMPARE(steps->size(), size_t(1)); // STEP_TIME (50, 1736410576386409710, 1736410576538298460)
        QCOMPARE(m_torch->strings.view(steps->nameId[0]), std::string_view("Step 50"));
        QCOMPARE(steps->kind[0], EventKind::Annotation);
        QCOMPARE(steps->startNs[0], TimeNs(1736410576386409710));
        QCOMPARE(steps->durationNs[0], TimeNs(1736410576538298460 - 1736410576386409710));
    }

    void countersAreNamedAndScaledLikeTheTraceExport()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const Lane* hbm = findLane(*m_torch, "NPU MEM", "APP/HBM");
        QVERIFY(hbm);
        QCOMPARE(hbm->info.kind, LaneKind::Counter);
        QCOMPARE(hbm->size(), size_t(14));
        // NPU_MEM first app row: hbm 2212077568 B = 2160232 KB (trace_view.json shows KB).
        QCOMPARE(hbm->value[0], 2160232.0);
        const Lane* read = findLane(*m_torch, "HBM", "HBM 0/Read");
        QVERIFY(read);
        QCOMPARE(read->size(), size_t(13));
        const Lane* freq = findLane(*m_torch, "AI Core Freq", "AI Core Freq");
        QVERIFY(freq);
        QCOMPARE(freq->size(), size_t(3));
        QCOMPARE(freq->value[0], 1800.0);
        QCOMPARE(freq->startNs[0], TimeNs(1736410576284680000)); // sorted: the 2nd row is the earliest
        const Lane* acc = findLane(*m_torch, "Acc PMU", "read_bandwidth");
        QVERIFY(acc);
        QCOMPARE(acc->size(), size_t(688));
    }

    void loadingLeavesTheFolderByteIdentical()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString folder = realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt"));
        const FolderState before = folderState(folder);
        QVERIFY(before.files.count(QStringLiteral("ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db")));
        for (int i = 0; i < 2; ++i) {
            LoadOutcome o = loadProfile(folder.toStdString());
            QVERIFY(o.profile);
        }
        const FolderState after = folderState(folder);
        QCOMPARE(after.files.size(), before.files.size()); // no -wal, -shm or -journal appeared
        QVERIFY(after == before);                          // same sizes, mtimes and SHA-256
    }

    void aWritableCopyIsNotModifiedEither()
    {
        DSPARK_REQUIRE_REAL_DATA();
        // The fixture folder is read-only; a writable copy proves it is the loader, not the permissions.
        QTemporaryDir dir;
        const QString db = copyTorchDb(dir.path());
        QVERIFY(!db.isEmpty());
        const FolderState before = folderState(dir.path());
        LoadOutcome o = loadProfile(db.toStdString());
        QVERIFY2(o.profile, qPrintable(o.error));
        QCOMPARE(o.profile->stats().deviceTasks, uint64_t(552));
        QVERIFY(folderState(dir.path()) == before);
    }

    void aWalModeCopyOpensWithoutSideFilesAndWarnsAboutAPendingLog()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QTemporaryDir dir;
        const QString db = copyTorchDb(dir.path());
        // WAL mode, everything checkpointed: opening creates no -wal / -shm.
        QVERIFY(execSql(db, QStringLiteral("PRAGMA journal_mode=WAL;")));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);
        FolderState before = folderState(dir.path());
        LoadOutcome o = loadProfile(db.toStdString());
        QVERIFY2(o.profile, qPrintable(o.error));
        QVERIFY(o.profile->warnings.isEmpty());
        QVERIFY(folderState(dir.path()) == before);

        // Changes left in the -wal (stream 3's 6 tasks deleted) are not read, and the user is told.
        QVERIFY(leaveWalChanges(db, QStringLiteral("DELETE FROM TASK WHERE streamId = 3;")));
        before = folderState(dir.path());
        o = loadProfile(db.toStdString());
        QVERIFY2(o.profile, qPrintable(o.error));
        QCOMPARE(o.profile->stats().deviceTasks, uint64_t(552));
        QCOMPARE(o.profile->warnings.size(), 1);
        QVERIFY(o.profile->warnings[0].startsWith(
            db + QStringLiteral(": a write-ahead log (ascend_pytorch_profiler_0.db-wal)")));
        QVERIFY(folderState(dir.path()) == before); // the -wal and -shm are untouched too
    }

    void pathsWithUriCharactersOpen()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QTemporaryDir dir;
        const QString sub = dir.filePath(QStringLiteral("run %23 50% ?a=1#x"));
        QVERIFY(QDir().mkpath(sub));
        const QString db = copyTorchDb(sub);
        QVERIFY(!db.isEmpty());
        LoadOutcome o = loadProfile(db.toStdString());
        QVERIFY2(o.profile, qPrintable(o.error));
        QCOMPARE(o.profile->stats().deviceTasks, uint64_t(552));
        QCOMPARE(QDir(sub).entryList(QDir::Files).size(), 1);
    }

    void progressReportsPhasesAndCancelTakesEverythingBack()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QStringList phases;
        double last = -1;
        bool monotonic = true;
        std::atomic<bool> cancel{false};
        LoadProgress progress(
            [&](double f, const QString& phase) {
                monotonic = monotonic && f >= last - 1e-9;
                last = f;
                if (!phase.isEmpty())
                    phases << phase;
            },
            &cancel);
        LoadOutcome ok =
            loadProfile(realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt")).toStdString(), progress);
        QVERIFY(ok.profile);
        QVERIFY(monotonic);
        QCOMPARE(last, 1.0);
        QVERIFY2(phases.filter(QStringLiteral("Reading device tasks")).size() == 1, qPrintable(phases.join('|')));
        QVERIFY(phases.filter(QStringLiteral("ascend_pytorch_profiler_0.db")).size() >= 5);

        // Cancel while CANN_API is read: the loader returns the cancel error and leaves nothing behind.
        Profile profile;
        ScannedFile file;
        file.path = torchDbFixture().toStdString();
        file.format = FileFormat::TorchNpuDb;
        file.rankNumber = 0;
        std::atomic<bool> stop{false};
        LoadProgress cancelling(
            [&](double, const QString& phase) {
                if (phase.startsWith(QStringLiteral("Reading PyTorch ops")))
                    stop = true;
            },
            &stop);
        const QString error = loadMsprofDb(file, profile, cancelling);
        QCOMPARE(error, QStringLiteral("Loading cancelled"));
        size_t rows = 0;
        for (const Lane& lane : profile.lanes)
            rows += lane.size();
        QCOMPARE(rows, size_t(0));
        QVERIFY(profile.links.empty());
    }

    void tablesReadOnASecondCoreGiveTheSameModel()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto phaseOf = [](const DetailLoad& l, const char* table) {
            return l.phases.filter(QStringLiteral("Reading %1").arg(QLatin1String(table))).size();
        };
        // Both real databases: the same model either way; on the worker no detail table is a phase of
        // its own (it reports none), on the loading thread each one is.
        for (const QString& path : {torchDbFixture(), realData(QStringLiteral("ascend/msprof_edited_db"))}) {
            const DetailLoad one = loadDetailTables(path, false), two = loadDetailTables(path, true);
            QVERIFY2(one.outcome.profile && two.outcome.profile, qPrintable(one.outcome.error + two.outcome.error));
            QCOMPARE(phaseOf(one, "COMPUTE_TASK_INFO"), 1);
            QCOMPARE(phaseOf(two, "COMPUTE_TASK_INFO"), 0);
            QCOMPARE(phaseOf(two, "COMMUNICATION_TASK_INFO"), 0);
            QCOMPARE(modelText(*two.outcome.profile), modelText(*one.outcome.profile));
            QCOMPARE(two.outcome.profile->strings.size(), one.outcome.profile->strings.size());
        }
        // A kernel's args come from COMPUTE_TASK_INFO, an HCCL sub-task's from COMMUNICATION_TASK_INFO.
        const auto commArgs = [](const Profile& p, const std::string& key) {
            std::map<std::string, size_t> values;
            for (uint32_t l = 0; l < p.lanes.size(); ++l)
                for (uint32_t i = 0; i < p.lanes[l].size(); ++i)
                    if (p.lanes[l].kind[i] == EventKind::CommTask)
                        ++values[arg(p, {l, i}, key)];
            return values;
        };
        {
            const DetailLoad two = loadDetailTables(torchDbFixture(), true);
            const Profile& p = *two.outcome.profile;
            const EventRef conv = findEvent(p, "Conv2D1");
            QVERIFY(conv.valid());
            QCOMPARE(arg(p, conv, "opType"), std::string("Conv2D"));
            QCOMPARE(arg(p, conv, "globalTaskId"), std::string("5"));
            QCOMPARE(commArgs(p, "rdmaType"), (std::map<std::string, size_t>{{"INVALID_TYPE", 296}}));
        }
        // A value its enum table lacks is shown as the number, on the worker too (no re-read).
        const auto copyTo = [&](const char* sub) {
            QDir(dir.path()).mkpath(QLatin1String(sub));
            return copyTorchDb(dir.filePath(QLatin1String(sub)));
        };
        const QString noEnum = copyTo("enum");
        QVERIFY(execSql(noEnum, QStringLiteral("DELETE FROM ENUM_HCCL_RDMA_TYPE WHERE id = 65535;")));
        {
            const DetailLoad one = loadDetailTables(noEnum, false), two = loadDetailTables(noEnum, true);
            QVERIFY(one.outcome.profile && two.outcome.profile);
            QCOMPARE(phaseOf(two, "COMMUNICATION_TASK_INFO"), 0);
            QCOMPARE(commArgs(*two.outcome.profile, "rdmaType"), (std::map<std::string, size_t>{{"65535", 296}}));
            QCOMPARE(modelText(*two.outcome.profile), modelText(*one.outcome.profile));
        }

        // An id the worker cannot resolve: the tables are read again on the loading thread, which names
        // and counts it, as it always did.
        const QString dangling = copyTo("dangling");
        QVERIFY(execSql(dangling, QStringLiteral("UPDATE COMPUTE_TASK_INFO SET name = 88888 WHERE globalTaskId = 5;")));
        {
            const DetailLoad one = loadDetailTables(dangling, false), two = loadDetailTables(dangling, true);
            QVERIFY(two.outcome.profile);
            QCOMPARE(phaseOf(two, "COMPUTE_TASK_INFO"), 1); // (read again here)
            QCOMPARE(modelText(*two.outcome.profile), modelText(*one.outcome.profile));
            QVERIFY(findEvent(*two.outcome.profile, "<unknown string 88888>").valid());
            QCOMPARE(two.outcome.profile->warnings.size(), 1);
            QVERIFY(two.outcome.profile->warnings[0].contains(QStringLiteral("COMPUTE_TASK_INFO.name=88888")));
        }

        // A column named "rowid" hides the rowid (half of it NULL here): TASK is not split by it.
        const QString rowidColumn = copyTo("rowid");
        QVERIFY(execSql(rowidColumn, QStringLiteral("ALTER TABLE TASK ADD COLUMN rowid INTEGER;"
                                                    "UPDATE TASK SET rowid = _rowid_ WHERE _rowid_ % 2 = 0;")));
        {
            const DetailLoad one = loadDetailTables(rowidColumn, false), two = loadDetailTables(rowidColumn, true);
            QVERIFY(one.outcome.profile && two.outcome.profile);
            QCOMPARE(two.outcome.profile->stats().deviceTasks, uint64_t(552));
            QCOMPARE(modelText(*two.outcome.profile), modelText(*one.outcome.profile));
        }

        // A detail table the worker cannot read: the load fails with the table named, as on one thread.
        const QString corrupt = copyTo("corrupt");
        QVERIFY(corruptTable(corrupt, QStringLiteral("COMPUTE_TASK_INFO")));
        {
            const DetailLoad one = loadDetailTables(corrupt, false), two = loadDetailTables(corrupt, true);
            QVERIFY(!two.outcome.profile);
            QCOMPARE(two.outcome.error, one.outcome.error);
            QVERIFY2(two.outcome.error.contains(QStringLiteral("reading table COMPUTE_TASK_INFO")),
                     qPrintable(two.outcome.error));
        }

        // Cancel while the worker reads (the detail tables, then TASK's second half): the load stops and
        // nothing is left.
        for (const QString& phase : {QStringLiteral("Reading CANN"), QStringLiteral("Reading device tasks")}) {
            std::atomic<bool> cancel{false};
            const DetailLoad cancelled = loadDetailTables(torchDbFixture(), true, &cancel, phase);
            QVERIFY(cancel);
            QVERIFY(!cancelled.outcome.profile);
            QCOMPARE(cancelled.outcome.error, QStringLiteral("Loading cancelled"));
        }
    }

    void editedMsprofDbLoadsItsEdgeCases()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const Profile& p = *m_edited;
        const ProfileStats s = p.stats();
        // TASK 24 (extra `depth` column), streams 8:1, 16:14, 18:9; device 2; no RANK_DEVICE_MAP → rank 0.
        QCOMPARE(s.deviceTasks, uint64_t(24));
        std::map<std::string, size_t> streams;
        for (const Lane& lane : p.lanes)
            if (lane.info.kind == LaneKind::NpuStream) {
                streams[lane.info.name] = lane.size();
                QCOMPARE(lane.info.deviceId, 2);
            }
        QCOMPARE(streams, (std::map<std::string, size_t>{{"Stream 16", 14}, {"Stream 18", 9}, {"Stream 8", 1}}));
        QCOMPARE(p.ranks.size(), size_t(1));
        QCOMPARE(p.ranks[0].rankNumber, 0);
        QCOMPARE(p.ranks[0].deviceId, 2);
        // COMPUTE_TASK_INFO 11 (the leftover _COMPUTE_TASK_INFO_old_20251014 is ignored).
        QCOMPARE(s.namedKernels, uint64_t(11));
        const EventRef zero = findEvent(p, "aclnnInplaceZero_ZerosLikeAiCore_ZerosLike");
        QVERIFY(zero.valid());
        QCOMPARE(p.startNs(zero), TimeNs(1698220811392354694));
        QCOMPARE(p.endNs(zero) - p.startNs(zero), TimeNs(612092));
        QCOMPARE(arg(p, zero, "waitNs"), std::string("0"));
        // COMMUNICATION_TASK_INFO 9 rows, 8 of them in TASK; COMMUNICATION_OP is empty → one warning.
        QCOMPARE(s.commTasks, uint64_t(8));
        QCOMPARE(s.commOps, uint64_t(0));
        QCOMPARE(countLinks(p, LinkKind::CommOpToTask), size_t(0));
        QCOMPARE(p.warnings.size(), 1);
        QVERIFY(p.warnings[0].contains(QStringLiteral("msprof_0.db")));
        QVERIFY(p.warnings[0].contains(QStringLiteral("8 communication sub-task(s)")));
        QVERIFY(p.warnings[0].contains(QStringLiteral("opId 895")));
        // MSTX_EVENTS 13 start/end ranges on two threads (4 + 9).
        QCOMPARE(laneEvents(p, LaneKind::Host, "MSTX"), size_t(13));
        QCOMPARE(findLane(p, "MSTX", "Thread 1024172")->size(), size_t(4));
        QCOMPARE(findLane(p, "MSTX", "Thread 1029308")->size(), size_t(9));
        QCOMPARE(countKind(p, EventKind::Annotation), size_t(13));
        const EventRef gather = findEvent(p, "aclnnEmbedding_GatherV2AiCore_GatherV2");
        QVERIFY(gather.valid());
        QCOMPARE(p.lanes[gather.lane].info.process, std::string("MSTX"));
        QCOMPARE(p.endNs(gather) - p.startNs(gather), TimeNs(115336092750));
        QCOMPARE(arg(p, gather, "eventType"), std::string("2")); // no ENUM_MSTX_EVENT_TYPE in this file
        // CANN_API 4 rows (two share connectionId 2, a `depth` column added by a viewer).
        const Lane* cann = findLane(p, "CANN", "Thread 3571117473");
        QVERIFY(cann);
        QCOMPARE(cann->size(), size_t(4));
        QCOMPARE(p.strings.view(cann->nameId[0]), std::string_view("AscendCL@aclrtGetDeviceCount"));
        QCOMPARE(s.hostToDevice, uint64_t(1)); // only connectionId 0 is also a TASK's
        // OVERLAP_ANALYSIS types 0 and 3, 11 rows each.
        QCOMPARE(findLane(p, "Overlap Analysis", "Computing")->size(), size_t(11));
        QCOMPARE(findLane(p, "Overlap Analysis", "Free")->size(), size_t(11));
        QCOMPARE(countKind(p, EventKind::OverlapSpan), size_t(22));
        // HBM 4 + LLC 4x2 + DDR 5x2
        QCOMPARE(s.counters, uint64_t(4 + 8 + 10));
    }
};

QTEST_GUILESS_MAIN(TestMsprofDb)
#include "tst_msprof_db.moc"
