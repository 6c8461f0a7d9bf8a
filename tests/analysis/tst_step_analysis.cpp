// The step analyses on a hand-built DSpark decode step (HandBuiltStep.h), every figure worked out on
// paper. Device tasks of the step, ns (stream: name [start, end) ← launch call end):
//   s2 GatherV2 [30,100)←30   s2 REC r_issue [100,102)←28   s5 WAIT [103,105)←31
//   s5 MoeDistributeDispatch [106,306)←35   s5 REC r_done [306,308)←38   s2 MatMulV2 [110,150)←45
//   s2 WAIT(hook) [310,312)←52   s2 GroupedMatmul [313,363)←60          (draft span [10,200))
//   s2 DsparkVerifyLayout [365,385)←210; host sync [215,390)                (planner [200,390))
//   s2 MEMCPY [402,412)←400; replay [450,470)/aclmdlRIExecuteAsync [452,468):
//   s2 SparseFlashAttention [472,560), s2 MatMulV2 [561,600)               (verify span [392,480))
//   s2 AcceptDraftTokens [602,622)←485  s2 REC r_tp [623,625)←488  s7 WAIT [628,630)←491
//   s7 Notify Wait [631,660) + SDMA [660,680) (op hcom_allReduce__SpecTpSync_1 [631,680))
//   s7 REC r_done_tp [681,683)←499  s2 WAIT [686,688)←502  s2 BuildOutTokens [689,709)←506
//   s2 CommitTargetHidden [710,750)←550  s2 ScatterPaKvCache [751,761)←560
//   s2 MEMCPY (publish) [762,772)←590; host sync [591,776)
#include "analysis/StepAnalysis.h"

#include "HandBuiltStep.h"
#include "TestSupport.h"

#include <QTemporaryDir>
#include <QTest>

using namespace dspark;

class TestStepAnalysis : public QObject {
    Q_OBJECT

    std::shared_ptr<Profile> m_profile;
    std::unique_ptr<StepAnalyzer> m_analyzer;
    StepAnalysis m_step;

    StepWindow window() const
    {
        StepWindow w;
        w.rankIndex = 0;
        w.forwardCt = 101;
        w.startNs = 0;
        w.endNs = 1000;
        return w;
    }
    EventRef find(const char* name, TimeNs start) const { return test::findEvent(*m_profile, name, start); }

private Q_SLOTS:
    void initTestCase()
    {
        m_profile = test::handBuiltStep();
        m_analyzer = std::make_unique<StepAnalyzer>(*m_profile, AnalysisRules::defaults());
        m_step = m_analyzer->analyze(window());
    }

    void waitsArePairedWithTheRecordsTheyWaitedFor()
    {
        const EventPairing& pairing = m_analyzer->pairing();
        // s5 wait [103,105): reached at its call's end 31; r_issue ended at 102 (> 31, 3 ns before the
        // wait ended) → blocked by r_issue, paired by timing.
        const WaitPairing* w5 = pairing.pairingOf(find("EVENT_WAIT", 103));
        QVERIFY(w5);
        QCOMPARE(w5->record, find("EVENT_RECORD", 100));
        QCOMPARE(w5->method, PairMethod::Timing);
        QVERIFY(w5->blocked);
        QCOMPARE(w5->reachedNs, TimeNs(31));
        // The hook: s2 reached it when MatMulV2 ended (150 > call end 52); r_done ended 308.
        const WaitPairing* hook = pairing.pairingOf(find("EVENT_WAIT", 310));
        QCOMPARE(hook->record, find("EVENT_RECORD", 306));
        QCOMPARE(hook->reachedNs, TimeNs(150));
        QCOMPARE(hook->blockedNs(), TimeNs(312 - 150));
        // SpecTpSync's consumer: reached when r_tp ended (625 > call end 502), released by r_done_tp.
        const WaitPairing* tp = pairing.pairingOf(find("EVENT_WAIT", 686));
        QCOMPARE(tp->record, find("EVENT_RECORD", 681));
        QCOMPARE(tp->reachedNs, TimeNs(625));
        QVERIFY(!tp->ambiguous);
    }

