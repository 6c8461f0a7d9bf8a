// The analyses over torch_npu databases written by the tests' own builder (TorchDbBuilder.h), shaped
// differently from the demo: host and device at the same pace (launches a few µs ahead, or just late),
// the task queue on and off, back-to-back and idle streams, blocked and unblocked waits, accept /
// commit spans whose kernels have no rule names. Every expected figure is worked out below by hand;
// times are µs from the builder's base (the window is [0, 1000) µs unless said otherwise).
#include "analysis/StepAnalysis.h"
#include "io/ProfileLoader.h"

#include "HandBuiltStep.h"
#include "TestSupport.h"
#include "TorchDbBuilder.h"

#include <QTemporaryDir>
#include <QTest>

using namespace dspark;
using test::TorchDbBuilder;

namespace {

constexpr TimeNs us(double v)
{
    return static_cast<TimeNs>(v * 1000.0);
}

constexpr int64_t kPy = 100;    // the Python thread (spans, framework ops, syncs)
constexpr int64_t kQueue = 200; // the task-queue thread (runtime calls with TASK_QUEUE_ENABLE=1)

struct Loaded {
    std::shared_ptr<Profile> profile;
    QString error;
};

// Writes the database under a name no convention knows and loads it through the real loader.
Loaded writeAndLoad(const TorchDbBuilder& b, const QTemporaryDir& dir)
{
    const QString path = dir.filePath(QStringLiteral("handmade_step.db"));
    if (QString e = b.write(path); !e.isEmpty())
        return {nullptr, e};
    LoadOutcome out = loadProfile(path.toStdString());
    return {out.profile, out.error};
}

StepWindow windowOf(const Profile& p, TimeNs startUs, TimeNs endUs)
{
    StepWindow w;
    w.rankIndex = 0;
    w.startNs = TorchDbBuilder::kBase + startUs;
    w.endNs = TorchDbBuilder::kBase + endUs;
    (void)p;
    return w;
}

TimeNs rel(TimeNs t)
{
    return t - TorchDbBuilder::kBase;
}

// The step of sameHostAndDevicePace: one compute stream (2) running back to back (1 µs stream gap)
// while the host issues each launch a few µs ahead of the device, or just after the stream went idle.
//
//   task  launch call    device          cause (call end vs the predecessor's end)
//   D1    [40,45)        [50,130)        first task: launch-bound, host from the window start
//   D2    [126,129)      [131,211)       129 < 130: queued, the stream (1 µs idle)
//   D3    [209,212)      [212,292)       212 > 211: launch-bound by a hair (lead 0): 1 µs host gap
//   V1,V2 replay [310,330) [335,455) [456,600)  V1: 330 > 292, the pre-replay gap: 43 µs host gap
//   A1    [562,565)      [601,631)       565 < 600: queued (accept span, no accept-rule name)
//   A2    [568,571)      [632,662)       queued
//   C1    [642,645)      [663,693)       queued (commit span: "IndexCopy")
//   C2    [648,651)      [694,729)       queued (commit span: "ScatterUpdate", the KV injection)
//   P1    [722,725)      [730,740)       queued (publish span: the output copy)
//   sync  [726,742)                      released by P1; the host then finishes the step (→ 1000)
TorchDbBuilder sameHostAndDevicePace(int64_t callTid)
{
    TorchDbBuilder b;
    b.span(kPy, "scheduler.run_batch", 0, us(1000));
    b.span(kPy, "draft step[DECODE bs=4]", us(10), us(300));
    b.launch(kPy, callTid, "launch", us(40), us(45), 2, "KERNEL_AICORE", "DraftMatMul", us(50), us(130));
    b.launch(kPy, callTid, "launch", us(126), us(129), 2, "KERNEL_AICORE", "DraftAttention", us(131), us(211));
    b.launch(kPy, callTid, "launch", us(209), us(212), 2, "KERNEL_AICORE", "DraftSample", us(212), us(292));
    b.span(kPy, "step[TARGET_VERIFY bs=4]", us(300), us(560));
    b.span(kPy, "NPUGraph.replay", us(308), us(332));
    const int64_t replay = b.call(callTid, "aclmdlRIExecuteAsync", us(310), us(330));
    b.task(2, "KERNEL_AICORE", "SparseFlashAttention", us(335), us(455), replay);
    b.task(2, "KERNEL_AICORE", "GroupedMatmul", us(456), us(600), replay);
    b.span(kPy, "spec.accept_tokens", us(560), us(640));
    b.launch(kPy, callTid, "launch", us(562), us(565), 2, "KERNEL_AIVEC", "ArgMaxWithValue", us(601), us(631));
    b.launch(kPy, callTid, "launch", us(568), us(571), 2, "KERNEL_AIVEC", "CumSum", us(632), us(662));
    b.span(kPy, "spec.commit_state", us(640), us(720));
    b.launch(kPy, callTid, "launch", us(642), us(645), 2, "KERNEL_AIVEC", "IndexCopy", us(663), us(693));
    b.launch(kPy, callTid, "launch", us(648), us(651), 2, "KERNEL_AIVEC", "ScatterUpdate", us(694), us(729));
    b.span(kPy, "spec.publish", us(720), us(990));
    b.launch(kPy, callTid, "aclrtMemcpyAsync", us(722), us(725), 2, "MEMCPY_ASYNC", "", us(730), us(740));
    b.call(kPy, "aclrtSynchronizeStream", us(726), us(742), false);
    return b;
}

// The step of hostBoundTailNamesOnly: the host falls behind the device in the eager tail (each launch
// arrives after the stream went idle), no accept / commit spans (the tail is split by kernel names), and
// the output copy on a stream of its own (9), idle since before the window.
//
//   task  launch call    device          cause
//   D1    [20,25)        [30,90)         first task: launch-bound from the window start
//   V1    replay [110,130) [135,395)     130 > 90: launch-bound
//   A1    [193,196)      [396,416)       issued 200 µs ahead: queued (idle 1)
//   A2    [440,443)      [448,468)       443 > 416: launch-bound
//   C1    [500,503)      [508,548)       503 > 468: launch-bound
//   C2    [520,523)      [549,579)       523 < 548: queued (idle 1)
//   P1    [600,603)      [608,618) s9    first task of stream 9: launch-bound, the stream idle since
//                                        before the window → back along the thread's launches: C2's
//                                        call (523) was queued behind C1, so the device was ahead there
TorchDbBuilder hostBoundTailNamesOnly()
{
    TorchDbBuilder b;
    b.span(kPy, "scheduler.run_batch", 0, us(1000));
    b.span(kPy, "draft step[DECODE bs=1]", us(10), us(100));
    b.launch(kPy, kPy, "launch", us(20), us(25), 2, "KERNEL_AICORE", "DraftMatMul", us(30), us(90));
    b.span(kPy, "step[TARGET_VERIFY bs=1]", us(100), us(180));
    const int64_t replay = b.call(kPy, "aclmdlRIExecuteAsync", us(110), us(130));
    b.task(2, "KERNEL_AICORE", "FusedVerifyLayer", us(135), us(395), replay);
    b.launch(kPy, kPy, "launch", us(193), us(196), 2, "KERNEL_AIVEC", "AcceptDraftTokens", us(396), us(416));
    b.launch(kPy, kPy, "launch", us(440), us(443), 2, "KERNEL_AIVEC", "FinalizeAcceptLens", us(448), us(468));
    b.launch(kPy, kPy, "launch", us(500), us(503), 2, "KERNEL_AIVEC", "CommitTargetHidden", us(508), us(548));
    b.launch(kPy, kPy, "launch", us(520), us(523), 2, "KERNEL_AIVEC", "InjectKvCache", us(549), us(579));
    b.launch(kPy, kPy, "aclrtMemcpyAsync", us(600), us(603), 9, "MEMCPY_ASYNC", "", us(608), us(618));
    return b;
}

// The step of waits: the verify forward issues a DeepEP dispatch on stream 5 between two event
// pairs and a shared-expert matmul on stream 3; stream 2 waits for both (runtime calls on `callTid`).
//
//   s2: D1 [30,80) | V1 [100,200) REC1 [200,201) V2 [201,301) WAIT2 [301,404) V3 [405,505)
//       WAIT2b [505,506) V4 [506,600) | A1 [700,720) | C1 [730,760)
//   s5: WAIT5 [201,202) (waits for REC1) DISP [202,402) REC5 [402,403)
//   s3: SE [181,230) REC3 [230,231)
// WAIT2 is drawn over its blocked time (msprof): reached at V2's end (301), released by REC5 (403).
// WAIT2b waits for REC3, complete long before s2 reaches it: not blocked. A host sync [560,605) is
// released by V4; the accept and commit launches come after the stream went idle.
TorchDbBuilder waits(int64_t callTid)
{
    TorchDbBuilder b;
    const auto launch = [&](TimeNs cs, int64_t stream, const std::string& type, const std::string& kernel, TimeNs s,
                            TimeNs e, const std::string& call = "launch") {
        b.launch(kPy, callTid, call, cs, cs + us(3), stream, type, kernel, s, e);
    };
    b.span(kPy, "scheduler.run_batch", 0, us(1000));
    b.span(kPy, "draft step[DECODE bs=2]", us(10), us(90));
    b.launch(kPy, callTid, "launch", us(20), us(25), 2, "KERNEL_AICORE", "DraftMatMul", us(30), us(80));
    b.span(kPy, "step[TARGET_VERIFY bs=2]", us(90), us(690));
    launch(us(95), 2, "KERNEL_AICORE", "MatMulV2", us(100), us(200));
    launch(us(105), 2, "EVENT_RECORD", "", us(200), us(201), "aclrtRecordEvent");
    launch(us(115), 5, "EVENT_WAIT", "", us(201), us(202), "aclrtStreamWaitEvent");
    launch(us(125), 5, "KERNEL_AIVEC", "MoeDistributeDispatch", us(202), us(402));
    launch(us(135), 5, "EVENT_RECORD", "", us(402), us(403), "aclrtRecordEvent");
    launch(us(145), 2, "KERNEL_AICORE", "GroupedMatmul", us(201), us(301));
    launch(us(155), 2, "EVENT_WAIT", "", us(301), us(404), "aclrtStreamWaitEvent");
    launch(us(165), 2, "KERNEL_AICORE", "MatMulV2", us(405), us(505));
    launch(us(175), 3, "KERNEL_AICORE", "SharedExpertMatmul", us(181), us(230));
    launch(us(185), 3, "EVENT_RECORD", "", us(230), us(231), "aclrtRecordEvent");
    launch(us(195), 2, "EVENT_WAIT", "", us(505), us(506), "aclrtStreamWaitEvent");
    launch(us(205), 2, "KERNEL_AICORE", "MatMulV2", us(506), us(600));
    b.call(kPy, "aclrtSynchronizeStream", us(560), us(605), false);
    b.span(kPy, "dspark_accept", us(690), us(720));
    b.launch(kPy, callTid, "launch", us(692), us(695), 2, "KERNEL_AIVEC", "ArgMax", us(700), us(720));
    b.span(kPy, "commit_target_state", us(720), us(760));
    b.launch(kPy, callTid, "launch", us(722), us(725), 2, "KERNEL_AIVEC", "Copy", us(730), us(760));
    return b;
}

} // namespace

