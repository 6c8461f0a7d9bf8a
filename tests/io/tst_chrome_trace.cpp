// The Chrome-trace JSON loader on the real exports (torch_npu trace_view.json, Kineto traces from
// A100/B200/MI300X) and on hand-made files for every edge the format allows. Expected figures were
// worked out from the files independently (python3 json/gzip, see each comment).
#include "analysis/IntervalSet.h"
#include "io/ProfileLoader.h"
#include "io/trace/FlowMatcher.h"
#include "io/trace/TraceIngest.h"
#include "io/trace/TraceLoadTuning.h"
#include "util/Parallel.h"

#include "../../bench/TraceViewGenerator.h"
#include "GzipSupport.h"
#include "TestSupport.h"

#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include <fcntl.h>
#include <unistd.h>

using namespace dspark;

namespace {

using test::gzipped;

std::shared_ptr<const Profile> load(const QString& path, const LoadOptions& options, QString* error = nullptr)
{
    const LoadOutcome out = loadProfile(path.toStdString(), {}, options);
    if (error)
        *error = out.error;
    return out.profile;
}

std::shared_ptr<const Profile> load(const QString& path, QString* error = nullptr)
{
    return load(path, LoadOptions{}, error);
}

const Lane* findLane(const Profile& p, const std::string& process, const std::string& name)
{
    for (const Lane& lane : p.lanes)
        if (lane.info.process == process && lane.info.name == name)
            return &lane;
    return nullptr;
}

size_t laneIndex(const Profile& p, const Lane* lane)
{
    return static_cast<size_t>(lane - p.lanes.data());
}

// The first event of a lane with this name.
EventRef findEvent(const Profile& p, const Lane* lane, std::string_view name)
{
    if (!lane)
        return {};
    for (size_t i = 0; i < lane->size(); ++i)
        if (p.strings.view(lane->nameId[i]) == name)
            return {static_cast<uint32_t>(laneIndex(p, lane)), static_cast<uint32_t>(i)};
    return {};
}

std::string argOf(const Profile& p, EventRef e, const std::string& key)
{
    for (const EventArg& a : p.args(e))
        if (a.key == key)
            return a.value;
    return "<absent>";
}

size_t countKind(const Profile& p, EventKind kind, LaneKind laneKind)
{
    size_t n = 0;
    for (const Lane& lane : p.lanes)
        if (lane.info.kind == laneKind)
            n += static_cast<size_t>(std::count(lane.kind.begin(), lane.kind.end(), kind));
    return n;
}

size_t lanesOfKind(const Profile& p, LaneKind kind)
{
    return static_cast<size_t>(
        std::count_if(p.lanes.begin(), p.lanes.end(), [&](const Lane& l) { return l.info.kind == kind; }));
}

size_t linksOfKind(const Profile& p, LinkKind kind)
{
    return static_cast<size_t>(
        std::count_if(p.links.begin(), p.links.end(), [&](const Link& l) { return l.kind == kind; }));
}

bool anyWarningContains(const Profile& p, const QString& text)
{
    for (const QString& w : p.warnings)
        if (w.contains(text))
            return true;
    return false;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const std::string& content)
{
    const QString path = dir.filePath(name);
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << content;
    return path;
}

std::string readAll(const QString& path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// Everything observable about a loaded profile, to compare two loads of the same data.
std::string fingerprint(const Profile& p)
{
    std::string out;
    for (const Lane& lane : p.lanes) {
        out += laneKindName(lane.info.kind) + std::string("|") + lane.info.process + "|" + lane.info.name + "|" +
               std::to_string(lane.info.streamId) + "|" + std::to_string(lane.info.deviceId) + "\n";
        for (size_t i = 0; i < lane.size(); ++i) {
            out += std::to_string(lane.startNs[i]) + "," + std::to_string(lane.durationNs[i]) + "," +
                   std::string(p.strings.view(lane.nameId[i])) + "," + eventKindName(lane.kind[i]) + "," +
                   std::to_string(lane.corrId[i]) + "," + std::to_string(lane.depthOf(i)) + "," +
                   (lane.value.empty() ? std::string() : std::to_string(lane.value[i])) + "," +
                   std::to_string(lane.argsRef[i] != 0) + "\n";
        }
    }
    for (const Link& l : p.links)
        out += std::to_string(l.from.lane) + ":" + std::to_string(l.from.index) + ">" + std::to_string(l.to.lane) +
               ":" + std::to_string(l.to.index) + " " + linkKindName(l.kind) + " " +
               std::string(p.strings.view(l.categoryId)) + "\n";
    return out;
}

// `threads` false: one thread for parsing, building lanes and flows; true: two wherever the loader
// would use two on a two-core machine, whatever this machine has.
LoadOptions tuned(size_t chunk, size_t split, bool threads)
{
    LoadOptions options;
    options.trace.chunkBytes = chunk;
    options.trace.splitThreshold = split;
    options.trace.twoThreads = threads;
    options.trace.parallelFlowPoints = split == 0 ? 0 : options.trace.parallelFlowPoints;
    options.threads = threads ? 2 : 1;
    return options;
}

// Loads `path` in many parts (each a third of what is left but at least `partBytes`, up to 64) of
// 64-byte chunks, on one thread or two.
std::shared_ptr<const Profile> loadInParts(const QString& path, size_t partBytes, bool threads)
{
    LoadOptions tuning = tuned(64, 0, threads);
    tuning.trace.minPartBytes = partBytes;
    tuning.trace.maxParts = 64;
    return load(path, tuning);
}

} // namespace

class TestChromeTrace : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // ---------------------------------------------------------------- real exports
    void asciiTextTraceHasEveryTrackEventAndFlow()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QString error;
        const auto p = load(test::realData(QStringLiteral("ascend/torch_npu_text_rank0_ascend_pt")), &error);
        QVERIFY2(p, qPrintable(error));
        const ProfileStats s = p->stats();
        // python3: 4384 "X", 4431 "C", 611 "f" all with a matching "s" by (cat, id), 80 "M".
        QCOMPARE(s.events - s.counters, uint64_t(4384));
        QCOMPARE(s.counters, uint64_t(4431));
        QCOMPARE(s.flows, uint64_t(611));
        QCOMPARE(s.hostToDevice, uint64_t(215)); // 210 "s" HostToDevice, one start → several finishes
        QCOMPARE(linksOfKind(*p, LinkKind::OpToDevice), size_t(210));   // async_npu
        QCOMPARE(linksOfKind(*p, LinkKind::Flow), size_t(159 + 27));    // async_task_queue + fwdbwd
        QCOMPARE(linksOfKind(*p, LinkKind::CommOpToTask), size_t(296)); // every plane task lies in one of 4 ops
        QVERIFY2(p->warnings.isEmpty(), qPrintable(p->warnings.join('\n')));

        // Tracks from metadata: Python 3 + CANN 4 threads, Stream 0/2/3/4, HCCL group + 8 planes,
        // 4 overlap tracks, 26 counter series (AI Core Freq 1, Acc PMU 4, HBM 8, LLC 4, NPU MEM 6, QoS 1,
        // Stars Soc Info 2).
        QCOMPARE(lanesOfKind(*p, LaneKind::Host), size_t(7));
        QCOMPARE(lanesOfKind(*p, LaneKind::NpuStream), size_t(4));
        QCOMPARE(lanesOfKind(*p, LaneKind::Comm), size_t(9));
        QCOMPARE(lanesOfKind(*p, LaneKind::Overlap), size_t(4));
        QCOMPARE(lanesOfKind(*p, LaneKind::Counter), size_t(26));
        QCOMPARE(lanesOfKind(*p, LaneKind::GpuStream), size_t(0));
        const Lane* stream2 = findLane(*p, "Ascend Hardware", "Stream 2");
        const Lane* stream4 = findLane(*p, "Ascend Hardware", "Stream 4");
        QVERIFY(stream2 && stream4);
        QCOMPARE(stream2->size(), size_t(219));
        QCOMPARE(stream4->size(), size_t(308));
        QCOMPARE(stream2->info.streamId, int64_t(2));
        QCOMPARE(stream2->info.deviceId, 0); // pid 3170820512 = 3096504<<10 | 13<<5 | 0, sort index 13
        QCOMPARE(findLane(*p, "Python", "Thread 3096504")->size(), size_t(1651));
        QCOMPARE(findLane(*p, "CANN", "Thread 3099702")->size(), size_t(395));
        QCOMPARE(findLane(*p, "HCCL", "Group 0 Communication")->size(), size_t(4));
        QCOMPARE(findLane(*p, "HCCL", "Plane 0")->info.streamId, int64_t(0));
        QCOMPARE(findLane(*p, "HCCL", "Plane 7")->size(), size_t(40));
        QCOMPARE(findLane(*p, "Overlap Analysis", "Computing")->size(), size_t(187));
        QCOMPARE(findLane(*p, "QoS", "QoS OTHERS")->size(), size_t(1405));
        QCOMPARE(findLane(*p, "HBM", "HBM 0/Read")->size(), size_t(13));
        QCOMPARE(p->ranks.size(), size_t(1));
        QCOMPARE(p->ranks[0].rankNumber, 0);
        QCOMPARE(p->ranks[0].deviceId, 0);

