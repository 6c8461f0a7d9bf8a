// The demo read back through the viewer's real loaders (ProfileLoader → MsprofDbLoader /
// ChromeTraceLoader / StepRecordLoader): every lane, event kind, link and record the simulator wrote
// is found, no more and no less.
#include "DemoTestSupport.h"
#include "TestSupport.h"

#include "io/ProfileLoader.h"
#include "steps/StepRecords.h"

#include <QTest>

#include <map>

using namespace dspark;
using namespace dspark::test;
using nlohmann::json;

namespace {

struct KindCounts {
    std::map<EventKind, int64_t> byKind;
    std::map<int64_t, int64_t> npuStreamEvents; // stream id → events
    std::map<std::string, int64_t> hostLanes;   // "process/name" → events
    std::map<LinkKind, int64_t> links;
    int64_t commLaneEvents = 0;
};

KindCounts countProfile(const Profile& p)
{
    KindCounts k;
    for (const Lane& lane : p.lanes) {
        for (EventKind kind : lane.kind)
            ++k.byKind[kind];
        if (lane.info.kind == LaneKind::NpuStream)
            k.npuStreamEvents[lane.info.streamId] += static_cast<int64_t>(lane.size());
        else if (lane.info.kind == LaneKind::Host)
            k.hostLanes[lane.info.process + "/" + lane.info.name] += static_cast<int64_t>(lane.size());
        else if (lane.info.kind == LaneKind::Comm)
            k.commLaneEvents += static_cast<int64_t>(lane.size());
    }
    for (const Link& l : p.links)
        ++k.links[l.kind];
    return k;
}

} // namespace

class TestDemoLoaders : public QObject {
    Q_OBJECT
    WrittenDemo m_demo;
    const json& counts() const { return m_demo.truth["counts"]; }
    int64_t count(const char* key) const { return counts()[key].get<int64_t>(); }

private Q_SLOTS:
    void initTestCase()
    {
        m_demo = writeTestDemo(24, 7, 1, true);
        QVERIFY2(m_demo.result.error.isEmpty(), qPrintable(m_demo.result.error));
    }

    void theDatabaseLoadsWithEveryTaskOnItsStreamLane()
    {
        const LoadOutcome out = loadProfile(m_demo.dir.toStdString());
        QVERIFY2(out.profile, qPrintable(out.error));
        const Profile& p = *out.profile;
        const KindCounts k = countProfile(p);
        // The db is the run's timeline; trace_view.json of the same run is found and not loaded.
        int loadedDb = 0, skippedTrace = 0;
        for (const SourceFile& f : p.files) {
            if (f.format == "torch_npu_db")
                loadedDb += f.loaded;
            if (f.format == "trace_view_json")
                skippedTrace += !f.loaded;
        }
        QCOMPARE(loadedDb, 1);
        QCOMPARE(skippedTrace, 1);
        QCOMPARE(int(p.ranks.size()), 1);

        std::map<int64_t, int64_t> expected;
        for (const auto& [stream, n] : counts()["tasks_by_stream"].items())
            expected[std::stoll(stream)] = n.get<int64_t>();
        QCOMPARE(k.npuStreamEvents, expected);

        const ProfileStats s = p.stats();
        QCOMPARE(int64_t(s.deviceTasks), count("tasks"));
        QCOMPARE(int64_t(s.namedKernels), count("compute_tasks"));
        QCOMPARE(k.byKind.at(EventKind::Kernel), count("compute_tasks"));
        QCOMPARE(k.byKind.at(EventKind::EventRecord), count("event_records"));
        QCOMPARE(k.byKind.at(EventKind::EventWait), count("event_waits"));
        QCOMPARE(k.byKind.at(EventKind::Memcpy), count("memcpy"));
        QCOMPARE(k.byKind.at(EventKind::CommTask), count("hccl_tasks"));
        QCOMPARE(k.byKind.at(EventKind::CommOp), count("comm_ops"));
        QCOMPARE(int64_t(s.commOps), count("comm_ops"));
        QCOMPARE(int64_t(s.commTasks), count("hccl_tasks"));

        const std::string thread = "Thread " + std::to_string(demo::names::Pid);
        QCOMPARE(k.hostLanes.at("Python/" + thread), count("pytorch_api"));
        QCOMPARE(k.hostLanes.at("CANN/" + thread), count("cann_api"));
        QCOMPARE(k.byKind.at(EventKind::HostApi), count("cann_api"));

        QCOMPARE(k.links.at(LinkKind::HostToDevice), count("host_to_device_links"));
        QCOMPARE(k.links.at(LinkKind::OpToDevice), count("op_to_device_links"));
        QCOMPARE(k.links.at(LinkKind::CommOpToTask), count("hccl_tasks"));
        QCOMPARE(int64_t(s.hostToDevice), count("host_to_device_links"));
        QCOMPARE(int64_t(s.flows), count("host_to_device_links") + count("op_to_device_links"));

        // Run metadata, including SGLang's start_step, and the step records of server_info.json.
        QCOMPARE(p.metadata.at("profiler_metadata.start_step"), std::string("1200"));
        QCOMPARE(p.metadata.at("profiler_metadata.server_args.deepep_mode"), std::string("auto"));
        QCOMPARE(p.metadata.at("profiler_info.rank_id"), std::string("0"));
        QVERIFY(p.stepRecords != nullptr);
    }

