// Step records per DP rank (formats.md §6): a cluster folder written by the test holds two rank folders
// (ClusterDbBuilder: profiler steps 1–4) and, beside them, a server_info.json whose internal_states[i]
// holds DP rank i's records. Each rank's steps must come from its own DP rank's records (step_gpu_ms
// chosen per rank below), and a rank without an entry keeps its profiler steps.
#include "ClusterDbBuilder.h"
#include "TestSupport.h"

#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterLoader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace dspark;
using dspark::test::ClusterDbBuilder;

namespace {

constexpr TimeNs us = 1000;

// step_gpu_ms of DP rank r's record of step s (1…4): the step's 0.9 ms (the alignment checks records
// against the trace's steps) + (10·r + s) µs, so every value names its rank and step.
double gpuMs(int r, int s)
{
    return 0.9 + (10 * r + s) / 1000.0;
}

QString writeCluster(const QString& root, int recordRanks)
{
    for (int r = 0; r < 2; ++r) {
        ClusterDbBuilder b(r, r * 40 * us);
        for (int s = 1; s <= 4; ++s) {
            b.step(s, (s - 1) * 1000 * us, s * 1000 * us - 100 * us);
            b.kernel("Forward", (s - 1) * 1000 * us + 100 * us, (s - 1) * 1000 * us + 600 * us);
            b.collective("allreduce_" + std::to_string(s), "hcom_allReduce_", "g", 8, (s - 1) * 1000 * us + 600 * us,
                         (s - 1) * 1000 * us + 700 * us);
        }
        const QString error =
            b.writeRunFolder(root + QStringLiteral("/worker%1_77_2025010108000000%1_ascend_pt").arg(r));
        if (!error.isEmpty())
            return error;
    }
    nlohmann::json states = nlohmann::json::array();
    for (int r = 0; r < recordRanks; ++r) {
        nlohmann::json records = nlohmann::json::array();
        for (int s = 1; s <= 4; ++s)
            records.push_back({{"forward_ct", s}, {"bs", 4}, {"num_verify_tokens", 16}, {"step_gpu_ms", gpuMs(r, s)}});
        states.push_back({{"dspark_info_record", {{"mode", "dspark"}, {"records", records}}}});
    }
    QFile f(root + QStringLiteral("/server_info.json"));
    if (!f.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write server_info.json");
    f.write(QByteArray::fromStdString(
        nlohmann::json{{"internal_states", states}, {"dp_size", 2}, {"speculative_algorithm", "DSPARK"}}.dump()));
    return {};
}

} // namespace

class TestClusterRecords : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void eachRankTakesItsDpRanksRecords()
    {
        QTemporaryDir dir;
        QCOMPARE(writeCluster(dir.path(), 2), QString());
        const ClusterLayout layout = findClusterRanks(dir.path().toStdString());
        QCOMPARE(layout.ranks.size(), size_t(2));
        const std::vector<RankSummary> ranks = loadCluster(layout).summaries();
        QCOMPARE(ranks.size(), size_t(2));
        for (int r = 0; r < 2; ++r) {
            const RankSummary& s = ranks[size_t(r)];
            QCOMPARE(s.rankNumber, r);
            QCOMPARE(s.stepSource, std::string("records"));
            QCOMPARE(s.steps.size(), size_t(4));
            for (int k = 0; k < 4; ++k) {
                QCOMPARE(s.steps[size_t(k)].stepId, int64_t(k + 1));
                QVERIFY(s.steps[size_t(k)].stepGpuMs.has_value());
                QCOMPARE(*s.steps[size_t(k)].stepGpuMs, gpuMs(r, k + 1));
            }
        }
        // The cluster analysis reads the same steps: its window starts at the records' first step.
        QCOMPARE(analyzeCluster(ranks).firstStepId, int64_t(1));
    }

    void aRankWithoutAnEntryKeepsItsProfilerSteps()
    {
        QTemporaryDir dir;
        QCOMPARE(writeCluster(dir.path(), 1), QString()); // internal_states[0] only
        const std::vector<RankSummary> ranks = loadCluster(findClusterRanks(dir.path().toStdString())).summaries();
        QCOMPARE(ranks.size(), size_t(2));
        QCOMPARE(ranks[0].stepSource, std::string("records"));
        QCOMPARE(*ranks[0].steps[2].stepGpuMs, gpuMs(0, 3));
        QCOMPARE(ranks[1].stepSource, std::string("profiler_steps"));
        QCOMPARE(ranks[1].steps.size(), size_t(4));
        QVERIFY(!ranks[1].steps[0].stepGpuMs.has_value());
    }
};

QTEST_GUILESS_MAIN(TestClusterRecords)
#include "tst_cluster_records.moc"
