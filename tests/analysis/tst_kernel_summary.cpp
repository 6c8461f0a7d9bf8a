// The kernel summary: the real torch_npu database against GROUP BY, the real text export against its
// kernel_details.csv, the CSV alone when the timeline has no kernels, percentiles worked out by hand.
#include "analysis/KernelSummary.h"
#include "io/ProfileLoader.h"
#include "io/ProfilerCsv.h"

#include "DbTestSupport.h"
#include "TestSupport.h"

#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace dspark;
using namespace dspark::test;

namespace {

const KernelRow* kernelNamed(const KernelSummary& s, const std::string& name)
{
    for (const KernelRow& r : s.kernels)
        if (r.name == name)
            return &r;
    return nullptr;
}

const KernelGroupRow* coreNamed(const KernelSummary& s, const std::string& core)
{
    for (const KernelGroupRow& r : s.byCore)
        if (r.key == core)
            return &r;
    return nullptr;
}

QString textExport()
{
    return realData(QStringLiteral("ascend/torch_npu_text_rank0_ascend_pt"));
}

} // namespace

class TestKernelSummary : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void percentilesByHand()
    {
        auto profile = std::make_shared<Profile>();
        const int rank = profile->ensureRank(0, 0);
        const uint32_t s2 = profile->laneFor({LaneKind::NpuStream, rank, 0, 2, -1, "Ascend Hardware", "Stream 2", 0});
        const uint32_t k = profile->strings.intern("k"), other = profile->strings.intern("other");
        // k: 10, 20, ..., 100 ns back to back; one "other" kernel of 450 ns; one memcpy (not summarised).
        TimeNs t = 0;
        for (int i = 1; i <= 10; ++i) {
            profile->lanes[s2].append(t, 10 * i, k, EventKind::Kernel);
            t += 10 * i;
        }
        profile->lanes[s2].append(t, 450, other, EventKind::Kernel);
        profile->lanes[s2].append(t + 450, 1000, profile->strings.intern("MEMCPY_ASYNC"), EventKind::Memcpy);
        profile->finalize();
        const KernelSummary s = summarizeKernels(*profile, {});
        QCOMPARE(s.source, KernelSource::Timeline);
        QCOMPARE(s.deviceNs, TimeNs(550 + 450));
        QCOMPARE(s.kernels.size(), size_t(2));
        const KernelRow& r = s.kernels.front(); // 550 ns before 450 ns
        QCOMPARE(r.name, std::string("k"));
        QCOMPARE(r.figures.count, uint64_t(10));
        QCOMPARE(r.figures.meanNs(), 55.0);
        QCOMPARE(r.figures.p50Ns, TimeNs(50)); // nearest rank: the 5th of 10
        QCOMPARE(r.figures.p90Ns, TimeNs(90)); // the 9th
        QCOMPARE(r.figures.maxNs, TimeNs(100));
        QCOMPARE(r.figures.share, 0.55);
        QCOMPARE(r.core, std::string("kernel")); // no task type in a hand-built lane
        // A range: kernels starting in [150, 450): those of 60 (starts 150), 70 (210), 80 (280), 90 (360).
        KernelQuery q;
        q.fromNs = 150;
        q.toNs = 450;
        const KernelSummary part = summarizeKernels(*profile, q);
        QCOMPARE(part.kernels.size(), size_t(1));
        QCOMPARE(part.kernels.front().figures.count, uint64_t(4));
        QCOMPARE(part.kernels.front().figures.totalNs, TimeNs(60 + 70 + 80 + 90));
        QCOMPARE(part.kernels.front().figures.p50Ns, TimeNs(70));
    }

    void torchNpuDatabaseAgainstGroupBy()
    {
        DSPARK_REQUIRE_REAL_DATA();
        // A renamed copy: nothing depends on the file's name.
        QTemporaryDir tmp;
        const QString db = copyTorchDb(tmp.path(), QStringLiteral("some_run.db"));
        QVERIFY(!db.isEmpty());
        const LoadOutcome loaded = loadProfile(tmp.path().toStdString());
        QVERIFY2(loaded.profile, qPrintable(loaded.error));
        const KernelSummary s = summarizeKernels(*loaded.profile, {});
        QCOMPARE(s.source, KernelSource::Timeline);

        const auto kernels = queryRows(
            db,
            QStringLiteral("SELECT s.value, count(*), sum(t.endNs - t.startNs), max(t.endNs - t.startNs) FROM TASK t "
                           "JOIN COMPUTE_TASK_INFO c ON c.globalTaskId = t.globalTaskId JOIN STRING_IDS s ON "
                           "s.id = c.name GROUP BY s.value UNION ALL SELECT s.value, count(*), "
                           "sum(o.endNs - o.startNs), max(o.endNs - o.startNs) FROM COMMUNICATION_OP o JOIN "
                           "STRING_IDS s ON s.id = o.opName GROUP BY s.value"));
        QVERIFY(kernels.size() > 20);
        QCOMPARE(s.kernels.size(), kernels.size());
        TimeNs device = 0;
        for (const auto& r : kernels) {
            const KernelRow* k = kernelNamed(s, r[0]);
            QVERIFY2(k, r[0].c_str());
            QCOMPARE(k->figures.count, uint64_t(std::stoull(r[1])));
            QCOMPARE(k->figures.totalNs, TimeNs(std::stoll(r[2])));
            QCOMPARE(k->figures.maxNs, TimeNs(std::stoll(r[3])));
            device += std::stoll(r[2]);
        }
        QCOMPARE(s.deviceNs, device);
        // By core: COMPUTE_TASK_INFO's task type (AI_CORE 23, AI_VECTOR_CORE 149, MIX_AIV 13, DSA_SQE 2), HCCL 4.
        const auto cores =
            queryRows(db, QStringLiteral(
                              "SELECT s.value, count(*), sum(t.endNs - t.startNs) FROM TASK t JOIN COMPUTE_TASK_INFO c "
                              "ON c.globalTaskId = t.globalTaskId JOIN STRING_IDS s ON s.id = c.taskType GROUP BY "
                              "s.value"));
        QCOMPARE(cores.size(), size_t(4));
        for (const auto& r : cores) {
            const KernelGroupRow* g = coreNamed(s, coreLabel(r[0]));
            QVERIFY2(g, r[0].c_str());
            QCOMPARE(g->figures.count, uint64_t(std::stoull(r[1])));
            QCOMPARE(g->figures.totalNs, TimeNs(std::stoll(r[2])));
        }
        QVERIFY(coreNamed(s, "AI Vector"));
        QCOMPARE(coreNamed(s, "HCCL")->figures.count, uint64_t(4));
        QCOMPARE(s.byCore.size(), size_t(5));
    }

    void textExportAgreesWithKernelDetails()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const LoadOutcome loaded = loadProfile(textExport().toStdString());
        QVERIFY2(loaded.profile, qPrintable(loaded.error));
        const KernelSummary timeline = summarizeKernels(*loaded.profile, {});
        QCOMPARE(timeline.source, KernelSource::Timeline);
        QString error;
        const QString csvPath = textExport() + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv");
        QCOMPARE(listedProfilerCsv(*loaded.profile, "kernel_details.csv"), csvPath);
        const std::vector<KernelDetailRow> rows = readKernelDetailsCsv(csvPath, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(rows.size(), size_t(191));
        // The same kernels, counts and durations: the CSV's µs to the ns, the trace's too.
        std::map<std::string, std::pair<uint64_t, TimeNs>> byName;
        for (const KernelDetailRow& r : rows) {
            byName[r.name].first += 1;
            byName[r.name].second += r.durationNs;
        }
        QCOMPARE(timeline.kernels.size(), byName.size());
        for (const auto& [name, figures] : byName) {
            const KernelRow* k = kernelNamed(timeline, name);
            QVERIFY2(k, name.c_str());
            QCOMPARE(k->figures.count, figures.first);
            // trace_view.json's `dur` has sub-ns digits, the CSV three decimals of µs: each instance
            // rounds to the ns on its own (at most 1 ns apart).
            QVERIFY2(std::abs(k->figures.totalNs - figures.second) <= TimeNs(figures.first), name.c_str());
        }
        // The cores come from the CSV's Accelerator Core (the trace says AI_CORE for vector kernels too).
        QCOMPARE(coreNamed(timeline, "AI Vector")->figures.count, uint64_t(149));
        QCOMPARE(coreNamed(timeline, "AI Core")->figures.count, uint64_t(23));
        QCOMPARE(coreNamed(timeline, "MIX")->figures.count, uint64_t(13));
        QCOMPARE(coreNamed(timeline, "HCCL")->figures.count, uint64_t(4));
        // The CSV read alone gives the same table.
        const KernelSummary fromCsv = summarizeKernelDetailsCsv(csvPath, {});
        QCOMPARE(fromCsv.source, KernelSource::KernelDetailsCsv);
        QVERIFY(std::abs(fromCsv.deviceNs - timeline.deviceNs) <= 191);
        QCOMPARE(fromCsv.kernels.front().name, timeline.kernels.front().name);
    }

    void kernelDetailsAloneWhenTheTimelineHasNoKernels()
    {
        DSPARK_REQUIRE_REAL_DATA();
        // A host-only trace next to the real kernel_details.csv (renamed folder, copied file).
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("run/ASCEND_PROFILER_OUTPUT"));
        QVERIFY(QDir().mkpath(out));
        QVERIFY(QFile::copy(textExport() + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv"),
                            out + QStringLiteral("/kernel_details.csv")));
        QFile trace(out + QStringLiteral("/trace_view.json"));
        QVERIFY(trace.open(QIODevice::WriteOnly));
        trace.write("[{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"Python\"}},"
                    "{\"name\":\"ProfilerStep#50\",\"ph\":\"X\",\"pid\":1,\"tid\":1,"
                    "\"ts\":\"1736408883704000.000\",\"dur\":\"150000\"}]");
        trace.close();
        const LoadOutcome loaded = loadProfile(tmp.path().toStdString());
        QVERIFY2(loaded.profile, qPrintable(loaded.error));
        KernelQuery q;
        q.step = 50;
        const KernelSummary s = summarizeKernels(*loaded.profile, q);
        QCOMPARE(s.source, KernelSource::KernelDetailsCsv);
        QCOMPARE(QFileInfo(s.sourcePath).canonicalFilePath(),
                 QFileInfo(out + QStringLiteral("/kernel_details.csv")).canonicalFilePath());
        uint64_t count = 0;
        for (const KernelRow& r : s.kernels)
            count += r.figures.count;
        QCOMPARE(count, uint64_t(191));
        q.step = 51;
        QVERIFY(summarizeKernels(*loaded.profile, q).kernels.empty());
    }

    void csvLines()
    {
        QCOMPARE(splitCsvLine("50,a,\"\"\"32,3\"\"\",1.5\t,\"x\"\"y\""),
                 (std::vector<std::string>{"50", "a", "\"32,3\"", "1.5", "x\"y"}));
    }
};

QTEST_GUILESS_MAIN(TestKernelSummary)
#include "tst_kernel_summary.moc"
