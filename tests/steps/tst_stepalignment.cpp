// Aligning step records to the trace: scheduler.run_batch / step[...] spans in order, anchored at
// start_step, checked with bs and g_sq; windows through launch links; mismatches and gaps reported.
#include "StepTestFiles.h"
#include "TestSupport.h"

#include "analysis/StepAnalysis.h"
#include "report/StepsJson.h"
#include "steps/StepRecordLoader.h"
#include "steps/StepRecords.h"

#include <QTemporaryDir>

#include <set>

using namespace dspark;

namespace {

constexpr TimeNs kPeriod = 10'000; // one scheduler iteration every 10 µs

int bsOf(int64_t forwardCt)
{
    return static_cast<int>(forwardCt - 95); // distinct per step: 5, 6, 7, ...
}

// A one-rank trace: per iteration a run_batch span with a draft and a verify forward span, launches on
// the CANN thread linked to kernels on stream 2.
struct TraceBuilder {
    Profile profile;
    int rank = 0;
    uint32_t python = 0, cann = 0, stream = 0;
    int bsDelta = 0;

    explicit TraceBuilder(int rankNumber = 0, Profile* shared = nullptr)
    {
        Profile& p = target(shared);
        rank = p.ensureRank(rankNumber, rankNumber);
        python = p.laneFor({LaneKind::Host, rank, -1, -1, 100, "Python", "Thread 100", 0});
        cann = p.laneFor({LaneKind::Host, rank, -1, -1, 100, "CANN", "Thread 100", 0});
        stream = p.laneFor({LaneKind::NpuStream, rank, rankNumber, 2, -1, "Ascend Hardware", "Stream 2", 0});
    }
    Profile& target(Profile* shared) { return shared ? *shared : profile; }

    void launch(Profile& p, TimeNs at, TimeNs kernelStart, TimeNs kernelDur, LinkKind kind = LinkKind::HostToDevice)
    {
        const uint32_t lane = kind == LinkKind::HostToDevice ? cann : python;
        const uint32_t from =
            p.lanes[lane].append(at, 10, p.strings.intern(kind == LinkKind::HostToDevice ? "launch" : "npu::add"),
                                 kind == LinkKind::HostToDevice ? EventKind::HostApi : EventKind::TorchOp);
        const uint32_t to =
            p.lanes[stream].append(kernelStart, kernelDur, p.strings.intern("MatMulV2"), EventKind::Kernel);
        p.addLink({lane, from}, {stream, to}, kind);
    }

    // Iteration `index` of the trace, for scheduler step forward_ct (only used for bs / mode).
    void iteration(int index, int64_t forwardCt, bool prefill = false, bool withRunBatch = true,
                   Profile* shared = nullptr)
    {
        Profile& p = target(shared);
        const TimeNs t = index * kPeriod;
        const int bs = bsOf(forwardCt) + bsDelta;
        if (withRunBatch)
            p.lanes[python].append(t, 1000, p.strings.intern("scheduler.run_batch"), EventKind::Annotation);
        const std::string draft =
            prefill ? "draft step[EXTEND bs=1]" : "draft step[DECODE bs=" + std::to_string(bs) + "]";
        const std::string main = prefill ? "step[EXTEND bs=1 c_sq=2048 c_sqsq=4194304 c_sqsk=4194304 c_sk=2048]"
                                         : "step[TARGET_VERIFY bs=" + std::to_string(bs) +
                                               " g_sq=" + std::to_string(4 * bs) + " g_sqsq=1 g_sqsk=2 g_sk=3]";
        p.lanes[python].append(t + 100, 200, p.strings.intern(draft), EventKind::Annotation);
        p.lanes[python].append(t + 400, 500, p.strings.intern(main), EventKind::Annotation);
        launch(p, t + 150, t + 2000, 500);                       // draft kernel
        launch(p, t + 450, t + 3000, 1000);                      // verify kernel
        launch(p, t + 460, t + 4100, 100, LinkKind::OpToDevice); // eager op
        launch(p, t + 1500, t + 5000, 100);                      // after run_batch: not part of the step
    }

