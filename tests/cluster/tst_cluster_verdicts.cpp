// The slow-rank verdicts' counts on five ranks built by the test (summaries, no file): four share a
// group, two of them a second group, one has a collective of a group of its own and one shares nothing.
// Every figure of the verdicts and of the reference rank's clock is worked out by hand below.
#include "cluster/ClusterAnalysis.h"

#include <QTest>

using namespace dspark;

namespace {

constexpr TimeNs us = 1000;

RankSummary rank(int number)
{
    RankSummary s;
    s.rankNumber = number;
    RankStep step;
    step.stepId = 1;
    step.startNs = 0;
    step.endNs = 10000 * us;
    s.steps.push_back(step);
    s.firstNs = 0;
    s.lastNs = 10000 * us;
    return s;
}

void collective(RankSummary& r, const std::string& group, TimeNs issueUs, TimeNs endUs)
{
    r.collectives.push_back({group, "hcom_allReduce__1_0_1", "hcom_allReduce", 100, issueUs * us, endUs * us});
}

// All clocks agree (every shared collective ends at once on every member), so every offset is 0.
//   W1 (world, ranks 0-3): issues 100, 105, 110, 340, ends 350: times 250, 245, 240, 10; rank 3 last, by
//      340 − 110 = 230; waits 240, 235, 230, 0; transfers 10 each. Dixon r10 for 4 members:
//      (240 − 10) / (250 − 10) = 0.958 > 0.920: rank 3 (the shortest time) gets a vote.
//   W2 (world): issues 1000, 1200, 1000, 1000, ends 1250: rank 1 last, by 200; waits 200, 0, 200, 200;
//      transfers 50 each; two distinct times: no vote.
//   P1 (pair, ranks 0-1): issues 2000, 2050, ends 2100: rank 1 last, by 50; waits 50, 0; transfers 50.
//   S1 (solo, rank 2 alone) and L1 (lonely, rank 4 alone): matched with nobody, counted nowhere.
std::vector<RankSummary> story()
{
    std::vector<RankSummary> r;
    for (int n = 0; n < 5; ++n)
        r.push_back(rank(n));
    const TimeNs w1[4] = {100, 105, 110, 340}, w2[4] = {1000, 1200, 1000, 1000};
    for (int n = 0; n < 4; ++n)
        collective(r[size_t(n)], "world", w1[n], 350);
    for (int n = 0; n < 4; ++n)
        collective(r[size_t(n)], "world", w2[n], 1250);
    collective(r[0], "pair", 2000, 2100);
    collective(r[1], "pair", 2050, 2100);
    collective(r[2], "solo", 3000, 3100);
    collective(r[4], "lonely", 3000, 3100);
    return r;
}

} // namespace

class TestClusterVerdicts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void eachVerdictCountsTheCollectivesItsRankShares()
    {
        const ClusterAnalysis a = analyzeCluster(story());
        QCOMPARE(a.referenceRank, size_t(0));
        // The reference's count: W1, W2, P1 (shared with others), as rank 1's offset rests on all three.
        const size_t clockCount[5] = {3, 3, 2, 2, 0};
        for (size_t r = 0; r < 5; ++r) {
            QCOMPARE(a.clocks[r].collectives, clockCount[r]);
            QCOMPARE(a.clocks[r].offsetNs, TimeNs(0));
        }
        QVERIFY(!a.clocks[4].estimated);

        // Votes first, then lateness: rank 3 (1 vote), rank 1 (250 µs), then 0, 2, 4 in order.
        QCOMPARE(a.ranking.size(), size_t(5));
        const size_t order[5] = {3, 1, 0, 2, 4};
        for (size_t i = 0; i < 5; ++i)
            QCOMPARE(a.ranking[i].rank, order[i]);
        const QString expected[5] = {
            QStringLiteral("rank 3: slow outlier in 1 and last to arrive in 1 of the 2 collectives it shares "
                           "(230.0 µs late in all); waited 200.0 µs for late peers, 60.0 µs in transfer"),
            QStringLiteral("rank 1: slow outlier in 0 and last to arrive in 2 of the 3 collectives it shares "
                           "(250.0 µs late in all); waited 235.0 µs for late peers, 110.0 µs in transfer"),
            QStringLiteral("rank 0: slow outlier in 0 and last to arrive in 0 of the 3 collectives it shares "
                           "(0.0 µs late in all); waited 490.0 µs for late peers, 110.0 µs in transfer"),
            QStringLiteral("rank 2: slow outlier in 0 and last to arrive in 0 of the 2 collectives it shares "
                           "(0.0 µs late in all); waited 430.0 µs for late peers, 60.0 µs in transfer"),
            QStringLiteral("rank 4: shares no collective with the other ranks")};
        for (size_t i = 0; i < 5; ++i)
            QCOMPARE(a.ranking[i].explanation, expected[i]);
    }

    // Rank 3's W2 moves another count of elements: W2 disagrees, out of the 3 collectives matched across
    // ranks (W1, W2, P1), not of 5 (S1 and L1 have a single member: matched with nobody).
    void theWarningCountsCollectivesMatchedAcrossRanks()
    {
        std::vector<RankSummary> ranks = story();
        ranks[3].collectives[1].count = 999;
        const ClusterAnalysis a = analyzeCluster(ranks);
        QVERIFY(a.collectives[1].mismatch);
        QCOMPARE(a.warnings.size(), qsizetype(2)); // and rank 4's clock
        QCOMPARE(a.warnings[0], QStringLiteral("1 of 3 matched collectives disagree in name or size between ranks; "
                                               "they are not used for the clock offsets"));
        QCOMPARE(a.collectives.size(), size_t(5));
        QCOMPARE(a.acrossRanks(), size_t(3));         // (the cluster window's summary line counts these)
        QCOMPARE(a.clocks[0].collectives, size_t(2)); // W1, P1
        QCOMPARE(a.clocks[3].collectives, size_t(1)); // W1
    }
};

QTEST_GUILESS_MAIN(TestClusterVerdicts)
#include "tst_cluster_verdicts.moc"