class TestHandmadeDb : public QObject {
    Q_OBJECT

    // Path of sameHostAndDevicePace, backwards from the window's end:
    //   host_gap [740,1000) 260 (the host finishes the step); P1 10 commit (publish); idle 1;
    //   C2 35 + idle 1 + C1 30 commit; idle 1; A2 30 + idle 1 + A1 30 accept; idle 1;
    //   V2 144 + idle 1 + V1 120 verify; launch-bound: host_gap [292,335) 43 (latency [330,335) and the
    //   stream idle [292,330) while the host prepared the replay: back to the device at D3);
    //   D3 80 draft; launch-bound: host_gap [211,212) 1; D2 80; idle 1 (129 < 130: queued); D1 80;
    //   launch-bound, no earlier launch or sync: host_gap [0,50) 50.
    // draft 240, verify 264, accept 60, commit 10+35+30 = 75, host_gap 260+43+1+50 = 354,
    // idle 7 (130, 455, 600, 631, 662, 693, 729: 1 µs each). Σ = 1000.
    void checkSamePace(const StepAnalysis& a)
    {
        const CriticalPath& p = a.criticalPath;
        QCOMPARE(p.totalNs(), us(1000));
        QCOMPARE(p.categoryNs(PathCategory::Draft), us(240));
        QCOMPARE(p.categoryNs(PathCategory::VerifyCompute), us(264));
        QCOMPARE(p.categoryNs(PathCategory::AcceptTpSync), us(60));
        QCOMPARE(p.categoryNs(PathCategory::Commit), us(75));
        QCOMPARE(p.categoryNs(PathCategory::HostGap), us(354));
        QCOMPARE(p.categoryNs(PathCategory::Idle), us(7));
        QCOMPARE(p.categoryNs(PathCategory::ExposedComm), 0);
        // The hops tile the window; the 1 µs hop at D3 is ambiguous (212 − 211 ≤ the 5 µs launch latency,
        // estimated from D1), the 43 µs pre-replay one is not.
        TimeNs at = a.window.startNs;
        int ambiguousHost = 0;
        for (const PathHop& h : p.hops) {
            QCOMPARE(h.interval.startNs, at);
            at = h.interval.endNs;
            if (h.onHost && h.ambiguous) {
                ++ambiguousHost;
                QCOMPARE(rel(h.interval.startNs), us(211));
                QCOMPARE(h.interval.lengthNs(), us(1));
            }
        }
        QCOMPARE(at, a.window.endNs);
        QCOMPARE(ambiguousHost, 1);

        // Bands: each the device work launched inside its host span, whatever the kernel names.
        QVERIFY(a.bands.draft && a.bands.verify && a.bands.accept && a.bands.commit);
        QCOMPARE(rel(a.bands.draft->extent.startNs), us(50));
        QCOMPARE(rel(a.bands.draft->extent.endNs), us(292));
        QCOMPARE(a.bands.draft->busyNs, us(240));
        QCOMPARE(rel(a.bands.verify->extent.startNs), us(335));
        QCOMPARE(rel(a.bands.verify->extent.endNs), us(600));
        QCOMPARE(rel(a.bands.accept->extent.startNs), us(601));
        QCOMPARE(rel(a.bands.accept->extent.endNs), us(662));
        QCOMPARE(a.bands.accept->tasks, 2u);
        // Commit: both kernels of the commit span (30 + 35 of 66 µs), not the output copy after them.
        QCOMPARE(rel(a.bands.commit->extent.startNs), us(663));
        QCOMPARE(rel(a.bands.commit->extent.endNs), us(729));
        QCOMPARE(a.bands.commit->busyNs, us(65));
        QCOMPARE(a.bands.commit->tasks, 2u);
        QCOMPARE(a.bands.hostGapNs, us(260));
        // Band and path share one classification: the commit band's tasks are the path's commit hops
        // but the output copy (Publish, charged to commit as the end of the step).
        TimeNs commitOnPath = 0;
        for (const PathHop& h : p.hops)
            if (h.event.valid() && !h.onHost && a.bands.stageOf(h.event) == Stage::Commit) {
                QCOMPARE(h.category, PathCategory::Commit);
                commitOnPath += h.interval.lengthNs();
            }
        QCOMPARE(commitOnPath, a.bands.commit->busyNs);

        // Pre-replay gap: V1 starts 43 µs after D3 ended.
        QCOMPARE(a.replay.preReplayGapNs, us(43));
        QCOMPARE(a.comm.totalNs, 0);
    }

private Q_SLOTS:
    void sameHostAndDevicePaceTaskQueueOff()
    {
        QTemporaryDir dir;
        const Loaded l = writeAndLoad(sameHostAndDevicePace(kPy), dir);
        QVERIFY2(l.profile, qPrintable(l.error));
        const StepAnalyzer analyzer(*l.profile, AnalysisRules::defaults());
        checkSamePace(analyzer.analyze(windowOf(*l.profile, 0, us(1000))));
    }