    void stageBandsFollowTheHostSpans()
    {
        const StepBands& b = m_step.bands;
        QVERIFY(b.draft && b.planner && b.verify && b.accept && b.commit);
        // Draft: launched in [10,200): [30,363); busy = [30,102)+[103,105)+[106,308)+[310,312)+[313,363)
        //        = 72 + 2 + 202 + 2 + 50 = 328 (MatMulV2 [110,150) lies under the dispatch).
        QCOMPARE(b.draft->extent, (Interval{30, 363}));
        QCOMPARE(b.draft->busyNs, TimeNs(328));
        QCOMPARE(b.draft->tasks, 8u);
        QCOMPARE(b.planner->extent, (Interval{365, 385}));
        // Verify: copy [402,412) + replay [472,560) [561,600): busy 10 + 88 + 39 = 137.
        QCOMPARE(b.verify->extent, (Interval{402, 600}));
        QCOMPARE(b.verify->busyNs, TimeNs(137));
        // Accept: everything launched after the verify span, before the first commit kernel:
        // [602,709); busy 20 + 2 + 2 + 49 (Notify Wait + SDMA) + 2 + 2 + 20 = 97.
        QCOMPARE(b.accept->extent, (Interval{602, 709}));
        QCOMPARE(b.accept->busyNs, TimeNs(97));
        // Commit: the commit kernels [710,761) (the publish copy after them is commit work, not band).
        QCOMPARE(b.commit->extent, (Interval{710, 761}));
        QCOMPARE(b.commit->busyNs, TimeNs(50));
        QCOMPARE(b.stageOf(find("MEMCPY_ASYNC", 762)), Stage::Publish); // after the commit span
        QCOMPARE(b.stageOf(find("SDMA", 660)), Stage::Accept);
        // Planner gap 402 − 363 = 39; host gap: last task ends 772, window ends 1000 → 228.
        QCOMPARE(b.plannerGapNs, TimeNs(39));
        QCOMPARE(b.hostGapNs, TimeNs(228));
    }

    void bandsAreCrossCheckedAgainstTheRecord()
    {
        StepWindow w = window();
        w.draftGpuMs = 0.000330;        // 330 ns: the draft band is 333 ns → +3
        w.targetVerifyGpuMs = 0.000200; // 200 ns: the verify band is 198 ns → −2
        w.stepGpuMs = 0.000900;         // unattributed = 900 − 330 − 200 = 370 ns;
        const StepAnalysis a = m_analyzer->analyze(w);
        QCOMPARE(*a.bands.draftVsRecordNs, TimeNs(3));
        QCOMPARE(*a.bands.verifyVsRecordNs, TimeNs(-2));
        // tail = planner gap 39 + (commit end 761 − verify end 600 = 161) = 200 → 200 − 370 = −170
        QCOMPARE(*a.bands.tailVsRecordNs, TimeNs(-170));
    }

    void communicationIssueInflightAndWait()
    {
        const StepComm& c = m_step.comm;
        QCOMPARE(c.operations.size(), size_t(2));
        const CommOperation& d = c.operations[0];
        QCOMPARE(d.name, std::string("MoeDistributeDispatch"));
        QVERIFY(d.deepep);
        QCOMPARE(d.streamId, int64_t(5));
        QCOMPARE(d.stage, Stage::Draft);
        QCOMPARE(d.issueNs, TimeNs(100)); // r_issue, the record stream 5 waited for
        QCOMPARE(d.inflight, (Interval{106, 306}));
        QCOMPARE(d.waitInterval, (Interval{150, 312}));
        QCOMPARE(d.waitStreamId, int64_t(2));
        // exposed = 306 − 150 = 156; hidden = 150 − 106 = 44 (behind MatMulV2)
        QCOMPARE(d.exposedNs, TimeNs(156));
        QCOMPARE(d.hiddenNs, TimeNs(44));
        QCOMPARE(d.exposedInterval(), (Interval{150, 306})); // drawn in the warning colour
        QVERIFY(d.inferred);
        const CommOperation& t = c.operations[1];
        QCOMPARE(t.name, std::string("hcom_allReduce__SpecTpSync_1"));
        QCOMPARE(t.streamId, int64_t(7));
        QCOMPARE(t.stage, Stage::Accept);
        QCOMPARE(t.issueNs, TimeNs(623));
        QCOMPARE(t.inflight, (Interval{631, 680}));
        // The consumer reached its wait at 625, before the transfer began: exposed = 680 − 625 = 55,
        // hidden 0.
        QCOMPARE(t.waitInterval, (Interval{625, 688}));
        QCOMPARE(t.exposedNs, TimeNs(55));
        QCOMPARE(t.hiddenNs, TimeNs(0));
        QCOMPARE(c.totalNs, TimeNs(200 + 49));
        QCOMPARE(c.exposedNs, TimeNs(156 + 55));
    }