        // Kinds: 187 compute tasks (172 AI_CORE + 13 MIX_AIV + 2 DSA_SQE), EVENT_RECORD 16 (14 + 2
        // placeholder tasks named EVENT_RECORD), EVENT_WAIT 10, MEMCPY_ASYNC 24 (PCIE_DMA/SDMA SQE).
        QCOMPARE(s.namedKernels, uint64_t(187));
        QCOMPARE(countKind(*p, EventKind::EventRecord, LaneKind::NpuStream), size_t(16));
        QCOMPARE(countKind(*p, EventKind::EventWait, LaneKind::NpuStream), size_t(10));
        QCOMPARE(countKind(*p, EventKind::Memcpy, LaneKind::NpuStream), size_t(24));
        QCOMPARE(s.commOps, uint64_t(4));
        QCOMPARE(s.commTasks, uint64_t(296));
        QCOMPARE(countKind(*p, EventKind::HostApi, LaneKind::Host), size_t(707));
        QCOMPARE(countKind(*p, EventKind::TorchOp, LaneKind::Host), size_t(2460));
        QCOMPARE(countKind(*p, EventKind::OverlapSpan, LaneKind::Overlap), size_t(382));

        // One event exactly: the file's first, "ts": "1736408883688177.930", "dur": 145.57.
        const EventRef empty = findEvent(*p, findLane(*p, "Python", "Thread 3096504"), "aten::empty");
        QVERIFY(empty.valid());
        QCOMPARE(p->startNs(empty), TimeNs(1736408883688177930));
        QCOMPARE(p->endNs(empty) - p->startNs(empty), TimeNs(145570));
        QCOMPARE(argOf(*p, empty, "Input Dims"), std::string(";\r\n;\r\n;\r\n;\r\n;\r\n"));
        QCOMPARE(argOf(*p, empty, "Sequence number"), std::string("-1"));
        // A hardware task with sub-ns digits: "dur": 79089.52021875 µs → 79089520 ns (rounded).
        const EventRef op = findEvent(*p, findLane(*p, "HCCL", "Group 0 Communication"), "hcom_allReduce__586_0_1");
        QCOMPARE(p->startNs(op), TimeNs(1736408883732241564));
        QCOMPARE(p->endNs(op) - p->startNs(op), TimeNs(79089520));
        QCOMPARE(argOf(*p, op, "alg_type"), std::string("MESH-RING"));
        QCOMPARE(p->lanes[op.lane].corrId[op.index], int64_t(1175)); // args connection_id
        const EventRef enable = findEvent(*p, findLane(*p, "Ascend Hardware", "Stream 0"), "PROFILING_ENABLE");
        QCOMPARE(p->lanes[enable.lane].kind[enable.index], EventKind::Other);
        QCOMPARE(p->endNs(enable) - p->startNs(enable), TimeNs(20));
        QCOMPARE(argOf(*p, enable, "Task Type"), std::string("PLACE_HOLDER_SQE"));
        QCOMPARE(argOf(*p, enable, "Model Id"), std::string("4294967295"));
        // Its launch: HostToDevice1644 from CANN.
        QCOMPARE(p->firstNs(), TimeNs(1736408883573887920));
        QCOMPARE(p->lastNs(), TimeNs(1736408883973810000));
    }

    void asciiComputeTasksGiveMsprofComputing()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const auto p = load(test::realData(
            QStringLiteral("ascend/torch_npu_text_rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json")));
        QVERIFY(p);
        // msprof's Overlap Analysis "Computing" is the union of the compute tasks: 187 slices on the
        // Computing track, each starting exactly where one Kernel starts.
        std::vector<Interval> kernels;
        std::multiset<TimeNs> kernelStarts;
        for (const Lane& lane : p->lanes)
            if (lane.info.kind == LaneKind::NpuStream)
                for (size_t i = 0; i < lane.size(); ++i)
                    if (lane.kind[i] == EventKind::Kernel) {
                        kernels.push_back({lane.startNs[i], lane.endNs(i)});
                        kernelStarts.insert(lane.startNs[i]);
                    }
        const Lane* computing = findLane(*p, "Overlap Analysis", "Computing");
        QVERIFY(computing);
        QCOMPARE(kernels.size(), computing->size());
        QCOMPARE(std::multiset<TimeNs>(computing->startNs.begin(), computing->startNs.end()), kernelStarts);
        TimeNs computingTrack = 0;
        for (size_t i = 0; i < computing->size(); ++i)
            computingTrack += computing->durationNs[i];
        QCOMPARE(computingTrack, TimeNs(8873756)); // the track itself: 8873.756 µs, as msprof reports
        // The union of the kernels read at 1 ns: trace_view.json gives task durations with sub-ns digits
        // (53.7410625 µs) while msprof ends each Computing slice at its own rounded end, so each task
        // may differ by up to 1 ns: python3 (Decimal, half-up) gives 8873740 ns.
        QCOMPARE(IntervalSet::fromUnsorted(kernels).totalNs(), TimeNs(8873740));
    }

    void kinetoNcclTraceHasItsCollectivesOnStream40()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const auto p = load(test::realData(QStringLiteral("kineto/a100_2rank_nccl_rank0.pt.trace.json.gz")));
        QVERIFY(p);
        const Lane* s40 = findLane(*p, "GPU 0", "Stream 40");
        const Lane* s7 = findLane(*p, "GPU 0", "Stream 7");
        QVERIFY(s40 && s7);
        QCOMPARE(s40->info.kind, LaneKind::GpuStream);
        QCOMPARE(s40->info.streamId, int64_t(40));
        QCOMPARE(s40->info.deviceId, 0);
        size_t allReduce = 0, broadcast = 0, nccl = 0;
        for (const Lane& lane : p->lanes)
            for (size_t i = 0; i < lane.size(); ++i)
                if (lane.kind[i] == EventKind::CommOp) {
                    QCOMPARE(&lane, s40);
                    const std::string_view name = p->strings.view(lane.nameId[i]);
                    QVERIFY(name.substr(0, 4) == "nccl");
                    ++nccl;
                    allReduce += name.find("AllReduce") != std::string_view::npos;
                    broadcast += name.find("Broadcast") != std::string_view::npos;
                }
        QCOMPARE(nccl, size_t(21));
        QCOMPARE(allReduce, size_t(15));
        QCOMPARE(broadcast, size_t(6));
        QCOMPARE(s40->size(), size_t(42)); // + 21 gpu_user_annotation (nccl:all_reduce / nccl:broadcast)
        // Stream 7: 2679 kernels, 960 memcpy, 114 memset, 9 annotations.
        QCOMPARE(s7->size(), size_t(2679 + 960 + 114 + 9));
        QCOMPARE(countKind(*p, EventKind::Kernel, LaneKind::GpuStream), size_t(2679));
        QCOMPARE(countKind(*p, EventKind::Memcpy, LaneKind::GpuStream), size_t(960 + 114));
        // displayTimeUnit "ms" only sets the display: ts stay µs. "ts": 4458677009853.422 → ns.
        const EventRef k = findEvent(*p, s40,
                                     "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, "
                                     "ncclWork*)");
        QVERIFY(k.valid());
        QVERIFY(p->startNs(k) >= TimeNs(4458676400000000));
        const ProfileStats s = p->stats();
        QCOMPARE(s.flows, uint64_t(4317)); // 3774 ac2g + 543 fwdbwd finishes with a start
        QCOMPARE(s.hostToDevice, uint64_t(3774));
        QVERIFY(anyWarningContains(*p, QStringLiteral("4878 flow finishes have no flow start")));
        // Host: the pid's process name and the last thread_name record; a negative tid.
        QVERIFY(findLane(*p, "python3.10", "thread 2919752 (pt_autograd_0)"));
        QCOMPARE(findLane(*p, "python3.10", "Thread -549452224")->size(), size_t(42));
        QVERIFY(findLane(*p, "Spans", "PyTorch Profiler")); // string pid and tid
        QCOMPARE(p->ranks[0].rankNumber, 0);                // distributedInfo.rank
    }

    void kinetoEventSyncTraceHasThreeStreams()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const auto p = load(test::realData(QStringLiteral("kineto/a100_event_sync_multi_stream.pt.trace.json.gz")));
        QVERIFY(p);
        for (int stream : {20, 24, 28}) {
            const Lane* lane = findLane(*p, "GPU 0", "Stream " + std::to_string(stream));
            QVERIFY(lane);
            QCOMPARE(std::count(lane->kind.begin(), lane->kind.end(), EventKind::Kernel), 1l);
            QCOMPARE(p->strings.view(lane->nameId[std::find(lane->kind.begin(), lane->kind.end(), EventKind::Kernel) -
                                                  lane->kind.begin()]),
                     std::string_view("ampere_sgemm_128x64_nn"));
        }
        // "Stream Wait Event" on stream 24 is the stream waiting; device-wide syncs sit on "Device 0".
        QCOMPARE(countKind(*p, EventKind::EventWait, LaneKind::GpuStream), size_t(1));
        QCOMPARE(findLane(*p, "GPU 0", "Device 0")->size(), size_t(4));
        // The file has 4 cudaEventRecord calls; 3 of them are waited on (their correlation ids are the
        // wait_on_cuda_event_record_corr_id of a cuda_sync: 32, 62, 1385), HTA's "3 record calls".
        std::set<std::string> waitedOn;
        std::vector<EventRef> records;
        for (uint32_t l = 0; l < p->lanes.size(); ++l)
            for (uint32_t i = 0; i < p->lanes[l].size(); ++i) {
                if (p->name({l, i}) == "cudaEventRecord") {
                    QCOMPARE(p->lanes[l].kind[i], EventKind::HostApi);
                    records.push_back({l, i});
                }
                const std::string corr = argOf(*p, {l, i}, "wait_on_cuda_event_record_corr_id");
                if (corr != "<absent>" && corr != "-1")
                    waitedOn.insert(corr);
            }
        QCOMPARE(records.size(), size_t(4));
        size_t waited = 0;
        for (EventRef r : records)
            waited += waitedOn.count(std::to_string(p->lanes[r.lane].corrId[r.index]));
        QCOMPARE(waited, size_t(3));
        QCOMPARE(p->stats().flows, uint64_t(8));
        // Integer ts (µs) → ns.
        const EventRef k = findEvent(*p, findLane(*p, "GPU 0", "Stream 20"), "ampere_sgemm_128x64_nn");
        QCOMPARE(p->startNs(k), TimeNs(1712867402348700000));
        QCOMPARE(p->endNs(k) - p->startNs(k), TimeNs(123000));
    }

    void mi300xTrimmedTraceCountsFinishesWithoutStart()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const auto p = load(test::realData(QStringLiteral("kineto/mi300x_sglang_qwen3_decode.trace.json.gz")));
        QVERIFY(p);
        QCOMPARE(p->stats().flows, uint64_t(14));
        QVERIFY2(anyWarningContains(*p, QStringLiteral(": 559 flow finishes have no flow start")),
                 qPrintable(p->warnings.join('\n')));
        QCOMPARE(findLane(*p, "GPU 9", "Stream 3")->size(), size_t(556));
        QCOMPARE(findLane(*p, "GPU 9", "Stream 2")->size(), size_t(2));
        QCOMPARE(countKind(*p, EventKind::Kernel, LaneKind::GpuStream), size_t(555));
    }

    void b200TraceWithoutMetadataAndPidMinusOne()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const auto p = load(test::realData(QStringLiteral("kineto/b200_eager_rank0.trace.json.gz")));
        QVERIFY(p);
        QCOMPARE(p->lanes.size(), size_t(3));
        const Lane* host = findLane(*p, "Process 6583", "Thread 6583");
        const Lane* overhead = findLane(*p, "Process -1", "Thread 0");
        const Lane* gpu = findLane(*p, "GPU 0", "Stream 7");
        QVERIFY(host && overhead && gpu);
        QCOMPARE(host->size(), size_t(4809 + 221 + 1151 + 15230 + 3));
        QCOMPARE(overhead->size(), size_t(9));
        QCOMPARE(overhead->info.kind, LaneKind::Host);
        QCOMPARE(gpu->size(), size_t(161 + 3 + 768));
        QCOMPARE(countKind(*p, EventKind::Kernel, LaneKind::GpuStream), size_t(767));
        QCOMPARE(countKind(*p, EventKind::CommOp, LaneKind::GpuStream), size_t(1)); // ncclDevKernel_AllGather
        QCOMPARE(countKind(*p, EventKind::HostApi, LaneKind::Host), size_t(1151 + 221));
        QCOMPARE(p->stats().flows, uint64_t(929));
        QVERIFY(anyWarningContains(*p, QStringLiteral("441 flow finishes have no flow start")));
    }

    void simpleAddTraceLinksLaunchesToKernels()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const auto p = load(test::realData(QStringLiteral("kineto/a100_simple_add.pt.trace.json.gz")));
        QVERIFY(p);
        QCOMPARE(p->stats().flows, uint64_t(139));
        QCOMPARE(p->stats().hostToDevice, uint64_t(139));
        // Every ac2g link goes from a host call to a device lane.
        for (const Link& l : p->links) {
            QCOMPARE(p->lanes[l.from.lane].info.kind, LaneKind::Host);
            QCOMPARE(p->lanes[l.to.lane].info.kind, LaneKind::GpuStream);
            QCOMPARE(p->lanes[l.from.lane].corrId[l.from.index], p->lanes[l.to.lane].corrId[l.to.index]);
        }
        QCOMPARE(countKind(*p, EventKind::Kernel, LaneKind::GpuStream), size_t(79));
        QCOMPARE(countKind(*p, EventKind::Instant, LaneKind::Host), size_t(2));
    }

    void uint64ArgsSurviveExactly()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const auto p = load(test::realData(QStringLiteral("negative/uint64_overflow.pt.trace.json.gz")));
        QVERIFY(p);
        const EventRef e = findEvent(*p, findLane(*p, "Process 0", "Thread 1"), "record_param_comms");
        QVERIFY(e.valid());
        QCOMPARE(argOf(*p, e, "Comms Id"), std::string("10159970886766084423")); // > INT64_MAX, every digit
        // A kernel without args still is device activity: Kineto's pid = device, tid = stream.
        const Lane* gpu = findLane(*p, "GPU 0", "Stream 0");
        QVERIFY(gpu);
        QCOMPARE(gpu->kind[0], EventKind::CommOp);
        QCOMPARE(p->startNs({uint32_t(laneIndex(*p, gpu)), 0}), TimeNs(100000));
    }

    void correlationIdsOfAnySizeKeepTheirValue()
    {
        // Ids that fit 31 bits are kept in the parse records themselves, others beside them: both
        // must come out as written, in the right rows, whatever the split into parts.
        std::string text = "[";
        const char* ids[] = {"7", "2147483647", "2147483648", "5000000000", "-7", "0", "9223372036854775807"};
        for (int i = 0; i < 7 * 20; ++i) {
            if (i)
                text += ",";
            text += "{\"ph\":\"X\",\"name\":\"k\",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(10 * i) +
                    ",\"dur\":1,\"args\":{\"connection_id\":" + ids[i % 7] + "}}";
        }
        text += ",{\"ph\":\"X\",\"name\":\"none\",\"pid\":1,\"tid\":1,\"ts\":5000,\"dur\":1}]";
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("trace.json"), text);
        for (const bool split : {false, true}) {
            const LoadOptions tuning = tuned(split ? 256 : 1 << 20, split ? 0 : SIZE_MAX, split);
            const auto p = load(path, tuning);
            QVERIFY(p);
            const Lane* lane = findLane(*p, "Process 1", "Thread 1");
            QVERIFY(lane);
            QCOMPARE(lane->size(), size_t(141));
            const int64_t expected[] = {7, 2147483647, 2147483648LL, 5000000000LL, -7, 0, INT64_MAX};
            for (size_t i = 0; i < 140; ++i)
                QCOMPARE(lane->corrId[i], expected[i % 7]);
            QCOMPARE(lane->corrId[140], int64_t(-1));
        }
    }

    void tinyFragmentKeepsCrlfInArgs()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const auto p = load(test::realData(QStringLiteral("negative/tiny_fragment_trace_view.json")));
        QVERIFY(p);
        QCOMPARE(p->stats().events, uint64_t(4));
        QCOMPARE(lanesOfKind(*p, LaneKind::Host), size_t(3));
        const Lane* hw = findLane(*p, "Ascend Hardware", "Stream 383683"); // no thread_name: the tid
        QVERIFY(hw);
        QCOMPARE(hw->info.kind, LaneKind::NpuStream);
        const EventRef e = findEvent(*p, findLane(*p, "CANN", "Thread 383681"), "Prefill_layer::Execute");
        QCOMPARE(argOf(*p, e, "Input type"),
                 std::string("ScalarList;\r\nScalar;\r\nScalar;\r\nNone;\r\nNone;\r\nNone"));
        QCOMPARE(p->startNs(e), TimeNs(1742490378358140950));
    }

    void metadataOnlyTraceIsAnEmptyProfile()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QString error;
        QVERIFY(!load(test::realData(QStringLiteral("negative/metadata_only_trace_view.json")), &error));
        QVERIFY2(error.contains(QStringLiteral("no timed events")), qPrintable(error));
    }

    // ---------------------------------------------------------------- the format, by hand
    void timestampsKeepEveryDigit()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("trace_view.json"), R"([
            {"ph":"X","name":"a","pid":1,"tid":1,"ts":"1736408883700059.821","dur":0.001},
            {"ph":"X","name":"b","pid":1,"tid":1,"ts":1736408883700060.5,"dur":1.0005},
            {"ph":"X","name":"c","pid":1,"tid":1,"ts":"1.7364088837001e15","dur":2e-3},
            {"ph":"X","name":"d","pid":1,"tid":1,"ts":"-5","dur":1},
            {"ph":"X","name":"e","pid":1,"tid":1,"ts":"9223372036854775.807","dur":0}
        ])");
        const auto p = load(path);
        QVERIFY(p);
        const Lane& lane = p->lanes[0];
        QCOMPARE(lane.startNs[0], TimeNs(-5000));
        QCOMPARE(lane.startNs[1], TimeNs(1736408883700059821));
        QCOMPARE(lane.durationNs[1], TimeNs(1));
        QCOMPARE(lane.startNs[2], TimeNs(1736408883700060500));
        QCOMPARE(lane.durationNs[2], TimeNs(1001)); // 1.0005 µs rounds half up
        QCOMPARE(lane.startNs[3], TimeNs(1736408883700100000));
        QCOMPARE(lane.durationNs[3], TimeNs(2));
        // Read exactly (INT64_MAX), then held at the model's limit, ±(2^62 − 1) ns, with a warning: the
        // sum or the difference of two times must not overflow.
        QCOMPARE(lane.startNs[4], (TimeNs(1) << 62) - 1);
        QCOMPARE(p->warnings, QStringList{QStringLiteral("1 event(s) have times beyond 146 years from the epoch; "
                                                         "held at that limit")});
    }

    void displayTimeUnitNeverChangesTheUnit()
    {
        QTemporaryDir dir;
        // "ns" or "ms", before or after the events (Kineto writes it after): ts and dur stay µs.
        const QString after = writeFile(dir, QStringLiteral("after.trace.json"), R"({"traceEvents":[
            {"ph":"X","name":"k","pid":1,"tid":2,"ts":1700000000123456.789,"dur":1500.25}],
            "displayTimeUnit":"ns"})");
        const QString before = writeFile(dir, QStringLiteral("before.trace.json"),
                                         R"({"displayTimeUnit":"ns","traceEvents":[
            {"ph":"X","name":"k","pid":1,"tid":2,"ts":1700000000123456.789,"dur":1500.25}]})");
        const QString ms = writeFile(dir, QStringLiteral("ms.trace.json"), R"({"displayTimeUnit":"ms","traceEvents":[
            {"ph":"X","name":"k","pid":1,"tid":2,"ts":1700000000123456.789,"dur":1500.25}]})");
        for (const QString& path : {after, before, ms}) {
            const auto p = load(path);
            QVERIFY(p);
            QCOMPARE(p->lanes[0].startNs[0], TimeNs(1700000000123456789));
            QCOMPARE(p->lanes[0].durationNs[0], TimeNs(1500250));
        }
    }

    void tracksComeFromMetadataNotPids()
    {
        QTemporaryDir dir;
        // pid above 2^63 as an unsigned integer, a string pid, pid -1; thread names set after use.
        const QString path = writeFile(dir, QStringLiteral("trace_view.json"), R"([
            {"ph":"X","name":"launch","pid":18446744073709551615,"tid":7,"ts":"10.000","dur":5},
            {"ph":"X","name":"op","pid":"Spans","tid":"main","ts":"11.000","dur":1},
            {"ph":"X","name":"neg","pid":-1,"tid":-1,"ts":"12.000","dur":1},
            {"ph":"X","name":"task","pid":4294967296,"tid":3,"ts":"13.000","dur":1,"args":{"Task Type":"AI_CORE"}},
            {"ph":"M","name":"process_name","pid":18446744073709551615,"args":{"name":"CANN"}},
            {"ph":"M","name":"process_name","pid":4294967296,"tid":0,"args":{"name":"Ascend Hardware"}},
            {"ph":"M","name":"thread_name","pid":4294967296,"tid":3,"args":{"name":"Stream 9"}},
            {"ph":"M","name":"thread_sort_index","pid":4294967296,"tid":3,"args":{"sort_index":-4}}
        ])");
        const auto p = load(path);
        QVERIFY(p);
        QVERIFY(findLane(*p, "CANN", "Thread 7"));
        QCOMPARE(findLane(*p, "CANN", "Thread 7")->kind[0], EventKind::HostApi);
        QVERIFY(findLane(*p, "Spans", "main"));
        QVERIFY(findLane(*p, "Process -1", "Thread -1")); // not the CANN pid, although its bits are the same
        const Lane* stream = findLane(*p, "Ascend Hardware", "Stream 9");
        QVERIFY(stream);
        QCOMPARE(stream->info.streamId, int64_t(9));
        QCOMPARE(stream->info.sortIndex, -4);
        QCOMPARE(stream->kind[0], EventKind::Kernel);
    }

    void slicesNestAndBeginEndPair()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("trace_view.json"), R"([
            {"ph":"B","name":"outer","pid":1,"tid":1,"ts":"0","args":{"k":"v"}},
            {"ph":"X","name":"child","pid":1,"tid":1,"ts":"1","dur":2},
            {"ph":"B","name":"inner","pid":1,"tid":1,"ts":"4"},
            {"ph":"E","pid":1,"tid":1,"ts":"6"},
            {"ph":"E","pid":1,"tid":1,"ts":"10"},
            {"ph":"E","pid":1,"tid":1,"ts":"11"},
            {"ph":"B","name":"open","pid":1,"tid":2,"ts":"3"},
            {"ph":"b","name":"async","cat":"c","id":"0x1","pid":1,"tid":3,"ts":"2"},
            {"ph":"e","name":"async","cat":"c","id":"0x1","pid":1,"tid":4,"ts":"9"},
            {"ph":"X","name":"neg","pid":1,"tid":5,"ts":"1","dur":-3},
            {"ph":"i","name":"mark","pid":1,"tid":1,"ts":"5","s":"t"}
        ])");
        const auto p = load(path);
        QVERIFY(p);
        const Lane* t1 = findLane(*p, "Process 1", "Thread 1");
        QVERIFY(t1);
        QCOMPARE(t1->size(), size_t(4));
        const EventRef outer = findEvent(*p, t1, "outer");
        const EventRef inner = findEvent(*p, t1, "inner");
        QCOMPARE(p->endNs(outer) - p->startNs(outer), TimeNs(10000));
        QCOMPARE(p->endNs(inner) - p->startNs(inner), TimeNs(2000));
        QCOMPARE(t1->depthOf(outer.index), 0);
        QCOMPARE(t1->depthOf(findEvent(*p, t1, "child").index), 1);
        QCOMPARE(t1->depthOf(inner.index), 1);
        QCOMPARE(t1->kind[findEvent(*p, t1, "mark").index], EventKind::Instant);
        QCOMPARE(argOf(*p, outer, "k"), std::string("v"));
        // An unclosed B runs to the end of the trace (the last E, 11 µs); a b/e pair by (cat, id) lies
        // on the b's thread.
        const EventRef open = findEvent(*p, findLane(*p, "Process 1", "Thread 2"), "open");
        QCOMPARE(p->endNs(open), TimeNs(11000));
        const EventRef async = findEvent(*p, findLane(*p, "Process 1", "Thread 3"), "async");
        QCOMPARE(p->endNs(async) - p->startNs(async), TimeNs(7000));
        QCOMPARE(findLane(*p, "Process 1", "Thread 5")->durationNs[0], TimeNs(0));
        QVERIFY(anyWarningContains(*p, QStringLiteral("1 slice ends (ph E/e) have no matching begin")));
        QVERIFY(anyWarningContains(*p, QStringLiteral("1 slices (ph B/b) never end")));
        QVERIFY(anyWarningContains(*p, QStringLiteral("1 slices with a negative duration were clamped to 0 (byte ")));
    }

    void flowsMatchByCategoryAndId()
    {
        QTemporaryDir dir;
        // HostToDevice: string id "7" and number 7 are one flow; one start, two finishes.
        // async_npu id 7 is another flow (other category). A finish before its start in the file
        // still links; a finish without start is counted; "t" continues a flow.
        const QString path = writeFile(dir, QStringLiteral("trace_view.json"), R"([
            {"ph":"M","name":"process_name","pid":10,"args":{"name":"CANN"}},
            {"ph":"M","name":"process_name","pid":20,"args":{"name":"Ascend Hardware"}},
            {"ph":"M","name":"process_name","pid":30,"args":{"name":"Python"}},
            {"ph":"X","name":"launch","pid":10,"tid":1,"ts":"100","dur":10,"args":{"connection_id":7}},
            {"ph":"X","name":"MatMul","pid":20,"tid":2,"ts":"120","dur":10,"args":{"Task Type":"AI_CORE","connection_id":7}},
            {"ph":"X","name":"Add","pid":20,"tid":2,"ts":"140","dur":10,"args":{"Task Type":"AI_VECTOR_CORE"}},
            {"ph":"X","name":"aten::mm","pid":30,"tid":1,"ts":"90","dur":30},
            {"ph":"f","cat":"async_npu","id":7,"pid":20,"tid":2,"ts":"120","bp":"e"},
            {"ph":"s","cat":"async_npu","id":7,"pid":30,"tid":1,"ts":"95"},
            {"ph":"s","cat":"HostToDevice","id":"7","pid":10,"tid":1,"ts":"100"},
            {"ph":"f","cat":"HostToDevice","id":7,"pid":20,"tid":2,"ts":"120","bp":"e"},
            {"ph":"f","cat":"HostToDevice","id":"7","pid":20,"tid":2,"ts":"139"},
            {"ph":"f","cat":"HostToDevice","id":"99","pid":20,"tid":2,"ts":"140","bp":"e"},
            {"ph":"s","cat":"fwdbwd","id":"x","pid":30,"tid":1,"ts":"91"},
            {"ph":"t","cat":"fwdbwd","id":"x","pid":20,"tid":2,"ts":"125"},
            {"ph":"f","cat":"fwdbwd","id":"x","pid":20,"tid":2,"ts":"145","bp":"e"},
            {"ph":"s","cat":"lost","id":1,"pid":30,"tid":1,"ts":"500"},
            {"ph":"f","cat":"lost","id":1,"pid":20,"tid":2,"ts":"125","bp":"e"}
        ])");
        const auto p = load(path);
        QVERIFY(p);
        const Lane* hw = findLane(*p, "Ascend Hardware", "Stream 2");
        const EventRef matmul = findEvent(*p, hw, "MatMul");
        const EventRef add = findEvent(*p, hw, "Add");
        const EventRef launch = findEvent(*p, findLane(*p, "CANN", "Thread 1"), "launch");
        const EventRef mm = findEvent(*p, findLane(*p, "Python", "Thread 1"), "aten::mm");
        // H2D: launch→MatMul (bp e), launch→Add ("f" without bp binds to the next slice: Add at 140).
        const auto fromLaunch = p->linksFrom(launch);
        QCOMPARE(fromLaunch.size(), size_t(2));
        QCOMPARE(fromLaunch[0]->to, matmul);
        QCOMPARE(fromLaunch[1]->to, add);
        QCOMPARE(fromLaunch[0]->kind, LinkKind::HostToDevice);
        QCOMPARE(p->strings.view(fromLaunch[0]->categoryId), std::string_view("HostToDevice"));
        // async_npu: finish listed before its start.
        const auto fromMm = p->linksFrom(mm);
        QCOMPARE(fromMm.size(), size_t(2)); // async_npu → MatMul, fwdbwd → MatMul (step)
        QCOMPARE(p->linksTo(matmul).size(), size_t(3));
        QCOMPARE(p->linksTo(add).size(), size_t(2)); // H2D "7" (next slice) and the fwdbwd finish from the step
        QCOMPARE(linksOfKind(*p, LinkKind::OpToDevice), size_t(1));
        // 2 HostToDevice + 1 async_npu + 2 fwdbwd (s→t, t→f); "lost" starts off any slice: no link.
        QCOMPARE(p->stats().flows, uint64_t(5));
        QVERIFY(anyWarningContains(*p, QStringLiteral(": 1 flow events are not on any slice")));
        QVERIFY(anyWarningContains(*p, QStringLiteral(": 1 flow finishes have no flow start")));
    }

    void flowsBindToTiedSlicesInFileOrder()
    {
        // 40 slices with the same start and duration, then the slice enclosing them (written last:
        // the thread's slices are out of order and get a sorted index). A finish without "bp" binds to
        // the first slice starting at or after it: the first tie in the file; with "bp":"e", to the
        // deepest slice containing it: the last tie in the file. So on one thread and on two.
        std::string json = "[{\"ph\":\"X\",\"name\":\"src\",\"pid\":10,\"tid\":1,\"ts\":\"10\",\"dur\":1000}";
        for (int i = 0; i < 40; ++i)
            json += ",{\"ph\":\"X\",\"name\":\"t" + std::to_string(i) +
                    "\",\"pid\":30,\"tid\":1,\"ts\":\"100\",\"dur\":10}";
        json += ",{\"ph\":\"X\",\"name\":\"outer\",\"pid\":30,\"tid\":1,\"ts\":\"50\",\"dur\":200}"
                ",{\"ph\":\"s\",\"cat\":\"c\",\"id\":1,\"pid\":10,\"tid\":1,\"ts\":\"20\"}"
                ",{\"ph\":\"f\",\"cat\":\"c\",\"id\":1,\"pid\":30,\"tid\":1,\"ts\":\"95\"}"
                ",{\"ph\":\"s\",\"cat\":\"c\",\"id\":2,\"pid\":10,\"tid\":1,\"ts\":\"20\"}"
                ",{\"ph\":\"f\",\"cat\":\"c\",\"id\":2,\"pid\":30,\"tid\":1,\"ts\":\"105\",\"bp\":\"e\"}]";
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("trace.json"), json);
        for (const bool threads : {false, true}) {
            const LoadOptions tuning = tuned(1 << 20, threads ? 0 : SIZE_MAX, threads);
            const auto p = load(path, tuning);
            QVERIFY(p);
            const auto out = p->linksFrom(findEvent(*p, findLane(*p, "Process 10", "Thread 1"), "src"));
            QCOMPARE(out.size(), size_t(2));
            std::set<std::string> to;
            for (const Link* l : out)
                to.insert(std::string(p->strings.view(p->lanes[l->to.lane].nameId[l->to.index])));
            QCOMPARE(to, (std::set<std::string>{"t0", "t39"}));
        }
    }

    void flowIdStepsComeFromTheFirstStarts()
    {
        using trace::FlowMatcher;
        const auto counting = [](uint64_t first, size_t n, uint64_t step) {
            std::vector<uint64_t> ids(n);
            for (size_t i = 0; i < n; ++i)
                ids[i] = first + i * step;
            return ids;
        };
        QCOMPARE(FlowMatcher::idShift(counting(1000, 64, 1)), uint8_t(0)); // connection ids
        QCOMPARE(FlowMatcher::idShift(counting(0, 64, 1024)), uint8_t(10));
        QCOMPARE(FlowMatcher::idShift(counting(0, 64, 1023)), uint8_t(9));
        QCOMPARE(FlowMatcher::idShift(counting(5, 64, (uint64_t(1) << 48) - 1)), uint8_t(47));
        QCOMPARE(FlowMatcher::idShift(counting(5, 64, uint64_t(1) << 48)), uint8_t(0)); // no sequence
        QCOMPARE(FlowMatcher::idShift(counting(0, FlowMatcher::kMinSamples, 1024)), uint8_t(10));
        QCOMPARE(FlowMatcher::idShift(counting(0, FlowMatcher::kMinSamples - 1, 1024)), uint8_t(0));
        QCOMPARE(FlowMatcher::idShift(counting(uint64_t(1) << 40, 64, uint64_t(-1024))), uint8_t(0)); // counting down
        // torch_npu's async_npu ids: each op's start in ns, 15-31 µs apart.
        std::mt19937_64 rng(5);
        std::vector<uint64_t> opStarts{1736408883000000500ull};
        while (opStarts.size() < 64)
            opStarts.push_back(opStarts.back() + 15000 + rng() % 16000);
        QCOMPARE(FlowMatcher::idShift(opStarts), uint8_t(14));
        std::vector<uint64_t> random(64);
        for (uint64_t& id : random)
            id = rng();
        QCOMPARE(FlowMatcher::idShift(random), uint8_t(0));
        // A steady count with jumps in a quarter of its steps (less one) keeps its shift; with a quarter, none.
        for (const size_t jumps : {size_t(15), size_t(16)}) {
            std::vector<uint64_t> ids{0};
            for (size_t i = 1; i < 64; ++i)
                ids.push_back(ids.back() + (i % 3 == 0 && i / 3 <= jumps ? (uint64_t(1) << 40) : 1024));
            QCOMPARE(FlowMatcher::idShift(ids), uint8_t(jumps == 15 ? 10 : 0));
        }
    }

    void flowIdsThatShiftTogetherStayDistinctFlows()
    {
        // 80 ops whose async_npu ids step by 20 µs (the category's shift: 14), then 40 more whose ids
        // are 1-3 ns after one of those: the same shifted id, a different flow. Each op links to its
        // own kernel, on one thread and with the flows matched on two.
        // (Built from pieces: moc loses its place in raw strings whose braces do not pair up.)
        const auto event = [](const std::string& fields) { return ",{" + fields + "}"; };
        std::string json =
            "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":20,\"args\":{\"name\":\"Ascend Hardware\"}}" +
            event("\"ph\":\"M\",\"name\":\"process_name\",\"pid\":30,\"args\":{\"name\":\"Python\"}");
        const uint64_t base = 1736408883000000000ull;
        std::vector<uint64_t> ids;
        for (uint64_t i = 0; i < 80; ++i)
            ids.push_back(base + i * 20000);
        for (uint64_t i = 0; i < 40; ++i)
            ids.push_back(base + (i * 7 % 80) * 20000 + 1 + i % 3);
        for (size_t i = 0; i < ids.size(); ++i) {
            const std::string ts = "\"ts\":\"" + std::to_string(1000 + i * 100) + "\"";
            json +=
                event("\"ph\":\"X\",\"name\":\"op" + std::to_string(i) + "\",\"pid\":30,\"tid\":1,\"dur\":50," + ts);
            json += event("\"ph\":\"s\",\"cat\":\"async_npu\",\"id\":" + std::to_string(ids[i]) +
                          ",\"pid\":30,\"tid\":1," + ts);
        }
        for (size_t j = 0; j < ids.size(); ++j) {
            const size_t i = (j * 37) % ids.size(); // finishes in another order
            const std::string ts = "\"ts\":\"" + std::to_string(50000 + i * 100) + "\"";
            json += event("\"ph\":\"X\",\"name\":\"k" + std::to_string(i) +
                          "\",\"pid\":20,\"tid\":2,\"dur\":50,\"args\":{\"Task Type\":\"AI_CORE\"}," + ts);
            json += event("\"ph\":\"f\",\"cat\":\"async_npu\",\"id\":" + std::to_string(ids[i]) +
                          ",\"pid\":20,\"tid\":2,\"bp\":\"e\"," + ts);
        }
        json += "]";
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("trace_view.json"), json);
        for (const bool threads : {false, true}) {
            const LoadOptions tuning = tuned(threads ? 4 << 10 : 1 << 20, threads ? 0 : SIZE_MAX, threads);
            const auto p = load(path, tuning);
            QVERIFY(p);
            QCOMPARE(p->stats().flows, uint64_t(ids.size()));
            const Lane* python = findLane(*p, "Python", "Thread 1");
            QVERIFY(python);
            for (size_t i = 0; i < ids.size(); ++i) {
                const auto out = p->linksFrom(findEvent(*p, python, "op" + std::to_string(i)));
                QCOMPARE(out.size(), size_t(1));
                const Lane& to = p->lanes[out[0]->to.lane];
                QCOMPARE(p->strings.view(to.nameId[out[0]->to.index]), std::string_view("k" + std::to_string(i)));
            }
        }
    }

    void stringsKeepCjkEscapesAndDuplicateKeys()
    {
        QTemporaryDir dir;
        const QString path =
            writeFile(dir, QStringLiteral("trace_view.json"),
                      "[{\"ph\":\"X\",\"name\":\"first\",\"name\":\"\xE7\xAE\x97\xE5\xAD\x90\\u6267\\u884c "
                      "\\ud83d\\ude80 \\\"q\\\"\",\"pid\":1,\"tid\":1,\"ts\":\"1\",\"dur\":1,"
                      "\"args\":{\"\xE5\x90\x8D\":\"\xE5\x80\xBC\\r\\n\xE4\xBA\x8C\",\"n\":1,\"n\":"
                      "18446744073709551616,\"obj\":{\"a\":[1,2]},\"b\":true,\"z\":null}}]");
        const auto p = load(path);
        QVERIFY(p);
        const EventRef e{0, 0};
        QCOMPARE(p->name(e),
                 std::string_view("\xE7\xAE\x97\xE5\xAD\x90\xE6\x89\xA7\xE8\xA1\x8C \xF0\x9F\x9A\x80 \"q\""));
        const std::vector<EventArg> args = p->args(e);
        QCOMPARE(args.size(), size_t(5));
        QCOMPARE(args[0].key, std::string("\xE5\x90\x8D"));
        QCOMPARE(args[0].value, std::string("\xE5\x80\xBC\r\n\xE4\xBA\x8C"));
        QCOMPARE(args[1].key, std::string("n"));
        QCOMPARE(args[1].value, std::string("18446744073709551616")); // the last of the duplicates, every digit
        QCOMPARE(args[2].value, std::string("{\"a\":[1,2]}"));
        QCOMPARE(args[3].value, std::string("true"));
        QCOMPARE(args[4].value, std::string("null"));
    }

    void countersOneSamplePerEvent()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("trace_view.json"), R"J([
            {"ph":"M","name":"process_name","pid":5,"args":{"name":"HBM"}},
            {"ph":"C","name":"HBM 0/Read","pid":5,"tid":0,"ts":"1","args":{"Read(MB/s)":12.5}},
            {"ph":"C","name":"HBM 0/Read","pid":5,"tid":0,"ts":"2","args":{"Read(MB/s)":13}},
            {"ph":"C","name":"pmu","pid":5,"tid":0,"ts":"2","args":{"value":7,"acc_id":0}},
            {"ph":"C","name":"mem","pid":6,"ts":"3","args":{"cats":1,"dogs":2.5,"label":"x"}}
        ])J");
        const auto p = load(path);
        QVERIFY(p);
        const Lane* read = findLane(*p, "HBM", "HBM 0/Read");
        QVERIFY(read);
        QCOMPARE(read->info.kind, LaneKind::Counter);
        QCOMPARE(read->value, (LargeVector<double>{12.5, 13}));
        QCOMPARE(findLane(*p, "HBM", "pmu")->value, LargeVector<double>{7});
        QCOMPARE(findLane(*p, "Process 6", "mem cats")->value, LargeVector<double>{1});
        QCOMPARE(findLane(*p, "Process 6", "mem dogs")->value, LargeVector<double>{2.5});
        QCOMPARE(p->stats().counters, uint64_t(5));
    }

    void problemsThatDoNotStopLoadingAreCountedWarnings()
    {
        QTemporaryDir dir;
        std::string text = "[{\"ph\":\"X\",\"name\":\"ok\",\"pid\":1,\"tid\":1,\"ts\":\"1\",\"dur\":1},"
                           "{\"ph\":\"X\",\"name\":\"no ts\",\"pid\":1,\"tid\":1,\"dur\":1},"
                           "{\"ph\":\"X\",\"name\":\"no ts 2\",\"pid\":1,\"tid\":1},"
                           "{\"ph\":\"Q\",\"name\":\"odd\",\"pid\":1,\"tid\":1,\"ts\":\"2\"},"
                           "{\"ph\":\"s\",\"cat\":\"c\",\"pid\":1,\"tid\":1,\"ts\":\"2\"},"
                           "{\"name\":\"no ph\",\"ts\":\"2\"},"
                           "42,"
                           "{\"ph\":\"X\",\"name\":\"bad \xFF\xFE utf8\",\"pid\":1,\"tid\":1,\"ts\":\"3\",\"dur\":1}]";
        const QString path = writeFile(dir, QStringLiteral("trace_view.json"), text);
        const auto p = load(path);
        QVERIFY(p);
        QCOMPARE(p->stats().events, uint64_t(2));
        QCOMPARE(p->name({0, 1}), std::string_view("bad ?? utf8"));
        const size_t noTsOffset = text.find("{\"ph\":\"X\",\"name\":\"no ts\"");
        QVERIFY2(
            anyWarningContains(*p, QStringLiteral(": 2 events without \"ts\" were skipped (byte %1: ").arg(noTsOffset)),
            qPrintable(p->warnings.join('\n')));
        QVERIFY(anyWarningContains(*p, QStringLiteral("1 events with an unsupported phase were skipped")));
        QVERIFY(anyWarningContains(*p, QStringLiteral("1 flow events without an id were skipped")));
        QVERIFY(anyWarningContains(*p, QStringLiteral("1 events without \"ph\" were skipped")));
        QVERIFY(anyWarningContains(*p, QStringLiteral("1 elements of the events array are not objects")));
        QVERIFY(
            anyWarningContains(*p, QStringLiteral("invalid UTF-8 was replaced by '?' in 1 parts of the file (byte %1")
                                       .arg(text.find('\xFF'))));
    }

    void brokenFilesGiveOneClearError_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        const QByteArray good =
            R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1","dur":1},{"ph":"X","name":"b","pid":1,"tid":1,"ts":"2","dur":1}])";
        QTest::newRow("truncated")
            << "trace_view.json" << good.left(good.size() - 20)
            << QStringLiteral("malformed JSON at byte %1: unexpected end of data").arg(good.size() - 20);
        QTest::newRow("truncated after an event")
            << "trace_view.json" << good.left(good.indexOf("},{") + 2)
            << QStringLiteral("at byte %1: unexpected end of data").arg(good.indexOf("},{") + 2);
        QTest::newRow("syntax error") << "trace_view.json" << QByteArray(R"([{"ph":"X","name":"a" "pid":1}])")
                                      << QStringLiteral("malformed JSON at byte 22: expected ',' or '}'");
        QTest::newRow("not json") << "trace_view.json" << QByteArray("PK\x03\x04 zip data")
                                  << QStringLiteral("not JSON: byte 0 is neither");
        QTest::newRow("json, not a trace (object)")
            << "x.trace.json" << QByteArray(R"({"schemaVersion":1,"foo":[1,2]})")
            << QStringLiteral("no \"traceEvents\" array");
        QTest::newRow("json, not a trace (array)") << "trace_view.json" << QByteArray(R"([1, {"a": 2}, "x"])")
                                                   << QStringLiteral("none of its 3 array elements is a trace event");
        QTest::newRow("traceEvents not an array") << "x.trace.json" << QByteArray(R"({"traceEvents": {"a": 1}})")
                                                  << QStringLiteral("\"traceEvents\" is not an array");
        QTest::newRow("empty array") << "trace_view.json" << QByteArray("[]") << QStringLiteral("no timed events");
        QTest::newRow("empty file") << "trace_view.json" << QByteArray("   ") << QStringLiteral("the file is empty");
        const std::string gz = gzipped(good.toStdString());
        QTest::newRow("gzip truncated") << "x.trace.json.gz" << QByteArray(gz.data(), int(gz.size() - 9))
                                        << QStringLiteral("the compressed file is damaged (truncated gzip data");
        std::string corrupt = gz;
        for (size_t i = 12; i < 24 && i < corrupt.size(); ++i)
            corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5A);
        QTest::newRow("gzip corrupt") << "x.trace.json.gz" << QByteArray(corrupt.data(), int(corrupt.size()))
                                      << QStringLiteral(
                                             "the compressed file is damaged (corrupt gzip data at compressed byte");
    }

    void brokenFilesGiveOneClearError()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = writeFile(dir, name, content.toStdString());
        QString error;
        QVERIFY(!load(path, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY2(error.startsWith(path) || error.contains(path), qPrintable(error));
        QVERIFY(!error.contains('\n'));
    }

    void gzipIsTransparent()
    {
        QTemporaryDir dir;
        const std::string text = R"({"traceEvents":[{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":5,"dur":2,
            "args":{"device":0,"stream":7,"correlation":3}}],"distributedInfo":{"rank":3}})";
        const auto plain = load(writeFile(dir, QStringLiteral("a.trace.json"), text));
        // Two gzip members back to back are one stream (concatenated .gz).
        const std::string half = text.substr(0, 40);
        const auto gz =
            load(writeFile(dir, QStringLiteral("a.trace.json.gz"), gzipped(half) + gzipped(text.substr(40))));
        QVERIFY(plain && gz);
        QCOMPARE(fingerprint(*gz), fingerprint(*plain));
        QCOMPARE(gz->ranks[0].rankNumber, 3);
        QCOMPARE(gz->lanes[0].corrId[0], int64_t(3));
    }

    void kinetoRankFromTheFileName()
    {
        QTemporaryDir dir;
        const std::string text =
            R"({"traceEvents":[{"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":5,"dur":2}]})";
        QCOMPARE(load(writeFile(dir, QStringLiteral("1745-TP-3-DP-1.trace.json"), text))->ranks[0].rankNumber, 3);
        QCOMPARE(load(writeFile(dir, QStringLiteral("worker_rank5.trace.json"), text))->ranks[0].rankNumber, 5);
        QCOMPARE(load(writeFile(dir, QStringLiteral("plain.trace.json"), text))->ranks[0].rankNumber, 0);
    }

    void runningOutOfMemoryDropsOnlyThatFile()
    {
        // Two traces of one rank in a folder (their lanes are the same lanes); the second runs out of
        // memory with its slices placed (injected): an error naming it, nothing of it kept (not its
        // events in the shared lanes, nor its links, nor a lane of its own), and the first as alone.
        const auto trace = [](const std::string& op, const std::string& extraThread) {
            return "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" + op +
                   "\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":9},"
                   "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
                   "\"ts\":6,\"dur\":2,\"args\":{\"correlation\":7}},"
                   "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k_" +
                   op +
                   "\",\"pid\":0,\"tid\":7,\"ts\":20,\"dur\":3,\"args\":{\"stream\":7,\"correlation\":7}},"
                   "{\"ph\":\"s\",\"cat\":\"ac2g\",\"id\":7,\"pid\":1,\"tid\":1,\"ts\":6},"
                   "{\"ph\":\"f\",\"cat\":\"ac2g\",\"id\":7,\"pid\":0,\"tid\":7,\"ts\":20,\"bp\":\"e\"},"
                   "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"x\",\"pid\":1,\"tid\":" +
                   extraThread + ",\"ts\":1,\"dur\":1}]}";
        };
        QTemporaryDir alone, both;
        writeFile(alone, QStringLiteral("first.trace.json"), trace("a", "1"));
        writeFile(both, QStringLiteral("first.trace.json"), trace("a", "1"));
        writeFile(both, QStringLiteral("second.trace.json"), trace("b", "99"));
        const auto reference = load(alone.path());
        QVERIFY(reference);
        QCOMPARE(reference->links.size(), size_t(1));
        {
            const LoadOptions tuning = tuned(1 << 20, 1 << 20, true);
            QVERIFY(load(both.path(), tuning)->stats().events > reference->stats().events); // (both load)
            std::atomic<int> failAfter{1};
            LoadOptions failing = tuning;
            failing.trace.failBuildAfter = &failAfter;
            const auto p = load(both.path(), failing);
            QVERIFY(p);
            QCOMPARE(failAfter.load(), -1); // the second build did throw
            QCOMPARE(fingerprint(*p), fingerprint(*reference));
            QCOMPARE(p->ranks.size(), reference->ranks.size());
            const QString warnings = p->warnings.join(QStringLiteral("\n"));
            QVERIFY2(warnings.contains(QStringLiteral("second.trace.json: not enough memory")), qPrintable(warnings));
            // Alone, the failing file is the load's error.
            failAfter = 0;
            QString error;
            QVERIFY(!load(both.filePath(QStringLiteral("second.trace.json")), failing, &error));
            QVERIFY2(error.contains(QStringLiteral("second.trace.json: not enough memory")), qPrintable(error));
        }
    }

    // ---------------------------------------------------------------- chunks and threads
    void chunkCutsAndThreadSplitsNeverChangeTheResult()
    {
        // Events whose strings and nested args contain "},{" (false cut candidates), a giant event,
        // and many small ones: loaded whole, then with 64-byte chunks and a thread split at every size.
        std::string text = "[";
        for (int i = 0; i < 400; ++i) {
            if (i)
                text += i % 3 ? ",\n" : " , ";
            const std::string ts = std::to_string(1000 + i * 10);
            // (Plain literals: moc does not follow raw strings with quotes in them.)
            const std::string id = std::to_string(i);
            const std::string before = std::to_string(1000 + (i - 2) * 10);
            switch (i % 5) {
            case 0:
                text += "{\"ph\":\"X\",\"name\":\"s},{x\",\"pid\":1,\"tid\":1,\"ts\":\"" + ts +
                        "\",\"dur\":5,\"args\":{\"list\":[{\"a\":1},{\"b\":\"},{\"}],\"t\":\"\\\"},{\\\"\"}}";
                break;
            case 1:
                text += "{\"ph\":\"X\",\"name\":\"k" + id + "\",\"pid\":2,\"tid\":3,\"ts\":\"" + ts +
                        "\",\"dur\":2,\"args\":{\"Task Type\":\"AI_CORE\",\"connection_id\":" + id + "}}";
                break;
            case 2:
                text += "{\"ph\":\"s\",\"cat\":\"HostToDevice\",\"id\":\"" + std::to_string(i + 1) +
                        "\",\"pid\":1,\"tid\":1,\"ts\":\"" + before + "\"}";
                break;
            case 3:
                text += "{\"ph\":\"f\",\"cat\":\"HostToDevice\",\"id\":" + id + ",\"pid\":2,\"tid\":3,\"ts\":\"" +
                        before + "\",\"bp\":\"e\"}";
                break;
            default:
                text += "{\"ph\":\"C\",\"name\":\"c\",\"pid\":9,\"ts\":\"" + ts + "\",\"args\":{\"value\":" + id + "}}";
            }
        }
        text +=
            ",{\"ph\":\"X\",\"name\":\"giant\",\"pid\":1,\"tid\":1,\"ts\":\"1\",\"dur\":9000,\"args\":{\"blob\":\"" +
            std::string(5000, 'x') + "\"}}]   ";
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("trace_view.json"), text);
        const auto reference = load(path);
        QVERIFY(reference);
        QCOMPARE(reference->stats().flows, uint64_t(80));
        QCOMPARE(reference->stats().counters, uint64_t(80));
        const std::string expected = fingerprint(*reference);
        for (size_t chunk : {size_t(16), size_t(64), size_t(333), size_t(4096)}) {
            const LoadOptions tuning = tuned(chunk, 0, true);
            const auto p = load(path, tuning);
            QVERIFY(p);
            QCOMPARE(fingerprint(*p), expected);
            QCOMPARE(p->args({0, 0}).size(), reference->args({0, 0}).size());
        }
        for (size_t split : {size_t(0), size_t(100)}) {
            const LoadOptions tuning = tuned(1 << 20, split, true);
            QCOMPARE(fingerprint(*load(path, tuning)), expected);
        }
        // Many parts, each a third of what is left or a fixed size: planned part boundaries land in
        // strings, in nested args and inside the giant event.
        for (size_t partBytes : {size_t(1), size_t(97), size_t(1000), size_t(4000)}) {
            const auto p = loadInParts(path, partBytes, true);
            QVERIFY(p);
            QCOMPARE(fingerprint(*p), expected);
        }
    }

    void flowsAcrossPartsMatchAsInOneRun()
    {
        // Flow points, each on a slice of its own, with filler events between them so that small
        // parts cut between any two: starts, reused ids, steps, finishes before their start, a finish
        // without one, string ids. Each part is matched on its own and the waiting points after; the
        // links must be those of one matcher fed the whole file in order, however the file is split.
        const char* points[][2] = {{"s", "1"},     {"s", "2"}, {"f", "1"},     {"f", "2"},     {"s", "2"}, {"f", "2"},
                                   {"s", "3"},     {"t", "3"}, {"t", "3"},     {"f", "3"},     {"f", "4"}, {"s", "4"},
                                   {"f", "5"},     {"s", "5"}, {"t", "5"},     {"s", "6"},     {"f", "6"}, {"f", "6"},
                                   {"f", "6"},     {"f", "7"}, {"s", "\"a\""}, {"f", "\"a\""}, {"t", "8"}, {"f", "8"},
                                   {"s", "8"},     {"s", "9"}, {"t", "9"},     {"f", "9"},     {"s", "9"}, {"f", "9"},
                                   {"f", "\"a\""}, {"t", "5"}, {"f", "5"}};
        std::string text = "[";
        for (size_t i = 0; i < std::size(points); ++i) {
            const std::string ts = std::to_string(1000 + i * 100);
            const std::string tid = std::to_string(100 + i);
            for (int k = 0; k < 4; ++k)
                text += "{\"ph\":\"X\",\"name\":\"fill\",\"pid\":1,\"tid\":1,\"ts\":\"" +
                        std::to_string(1000 + i * 100 + k * 10) + "\",\"dur\":1},\n";
            text += "{\"ph\":\"X\",\"name\":\"p" + std::to_string(i) + "\",\"pid\":1,\"tid\":" + tid + ",\"ts\":\"" +
                    ts + "\",\"dur\":10},\n";
            text += "{\"ph\":\"" + std::string(points[i][0]) + "\",\"cat\":\"c\",\"id\":" + points[i][1] +
                    ",\"pid\":1,\"tid\":" + tid + ",\"ts\":\"" + std::to_string(1000 + i * 100 + 1) + "\"" +
                    (points[i][0][0] == 'f' ? ",\"bp\":\"e\"" : "") + "}" + (i + 1 < std::size(points) ? ",\n" : "");
        }
        text += "]";
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("trace_view.json"), text);
        const auto linksOf = [](const Profile& p) {
            std::vector<std::string> out;
            for (const Link& l : p.links)
                out.push_back(std::string(p.name(l.from)) + ">" + std::string(p.name(l.to)));
            std::sort(out.begin(), out.end());
            return out;
        };
        std::vector<std::string> expected = {"p0>p2",   "p1>p3",   "p4>p5",   "p6>p7",   "p7>p8",   "p8>p9",
                                             "p11>p10", "p31>p12", "p13>p14", "p15>p16", "p15>p17", "p15>p18",
                                             "p20>p21", "p24>p22", "p24>p23", "p25>p26", "p26>p27", "p28>p29",
                                             "p20>p30", "p14>p31", "p31>p32"};
        std::sort(expected.begin(), expected.end());
        const auto reference = load(path);
        QVERIFY(reference);
        QCOMPARE(linksOf(*reference), expected);
        QVERIFY(anyWarningContains(*reference, QStringLiteral("1 flow finishes have no flow start")));
        const std::string whole = fingerprint(*reference);
        for (bool threads : {false, true})
            for (size_t partBytes : {size_t(1), size_t(97), size_t(700), size_t(3000)}) {
                const auto p = loadInParts(path, partBytes, threads);
                QVERIFY(p);
                QCOMPARE(linksOf(*p), expected);
                QCOMPARE(fingerprint(*p), whole);
                QVERIFY(anyWarningContains(*p, QStringLiteral("1 flow finishes have no flow start")));
            }
    }

    void cutsFoundInTheReadBufferAreTheMappingsCuts()
    {
        // Elements of 2 bytes to 150 KB, with whitespace runs of up to 40 KB around their commas and
        // false candidates ("},{" in strings): for many starts, targets and buffer sizes, the cut
        // found in what was read is the one findElementBoundary finds in the whole text, and the bytes
        // read are the text's, read through a file or copied.
        std::mt19937 rng(7);
        std::string text = "[";
        for (int i = 0; text.size() < 3000000; ++i) {
            const int shape = int(rng() % 10);
            const size_t blob = shape == 0 ? rng() % 150000 : rng() % 300;
            text += "{\"i\":" + std::to_string(i) + ",\"s\":\"" + std::string(blob, 'x') + "},{\"}";
            text += std::string(shape == 1 ? rng() % 40000 : rng() % 3, ' ');
            text += ',';
            text += std::string(shape == 2 ? rng() % 40000 : rng() % 3, '\n');
        }
        text += "{}]";
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("cuts.json"), text);
        const int fd = ::open(path.toLocal8Bit().constData(), O_RDONLY);
        QVERIFY(fd >= 0);
        std::vector<char> to(1 << 20);
        int found = 0, beyondRoom = 0;
        for (int trial = 0; trial < 3000; ++trial) {
            const size_t pos = rng() % text.size();
            const size_t target = pos + rng() % 70000;
            const size_t limit = std::min(text.size(), target + rng() % 400000);
            const size_t room = trial % 3 == 0 ? 1 + rng() % 5000 : 1 + rng() % to.size();
            const int useFd = trial % 2 ? fd : -1;
            size_t loaded = 0, closeEnd = 0, nextStart = 0, wantClose = 0, wantNext = 0;
            const bool inBuffer = trace::loadToElementBoundary(text.data(), useFd, pos, target, limit, to.data(), room,
                                                               loaded, closeEnd, nextStart);
            const bool exists = target >= pos && target < limit &&
                                trace::findElementBoundary(text.data(), target, limit, wantClose, wantNext);
            QVERIFY(loaded <= room && pos + loaded <= limit);
            QVERIFY(std::equal(to.begin(), to.begin() + ptrdiff_t(loaded), text.begin() + ptrdiff_t(pos)));
            if (inBuffer) {
                ++found;
                QVERIFY(exists);
                QCOMPARE(closeEnd, wantClose);
                QCOMPARE(nextStart, wantNext);
                QVERIFY(nextStart < pos + loaded);
            } else if (exists) {
                ++beyondRoom; // the boundary's '{' was not within room bytes
                QCOMPARE(loaded, room);
                QVERIFY(wantNext >= pos + room);
            }
        }
        ::close(fd);
        QVERIFY(found > 1000);
        QVERIFY(beyondRoom > 50);
    }

    void theParserIsSizedOnceForTheChunkBuffer()
    {
        // Elements of varied length: chunks of varied length, many longer than the first.
        std::string json = "[";
        for (int i = 0; i < 400; ++i)
            json += (i ? "," : "") + std::string("{\"ph\":\"X\",\"name\":\"") + std::string(size_t(i * 7 % 300), 'a') +
                    "\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}";
        json += "]";
        trace::TraceIngest::Options options;
        options.chunkBytes = 4096;
        trace::TraceIngest ingest(json.data(), json.size(), options);
        size_t chunks = 0;
        const trace::TraceIngest::Result r = ingest.run(1, SIZE_MAX, [&](size_t) { return ++chunks > 0; });
        QCOMPARE(int(r.stop), int(trace::TraceIngest::Stop::ArrayEnd));
        QVERIFY2(chunks >= 15, qPrintable(QString::number(chunks)));
        QCOMPARE(ingest.slices.size(), size_t(400));
        QVERIFY(ingest.bufferBytes() > options.chunkBytes);
        QCOMPARE(ingest.parserCapacity(), ingest.bufferBytes());
    }

    void oneAndTwoThreadsBuildTheSameRealProfile()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString path = test::realData(QStringLiteral("ascend/torch_npu_text_rank0_ascend_pt"));
        const auto one = [&] { return load(path, tuned(1 << 20, SIZE_MAX, false)); }();
        const LoadOptions tuning = tuned(4096, 0, true);
        const auto two = load(path, tuning);
        QVERIFY(one && two);
        QCOMPARE(two->stats().flows, uint64_t(611));
        QCOMPARE(fingerprint(*two), fingerprint(*one));
    }

    void manyPartsReportProgressInOrderAndCancelStopsThemAll()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("trace_view.json"));
        bench::TraceViewGenerator::write(path.toStdString(), 3u << 20, 11);
        LoadOptions tuning = tuned(16 << 10, 0, true);
        tuning.trace.minPartBytes = 128 << 10;
        QStringList phases;
        double last = -1;
        bool monotonic = true;
        std::atomic<bool> cancel{false};
        const LoadProgress progress(
            [&](double f, const QString& phase) {
                monotonic = monotonic && f >= last - 1e-9;
                last = f;
                if (!phase.isEmpty() && (phases.isEmpty() || phases.back() != phase))
                    phases << phase;
            },
            &cancel);
        const LoadOutcome ok = loadProfile(path.toStdString(), progress, tuning);
        QVERIFY2(ok.profile, qPrintable(ok.error));
        QVERIFY(monotonic);
        QCOMPARE(last, 1.0);
        QVERIFY2(phases.contains(QStringLiteral("Reading events")), qPrintable(phases.join('|')));
        QVERIFY2(phases.indexOf(QStringLiteral("Reading events")) < phases.indexOf(QStringLiteral("Building lanes")),
                 qPrintable(phases.join('|')));

        // Cancelled a third of the way through the events: every part stops, nothing is returned.
        std::atomic<bool> stop{false};
        double furthest = 0; // the furthest progress reported after the cancel
        const LoadProgress cancelling(
            [&](double f, const QString& phase) {
                if (stop)
                    furthest = std::max(furthest, f);
                if (phase == QLatin1String("Reading events") && f > 0.3)
                    stop = true;
            },
            &stop);
        const LoadOutcome cancelled = loadProfile(path.toStdString(), cancelling, tuning);
        QVERIFY(stop.load());
        QVERIFY2(furthest < 0.4, qPrintable(QString::number(furthest))); // reading stopped within a chunk or two
        QVERIFY(!cancelled.profile);
        QCOMPARE(cancelled.error, QStringLiteral("Loading cancelled"));
    }

    void generatedTraceViewLoadsWithTheGeneratorsFigures()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("trace_view.json"));
        const bench::TraceViewCounts c = bench::TraceViewGenerator::write(path.toStdString(), 3u << 20, 7);
        QVERIFY(c.bytes > (3u << 20) - 8192);
        const auto single = [&] { return load(path, tuned(1 << 20, SIZE_MAX, false)); }();
        QVERIFY(single);
        const ProfileStats s = single->stats();
        QCOMPARE(s.events - s.counters, c.completeEvents);
        QCOMPARE(s.counters, c.counterSamples);
        QCOMPARE(s.flows, c.flowFinishes);
        QCOMPARE(s.deviceTasks, c.deviceTasks);
        QCOMPARE(s.namedKernels, c.kernels);
        QCOMPARE(s.commOps, c.commOps);
        QCOMPARE(s.commTasks, c.commTasks);
        QCOMPARE(s.hostEvents, c.hostEvents);
        QCOMPARE(linksOfKind(*single, LinkKind::CommOpToTask), size_t(c.commTasks));
        QVERIFY2(single->warnings.isEmpty(), qPrintable(single->warnings.join('\n')));
        // Two threads and small chunks give the same profile.
        const LoadOptions tuning = tuned(64 << 10, 0, true);
        const auto split = load(path, tuning);
        QVERIFY(split);
        QCOMPARE(fingerprint(*split), fingerprint(*single));
        // And so does the gzip of the same file.
        const QString gz = writeFile(dir, QStringLiteral("x.trace.json.gz"), gzipped(readAll(path)));
        const auto fromGz = load(gz, tuning);
        QVERIFY(fromGz);
        QCOMPARE(fromGz->stats().flows, s.flows);
        QCOMPARE(fromGz->stats().events, s.events);
    }
};

QTEST_GUILESS_MAIN(TestChromeTrace)
#include "tst_chrome_trace.moc"
