// Communication issue → in flight → wait on real profiler output: the torch_npu text export (2× 910B DDP,
// rank 0) has four HCCL all-reduces on stream 4, issued by EVENT_RECORDs of compute stream 2 and
// consumed by stream-2 EVENT_WAITs that span their blocked time. Expected values are read from
// trace_view.json (ts µs with ns digits; connection ids in brackets):
//   EVENT_RECORD [1172] stream 2 at 1736408883731741.674      (issue of allReduce_0)
//   hcom_allReduce__586_0_1 [1175] 1736408883732241.564 + 79089.52021875 µs → end …883811331.084
//   EVENT_RECORD [1591] stream 2 at …883745778.474, 0.02 µs   (the task before the consumer's wait)
//   EVENT_WAIT   [1599] stream 2 at …883745778.534, 65554.56978125 µs (blocked until the all-reduce)
//   EVENT_RECORD [1184], [1185] stream 4 at …883811332.644 / .684 (after the all-reduce)
//   EVENT_RECORD [1201] stream 2 at …883733351.826; EVENT_WAIT [1202] stream 4 at …883811332.724, 0.02 µs
#include "analysis/StepAnalysis.h"
#include "io/ProfileLoader.h"

#include "HandBuiltStep.h"
#include "TestSupport.h"

#include <QTest>

using namespace dspark;

class TestRealComm : public QObject {
    Q_OBJECT

    std::shared_ptr<Profile> m_profile;

private Q_SLOTS:
    void initTestCase()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const LoadOutcome out =
            loadProfile(test::realData(QStringLiteral("ascend/torch_npu_text_rank0_ascend_pt")).toStdString());
        QVERIFY2(out.profile, qPrintable(out.error));
        m_profile = out.profile;
    }

    void allReducesAreConsumedByTheComputeStreamsWaits()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const StepAnalyzer analyzer(*m_profile, AnalysisRules::defaults());
        StepWindow w;
        w.startNs = m_profile->firstNs();
        w.endNs = m_profile->lastNs() + 1;
        const StepComm comm = analyzer.analyze(w).comm;
        QCOMPARE(comm.operations.size(), size_t(4));
        const CommOperation& op = comm.operations[0];
        QCOMPARE(op.name, std::string("hcom_allReduce__586_0_1"));
        // The JSON keeps HCCL sub-tasks on "Plane" lanes; the transfer's stream is found as the stream
        // with the most non-compute tasks inside the op (Notify Wait / SDMA / Write Value on stream 4).
        QCOMPARE(op.streamId, int64_t(4));
        QCOMPARE(op.issueNs, TimeNs(1736408883731741674)); // [1172], which stream 4's wait [1173] waited for
        QCOMPARE(op.inflight, (Interval{1736408883732241564, 1736408883811331084}));
        QCOMPARE(op.waitStreamId, int64_t(2));
        // Reached when [1591] ended (…778.474 + 0.020); done when [1599] ended (…778.534 + 65554.570).
        QCOMPARE(op.waitInterval, (Interval{1736408883745778494, 1736408883811333104}));
        // exposed = 811331084 − 745778494; hidden = 745778494 − 732241564
        QCOMPARE(op.exposedNs, TimeNs(65552590));
        QCOMPARE(op.hiddenNs, TimeNs(13536930));
        QVERIFY(op.inferred);
        QCOMPARE(op.pairMethod, PairMethod::Timing);
        for (const CommOperation& o : comm.operations) {
            QCOMPARE(o.streamId, int64_t(4));
            QCOMPARE(o.waitStreamId, int64_t(2));
            QCOMPARE(o.exposedNs + o.hiddenNs, o.inflight.lengthNs()); // every wait was reached in flight
        }
        QCOMPARE(comm.totalNs, TimeNs(105991878)); // = msprof's Communication figure (the four ops)
    }

    void aWaitThatDidNotBlockIsPairedByHostCallOrder()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const StepAnalyzer analyzer(*m_profile, AnalysisRules::defaults());
        // [1202] on stream 4 (0.02 µs, not blocked: every stream-2 record before it had completed)
        // waited for the latest record issued before it on another stream: [1201], not [1591] (which
        // completed later but was issued after it). No launch links reach these tasks in the JSON;
        // their connection ids give the host call order.
        const WaitPairing* p =
            analyzer.pairing().pairingOf(test::findEvent(*m_profile, "EVENT_WAIT", 1736408883811332724));
        QVERIFY(p);
        QVERIFY(!p->blocked);
        QCOMPARE(p->method, PairMethod::HostOrder);
        QCOMPARE(p->record, test::findEvent(*m_profile, "EVENT_RECORD", 1736408883733351826));
        // [1599] was blocked and ended 0.44 µs after [1184]/[1185] (same stream, same time): timing.
        const WaitPairing* b =
            analyzer.pairing().pairingOf(test::findEvent(*m_profile, "EVENT_WAIT", 1736408883745778534));
        QVERIFY(b->blocked);
        QCOMPARE(b->method, PairMethod::Timing);
        QCOMPARE(m_profile->lanes[b->record.lane].info.streamId, int64_t(4));
        QVERIFY(!b->ambiguous);
    }
};

QTEST_GUILESS_MAIN(TestRealComm)
#include "tst_real_comm.moc"
