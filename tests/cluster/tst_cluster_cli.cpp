// The cluster from the command line: `analyze --json` of a folder of ranks has per-rank and cross-rank
// sections (docs/analysis.md §10), and `summarize` writes per-rank summaries that open as the same
// cluster with the same figures.
#include "TestSupport.h"

#include "cluster/ClusterLayout.h"

#include <QTemporaryDir>
#include <QTest>

using namespace dspark;

class TestClusterCli : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_demo;
    nlohmann::json m_analysis;

private Q_SLOTS:
    void initTestCase()
    {
        m_demo = m_dir.filePath(QStringLiteral("demo"));
        const test::CliResult r = test::runCli({QStringLiteral("demo"), m_demo, QStringLiteral("--ranks"),
                                                QStringLiteral("4"), QStringLiteral("--steps"), QStringLiteral("20")});
        QCOMPARE(r.exitCode, 0);
        const test::CliResult a = test::runCli({QStringLiteral("analyze"), m_demo, QStringLiteral("--json")});
        QCOMPARE(a.exitCode, 0);
        m_analysis = a.json();
    }

    void analyzeOfAClusterHasPerRankAndCrossRankSections()
    {
        const nlohmann::json& doc = m_analysis;
        QCOMPARE(doc["cluster"]["ranks"].get<int>(), 4);
        QCOMPARE(doc["cluster"]["opened"].get<int>(), 4);
        QCOMPARE(doc["cluster"]["reference_rank"].get<int>(), 0);
        QCOMPARE(doc["cluster"]["first_step"].get<int>(), 10);
        QCOMPARE(doc["ranks"].size(), size_t(4));
        for (int r = 0; r < 4; ++r) {
            const auto& rank = doc["ranks"][r];
            QCOMPARE(rank["rank"].get<int>(), r);
            QCOMPARE(rank["status"].get<std::string>(), std::string("opened"));
            QVERIFY(rank["clock"]["offset_ns"].is_number_integer());
            QCOMPARE(rank["steps"].size(), size_t(20 + r % 3)); // its own warm-up steps too
            QVERIFY(rank["steps"][0]["critical_path_ns"].contains("exposed_comm"));
        }
        const auto& cross = doc["cross_rank"];
        QCOMPARE(cross["collectives"].size(), size_t(20 * 2 * 2));
        const auto& c = cross["collectives"][0];
        for (const char* key : {"group", "kind", "ordinal", "step", "mismatch", "last_rank", "last_issue_ns",
                                "late_by_ns", "slow_vote", "members"})
            QVERIFY2(c.contains(key), key);
        QCOMPARE(c["members"].size(), size_t(4));
        QCOMPARE(cross["slow_ranks"].size(), size_t(4));
        QVERIFY(cross["slow_ranks"][0]["explanation"].get<std::string>().starts_with("rank "));
        QCOMPARE(cross["steps"].size(), size_t(20));
        QCOMPARE(cross["critical_path"].size(), size_t(20));
        const auto& path = cross["critical_path"][0];
        for (const char* key : {"step", "start_ns", "end_ns", "end_rank", "jumps", "complete", "segments", "totals"})
            QVERIFY2(path.contains(key), key);
        QCOMPARE(path["step"].get<int>(), 10);
        for (const char* key : {"rank", "category", "start_ns", "end_ns", "what", "collective"})
            QVERIFY2(path["segments"][0].contains(key), key);
        int64_t total = 0;
        for (const auto& t : path["totals"])
            total += t["ns"].get<int64_t>();
        QCOMPARE(total, path["end_ns"].get<int64_t>() - path["start_ns"].get<int64_t>());
        // The demo's databases have no HCCL sub-tasks: the group's matrix is its members' collective times.
        QCOMPARE(cross["comm_matrix"].size(), size_t(1));
        QCOMPARE(cross["comm_matrix"][0]["source"].get<std::string>(), std::string("collectives"));
        QCOMPARE(cross["comm_matrix"][0]["members"].size(), size_t(4));
        QCOMPARE(cross["comm_matrix"][0]["members"][0]["collectives"].get<int>(), 20 * 2 * 2);

        const test::CliResult text = test::runCli({QStringLiteral("analyze"), m_demo});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("Clock offsets") && text.out.contains("Slow ranks") &&
                     text.out.contains("Cross-rank critical path (20 steps"),
                 text.out.constData());
    }

    void summariesReopenAsTheSameCluster()
    {
        const QString summaries = m_dir.filePath(QStringLiteral("summaries"));
        QVERIFY(QDir().mkpath(summaries));
        const ClusterLayout layout = findClusterRanks(m_demo.toStdString());
        QCOMPARE(layout.ranks.size(), size_t(4));
        for (const ClusterRank& rank : layout.ranks) {
            const test::CliResult r =
                test::runCli({QStringLiteral("summarize"), QString::fromStdString(rank.path), QStringLiteral("--out"),
                              summaries + QStringLiteral("/r%1.json").arg(rank.rankNumber * 7)}); // names say nothing
            QVERIFY2(r.exitCode == 0, r.err.constData());
        }
        const test::CliResult a = test::runCli({QStringLiteral("analyze"), summaries, QStringLiteral("--json")});
        QCOMPARE(a.exitCode, 0);
        const nlohmann::json doc = a.json();
        QCOMPARE(doc["cluster"]["opened"].get<int>(), 4);
        QVERIFY(doc["ranks"] == m_analysis["ranks"]);
        QVERIFY(doc["cross_rank"] == m_analysis["cross_rank"]);

        // Beside its rank folder a summary is noted, and the full profile is what opens.
        QVERIFY(QFile::copy(summaries + QStringLiteral("/r7.json"), m_demo + QStringLiteral("/rank1.summary.json")));
        const ClusterLayout beside = findClusterRanks(m_demo.toStdString());
        QCOMPARE(beside.ranks.size(), size_t(4));
        QVERIFY(!beside.ranks[1].path.empty());
        QCOMPARE(QString::fromStdString(beside.ranks[1].summaryPath), m_demo + QStringLiteral("/rank1.summary.json"));
        QFile::remove(m_demo + QStringLiteral("/rank1.summary.json"));
    }

    void summarizeSaysWhatIsWrong()
    {
        QCOMPARE(test::runCli({QStringLiteral("summarize"), m_demo}).exitCode, 2); // no --out
        const test::CliResult many = test::runCli(
            {QStringLiteral("summarize"), m_demo, QStringLiteral("--out"), m_dir.filePath(QStringLiteral("x.json"))});
        QCOMPARE(many.exitCode, 2);
        QVERIFY2(many.err.contains("holds 4 rank(s); name the one to summarize with --rank R"), many.err.constData());
        const test::CliResult chosen =
            test::runCli({QStringLiteral("summarize"), m_demo, QStringLiteral("--rank"), QStringLiteral("2"),
                          QStringLiteral("--out"), m_dir.filePath(QStringLiteral("x.json"))});
        QVERIFY2(chosen.exitCode == 0, chosen.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestClusterCli)
#include "tst_cluster_cli.moc"