    // Iterations for forward_ct first..last, 104 being a prefill; `skip` left out of the trace.
    void iterations(int64_t first, int64_t last, std::set<int64_t> skip = {})
    {
        int index = 0;
        for (int64_t f = first; f <= last; ++f, ++index)
            if (!skip.count(f))
                iteration(index, f, f == 104);
    }
};

QByteArray recordLine(int64_t forwardCt, int bs, int tokens)
{
    return QStringLiteral(R"({"forward_ct": %1, "bs": %2, "num_verify_tokens": %3, "verify_tokens_graph_key": %4, )"
                          R"("step_gpu_ms": 9.5, "draft_gpu_ms": 2.0, "target_verify_gpu_ms": 6.0})")
               .arg(forwardCt)
               .arg(bs)
               .arg(tokens)
               .arg(tokens + 8)
               .toUtf8() +
           "\n";
}

// Records for decode steps 98..108 except the prefill 104 and `skip`; `bsOverride` changes one record.
QByteArray records(std::set<int64_t> skip = {}, std::pair<int64_t, int> bsOverride = {-1, 0}, int bsDelta = 0)
{
    QByteArray out;
    for (int64_t f = 98; f <= 108; ++f) {
        if (f == 104 || skip.count(f))
            continue;
        const int bs = bsOf(f) + bsDelta;
        out += recordLine(f, f == bsOverride.first ? bsOverride.second : bs, 4 * bs);
    }
    return out;
}

void loadRecords(Profile& p, const QTemporaryDir& dir, const QByteArray& text, const char* name = "records.jsonl")
{
    const QString path = dir.filePath(QString::fromLatin1(name));
    dspark::test::writeFile(path, text);
    ScannedFile file;
    file.path = path.toStdString();
    file.format = FileFormat::StepRecordsJsonl;
    const QString error = loadStepRecords(file, p, {});
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

// The standard trace (forward_ct 100..107, 104 a prefill, `skipTrace` left out) with `recordsText`
// loaded, finalized and aligned. startStep null: no profiler_metadata.start_step.
std::unique_ptr<TraceBuilder> alignedTrace(const QTemporaryDir& dir, const QByteArray& recordsText,
                                           std::set<int64_t> skipTrace = {}, const char* startStep = "100")
{
    auto t = std::make_unique<TraceBuilder>();
    t->iterations(100, 107, std::move(skipTrace));
    if (startStep)
        t->profile.metadata["profiler_metadata.start_step"] = startStep;
    loadRecords(t->profile, dir, recordsText);
    t->profile.finalize();
    alignStepRecords(t->profile);
    return t;
}

const StepAlignmentRow& rowOf(const Profile& p, int64_t forwardCt, int rank = 0)
{
    const StepRecordSet& set = *p.stepRecords;
    for (size_t i = 0; i < set.rows.size(); ++i)
        if (set.rows[i].dpRank == rank && set.record(i).forwardCt == forwardCt)
            return set.alignment.rows.at(i);
    static StepAlignmentRow none;
    return none;
}

bool notesContain(const StepAlignment& a, const QString& text)
{
    for (const QString& n : a.notes)
        if (n.contains(text))
            return true;
    return false;
}

// A long decode run as bench_steps makes it: record k has forward_ct 1000 + k + k / gap (a prefill every
// `gap` decode steps), bs 8..15 pseudo-random per block of `block` steps (constant in between), 4·bs
// verify tokens. bench_steps: gap 50, block 400. With `bsConstant` only the token counts change per block
// (bs stays 8).
struct LongRun {
    int64_t gap = 50;
    int64_t block = 400;
    bool bsConstant = false;
    int64_t forwardCt(int64_t k) const { return 1000 + k + k / gap; }
    int bs(int64_t k) const { return bsConstant ? 8 : workload(k); }
    int tokens(int64_t k) const { return 4 * workload(k); }
    int workload(int64_t k) const
    {
        uint64_t x = static_cast<uint64_t>(k / block) + 0x9e3779b97f4a7c15ull;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
        return 8 + static_cast<int>((x ^ (x >> 31)) % 8);
    }

    StepRecordSet records(int64_t count) const
    {
        StepRecordSet set;
        std::vector<StepRecord>& out = set.rankRecords(0).records;
        for (int64_t k = 0; k < count; ++k) {
            StepRecord r;
            r.forwardCt = forwardCt(k);
            r.bs = r.numRunningReqs = bs(k);
            r.numVerifyTokens = r.verifyTokensLocal = r.verifyTokensGraphKey = tokens(k);
            out.push_back(r);
            set.rows.push_back({0, 0, static_cast<uint32_t>(k), {}}); // all alignSteps reads: no rebuild()
        }
        return set;
    }

    // run_batch + forward span per scheduler iteration for `steps` forward_cts from that of record
    // `first` (the prefills between the records are EXTEND steps).
    void trace(Profile& p, int64_t records, int64_t first, int64_t steps) const
    {
        const int rank = p.ensureRank(0, 0);
        const uint32_t py = p.laneFor({LaneKind::Host, rank, -1, -1, 1, "Python", "Thread 1", 0});
        const uint32_t runBatch = p.strings.intern("scheduler.run_batch");
        int64_t k = first;
        int64_t fct = forwardCt(first);
        for (int64_t i = 0; i < steps; ++i, ++fct) {
            const bool decode = k < records && forwardCt(k) == fct;
            p.lanes[py].append(i * kPeriod, 1000, runBatch, EventKind::Annotation);
            const std::string name =
                decode ? "step[TARGET_VERIFY bs=" + std::to_string(bs(k)) + " g_sq=" + std::to_string(tokens(k)) + "]"
                       : "step[EXTEND bs=1 c_sq=2048]";
            p.lanes[py].append(i * kPeriod + 100, 800, p.strings.intern(name), EventKind::Annotation);
            if (decode)
                ++k;
        }
        p.finalize();
    }
};

} // namespace

class TestStepAlignment : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesSglangForwardSpanNames()
    {
        ForwardSpanName f = parseForwardSpanName("step[TARGET_VERIFY bs=8 g_sq=48 g_sqsq=288 g_sqsk=98304 g_sk=16384]");
        QVERIFY(f.valid && !f.draft);
        QCOMPARE(f.mode, std::string("TARGET_VERIFY"));
        QCOMPARE(*f.bs, int64_t(8));
        QCOMPARE(*f.gSq, int64_t(48));
        f = parseForwardSpanName("draft step[DECODE bs=8]");
        QVERIFY(f.valid && f.draft);
        QVERIFY(!f.gSq);
        f = parseForwardSpanName(
            "step[EXTEND bs=2 toks=14721 c_sq=14721 c_sqsq=108745533 c_sqsk=108745533 c_sk=14721]");
        QCOMPARE(*f.cSq, int64_t(14721));
        QCOMPARE(f.mode, std::string("EXTEND"));
        QVERIFY(!parseForwardSpanName("scheduler.run_batch").valid);
        QVERIFY(!parseForwardSpanName("step[").valid);
        QVERIFY(!parseForwardSpanName("warmup step[DECODE bs=1]").valid);
        QVERIFY(!parseForwardSpanName("step[decode bs=1]").valid);
    }

