// The real 2-rank pair (two ranks of one 2 × 910B job, torch_npu databases): both ranks open as a
// cluster, their four collectives match, and rank 1's clock offset is the median of the four end
// differences (SOURCES.md lists the end times): −15476, −14756, −14275, −9615 ns → −14515.5 ns.
#include "TestSupport.h"

#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterLoader.h"
#include "cluster/CommMatrix.h"
#include "io/ProfileScanner.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace dspark;

class TestClusterReal : public QObject {
    Q_OBJECT
    // The pair copied under other folder names into `dir`: nothing may depend on the fixtures' names.
    static void copyPair(const QTemporaryDir& dir)
    {
        const QString a = dir.filePath(QStringLiteral("nodeB_811_20250109080101123_ascend_pt"));
        const QString b = dir.filePath(QStringLiteral("nodeA_922_20250109080101456_ascend_pt"));
        for (const auto& [from, to] : {std::pair{QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt"), a},
                                       std::pair{QStringLiteral("ascend/torch_npu_db_rank1_ascend_pt"), b}}) {
            const QString src = test::realData(from);
            QVERIFY(QDir().mkpath(to + QStringLiteral("/ASCEND_PROFILER_OUTPUT")));
            for (const QString& sub : {QString(), QStringLiteral("/ASCEND_PROFILER_OUTPUT")})
                for (const QString& file : QDir(src + sub).entryList(QDir::Files))
                    QVERIFY(QFile::copy(src + sub + QLatin1Char('/') + file, to + sub + QLatin1Char('/') + file));
        }
    }

private Q_SLOTS:
    void theRealPairOpensAsTwoRanksOnOneClock()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QTemporaryDir dir;
        copyPair(dir);
        const QString a = dir.filePath(QStringLiteral("nodeB_811_20250109080101123_ascend_pt"));
        const QString b = dir.filePath(QStringLiteral("nodeA_922_20250109080101456_ascend_pt"));
        const ClusterLayout layout = findClusterRanks(dir.path().toStdString());
        QCOMPARE(layout.ranks.size(), size_t(2));
        QCOMPARE(QString::fromStdString(layout.ranks[0].path), a);
        QCOMPARE(QString::fromStdString(layout.ranks[1].path), b);

        const ClusterLoad load = loadCluster(layout);
        QVERIFY2(load.ranks[0].ok(), qPrintable(load.ranks[0].error));
        QVERIFY2(load.ranks[1].ok(), qPrintable(load.ranks[1].error));
        QVERIFY(load.ranks[0].profile && load.ranks[1].profile);
        const ClusterAnalysis an = analyzeCluster(load.summaries());
        QCOMPARE(an.collectives.size(), size_t(4));
        for (const MatchedCollective& m : an.collectives) {
            QCOMPARE(m.members.size(), size_t(2));
            QVERIFY(!m.mismatch); // same group name, op type and count on both ranks
            QCOMPARE(m.kind, std::string("hcom_allReduce"));
        }
        QCOMPARE(an.clocks[1].offsetNs, TimeNs(-14516)); // −14515.5 rounded away from zero
        QCOMPARE(an.clocks[1].spreadNs, TimeNs(5861));   // 15476 − 9615
        QCOMPARE(an.clocks[1].madNs, TimeNs(601));       // deviations 240, 241, 960, 4901
        QCOMPARE(an.clocks[1].collectives, size_t(4));
        QCOMPARE(an.clocks[0].collectives, size_t(4)); // the reference: the four it shares with rank 1
        QVERIFY(an.warnings.isEmpty());
        // Two members: no vote (n < 3); each rank is the last at two of the four allreduces.
        QCOMPARE(an.ranking.size(), size_t(2));
        for (const RankVerdict& v : an.ranking) {
            QCOMPARE(v.votes, size_t(0));
            QCOMPARE(v.lastArrivals, size_t(2));
            QVERIFY2(v.explanation.startsWith(QStringLiteral("rank %1: slow outlier in 0 and last to arrive in 2 of "
                                                             "the 4 collectives it shares (")
                                                  .arg(v.rank)),
                     qPrintable(v.explanation));
        }
        // The first allreduce: rank 0 issued at …431631806, rank 1 at …435164432 + offset: rank 1 last,
        // 3.518 ms after rank 0.
        const MatchedCollective& first = an.collectives[0];
        QCOMPARE(first.members[first.lastMember], size_t(1));
        QCOMPARE(first.lateByNs, TimeNs(1736410576435164432 - 14516 - 1736410576431631806));
    }

