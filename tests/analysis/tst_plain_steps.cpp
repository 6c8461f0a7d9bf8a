// Steps of profiles without DSpark records: ProfilerStep#N spans of real Kineto and torch_npu files,
// scheduler iterations of a hand-built trace (anomaly by hand), and the `steps` / `kernels` CLI.
#include "analysis/PlainSteps.h"
#include "io/ProfileLoader.h"
#include "io/ProfilerCsv.h"
#include "util/Gzip.h"

#include "DbTestSupport.h"
#include "TestSupport.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace dspark;
using namespace dspark::test;

namespace {

// The ProfilerStep#N events of a gzipped Kineto trace, read here with nlohmann: (N, dur in ns).
std::vector<std::pair<int64_t, int64_t>> kinetoProfilerSteps(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray gz = f.readAll();
    HeapBytes raw;
    std::string error;
    if (gunzip(gz.constData(), gz.size(), 0, raw, error) != GunzipResult::Ok)
        return {};
    const nlohmann::json doc = nlohmann::json::parse(std::string(raw.data(), raw.size()));
    std::vector<std::pair<int64_t, int64_t>> out;
    for (const auto& e : doc["traceEvents"]) {
        const std::string name = e.value("name", "");
        if (name.rfind("ProfilerStep#", 0) == 0)
            out.push_back({std::stoll(name.substr(13)), std::llround(e["dur"].get<double>() * 1000.0)});
    }
    return out;
}

void writeText(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

// A Kineto trace of rank `rank`: ProfilerStep#(first + k) spans of `walls` µs one after the other on a
// CPU thread, from ts 1000 µs; no device work.
QByteArray kinetoSteps(int rank, int first, const std::vector<int>& walls)
{
    QByteArray out = "{\"distributedInfo\":{\"rank\":" + QByteArray::number(rank) + "},\"traceEvents\":[";
    int ts = 1000;
    for (size_t k = 0; k < walls.size(); ++k) {
        out += QByteArray(k ? "," : "") + "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#" +
               QByteArray::number(first + int(k)) + "\",\"pid\":10,\"tid\":11,\"ts\":" + QByteArray::number(ts) +
               ",\"dur\":" + QByteArray::number(walls[k]) + "}";
        ts += walls[k];
    }
    return out + "]}";
}

} // namespace

class TestPlainSteps : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void kinetoProfilerSteps()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString real = realData(QStringLiteral("kineto/a100_2rank_nccl_rank0.pt.trace.json.gz"));
        const auto expected = ::kinetoProfilerSteps(real);
        QCOMPARE(expected.size(), size_t(3));
        // A renamed copy: the file's name says nothing.
        QTemporaryDir tmp;
        const QString copy = tmp.filePath(QStringLiteral("trace_a.json.gz"));
        QVERIFY(QFile::copy(real, copy));
        const LoadOutcome loaded = loadProfile(copy.toStdString());
        QVERIFY2(loaded.profile, qPrintable(loaded.error));
        const PlainSteps steps = analyzePlainSteps(*loaded.profile, AnalysisRules::builtin());
        QCOMPARE(steps.source, StepSource::ProfilerStep);
        QCOMPARE(steps.steps.size(), size_t(3));
        for (size_t i = 0; i < 3; ++i) {
            const PlainStep& s = steps.steps[i];
            QCOMPARE(s.window.forwardCt, expected[i].first);
            QCOMPARE(s.window.wallNs(), expected[i].second); // 222 442 191, 219 726 905, 224 936 243 ns
            TimeNs path = 0;
            for (TimeNs v : s.criticalPathNs)
                path += v;
            QCOMPARE(path, s.window.wallNs());
            QVERIFY(s.computingNs > 0);
            QVERIFY(s.deviceBusyNs >= s.computingNs);
            QVERIFY(!s.topKernels.empty());
            QVERIFY(s.anomaly.isEmpty()); // three steps: too few to call one an anomaly
        }
    }

    void torchNpuDatabaseProfilerStep()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QTemporaryDir tmp;
        const QString db = copyTorchDb(tmp.path(), QStringLiteral("x.db"));
        const LoadOutcome loaded = loadProfile(tmp.path().toStdString());
        QVERIFY2(loaded.profile, qPrintable(loaded.error));
        const PlainSteps steps = analyzePlainSteps(*loaded.profile, AnalysisRules::builtin());
        QCOMPARE(steps.source, StepSource::ProfilerStep);
        QCOMPARE(steps.steps.size(), size_t(1));
        const PlainStep& s = steps.steps.front();
        QCOMPARE(s.window.forwardCt, int64_t(50));
        const qint64 wall =
            queryInt(db, QStringLiteral("SELECT p.endNs - p.startNs FROM PYTORCH_API p JOIN STRING_IDS s "
                                        "ON s.id = p.name WHERE s.value = 'ProfilerStep#50'"));
        QCOMPARE(wall, qint64(151888750));
        QCOMPARE(s.window.wallNs(), wall);
        // Its device work is the profile's (one step): analysis.db StepTraceTime 8903.431 µs computing.
        QCOMPARE(s.computingNs, TimeNs(8903431));
        QCOMPARE(s.commNotOverlappedNs, TimeNs(98071947));
    }

    void textExportAgreesWithStepTraceTime()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString dir = realData(QStringLiteral("ascend/torch_npu_text_rank0_ascend_pt"));
        const LoadOutcome loaded = loadProfile(dir.toStdString());
        QVERIFY2(loaded.profile, qPrintable(loaded.error));
        const PlainSteps steps = analyzePlainSteps(*loaded.profile, AnalysisRules::builtin());
        QCOMPARE(steps.source, StepSource::ProfilerStep);
        QCOMPARE(steps.steps.size(), size_t(1));
        QString error;
        const auto csv =
            readStepTraceTimeCsv(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(csv.size(), size_t(1));
        QCOMPARE(*csv[0].step, int64_t(50));
        QCOMPARE(csv[0].computingNs, TimeNs(8873756));
        const PlainStep& s = steps.steps.front();
        QCOMPARE(s.window.forwardCt, int64_t(50));
        // msprof rounds each task end from its raw counters; the trace's `dur` has sub-ns digits
        // (docs/analysis.md §2): within 16 ns on computing, 1 µs on the rest.
        QVERIFY2(std::abs(s.computingNs - csv[0].computingNs) <= 16, qPrintable(QString::number(s.computingNs)));
        QVERIFY2(std::abs(s.commNotOverlappedNs - csv[0].communicationNotOverlappedNs) <= 1000,
                 qPrintable(QString::number(s.commNotOverlappedNs)));
    }

    void schedulerIterationsAndAnAnomaly()
    {
        // Seven scheduler.run_batch spans of 1000 ns (one of 1500): each launches one kernel of 400 ns.
        auto profile = std::make_shared<Profile>();
        Profile& p = *profile;
        const int rank = p.ensureRank(0, 0);
        const uint32_t host = p.laneFor({LaneKind::Host, rank, -1, -1, 1, "Python", "Thread 1", 0});
        const uint32_t s2 = p.laneFor({LaneKind::NpuStream, rank, 0, 2, -1, "Ascend Hardware", "Stream 2", 0});
        TimeNs t = 0;
        for (int i = 0; i < 7; ++i) {
            const TimeNs wall = i == 4 ? 1500 : 1000 + i; // a little jitter, one step far out
            p.lanes[host].append(t, wall, p.strings.intern("scheduler.run_batch"), EventKind::TorchOp);
            p.lanes[s2].append(t + 100, 400, p.strings.intern(i % 2 ? "MatMul" : "Add"), EventKind::Kernel);
            t += wall;
        }
        p.finalize();
        const PlainSteps steps = analyzePlainSteps(p, AnalysisRules::builtin());
        QCOMPARE(steps.source, StepSource::StepSpans);
        QCOMPARE(steps.steps.size(), size_t(7));
        for (size_t i = 0; i < steps.steps.size(); ++i) {
            const PlainStep& s = steps.steps[i];
            QCOMPARE(s.window.forwardCt, int64_t(i)); // no number in the name: the order
            QCOMPARE(s.computingNs, TimeNs(400));
            QCOMPARE(s.deviceBusyNs, TimeNs(400));
            QCOMPARE(s.topKernels.size(), size_t(1));
            QCOMPARE(s.topKernels.front().name, std::string(i % 2 ? "MatMul" : "Add"));
            // Median wall 1003 (1000..1006 without step 4's 1500): only step 4 is far out.
            QCOMPARE(s.anomaly.isEmpty(), i != 4);
        }
        QVERIFY(steps.steps[4].anomaly.contains(QStringLiteral("1500")) ||
                steps.steps[4].anomaly.contains(QStringLiteral("0.002")));
    }

    void stepsRankOptionWithoutRecords()
    {
        // Rank 0: ProfilerStep#1, #2 of 1000 and 1100 µs; rank 1: ProfilerStep#1 of 900 µs.
        QTemporaryDir dir;
        writeText(dir.filePath(QStringLiteral("a.json")), kinetoSteps(0, 1, {1000, 1100}));
        writeText(dir.filePath(QStringLiteral("b.json")), kinetoSteps(1, 1, {900}));
        CliResult r = runCli({"steps", dir.path(), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.json()["steps"].size(), size_t(3));
        r = runCli({"steps", dir.path(), "--rank", "1", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        nlohmann::json doc = r.json();
        QCOMPARE(doc["steps"].size(), size_t(1));
        QCOMPARE(doc["steps"][0]["rank"].get<int>(), 1);
        QCOMPARE(doc["steps"][0]["wall_ns"].get<int64_t>(), int64_t(900'000));
        r = runCli({"steps", dir.path(), "--rank", "0", "--csv"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.count('\n'), 3); // header + 2 steps
        QVERIFY(r.out.contains("\nprofiler_step,0,1,"));
        QVERIFY(r.out.contains("\nprofiler_step,0,2,"));
        r = runCli({"steps", dir.path(), "--rank", "5"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no steps for rank 5 (ranks: 0, 1)"), r.err.constData());
    }

    void kernelDetailsReadOncePerProfile()
    {
        // Four ProfilerStep spans and no device lane: every step's top kernels come from
        // kernel_details.csv (step k: "K<k>" of k µs twice and "Common" of 1 µs), read once for all.
        QTemporaryDir dir;
        writeText(dir.filePath(QStringLiteral("trace.json")), kinetoSteps(0, 1, {100, 100, 100, 100}));
        QByteArray csv = "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us)\n";
        for (int k = 1; k <= 4; ++k)
            for (const auto& [name, dur] :
                 {std::pair{"K" + std::to_string(k), k}, {"K" + std::to_string(k), k}, {std::string("Common"), 1}})
                csv += QByteArray::number(k) + "," + QByteArray::fromStdString(name) + ",Op,AI_CORE," +
                       QByteArray::number(1000 + 100 * k) + "," + QByteArray::number(dur) + "\n";
        writeText(dir.filePath(QStringLiteral("kernel_details.csv")), csv);
        const LoadOutcome loaded = loadProfile(dir.path().toStdString());
        QVERIFY2(loaded.profile, qPrintable(loaded.error));
        const uint64_t before = kernelDetailsReadCount();
        const PlainSteps steps = analyzePlainSteps(*loaded.profile, AnalysisRules::builtin());
        QCOMPARE(kernelDetailsReadCount() - before, uint64_t(1));
        QCOMPARE(steps.steps.size(), size_t(4));
        for (size_t i = 0; i < 4; ++i) {
            const PlainStep& s = steps.steps[i];
            const int k = int(i) + 1;
            QCOMPARE(s.window.forwardCt, int64_t(k));
            QCOMPARE(s.topKernels.size(), size_t(2));
            QCOMPARE(s.topKernels[0].name, "K" + std::to_string(k));
            QCOMPARE(s.topKernels[0].figures.count, uint64_t(2));
            QCOMPARE(s.topKernels[0].figures.totalNs, TimeNs(2'000 * k));
            QCOMPARE(s.topKernels[1].name, std::string("Common"));
            // The same as the one-off summary of that step, which reads the file again.
            KernelQuery q;
            q.step = k;
            const KernelSummary alone = summarizeKernels(*loaded.profile, q);
            QCOMPARE(alone.source, KernelSource::KernelDetailsCsv);
            QCOMPARE(alone.kernels.front().figures.totalNs, s.topKernels[0].figures.totalNs);
        }
        QCOMPARE(kernelDetailsReadCount() - before, uint64_t(1 + 4));
    }

    void ncclKernelsAreCommunication()
    {
        // Kineto, one step [0, 100 µs) of rank 0, on stream 20 one after the other: "gemm" [10, 30),
        // ncclDevKernel_AllReduce [30, 80), ncclKernel_Broadcast [80, 90). By hand: device busy 80 µs,
        // computing 20, communication not overlapped 60; the critical path walks the stream back from the
        // last kernel: 60 µs communication, 20 compute, the rest host / idle; the kernel summary files
        // both NCCL kernels as communication, 60 of the 80 µs.
        QTemporaryDir dir;
        const QByteArray trace = R"json({"distributedInfo":{"rank":0},"traceEvents":[
{"ph":"X","cat":"user_annotation","name":"ProfilerStep#3","pid":10,"tid":11,"ts":1000,"dur":100},
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":20,"ts":1010,"dur":20,"args":{"device":0,"stream":20}},
{"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
 "pid":0,"tid":20,"ts":1030,"dur":50,"args":{"device":0,"stream":20}},
{"ph":"X","cat":"kernel","name":"ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
 "pid":0,"tid":20,"ts":1080,"dur":10,"args":{"device":0,"stream":20}}]})json";
        writeText(dir.filePath(QStringLiteral("t.json")), trace);
        const LoadOutcome loaded = loadProfile(dir.filePath(QStringLiteral("t.json")).toStdString());
        QVERIFY2(loaded.profile, qPrintable(loaded.error));
        const PlainSteps steps = analyzePlainSteps(*loaded.profile, AnalysisRules::builtin());
        QCOMPARE(steps.steps.size(), size_t(1));
        const PlainStep& s = steps.steps.front();
        QCOMPARE(s.computingNs, TimeNs(20'000));
        QCOMPARE(s.commNotOverlappedNs, TimeNs(60'000));
        QCOMPARE(s.deviceBusyNs, TimeNs(80'000));
        const auto path = [&s](PlainPathCategory c) { return s.criticalPathNs[size_t(c)]; };
        QCOMPARE(path(PlainPathCategory::Compute), TimeNs(20'000));
        QCOMPARE(path(PlainPathCategory::Communication), TimeNs(60'000));
        QCOMPARE(path(PlainPathCategory::Compute) + path(PlainPathCategory::Communication) +
                     path(PlainPathCategory::Host) + path(PlainPathCategory::Idle),
                 TimeNs(100'000));
        const KernelSummary k = summarizeKernels(*loaded.profile, {});
        QCOMPARE(k.kernels.size(), size_t(3));
        QCOMPARE(k.deviceNs, TimeNs(80'000));
        for (const KernelRow& row : k.kernels)
            QCOMPARE(row.core, std::string(row.name == "gemm" ? "GPU kernel" : "communication"));
        QCOMPARE(k.byCore.size(), size_t(2));
        QCOMPARE(k.byCore[0].key, std::string("communication"));
        QCOMPARE(k.byCore[0].figures.totalNs, TimeNs(60'000));
        QCOMPARE(k.byCore[1].key, std::string("GPU kernel"));
        QCOMPARE(k.byCore[1].figures.totalNs, TimeNs(20'000));
    }

    void stepsAndKernelsCli()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString db = realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt"));
        CliResult r = runCli({"steps", db, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        nlohmann::json doc = r.json();
        QCOMPARE(doc["source"].get<std::string>(), std::string("profiler_step"));
        QCOMPARE(doc["steps"].size(), size_t(1));
        QCOMPARE(doc["steps"][0]["step"].get<int64_t>(), int64_t(50));
        QCOMPARE(doc["steps"][0]["wall_ns"].get<int64_t>(), int64_t(151888750));
        QCOMPARE(doc["steps"][0]["computing_ns"].get<int64_t>(), int64_t(8903431));

        r = runCli({"steps", db});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("ProfilerStep#N spans"), r.out.constData());
        QVERIFY(r.out.contains("151.889"));
        QVERIFY(r.out.contains("1 steps, 0 anomalous"));

        r = runCli({"steps", db, "--csv"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("source,rank,step,start_ns,end_ns,wall_ns"));
        QVERIFY(r.out.contains("\nprofiler_step,0,50,"));

        r = runCli({"analyze", db, "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json()["profiler_steps"]["steps"][0]["wall_ns"].get<int64_t>(), int64_t(151888750));

        r = runCli({"kernels", db, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        doc = r.json();
        QCOMPARE(doc["source"].get<std::string>(), std::string("timeline"));
        uint64_t count = 0;
        for (const auto& k : doc["kernels"])
            count += k["count"].get<uint64_t>();
        QCOMPARE(count, uint64_t(187 + 4)); // COMPUTE_TASK_INFO rows + COMMUNICATION_OP rows
        QCOMPARE(doc["by_core"].size(), size_t(5));

        r = runCli({"kernels", db, "--step", "50", "--csv"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("name,core,count,total_ns,mean_ns,p50_ns,p90_ns,max_ns,share\n"));
        QCOMPARE(r.out.count('\n'), doc["kernels"].size() + 1);

        r = runCli({"kernels", db});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("source: the timeline's device tasks"));
        QVERIFY(r.out.contains("AI Vector"));

        r = runCli({"kernels", db, "--step", "7"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("no step 7"));
        r = runCli({"kernels", db, "--from", "5", "--to", "1"});
        QCOMPARE(r.exitCode, 2);
        // A range: the first 10 ms after the profile's first event hold fewer kernels.
        r = runCli({"kernels", db, "--from", "0", "--to", "10", "--json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.json()["range_ns"].is_array());
        QVERIFY(r.json()["device_ns"].get<int64_t>() < doc["device_ns"].get<int64_t>());
    }
};

QTEST_GUILESS_MAIN(TestPlainSteps)
#include "tst_plain_steps.moc"