    void recordsMatchTheirRunBatchSpansWithWindows()
    {
        QTemporaryDir dir;
        const auto t = alignedTrace(dir, records());
        const Profile& p = t->profile;
        const StepAlignment& a = p.stepRecords->alignment;
        QCOMPARE(a.method, StepAlignMethod::StepSpans);
        QCOMPARE(a.anchor, std::string("start_step"));
        QCOMPARE(*a.startStep, int64_t(100));
        QCOMPARE(a.compared, size_t(7)); // 100..103, 105..107
        QCOMPARE(a.agreeing, size_t(7));
        QCOMPARE(*a.agreement, 1.0);
        QCOMPARE(a.outside, size_t(3)); // 98, 99, 108
        QCOMPARE(a.ranks.size(), size_t(1));
        QCOMPARE(a.ranks[0].firstForwardCt, int64_t(100));
        QCOMPARE(a.ranks[0].lastForwardCt, int64_t(107));
        QVERIFY(a.unmatchedTraceSteps.empty());
        const StepAlignmentRow& r = rowOf(p, 102);
        QCOMPARE(r.status, StepMatch::Match);
        QCOMPARE(r.hostStartNs, 2 * kPeriod);
        QCOMPARE(r.hostEndNs, 2 * kPeriod + 1000);
        QCOMPARE(r.deviceStartNs, 2 * kPeriod + 2000);
        QCOMPARE(r.deviceEndNs, 2 * kPeriod + 4200);
        QCOMPARE(r.windowStartNs(), 2 * kPeriod);
        QCOMPARE(r.windowEndNs(), 2 * kPeriod + 4200);
        QCOMPARE(p.name(r.span), std::string_view("scheduler.run_batch"));
        QCOMPARE(rowOf(p, 98).status, StepMatch::OutsideTrace);
        QVERIFY(!rowOf(p, 98).hasWindow());
        QCOMPARE(rowOf(p, 105).hostStartNs, 5 * kPeriod);
    }

