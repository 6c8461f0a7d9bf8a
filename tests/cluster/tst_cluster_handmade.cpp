// Three ranks written by the test (ClusterDbBuilder) with known clock skews, one warm-up step that only
// rank 2 recorded, op names whose sequence numbers differ between ranks, and four collectives whose
// arrivals the test chose: the clocks, the matching, the last rank, the wait / transfer split and the
// slow-rank votes are worked out by hand below.
#include "ClusterDbBuilder.h"
#include "TestSupport.h"

#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterLoader.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace dspark;
using dspark::test::ClusterDbBuilder;

namespace {

constexpr TimeNs us = 1000;
const std::string kGroup = "hccl_world_group";

struct Arrival {
    TimeNs issue[3];
    TimeNs end[3];
    int64_t count;
};
// A..D of the story: issues and ends on the true clock (µs).
const Arrival kColls[] = {
    {{100, 105, 400}, {450, 450, 450}, 100},
    {{600, 500, 610}, {660, 660, 660}, 200},
    {{1300, 1100, 1150}, {1350, 1350, 1350}, 100},
    {{1600, 1600, 1605}, {1650, 1652, 1650}, 200},
};
const TimeNs kSkew[3] = {0, 50 * us, -30 * us};

// The folder of the story; `count1D`: rank 1's element count of collective D (a size mismatch when not 200).
QString writeStory(const QTemporaryDir& dir, int64_t count1D = 200)
{
    const char* folders[3] = {"alpha_7_20250101080000001_ascend_pt", "beta_9_20250101080000002_ascend_pt",
                              "gamma_3_20250101080000003_ascend_pt"};
    const int seqStart[3] = {10, 20, 10}; // sequence numbers differ; never matched on
    for (int r = 0; r < 3; ++r) {
        ClusterDbBuilder b(r, kSkew[r]);
        int seq = seqStart[r];
        if (r == 2) { // a warm-up step only this rank recorded, with a collective of its own
            b.step(0, -1000 * us, 0);
            b.collective("hcom_allReduce__" + std::to_string(seq++ - 1) + "_0_1", "hcom_allReduce_", kGroup, 100,
                         -500 * us, -450 * us);
        }
        b.step(1, 0, 1000 * us);
        b.step(2, 1000 * us, 2000 * us);
        for (size_t c = 0; c < 4; ++c) {
            const int64_t count = r == 1 && c == 3 ? count1D : kColls[c].count;
            b.collective("hcom_allReduce__" + std::to_string(seq++) + "_0_1", "hcom_allReduce_", kGroup, count,
                         kColls[c].issue[r] * us, kColls[c].end[r] * us);
        }
        b.kernel("MatMul", 10 * us, 90 * us);
        const QString error = b.writeRunFolder(dir.filePath(QString::fromLatin1(folders[r])));
        if (!error.isEmpty())
            return error;
    }
    return {};
}

} // namespace

