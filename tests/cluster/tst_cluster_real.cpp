// The real 2-rank pair (two ranks of one 2 × 910B job, torch_npu databases): both ranks open as a
// cluster, their four collectives match, and rank 1's clock offset is the median of the four end
// differences (SOURCES.md lists the end times): −15476, −14756, −14275, −9615 ns → −14515.5 ns.
#include "TestSupport.h"

#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterLoader.h"

#include <QTemporaryDir>
#include <QTest>

using namespace dspark;

class TestClusterReal : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theRealPairOpensAsTwoRanksOnOneClock()
    {
        DSPARK_REQUIRE_REAL_DATA();
        // Copied under other folder names: nothing may depend on the fixtures' names.
        QTemporaryDir dir;
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
        QVERIFY(an.warnings.isEmpty());
        // The first allreduce: rank 0 issued at …431631806, rank 1 at …435164432 + offset: rank 1 last,
        // 3.518 ms after rank 0.
        const MatchedCollective& first = an.collectives[0];
        QCOMPARE(first.members[first.lastMember], size_t(1));
        QCOMPARE(first.lateByNs, TimeNs(1736410576435164432 - 14516 - 1736410576431631806));
    }
};

QTEST_GUILESS_MAIN(TestClusterReal)
#include "tst_cluster_real.moc"