    void aWrongBsIsShownAsAMismatch()
    {
        QTemporaryDir dir;
        const auto t = alignedTrace(dir, records({}, {101, 99}));
        const Profile& p = t->profile;
        const StepAlignment& a = p.stepRecords->alignment;
        QCOMPARE(a.mismatched, size_t(1));
        QCOMPARE(a.agreeing, size_t(6));
        QCOMPARE(*a.agreement, 6.0 / 7.0);
        const StepAlignmentRow& r = rowOf(p, 101);
        QCOMPARE(r.status, StepMatch::Mismatch);
        QCOMPARE(r.note, QStringLiteral("bs=6 in the trace, 99 in the record"));
        QCOMPARE(r.hostStartNs, 1 * kPeriod); // still shown where it sits
    }

    void aSpanMissingFromTheTraceShiftsTheRestAndIsReported()
    {
        QTemporaryDir dir;
        const auto t = alignedTrace(dir, records(), {102});
        const Profile& p = t->profile;
        const StepAlignment& a = p.stepRecords->alignment;
        QCOMPARE(rowOf(p, 102).status, StepMatch::NoTraceStep);
        QVERIFY(!rowOf(p, 102).hasWindow());
        QCOMPARE(rowOf(p, 103).status, StepMatch::Match);
        QCOMPARE(rowOf(p, 103).hostStartNs, 3 * kPeriod); // trace index 3 (its iteration kept its time)
        QCOMPARE(a.noTraceStep, size_t(1));
        QCOMPARE(a.agreeing, size_t(6));
        QCOMPARE(*a.agreement, 6.0 / 7.0);
        QVERIFY(notesContain(a, QStringLiteral("no trace step for forward_ct 102–102")));
    }

    void aDecodeStepWithoutRecordIsListed()
    {
        QTemporaryDir dir;
        const auto t = alignedTrace(dir, records({106}));
        const Profile& p = t->profile;
        const StepAlignment& a = p.stepRecords->alignment;
        QCOMPARE(a.unmatchedTraceSteps.size(), size_t(1));
        QCOMPARE(a.unmatchedTraceSteps[0].forwardCt, int64_t(106));
        QCOMPARE(a.unmatchedTraceSteps[0].hostStartNs, 6 * kPeriod);
        QCOMPARE(a.unmatchedTraceSteps[0].name,
                 std::string("step[TARGET_VERIFY bs=11 g_sq=44 g_sqsq=1 g_sqsk=2 g_sk=3]"));
        QCOMPARE(a.compared, size_t(7));
        QCOMPARE(*a.agreement, 6.0 / 7.0);
    }