    void namedKernelsAndTheGraphReplayAreWhereTheSimulatorPutThem()
    {
        const LoadOutcome out = loadProfile(m_demo.dir.toStdString());
        QVERIFY2(out.profile, qPrintable(out.error));
        const Profile& p = *out.profile;
        std::map<std::string, int64_t> kernels;
        int64_t replayTargets = -1;
        for (uint32_t li = 0; li < p.lanes.size(); ++li) {
            const Lane& lane = p.lanes[li];
            for (uint32_t i = 0; i < lane.size(); ++i) {
                if (lane.kind[i] == EventKind::Kernel)
                    ++kernels[std::string(p.strings.view(lane.nameId[i]))];
                if (lane.info.kind == LaneKind::Host &&
                    p.strings.view(lane.nameId[i]).ends_with("aclmdlRIExecuteAsync") && replayTargets < 0)
                    replayTargets = static_cast<int64_t>(p.linksFrom({li, i}).size());
            }
        }
        const auto expectedKernels = counts()["kernels_by_name"].get<std::map<std::string, int64_t>>();
        QCOMPARE(kernels, expectedKernels);
        QVERIFY2(replayTargets > 1500, qPrintable(QString::number(replayTargets))); // one launch → the 61-layer graph
        // The window of the first step holds its STEP_TIME / run_batch span.
        const json& first = m_demo.truth["steps"][0];
        QVERIFY(p.firstNs() <= first["window"]["start_ns"].get<int64_t>());
        QVERIFY(p.lastNs() >= m_demo.truth["steps"][23]["stages"]["publish"]["end_ns"].get<int64_t>());
    }

    void stepRecordsLoadAndAlignToTheirIterationsByStartStep()
    {
        const LoadOutcome out = loadProfile(m_demo.dir.toStdString());
        QVERIFY2(out.profile, qPrintable(out.error));
        const Profile& p = *out.profile;
        QVERIFY(p.stepRecords);
        const StepRecordSet& set = *p.stepRecords;
        QCOMPARE(set.ranks.size(), size_t(1));
        const RankStepRecords& rank = set.ranks[0];
        QCOMPARE(rank.envelope.gamma, std::optional<int64_t>(3));
        std::vector<int64_t> cts;
        for (const StepRecord& r : rank.records)
            cts.push_back(r.forwardCt);
        QCOMPARE(cts, m_demo.truth["run"]["records_forward_ct"].get<std::vector<int64_t>>());

        std::map<int64_t, const json*> truthByCt;
        for (const json& s : m_demo.truth["steps"])
            truthByCt[s["forward_ct"].get<int64_t>()] = &s;
        const StepAlignment& a = set.alignment;
        QCOMPARE(a.method, StepAlignMethod::StepSpans);
        QCOMPARE(a.anchor, std::string("start_step"));
        QCOMPARE(a.startStep, std::optional<int64_t>(1200));
        QCOMPARE(a.mismatched, size_t(0));
        QCOMPARE(a.outside, size_t(6));
        QCOMPARE(a.agreement, std::optional<double>(1.0));
        QCOMPARE(a.rows.size(), set.rows.size());
        int matched = 0;
        for (size_t i = 0; i < set.rows.size(); ++i) {
            const StepRecord& r = set.record(i);
            const StepAlignmentRow& row = a.rows[i];
            auto t = truthByCt.find(r.forwardCt);
            if (t == truthByCt.end()) {
                QCOMPARE(row.status, StepMatch::OutsideTrace);
                continue;
            }
            QCOMPARE(row.status, StepMatch::Match);
            // The matched host window starts at the iteration's scheduler.run_batch: the ground truth window.
            QCOMPARE(row.hostStartNs, (*t->second)["window"]["start_ns"].get<int64_t>());
            QCOMPARE(r.stepGpuMs, std::optional<double>((*t->second)["gpu_ms"]["step"].get<double>()));
            ++matched;
        }
        QCOMPARE(matched, 23);
    }

    void theTraceJsonLoadsToTheSameDeviceTimeline()
    {
        const LoadOutcome out = loadProfile(m_demo.tracePath().toStdString());
        QVERIFY2(out.profile, qPrintable(out.error));
        const Profile& p = *out.profile;
        const KindCounts k = countProfile(p);
        std::map<int64_t, int64_t> expected;
        for (const auto& [stream, n] : counts()["tasks_by_stream"].items())
            expected[std::stoll(stream)] = n.get<int64_t>();
        QCOMPARE(k.npuStreamEvents, expected);
        QCOMPARE(k.byKind.at(EventKind::Kernel), count("compute_tasks"));
        QCOMPARE(k.byKind.at(EventKind::EventRecord), count("event_records"));
        QCOMPARE(k.byKind.at(EventKind::EventWait), count("event_waits"));
        QCOMPARE(k.byKind.at(EventKind::CommOp), count("comm_ops"));
        const std::string thread = "Thread " + std::to_string(demo::names::Pid);
        QCOMPARE(k.hostLanes.at("Python/" + thread), count("pytorch_api"));
        QCOMPARE(k.hostLanes.at("CANN/" + thread), count("cann_api"));
        QCOMPARE(k.links.at(LinkKind::HostToDevice), count("host_to_device_links"));
        QCOMPARE(k.links.at(LinkKind::OpToDevice), count("op_to_device_links"));
        // Both exports of the run share the clock: the same first and last device task.
        const LoadOutcome db = loadProfile(m_demo.dbPath().toStdString());
        QVERIFY2(db.profile, qPrintable(db.error));
        TimeNs firstJson = INT64_MAX, firstDb = INT64_MAX;
        for (const Lane& l : p.lanes)
            if (l.info.kind == LaneKind::NpuStream && !l.empty())
                firstJson = std::min(firstJson, l.firstNs());
        for (const Lane& l : db.profile->lanes)
            if (l.info.kind == LaneKind::NpuStream && !l.empty())
                firstDb = std::min(firstDb, l.firstNs());
        QCOMPARE(firstJson, firstDb);
    }
};

QTEST_GUILESS_MAIN(TestDemoLoaders)
#include "tst_demo_loaders.moc"