    void hostGapBeforeTheGraphReplay()
    {
        const StepReplayGaps& r = m_step.replay;
        QCOMPARE(r.replays.size(), size_t(1)); // NPUGraph.replay and aclmdlRIExecuteAsync: one replay
        const ReplayGap& g = r.replays[0];
        QCOMPARE(m_profile->name(g.replayCall), std::string_view("aclmdlRIExecuteAsync"));
        QCOMPARE(g.firstTask, find("SparseFlashAttention", 472));
        QCOMPARE(g.gap, (Interval{412, 472})); // the pre-replay copy ended at 412
        QCOMPARE(r.preReplayGapNs, TimeNs(60));
        QCOMPARE(g.hostPrepNs, TimeNs(452 - 392));
        // Host spans during [412,472): run_batch 60, step[TARGET_VERIFY] 60, init_forward_metadata
        // [400,450) 38, NPUGraph.replay [450,470) 20, aclmdlRIExecuteAsync [452,468) 16.
        std::map<std::string, TimeNs> spans;
        for (const HostSpanInGap& s : g.hostSpans)
            spans[std::string(m_profile->name(s.span))] = s.overlapNs;
        QCOMPARE(spans.size(), size_t(5));
        QCOMPARE(spans["AscendDSV4Backend.init_forward_metadata"], TimeNs(38));
        QCOMPARE(spans["NPUGraph.replay"], TimeNs(20));
        QCOMPARE(spans["aclmdlRIExecuteAsync"], TimeNs(16));
        QCOMPARE(spans["scheduler.run_batch"], TimeNs(60));
    }

    void criticalPathChargesEveryNanosecondOnce()
    {
        // Walked back from 1000: host after the publish copy [772,1000) 228 host_gap; copy 10, Scatter
        // 10, Commit 40 (commit 60, idle 1+1+1); BuildOutTokens 20 (idle 1); the SpecTpSync wait from
        // reached 625 to 688 → accept_tp_sync 63; r_tp 2 (idle 1); AcceptDraftTokens 20 (idle 2);
        // MatMulV2 39 (idle 1), SparseFlashAttention 88: launch-bound (call ends 468 > copy end 412)
        // → host_gap only while stream 2 idled, [412,472) 60, back at the pre-replay copy: 10 verify;
        // the copy is launch-bound (call ends 400 > 385): [400,402) host_gap 2, then the planner sync
        // [215,390) ended after the stream idled (385) → [385,400) host_gap 15, back at
        // DsparkVerifyLayout (which released it); DsparkVerifyLayout 20 → draft (idle 2); GroupedMatmul 50 (idle 1);
        // the hook from reached 150 to 312 → exposed_comm 162; MatMulV2 40; idle [102,110) 8; r_issue 2; GatherV2 70;
        // it started when its launch ended (30), no sync before → host [0,30) 30. (The launch latency the index learns
        // from the one task that followed an idle stream, GatherV2, is 30 − 30 = 0; no task was launched 100 µs ahead
        // of its stream, so the stream gap is 0 too.)
        const CriticalPath& p = m_step.criticalPath;
        QCOMPARE(p.categoryNs(PathCategory::Draft), TimeNs(20 + 50 + 40 + 2 + 70));
        QCOMPARE(p.categoryNs(PathCategory::VerifyCompute), TimeNs(39 + 88 + 10));
        QCOMPARE(p.categoryNs(PathCategory::ExposedComm), TimeNs(162));
        QCOMPARE(p.categoryNs(PathCategory::AcceptTpSync), TimeNs(20 + 63 + 2 + 20));
        QCOMPARE(p.categoryNs(PathCategory::Commit), TimeNs(10 + 10 + 40));
        QCOMPARE(p.categoryNs(PathCategory::HostGap), TimeNs(228 + 60 + 2 + 15 + 30));
        QCOMPARE(p.categoryNs(PathCategory::Idle), TimeNs(1 + 1 + 1 + 1 + 1 + 2 + 1 + 2 + 1 + 8));
        QCOMPARE(p.totalNs(), TimeNs(1000));
        // The hops tile the window in time order.
        TimeNs t = 0;
        for (const PathHop& h : p.hops) {
            QCOMPARE(h.interval.startNs, t);
            t = h.interval.endNs;
        }
        QCOMPARE(t, TimeNs(1000));
        QCOMPARE(p.hops.front().category, PathCategory::HostGap);
        QVERIFY(p.hops.front().onHost);
    }