    void withoutStartStepTheWorkloadPlacesTheTrace()
    {
        QTemporaryDir dir;
        const auto t = alignedTrace(dir, records(), {}, nullptr);
        const Profile& p = t->profile;
        const StepAlignment& a = p.stepRecords->alignment;
        QCOMPARE(a.anchor, std::string("workload"));
        QVERIFY(!a.startStep);
        QCOMPARE(a.ranks[0].firstForwardCt, int64_t(100));
        QCOMPARE(*a.agreement, 1.0);
        QVERIFY(notesContain(a, QStringLiteral("start_step unknown")));
    }

    void withoutStartStepLongRunsOfOneBsFindTheTracedOffset_data()
    {
        QTest::addColumn<int>("records");
        QTest::addColumn<int>("traceSteps");
        QTest::addColumn<int>("gap");
        QTest::addColumn<int>("block");
        QTest::addColumn<bool>("bsConstant");
        QTest::newRow("bench_steps shape, 70 000 records, 1 000 steps") << 70000 << 1000 << 50 << 400 << false;
        QTest::newRow("blocks of 40, a prefill every 5") << 20000 << 2000 << 5 << 40 << false;
        QTest::newRow("one bs, token counts change per block") << 70000 << 1000 << 50 << 400 << true;
        QTest::newRow("one bs, token counts change per block of 40, a prefill every 5")
            << 60000 << 3000 << 5 << 40 << true;
    }

    // bs constant over blocks of steps: offsets inside a block, and blocks of the same bs elsewhere,
    // match almost every step; only the bs changes and the prefills pin the traced offset.
    void withoutStartStepLongRunsOfOneBsFindTheTracedOffset()
    {
        QFETCH(int, records);
        QFETCH(int, traceSteps);
        QFETCH(int, gap);
        QFETCH(int, block);
        QFETCH(bool, bsConstant);
        const LongRun run{gap, block, bsConstant};
        const StepRecordSet set = run.records(records);
        Profile p;
        const int64_t first = records / 2;
        run.trace(p, records, first, traceSteps);
        const StepAlignment a = alignSteps(p, set);
        QCOMPARE(a.anchor, std::string("workload"));
        QCOMPARE(a.ranks.size(), size_t(1));
        QCOMPARE(a.ranks[0].firstForwardCt, run.forwardCt(first));
        QCOMPARE(*a.agreement, 1.0);
        QCOMPARE(a.mismatched, size_t(0));
        QVERIFY(!notesContain(a, QStringLiteral("fit the records equally well")));
    }

    void aStartStepOffByOneIsCorrectedAndSaid()
    {
        QTemporaryDir dir;
        const auto t = alignedTrace(dir, records(), {}, "99");
        const Profile& p = t->profile;
        const StepAlignment& a = p.stepRecords->alignment;
        QCOMPARE(a.ranks[0].firstForwardCt, int64_t(100));
        QCOMPARE(*a.agreement, 1.0);
        QVERIFY(notesContain(a, QStringLiteral("first step is placed at forward_ct 100, start_step is 99")));
    }

    void forwardSpansAloneAreIterationsWhenRunBatchIsAbsent()
    {
        QTemporaryDir dir;
        TraceBuilder t;
        for (int64_t f = 100; f <= 107; ++f)
            t.iteration(static_cast<int>(f - 100), f, f == 104, /*withRunBatch=*/false);
        Profile& p = t.profile;
        p.metadata["profiler_metadata.start_step"] = "100";
        loadRecords(p, dir, records());
        p.finalize();
        alignStepRecords(p);
        const StepAlignment& a = p.stepRecords->alignment;
        QCOMPARE(a.method, StepAlignMethod::StepSpans);
        QCOMPARE(*a.agreement, 1.0);
        const StepAlignmentRow& r = rowOf(p, 101);
        QCOMPARE(r.hostStartNs, kPeriod + 100); // the draft span joins the verify span
        QCOMPARE(r.hostEndNs, kPeriod + 900);
        QCOMPARE(r.deviceStartNs, kPeriod + 2000);
    }