    // TASK_QUEUE_ENABLE=1: the ops on the Python thread only enqueue; the runtime calls run on the queue
    // thread. The same device timeline and call times: the same path and bands.
    void sameHostAndDevicePaceTaskQueueOn()
    {
        QTemporaryDir dir;
        const Loaded l = writeAndLoad(sameHostAndDevicePace(kQueue), dir);
        QVERIFY2(l.profile, qPrintable(l.error));
        const StepAnalyzer analyzer(*l.profile, AnalysisRules::defaults());
        checkSamePace(analyzer.analyze(windowOf(*l.profile, 0, us(1000))));
    }

    // Path, backwards: host_gap [618,1000) 382; P1 10 commit (publish); latency [603,608) 5; back along
    // the thread's launches: host_gap [523,603) 80 to C2's call, which was queued (523 < C1's end 548):
    // the device was ahead there, the walk returns to C1 at 523 (ambiguous): C1 [508,523) 15 commit;
    // C1 launch-bound: host_gap [468,508) 40; A2 20 accept; host_gap [416,448) 32; A1 20 accept;
    // idle [395,396) 1; V1 260 verify; host_gap [90,135) 45; D1 60 draft; host_gap [0,30) 30.
    // draft 60, verify 260, accept 40, commit 25, host_gap 382+5+80+40+32+45+30 = 614, idle 1: Σ 1000.
    void hostBoundTailNamesOnly()
    {
        QTemporaryDir dir;
        const Loaded l = writeAndLoad(::hostBoundTailNamesOnly(), dir);
        QVERIFY2(l.profile, qPrintable(l.error));
        const StepAnalyzer analyzer(*l.profile, AnalysisRules::defaults());
        const StepAnalysis a = analyzer.analyze(windowOf(*l.profile, 0, us(1000)));
        const CriticalPath& p = a.criticalPath;
        QCOMPARE(p.totalNs(), us(1000));
        QCOMPARE(p.categoryNs(PathCategory::Draft), us(60));
        QCOMPARE(p.categoryNs(PathCategory::VerifyCompute), us(260));
        QCOMPARE(p.categoryNs(PathCategory::AcceptTpSync), us(40));
        QCOMPARE(p.categoryNs(PathCategory::Commit), us(25));
        QCOMPARE(p.categoryNs(PathCategory::HostGap), us(614));
        QCOMPARE(p.categoryNs(PathCategory::Idle), us(1));
        // The return to the device at C1 is flagged: the files cannot tell whether the host was ahead.
        bool returnFlagged = false;
        for (const PathHop& h : p.hops)
            if (!h.onHost && h.ambiguous && rel(h.interval.startNs) == us(508) && rel(h.interval.endNs) == us(523))
                returnFlagged = true;
        QVERIFY(returnFlagged);

        // Names only (no accept / commit span): Accept until the first commit kernel, Commit through the
        // last one (CommitTargetHidden, InjectKvCache), the copy after it is Publish.
        QVERIFY(a.bands.accept && a.bands.commit && a.bands.verify && a.bands.draft);
        QCOMPARE(rel(a.bands.accept->extent.startNs), us(396));
        QCOMPARE(rel(a.bands.accept->extent.endNs), us(468));
        QCOMPARE(rel(a.bands.commit->extent.startNs), us(508));
        QCOMPARE(rel(a.bands.commit->extent.endNs), us(579));
        QCOMPARE(a.bands.commit->busyNs, us(70));
        QCOMPARE(a.bands.stageOf(test::findEvent(*l.profile, "MEMCPY_ASYNC", TorchDbBuilder::kBase + us(608))),
                 Stage::Publish);
        QCOMPARE(a.bands.hostGapNs, us(382));
        QCOMPARE(a.replay.preReplayGapNs, us(45)); // V1 starts 45 µs after D1's end
    }