    void overlapOverTheStepWindow()
    {
        // Compute = EventKind::Kernel tasks (the dispatch kernel too, as msprof counts it):
        // [30,100) [106,306) [313,363) [365,385) [472,560) [561,600) [602,622) [689,709)
        // [710,750) [751,761) = 70+200+50+20+88+39+20+20+40+10 = 557 (MatMulV2 [110,150) is inside the
        // dispatch). Communication: the HCCL op [631,680) = 49, not overlapped with compute: 49.
        // Span [30,761): 731; busy = 557 + 49 = 606; Free = 125.
        QCOMPARE(m_step.overlap.computingNs(), TimeNs(557));
        QCOMPARE(m_step.overlap.communicationNs(), TimeNs(49));
        QCOMPARE(m_step.overlap.communicationNotOverlappedNs(), TimeNs(49));
        QCOMPARE(m_step.overlap.freeNs(), TimeNs(125));
    }

    void launchLatencyAndStreamGapAreLearntFromTheProfile()
    {
        // One stream, µs scale. Latency samples (tasks after the stream idled > 50 µs): 16 + "long" + E
        // = 5 × 6, 7 × 7, 6 × 9 µs → median (index 9 of 18 sorted) 7 µs, 99th percentile (index 17) 9 µs.
        // Gap samples (tasks launched ≥ 100 µs before their predecessor ended): 12 × 1, 4 × 3 µs →
        // median (index 8 of 16) 1 µs, 99th percentile (index 15) 3 µs.
        test::ProfileBuilder b;
        const auto K = EventKind::Kernel;
        TimeNs t = 0;
        for (int i = 0; i < 16; ++i) {
            const TimeNs latency = i < 5 ? 6'000 : i < 11 ? 7'000 : 9'000; // 5 × 6, 6 × 7, 5 × 9 µs
            b.launch("launch", t, t + 1'000, b.s2, "idle", t + 1'000 + latency, t + 1'000 + latency + 10'000, K);
            t += 100'000;
        }
        // A long task, then 16 short ones launched long before it ends: gaps 1 µs (×12) and 3 µs (×4).
        b.launch("launch", t, t + 1'000, b.s2, "long", t + 8'000, t + 1'000'000, K);
        TimeNs end = t + 1'000'000;
        for (int i = 0; i < 16; ++i) {
            const TimeNs gap = i < 12 ? 1'000 : 3'000;
            b.launch("launch", t + 2'000 + i * 10, t + 2'001 + i * 10, b.s2, "busy", end + gap, end + gap + 5'000, K);
            end += gap + 5'000;
        }
        t = end + 100'000;
        // E: after an idle stream, 9 µs after its call (a sample too; latency median stays 7 µs).
        b.launch("launch", t, t + 1'000, b.s2, "E", t + 10'000, t + 20'000, K);
        const TimeNs e = t + 20'000;
        // F: 1 µs after E (a usual gap) and 8 µs after its call (a usual latency): both explain it;
        // launch-ready = call end + 7 = e + 0 < E's end + gap 1 µs → the stream was binding.
        b.launch("launch", e - 9'000, e - 7'000, b.s2, "F", e + 1'000, e + 5'000, K);
        // G: 4 µs after F (beyond every usual gap), 7 µs after its call → launch-bound, although its
        // call ended before F did: the launch latency decides.
        b.launch("launch", e + 1'000, e + 2'000, b.s2, "G", e + 9'000, e + 12'000, K);
        // H: 40 µs after G, 20 µs after its call: neither is usual; the launch is less beyond its range
        // (20 − 9 = 11 µs vs 40 − 3 = 37 µs) → launch-bound.
        b.launch("launch", e + 30'000, e + 32'000, b.s2, "H", e + 52'000, e + 60'000, K);
        // I: 10 µs after H, 50 µs after its call → stream-bound (7 µs vs 41 µs beyond).
        b.launch("launch", e + 10'000, e + 20'000, b.s2, "I", e + 70'000, e + 80'000, K);
        const auto p = b.finish();
        const TimelineIndex index(*p, AnalysisRules::defaults());
        const uint32_t s2 = test::findEvent(*p, "E", t + 10'000).lane;
        QCOMPARE(index.launchLatencyNs(s2), TimeNs(7'000));
        QCOMPARE(index.streamGapNs(s2), TimeNs(1'000));
        QVERIFY(!index.launchBound(test::findEvent(*p, "F", e + 1'000)));
        QVERIFY(index.launchBound(test::findEvent(*p, "G", e + 9'000)));
        QVERIFY(index.launchBound(test::findEvent(*p, "H", e + 52'000)));
        QVERIFY(!index.launchBound(test::findEvent(*p, "I", e + 70'000)));
        QVERIFY(index.launchBound(test::findEvent(*p, "idle", 7'000))); // first task of its stream
        QCOMPARE(index.launchReadyNs(test::findEvent(*p, "G", e + 9'000)), e + 9'000);
    }

    void rulesFileOverridesOnlyTheKeysItGives()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("rules.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"commit_span\": [], \"commit_kernels\": [\"^ScatterPaKvCache$\"], \"comm_streams\": [2]}");
        f.close();
        QString error;
        const AnalysisRules rules = AnalysisRules::load(path, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(rules.rule(RuleId::CommitKernels).patterns(), QStringList{QStringLiteral("^ScatterPaKvCache$")});
        QVERIFY(rules.rule(RuleId::AcceptKernels).matches(std::string_view("FinalizeAcceptLens")));
        QCOMPARE(rules.commStreams, std::vector<int64_t>{2});
        // Without commit spans names decide; with CommitTargetHidden no longer a commit kernel, the
        // commit band is ScatterPaKvCache alone.
        QVERIFY(rules.rule(RuleId::CommitSpan).patterns().isEmpty());
        const StepAnalyzer analyzer(*m_profile, rules);
        const StepAnalysis a = analyzer.analyze(window());
        QCOMPARE(a.bands.commit->extent, (Interval{751, 761}));

        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{\"accept_kernels\": [\"(unclosed\"]}"); // (moc 6.4 cannot read raw strings)
        f.close();
        AnalysisRules::load(path, &error);
        QVERIFY2(error.startsWith(path + QStringLiteral(": rule \"accept_kernels\": bad regular expression")),
                 qPrintable(error));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{\"acept_kernels\": []}");
        f.close();
        AnalysisRules::load(path, &error);
        QCOMPARE(error, path + QStringLiteral(": unknown rule \"acept_kernels\""));
    }
};

QTEST_GUILESS_MAIN(TestStepAnalysis)
#include "tst_step_analysis.moc"