    void eachDpRankFindsTheTraceRankWithItsWorkload()
    {
        QTemporaryDir dir;
        TraceBuilder t0(0);
        t0.iterations(100, 107);
        TraceBuilder t1(1, &t0.profile);
        t1.bsDelta = 100;
        for (int64_t f = 100; f <= 107; ++f)
            t1.iteration(static_cast<int>(f - 100), f, f == 104, true, &t0.profile);
        Profile& p = t0.profile;
        p.metadata["profiler_metadata.start_step"] = "100";
        // Rank 1's records are in server_info order: DP rank 1 has the bigger batches.
        loadRecords(p, dir, records({}, {-1, 0}, 100), "records_dp1.jsonl");
        loadRecords(p, dir, records(), "records_dp0.jsonl");
        p.finalize();
        alignStepRecords(p);
        const StepAlignment& a = p.stepRecords->alignment;
        QCOMPARE(a.ranks.size(), size_t(2));
        QCOMPARE(a.ranks[0].dpRank, 0);
        QCOMPARE(a.ranks[0].traceRankNumber, 0);
        QCOMPARE(a.ranks[1].dpRank, 1);
        QCOMPARE(a.ranks[1].traceRankNumber, 1);
        QCOMPARE(*a.agreement, 1.0);
        // Device windows stay on the trace rank's own device.
        QCOMPARE(rowOf(p, 103, 1).deviceStartNs, 3 * kPeriod + 2000);
    }

    // Fallback spans carry no bs or token counts: only a step's length can be checked, against
    // step_cpu_ms (else step_gpu_ms) within a factor of 2. The records say step_gpu_ms = 9.5 ms.
    void stepTimeSpansAreAFallbackCheckedByStepLength()
    {
        QTemporaryDir dir;
        Profile p;
        const int rank = p.ensureRank(0, 0);
        const uint32_t steps = p.laneFor({LaneKind::Host, rank, -1, -1, -1, "Steps", "STEP_TIME", 0, true});
        constexpr TimeNs period = 10'000'000; // 10 ms steps of 9.6 ms and one of 30 ms (30 > 2 x 9.5)
        for (int i = 0; i < 4; ++i)
            p.lanes[steps].append(i * period, i == 2 ? 3 * period : 9'600'000,
                                  p.strings.intern("Step " + std::to_string(i + 1)), EventKind::Annotation);
        p.metadata["profiler_metadata.start_step"] = "100";
        loadRecords(p, dir, records());
        p.finalize();
        alignStepRecords(p);
        const StepAlignment& a = p.stepRecords->alignment;
        QCOMPARE(a.method, StepAlignMethod::StepTimeSpans);
        QCOMPARE(a.compared, size_t(4)); // 100..103 placed on the 4 spans
        QCOMPARE(a.agreeing, size_t(3));
        QCOMPARE(*a.agreement, 0.75);
        QVERIFY(a.attached);
        QCOMPARE(rowOf(p, 101).status, StepMatch::Match);
        QCOMPARE(rowOf(p, 102).status, StepMatch::Mismatch);
        QCOMPARE(rowOf(p, 102).note, QStringLiteral("the trace step lasts 30.000 ms, the record's step 9.500 ms"));
        QCOMPARE(rowOf(p, 102).hostStartNs, 2 * period);
        QCOMPARE(rowOf(p, 105).status, StepMatch::OutsideTrace);
        QVERIFY(notesContain(a, QStringLiteral("aligned by order to STEP_TIME spans")));
    }