    // Ranks gathered from several nodes by symlinks: each linked folder is entered once, by its target;
    // a second link to a rank, a link to the folder itself and one to its parent add nothing.
    void aFolderOfLinkedRanksOpens()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QTemporaryDir dir;
        const QString nodes = dir.filePath(QStringLiteral("nodes"));
        QVERIFY(QDir().mkpath(nodes));
        const QString r0 = test::realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt"));
        const QString r1 = test::realData(QStringLiteral("ascend/torch_npu_db_rank1_ascend_pt"));
        QVERIFY(QFile::link(r1, nodes + QStringLiteral("/a_node2_20250109080101456_ascend_pt")));
        QVERIFY(QFile::link(r0, nodes + QStringLiteral("/b_node1_20250109080101123_ascend_pt")));
        QVERIFY(QFile::link(r0, nodes + QStringLiteral("/c_again")));
        QVERIFY(QFile::link(nodes, nodes + QStringLiteral("/d_self")));
        QVERIFY(QFile::link(dir.path(), nodes + QStringLiteral("/e_parent")));

        const ScanResult scan = scanProfilePath(nodes.toStdString());
        QVERIFY2(scan.error.isEmpty(), qPrintable(scan.error));
        QCOMPARE(scan.examined,
                 size_t(QDir(r0 + QStringLiteral("/ASCEND_PROFILER_OUTPUT")).entryList(QDir::Files).size() +
                        QDir(r0).entryList(QDir::Files).size() +
                        QDir(r1 + QStringLiteral("/ASCEND_PROFILER_OUTPUT")).entryList(QDir::Files).size() +
                        QDir(r1).entryList(QDir::Files).size()));
        const ClusterLayout layout = findClusterRanks(nodes.toStdString());
        QCOMPARE(layout.ranks.size(), size_t(2));
        QCOMPARE(layout.ranks[0].rankNumber, 0);
        QCOMPARE(layout.ranks[1].rankNumber, 1);
        QCOMPARE(QString::fromStdString(layout.ranks[0].path),
                 nodes + QStringLiteral("/b_node1_20250109080101123_ascend_pt"));
        QCOMPARE(QString::fromStdString(layout.ranks[1].path),
                 nodes + QStringLiteral("/a_node2_20250109080101456_ascend_pt"));
        QVERIFY(layout.warnings.isEmpty());
        const ClusterLoad load = loadCluster(layout);
        QVERIFY2(load.ranks[0].ok(), qPrintable(load.ranks[0].error));
        QVERIFY2(load.ranks[1].ok(), qPrintable(load.ranks[1].error));
        QCOMPARE(analyzeCluster(load.summaries()).collectives.size(), size_t(4));
    }

    // Links named anything (not *_ascend_pt) to the real rank folders: each link is its rank's run folder
    // by its content (an ASCEND_PROFILER_OUTPUT child, profiler_info_0.json), so rank 0's analysis.db and
    // profiler_info go with its database, and the rank is the folder, not the database file alone.
    void linksNamedAnythingAreRunFoldersByContent()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QTemporaryDir dir;
        const QString first = dir.filePath(QStringLiteral("first")), second = dir.filePath(QStringLiteral("zz top"));
        QVERIFY(QFile::link(test::realData(QStringLiteral("ascend/torch_npu_db_rank1_ascend_pt")), first));
        QVERIFY(QFile::link(test::realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt")), second));

        const ScanResult scan = scanProfilePath(dir.path().toStdString());
        QVERIFY2(scan.error.isEmpty(), qPrintable(scan.error));
        QCOMPARE(scan.files.size(), size_t(4)); // rank 1's database; rank 0's database, analysis.db, profiler_info
        for (const ScannedFile& f : scan.files) {
            const QString path = QString::fromStdString(f.path);
            QCOMPARE(QString::fromStdString(f.runRoot), path.startsWith(first + QLatin1Char('/')) ? first : second);
            QCOMPARE(f.rankNumber, path.startsWith(first + QLatin1Char('/')) ? 1 : 0);
        }
        const ClusterLayout layout = findClusterRanks(dir.path().toStdString());
        QCOMPARE(layout.ranks.size(), size_t(2));
        QCOMPARE(QString::fromStdString(layout.ranks[0].path), second);
        QCOMPARE(QString::fromStdString(layout.ranks[1].path), first);
        QVERIFY(layout.skipped.empty());
        const ClusterLoad load = loadCluster(layout);
        QVERIFY2(load.ranks[0].ok(), qPrintable(load.ranks[0].error));
        QVERIFY2(load.ranks[1].ok(), qPrintable(load.ranks[1].error));
        QCOMPARE(analyzeCluster(load.summaries()).collectives.size(), size_t(4));
    }

    // COMMUNICATION_TASK_INFO of the pair (sqlite3 on the files): each rank's rows have itself as the
    // source and every rank of the 8-rank group as the destination; the data-moving ones (Memcpy,
    // Reduce_Inline with a size) between ranks 0 and 1 over SDMA: rank 0 → 1: 4 Memcpy (30 605 312 B,
    // 1 843 058 ns) + 4 Reduce_Inline (30 605 312 B, 2 268 306 ns); rank 1 → 0: 4 Memcpy (30 605 312 B,
    // 1 704 594 ns) + 4 Reduce_Inline (30 605 312 B, 2 304 525 ns). Notify rows (size 0) and the local
    // reduce to rank 4294967295 are left out.
    void theRealPairsCommunicationMatrix()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QTemporaryDir dir;
        copyPair(dir);
        const std::vector<RankSummary> ranks = loadCluster(findClusterRanks(dir.path().toStdString())).summaries();
        QCOMPARE(ranks.size(), size_t(2));
        const std::vector<GroupCommMatrix> groups = commMatrices(ranks, analyzeCluster(ranks));
        QCOMPARE(groups.size(), size_t(1));
        const GroupCommMatrix& g = groups[0];
        QCOMPARE(g.group, std::string("90.91.105.46%enp189s0f0_60000_0_1736410538306028"));
        QVERIFY(g.fromTasks());
        QCOMPARE(g.cells.size(), size_t(16)); // 0 → 0…7 and 1 → 0…7
        const auto cell = [&](int64_t src, int64_t dst) -> const CommMatrixCell* {
            for (const CommMatrixCell& c : g.cells)
                if (c.srcRank == src && c.dstRank == dst)
                    return &c;
            return nullptr;
        };
        const CommMatrixCell* c01 = cell(0, 1);
        const CommMatrixCell* c10 = cell(1, 0);
        QVERIFY(c01 && c10);
        QCOMPARE(c01->transport, std::string("SDMA"));
        QCOMPARE(c01->tasks, uint64_t(8));
        QCOMPARE(c01->bytes, int64_t(61210624));
        QCOMPARE(c01->timeNs, TimeNs(1843058 + 2268306));
        QCOMPARE(c10->tasks, uint64_t(8));
        QCOMPARE(c10->bytes, int64_t(61210624));
        QCOMPARE(c10->timeNs, TimeNs(1704594 + 2304525));
        QVERIFY(qAbs(c01->bandwidthGBps() - 61210624.0 / 4111364.0) < 1e-9);
        // Global ranks: the pair's databases carry no member list (no parallel_group_info), so each rank's
        // own place in the group (the source of its own rows) names it: in-group 0 and 1 are ranks 0 and 1;
        // the six members not captured stay unknown.
        QCOMPARE(c01->srcGlobal, 0);
        QCOMPARE(c01->dstGlobal, 1);
        QCOMPARE(c10->srcGlobal, 1);
        QCOMPARE(c10->dstGlobal, 0);
        QVERIFY(cell(0, 5));
        QCOMPARE(cell(0, 5)->dstGlobal, -1);
        QCOMPARE(ranks[1].groups.size(), size_t(1));
        QCOMPARE(ranks[1].groups[0].groupRank, int64_t(1));
        QVERIFY(ranks[1].groups[0].globalRanks.empty());
        // Both ranks were members of the four all-reduces.
        QCOMPARE(g.members.size(), size_t(2));
        QCOMPARE(g.members[0].collectives, size_t(4));
        QCOMPARE(g.members[1].collectives, size_t(4));
    }
};

QTEST_GUILESS_MAIN(TestClusterReal)
#include "tst_cluster_real.moc"