class TestClusterHandmade : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theRanksOfTheFolderAreFoundByTheirDatabases()
    {
        QTemporaryDir dir;
        QCOMPARE(writeStory(dir), QString());
        const ClusterLayout layout = findClusterRanks(dir.path().toStdString());
        QVERIFY(layout.isCluster());
        QCOMPARE(layout.ranks.size(), size_t(3));
        for (int r = 0; r < 3; ++r)
            QCOMPARE(layout.ranks[r].rankNumber, r);
        QVERIFY(layout.warnings.isEmpty());
    }

    void clocksLatenessAndWaitsAreTheHandWorkedOnes()
    {
        QTemporaryDir dir;
        QCOMPARE(writeStory(dir), QString());
        const ClusterLoad load = loadCluster(findClusterRanks(dir.path().toStdString()));
        QCOMPARE(load.summaries().size(), size_t(3));
        const ClusterAnalysis a = analyzeCluster(load.summaries());
        QCOMPARE(a.referenceRank, size_t(0));
        QCOMPARE(a.firstStepId, int64_t(1)); // rank 2's warm-up step 0 is left out
        // Rank 1's clock runs 50 µs ahead: its end differences are −50, −50, −50, −52 µs.
        QCOMPARE(a.clocks[1].offsetNs, -50 * us);
        QCOMPARE(a.clocks[1].spreadNs, 2 * us);
        QCOMPARE(a.clocks[1].madNs, TimeNs(0));
        QCOMPARE(a.clocks[1].collectives, size_t(4));
        QCOMPARE(a.clocks[0].collectives, size_t(4)); // the reference: the four it shares
        QCOMPARE(a.clocks[2].offsetNs, 30 * us);
        QCOMPARE(a.clocks[2].spreadNs, TimeNs(0));
        QVERIFY(a.warnings.isEmpty());

        // Matched by (group, ordinal after step 1), though every rank names them differently.
        QCOMPARE(a.collectives.size(), size_t(4));
        const size_t last[4] = {2, 2, 0, 2};
        const TimeNs lateBy[4] = {295 * us, 10 * us, 150 * us, 5 * us};
        const TimeNs wait[4][3] = {{300, 295, 0}, {10, 110, 0}, {0, 200, 150}, {5, 5, 0}};
        const TimeNs transfer[4][3] = {{50, 50, 50}, {50, 50, 50}, {50, 50, 50}, {45, 47, 45}};
        const int64_t step[4] = {1, 1, 2, 2};
        for (size_t c = 0; c < 4; ++c) {
            const MatchedCollective& m = a.collectives[c];
            QCOMPARE(m.ordinal, c);
            QCOMPARE(m.members.size(), size_t(3));
            QVERIFY(!m.mismatch);
            QCOMPARE(m.kind, std::string("hcom_allReduce"));
            QCOMPARE(m.stepId, step[c]);
            QCOMPARE(m.members[m.lastMember], last[c]);
            QCOMPARE(m.lateByNs, lateBy[c]);
            for (size_t i = 0; i < 3; ++i) {
                QCOMPARE(m.waitNs[i], wait[c][m.members[i]] * us);
                QCOMPARE(m.transferNs[i], transfer[c][m.members[i]] * us);
            }
        }
        // msprof-analyze's slow_rank rule votes only with more than 3 distinct times: never with 3
        // members, not even for A's shortest time (rank 2: 50 µs against 345 and 350). The ranking
        // then goes by lateness.
        for (size_t c = 0; c < 4; ++c) {
            QCOMPARE(a.collectives[c].votedSlow, SIZE_MAX);
            QVERIFY(a.collectives[c].slowVotes.empty());
        }

        QCOMPARE(a.ranking.size(), size_t(3));
        QCOMPARE(a.ranking[0].rank, size_t(2));
        QCOMPARE(a.ranking[0].votes, size_t(0));
        QCOMPARE(a.ranking[0].lastArrivals, size_t(3));
        QCOMPARE(a.ranking[0].latenessNs, 310 * us);
        QCOMPARE(a.ranking[0].waitNs, 150 * us);
        QCOMPARE(a.ranking[1].rank, size_t(0));
        QCOMPARE(a.ranking[1].latenessNs, 150 * us);
        QCOMPARE(a.ranking[1].waitNs, 315 * us);
        QCOMPARE(a.ranking[1].transferNs, 195 * us);
        QCOMPARE(a.ranking[2].rank, size_t(1));
        QCOMPARE(a.ranking[2].waitNs, 610 * us);
        QCOMPARE(a.ranking[2].transferNs, 197 * us);
        QCOMPARE(a.ranking[0].explanation,
                 QStringLiteral("rank 2: slow outlier in 0 and last to arrive in 3 of the 4 collectives it shares "
                                "(310.0 µs late in all); waited 150.0 µs for late peers, 195.0 µs in transfer"));
    }

    void aCollectiveWhoseSizeDisagreesIsLeftOutOfTheClocks()
    {
        QTemporaryDir dir;
        QCOMPARE(writeStory(dir, 999), QString());
        const ClusterAnalysis a = analyzeCluster(loadCluster(findClusterRanks(dir.path().toStdString())).summaries());
        QVERIFY(a.collectives[3].mismatch);
        QCOMPARE(a.clocks[1].collectives, size_t(3));
        QCOMPARE(a.clocks[0].collectives, size_t(3)); // D, which disagrees, is not one the offsets rest on
        QCOMPARE(a.clocks[1].offsetNs, -50 * us);
        QCOMPARE(a.clocks[1].spreadNs, TimeNs(0));
        QCOMPARE(a.warnings.size(), qsizetype(1));
        QVERIFY2(a.warnings.first().startsWith(QStringLiteral("1 of 4 matched collectives disagree")),
                 qPrintable(a.warnings.first()));
    }

    void aUserOffsetReplacesTheEstimate()
    {
        QTemporaryDir dir;
        QCOMPARE(writeStory(dir), QString());
        const std::vector<RankSummary> ranks = loadCluster(findClusterRanks(dir.path().toStdString())).summaries();
        ClusterOptions options;
        options.offsetOverrides = {std::nullopt, -40 * us, std::nullopt};
        const ClusterAnalysis a = analyzeCluster(ranks, options);
        QVERIFY(a.clocks[1].overridden);
        QCOMPARE(a.clocks[1].offsetNs, -40 * us);
        // Collective A: rank 1 now issues at 115 µs, so rank 2 is late by 285 µs.
        QCOMPARE(a.collectives[0].lateByNs, 285 * us);
    }

    void aSummaryReadsBackAsTheSameRank()
    {
        QTemporaryDir dir;
        QCOMPARE(writeStory(dir), QString());
        const std::vector<RankSummary> ranks = loadCluster(findClusterRanks(dir.path().toStdString())).summaries();
        const std::string path = dir.filePath(QStringLiteral("rank2.json")).toStdString();
        std::ofstream(path) << rankSummaryJson(ranks[2]);
        QVERIFY(looksLikeRankSummary(path));
        RankSummary back;
        QString error;
        QVERIFY2(readRankSummary(path, back, error), qPrintable(error));
        QCOMPARE(rankSummaryJson(back), rankSummaryJson(ranks[2]));
        QCOMPARE(back.steps.size(), size_t(3));
        QCOMPARE(back.collectives.size(), size_t(5));
        QCOMPARE(back.stepSource, std::string("profiler_steps"));

        std::ofstream(path) << R"({"format":"dspark-rank-summary","version":99,"rank":2})";
        QVERIFY(!readRankSummary(path, back, error));
        QCOMPARE(error,
                 QString::fromStdString(path) + QStringLiteral(": summary version 99, this build reads version 3"));
        std::ofstream(path) << R"({"format":"dspark-rank-summary","version":1,"rank":2,"steps":"x"})";
        QVERIFY(!readRankSummary(path, back, error));
        QVERIFY2(error.startsWith(QString::fromStdString(path) + QStringLiteral(": not a rank summary (")),
                 qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestClusterHandmade)
#include "tst_cluster_handmade.moc"