    // Records whose steps are 1000x longer than the trace's (another run): agreement 0 < 0.5, so they are
    // listed as not matched, with no window, until attached by hand.
    void recordsThatDisagreeAreNotAttachedUntilAskedTo()
    {
        QTemporaryDir dir;
        Profile p;
        const int rank = p.ensureRank(0, 0);
        const uint32_t host = p.laneFor({LaneKind::Host, rank, -1, -1, 7, "Python", "Thread 7", 0});
        for (int i = 0; i < 3; ++i)
            p.lanes[host].append(i * kPeriod, kPeriod - 10, p.strings.intern("ProfilerStep#" + std::to_string(i + 5)),
                                 EventKind::TorchOp);
        loadRecords(p, dir, records());
        p.finalize();
        alignStepRecords(p);
        StepAlignment& a = p.stepRecords->alignment;
        QCOMPARE(a.method, StepAlignMethod::ProfilerStepSpans);
        QCOMPARE(a.anchor, std::string("first_record"));
        QCOMPARE(a.compared, size_t(3));
        QCOMPARE(a.agreeing, size_t(0));
        QVERIFY(!a.attached);
        QCOMPARE(a.refusal, QStringLiteral("The step records do not match this profile: 0 of 3 compared steps agree "
                                           "(0.0 %), below the 50 % needed"));
        QCOMPARE(rowOf(p, 98).status, StepMatch::NotMatched);
        QVERIFY(!rowOf(p, 98).hasWindow());
        QVERIFY(stepWindows(p).empty()); // no per-step analysis
        const nlohmann::ordered_json doc = stepsJson(p);
        QVERIFY(doc["alignment"]["aligned"] == false);
        QCOMPARE(doc["alignment"]["agreement"].get<double>(), 0.0);
        QCOMPARE(doc["steps"][0]["alignment"].get<std::string>(), std::string("not_matched"));

        a.attachAnyway(); // the user's choice: the alignment found comes back
        QVERIFY(a.attached && a.attachedByHand);
        QCOMPARE(rowOf(p, 98).hostStartNs, TimeNs(0)); // no start_step: the first record on the first span
        QCOMPARE(rowOf(p, 100).hostStartNs, 2 * kPeriod);
        QCOMPARE(rowOf(p, 100).status, StepMatch::Mismatch);
        QCOMPARE(stepWindows(p).size(), size_t(3));
        QVERIFY(notesContain(a, QStringLiteral("ProfilerStep#N")));
    }

    void aTraceWithoutStepSpansIsNotAligned()
    {
        QTemporaryDir dir;
        Profile p;
        const int rank = p.ensureRank(0, 0);
        const uint32_t host = p.laneFor({LaneKind::Host, rank, -1, -1, 7, "Python", "Thread 7", 0});
        p.lanes[host].append(0, 10, p.strings.intern("aten::add"), EventKind::TorchOp);
        loadRecords(p, dir, records());
        p.finalize();
        alignStepRecords(p);
        const StepAlignment& a = p.stepRecords->alignment;
        QVERIFY(!a.aligned());
        QVERIFY(a.rows.empty());
        QVERIFY(notesContain(a, QStringLiteral("cannot be placed on the timeline")));
        const nlohmann::ordered_json doc = stepsJson(p);
        QVERIFY(!doc.contains("alignment"));
        QVERIFY(!doc["steps"][0].contains("window_start_ns"));
    }

