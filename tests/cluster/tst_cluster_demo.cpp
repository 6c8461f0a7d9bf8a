// The 8-rank demo (`demo OUTDIR --ranks 8`) read back through the real loaders: the analyses must find
// what ground_truth.json says the simulation did (clock offsets within 1 µs, the slow rank and its
// window, lateness and each rank's wait / transfer within 1 %).
#include "TestSupport.h"

#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterLoader.h"
#include "demo/ClusterDemo.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

using namespace dspark;

class TestClusterDemo : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    nlohmann::json m_truth;
    ClusterLoad m_load;
    ClusterAnalysis m_analysis;

    static bool within(double value, double expected, double fraction)
    {
        return std::abs(value - expected) <= fraction * std::abs(expected);
    }

private Q_SLOTS:
    void initTestCase()
    {
        const demo::ClusterDemoResult written =
            demo::writeClusterDemo({}, m_dir.filePath(QStringLiteral("demo")).toStdString());
        QCOMPARE(written.error, QString());
        std::ifstream in(m_dir.filePath(QStringLiteral("demo/ground_truth.json")).toStdString());
        m_truth = nlohmann::json::parse(in);
        m_load = loadCluster(findClusterRanks(m_dir.filePath(QStringLiteral("demo")).toStdString()));
        m_analysis = analyzeCluster(m_load.summaries());
    }

    void everyRankOpensFromItsOwnFolder()
    {
        QCOMPARE(m_load.ranks.size(), size_t(8));
        // The steps come from server_info.json beside the rank folders: internal_states[r] is rank r's.
        std::ifstream in(m_dir.filePath(QStringLiteral("demo/server_info.json")).toStdString());
        const nlohmann::json info = nlohmann::json::parse(in);
        for (size_t r = 0; r < 8; ++r) {
            QVERIFY2(m_load.ranks[r].ok(), qPrintable(m_load.ranks[r].error));
            const RankSummary& s = m_load.ranks[r].summary;
            QCOMPARE(s.rankNumber, int(r));
            QCOMPARE(s.stepSource, std::string("records"));
            const nlohmann::json& records = info["internal_states"][r]["dspark_info_record"]["records"];
            QCOMPARE(s.steps.size(), records.size());
            for (size_t k = 0; k < records.size(); ++k) {
                QCOMPARE(s.steps[k].stepId, records[k]["forward_ct"].get<int64_t>());
                QCOMPARE(s.steps[k].stepGpuMs.value_or(-1), records[k]["step_gpu_ms"].get<double>());
            }
        }
        QVERIFY(m_load.layout.warnings.isEmpty());
        QCOMPARE(m_analysis.firstStepId, m_truth["first_step"].get<int64_t>());
        QVERIFY(m_analysis.warnings.isEmpty());
    }

    void clockOffsetsAreWithinAMicrosecond()
    {
        for (const auto& t : m_truth["clock_offsets"]) {
            const size_t r = t["rank"].get<size_t>();
            const TimeNs expected = t["offset_ns"].get<TimeNs>();
            QVERIFY2(std::abs(m_analysis.clocks[r].offsetNs - expected) <= 1000,
                     qPrintable(QStringLiteral("rank %1: %2 ns, truth %3 ns")
                                    .arg(r)
                                    .arg(m_analysis.clocks[r].offsetNs)
                                    .arg(expected)));
            QCOMPARE(m_analysis.clocks[r].collectives, size_t(400)); // (the reference: the 400 it shares)
            QVERIFY(m_analysis.clocks[r].spreadNs <= 400);           // each end ±100 ns: a difference within ±200 ns
        }
        // The skews are tens of µs: an unaligned clock would fail the check above.
        bool large = false;
        for (const auto& t : m_truth["clock_offsets"])
            large |= std::abs(t["offset_ns"].get<TimeNs>()) > 20'000;
        QVERIFY(large);
    }

    void theSlowRankAndItsWindowAreFound()
    {
        const size_t slow = m_truth["slow_rank"].get<size_t>();
        const int64_t from = m_truth["slow_steps"][0].get<int64_t>(), to = m_truth["slow_steps"][1].get<int64_t>();
        QCOMPARE(m_analysis.ranking.front().rank, slow);
        QVERIFY(m_analysis.ranking.front().votes >= size_t(2 * (to - from))); // every dispatch of the window
        QVERIFY(m_analysis.ranking.front().votes > 3 * m_analysis.ranking[1].votes);
        // The collectives it held up by more than 100 µs are exactly its window's dispatches.
        int64_t first = INT64_MAX, last = INT64_MIN;
        size_t held = 0;
        for (const MatchedCollective& m : m_analysis.collectives)
            if (m.lateByNs > 100'000) {
                QCOMPARE(m.members[m.lastMember], slow);
                QCOMPARE(m.kind, std::string("deepep_dispatch"));
                first = std::min(first, m.stepId);
                last = std::max(last, m.stepId);
                ++held;
            }
        QCOMPARE(first, from);
        QCOMPARE(last, to - 1);
        QCOMPARE(held, size_t((to - from) * 2)); // two layers a step
    }

    void latenessAndWaitTransferMatchTheTruth()
    {
        const auto& truth = m_truth["collectives"];
        QCOMPARE(m_analysis.collectives.size(), truth.size());
        for (size_t k = 0; k < truth.size(); ++k) {
            const MatchedCollective& m = m_analysis.collectives[k];
            const auto& t = truth[k];
            QCOMPARE(m.ordinal, t["ordinal"].get<size_t>());
            QCOMPARE(m.stepId, t["step"].get<int64_t>());
            const TimeNs late = t["late_by_ns"].get<TimeNs>();
            // Lateness of the held-up dispatches within 1 %; the µs-level jitter elsewhere within the
            // clocks' error (2 × 1 µs).
            if (late > 100'000) {
                QCOMPARE(m.members[m.lastMember], t["last_rank"].get<size_t>());
                QVERIFY2(within(double(m.lateByNs), double(late), 0.01), qPrintable(QString::number(k)));
            } else {
                QVERIFY(std::abs(m.lateByNs - late) <= 2000);
            }
            for (size_t i = 0; i < m.members.size(); ++i) {
                const auto& tm = t["members"][m.members[i]];
                QVERIFY(std::abs(m.waitNs[i] - tm["wait_ns"].get<TimeNs>()) <= 2000);
                QVERIFY(std::abs(m.transferNs[i] - tm["transfer_ns"].get<TimeNs>()) <= 2000);
            }
        }
        for (const RankVerdict& v : m_analysis.ranking) {
            const auto& t = m_truth["per_rank"][v.rank];
            QVERIFY2(within(double(v.waitNs), t["wait_ns"].get<double>(), 0.01), qPrintable(v.explanation));
            QVERIFY2(within(double(v.transferNs), t["transfer_ns"].get<double>(), 0.01), qPrintable(v.explanation));
        }
    }

    void theCliWritesTheSameDemo()
    {
        const QString out = m_dir.filePath(QStringLiteral("cli"));
        const test::CliResult r =
            test::runCli({QStringLiteral("demo"), out, QStringLiteral("--ranks"), QStringLiteral("8")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("Wrote the 8-rank demo to"), r.out.constData());
        std::ifstream in(QDir(out).filePath(QStringLiteral("ground_truth.json")).toStdString());
        QVERIFY(nlohmann::json::parse(in) == m_truth);
        QCOMPARE(test::runCli({QStringLiteral("demo"), out + QStringLiteral("2"), QStringLiteral("--ranks"),
                               QStringLiteral("1")})
                     .exitCode,
                 2);
    }
};

QTEST_GUILESS_MAIN(TestClusterDemo)
#include "tst_cluster_demo.moc"