    // Path, backwards: host_gap [760,1000) 240; C1 30 commit; launch-bound (725 > 720): host_gap
    // [720,730) 10; A1 20 accept; launch-bound (695 > 600): the sync [560,605) released by V4 ended after
    // the stream went idle: host_gap [600,700) 100, back at V4; V4 94; WAIT2b 1 (not blocked: its own
    // time, verify); V3 100; idle [404,405) 1; WAIT2 blocked from 301 to 404 on the dispatch: 103
    // exposed_comm; the walk stays on stream 2: V2 100, REC1 1, V1 100 verify; launch-bound (98 > 80):
    // host_gap [80,100) 20; D1 50 draft; host_gap [0,30) 30.
    // draft 50, verify 94+1+100+100+1+100 = 396, exposed 103, accept 20, commit 30,
    // host_gap 240+10+100+20+30 = 400, idle 1: Σ 1000.
    void checkWaits(const StepAnalysis& a)
    {
        const CriticalPath& p = a.criticalPath;
        QCOMPARE(p.totalNs(), us(1000));
        QCOMPARE(p.categoryNs(PathCategory::Draft), us(50));
        QCOMPARE(p.categoryNs(PathCategory::VerifyCompute), us(396));
        QCOMPARE(p.categoryNs(PathCategory::ExposedComm), us(103));
        QCOMPARE(p.categoryNs(PathCategory::AcceptTpSync), us(20));
        QCOMPARE(p.categoryNs(PathCategory::Commit), us(30));
        QCOMPARE(p.categoryNs(PathCategory::HostGap), us(400));
        QCOMPARE(p.categoryNs(PathCategory::Idle), us(1));
        // The dispatch: in flight [202,402), consumer reached its wait at 301: exposed 402 − 301 = 101,
        // hidden 301 − 202 = 99.
        QCOMPARE(a.comm.totalNs, us(200));
        QCOMPARE(a.comm.exposedNs, us(101));
        QCOMPARE(rel(a.bands.verify->extent.startNs), us(100));
        QCOMPARE(rel(a.bands.verify->extent.endNs), us(600));
        QCOMPARE(rel(a.bands.accept->extent.startNs), us(700));
        QCOMPARE(rel(a.bands.commit->extent.startNs), us(730));
        QCOMPARE(rel(a.bands.commit->extent.endNs), us(760));
    }

    void blockedAndUnblockedWaitsTaskQueueOff()
    {
        QTemporaryDir dir;
        const Loaded l = writeAndLoad(waits(kPy), dir);
        QVERIFY2(l.profile, qPrintable(l.error));
        const StepAnalyzer analyzer(*l.profile, AnalysisRules::defaults());
        checkWaits(analyzer.analyze(windowOf(*l.profile, 0, us(1000))));
    }

    void blockedAndUnblockedWaitsTaskQueueOn()
    {
        QTemporaryDir dir;
        const Loaded l = writeAndLoad(waits(kQueue), dir);
        QVERIFY2(l.profile, qPrintable(l.error));
        const StepAnalyzer analyzer(*l.profile, AnalysisRules::defaults());
        checkWaits(analyzer.analyze(windowOf(*l.profile, 0, us(1000))));
    }
};

QTEST_GUILESS_MAIN(TestHandmadeDb)
#include "tst_handmade_db.moc"