    // The iteration span is the step_span rule's, not a name in the code; a lane is the profiler's
    // step lane by what its loader says, not by being called "Steps / STEP_TIME".
    void theStepSpanRuleAndTheLoadersStepLaneAreWhatCount()
    {
        QTemporaryDir dir;
        Profile p;
        const int rank = p.ensureRank(0, 0);
        const uint32_t host = p.laneFor({LaneKind::Host, rank, -1, -1, 7, "Python", "Thread 7", 0});
        const uint32_t named = p.laneFor({LaneKind::Host, rank, -1, -1, -1, "Steps", "STEP_TIME", 0});
        for (int i = 0; i < 4; ++i) {
            p.lanes[host].append(i * kPeriod, 1000, p.strings.intern("engine.loop_iter"), EventKind::Annotation);
            p.lanes[named].append(i * kPeriod, 9'600'000, p.strings.intern("Step"), EventKind::Annotation);
        }
        p.metadata["profiler_metadata.start_step"] = "100";
        loadRecords(p, dir, records());
        p.finalize();
        QCOMPARE(alignSteps(p, *p.stepRecords).method, StepAlignMethod::None);

        NameRule loop;
        QVERIFY(loop.setPatterns({QStringLiteral("^engine\\.loop_iter$")}).isEmpty());
        const StepAlignment a = alignSteps(p, *p.stepRecords, loop);
        QCOMPARE(a.method, StepAlignMethod::StepSpans);
        QCOMPARE(a.ranks.size(), size_t(1));
        QCOMPARE(a.ranks[0].firstForwardCt, int64_t(100));
        QCOMPARE(a.ranks[0].lastForwardCt, int64_t(103));
        QCOMPARE(a.ranks[0].traceRankIndex, rank);
        QCOMPARE(a.ranks[0].traceRankNumber, 0);
        StepAlignMethod method = StepAlignMethod::None;
        const std::vector<TraceStep> steps = collectTraceSteps(p, rank, loop, method);
        QCOMPARE(method, StepAlignMethod::StepSpans);
        QCOMPARE(steps.size(), size_t(4));
        QCOMPARE(steps[2].hostStartNs, 2 * kPeriod);
        QCOMPARE(steps[2].hostEndNs, 2 * kPeriod + 1000);
    }

    void theStepsJsonCarriesWindowsAndTheAlignment()
    {
        QTemporaryDir dir;
        const auto t = alignedTrace(dir, records({}, {101, 99}), {102});
        const Profile& p = t->profile;
        const nlohmann::ordered_json doc = stepsJson(p);
        const auto& steps = doc["steps"];
        QCOMPARE(steps.size(), size_t(10));
        for (const auto& s : steps) {
            QVERIFY(s.contains("window_start_ns") && s.contains("window_end_ns"));
            for (const std::string& key : dspark::test::stepsJsonContract())
                QVERIFY2(s.contains(key), key.c_str());
        }
        const auto& s103 = steps[5]; // 98, 99, 100, 101, 102, 103
        QCOMPARE(s103["forward_ct"].get<int64_t>(), int64_t(103));
        QCOMPARE(s103["window_start_ns"].get<int64_t>(), 3 * kPeriod);
        QCOMPARE(s103["window_end_ns"].get<int64_t>(), 3 * kPeriod + 4200);
        QCOMPARE(s103["alignment"].get<std::string>(), std::string("match"));
        QCOMPARE(s103["unattributed_ms"].get<double>(), 1.5); // 9.5 − 2 − 6
        QVERIFY(s103["mean_commit_len"].is_null());           // no reqs recorded
        QVERIFY(s103["anomaly"].is_null());
        QVERIFY(steps[0]["window_start_ns"].is_null()); // 98: outside the trace
        QCOMPARE(steps[0]["alignment"].get<std::string>(), std::string("outside_trace"));
        const auto& al = doc["alignment"];
        QCOMPARE(al["method"].get<std::string>(), std::string("step_spans"));
        QCOMPARE(al["agreement"].get<double>(), 5.0 / 7.0);
        QCOMPARE(al["compared"].get<int>(), 7);
        QCOMPARE(al["mismatches"].size(), size_t(2)); // 101 (bs) and 102 (not in the trace)
        QCOMPARE(al["mismatches"][0]["forward_ct"].get<int>(), 101);
        QCOMPARE(al["mismatches"][1]["status"].get<std::string>(), std::string("no_trace_step"));
        QCOMPARE(al["ranks"][0]["trace_rank"].get<int>(), 0);
        QCOMPARE(al["start_step"].get<int>(), 100);
    }
};

QTEST_GUILESS_MAIN(TestStepAlignment)
#include "tst_stepalignment.moc"
