// Slow-rank votes for 16, 64 and 128 members (msprof-analyze slow_rank's rule, docs/cluster.md
// "Slow-rank votes"): rank summaries built by the test, one collective whose members' times it chose,
// every ratio worked out by hand below.
#include "TestSupport.h"

#include "cluster/ClusterAnalysis.h"

#include <QTest>

using namespace dspark;

namespace {

constexpr TimeNs us = 1000;

// One collective of every rank, all ending at 5 ms (so every offset is 0); rank r spends times[r] µs in it.
std::vector<size_t> votesFor(const std::vector<TimeNs>& timesUs, size_t* lastRank = nullptr)
{
    std::vector<RankSummary> ranks(timesUs.size());
    for (size_t r = 0; r < ranks.size(); ++r) {
        ranks[r].rankNumber = static_cast<int>(r);
        ranks[r].steps.push_back({});
        ranks[r].steps[0].stepId = 1;
        ranks[r].steps[0].endNs = 10'000 * us;
        ranks[r].collectives.push_back({"g", "allreduce_1", "allreduce", 1024, (5000 - timesUs[r]) * us, 5000 * us});
    }
    const ClusterAnalysis a = analyzeCluster(ranks);
    if (a.collectives.size() != 1 || a.collectives[0].members.size() != timesUs.size())
        return {SIZE_MAX};
    const MatchedCollective& m = a.collectives[0];
    if (lastRank)
        *lastRank = m.members[m.lastMember];
    std::vector<size_t> out;
    for (size_t v : m.slowVotes)
        out.push_back(m.members[v]);
    std::sort(out.begin(), out.end());
    return out;
}

// n − 1 others at base + step·k (k = 0, 1, …), and rank `slow` at `shortest`.
std::vector<TimeNs> spread(size_t n, size_t slow, TimeNs shortest, TimeNs base, TimeNs step)
{
    std::vector<TimeNs> t;
    for (size_t r = 0, k = 0; r < n; ++r)
        t.push_back(r == slow ? shortest : base + step * static_cast<TimeNs>(k++));
    return t;
}

} // namespace

class TestSlowVotes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sixteenMembersUseR22()
    {
        // Others 500, 510, …, 640; sorted x2 = 510, x13 = 620. Rank 9 at 100: (510 − 100)/(620 − 100) = 0.788
        // > 0.629 (n = 16): a vote.
        size_t last = SIZE_MAX;
        QCOMPARE(votesFor(spread(16, 9, 100, 500, 10), &last), std::vector<size_t>{9});
        QCOMPARE(last, size_t(9)); // the shortest time is the latest arrival
        // Rank 9 at 480: (510 − 480)/(620 − 480) = 0.214: no vote.
        QCOMPARE(votesFor(spread(16, 9, 480, 500, 10)), std::vector<size_t>{});
        // 15 times of 500 and one of 100: two distinct values, and msprof-analyze votes only above three.
        QCOMPARE(votesFor(spread(16, 9, 100, 500, 0)), std::vector<size_t>{});
    }

    void sixtyFourMembersUseR22()
    {
        // Others 500, 501, …, 562; sorted x2 = 501, x61 = 560. Rank 40 at 100: 401/460 = 0.872 > 0.382.
        QCOMPARE(votesFor(spread(64, 40, 100, 500, 1)), std::vector<size_t>{40});
        // At 480: 21/80 = 0.263 < 0.382: no vote.
        QCOMPARE(votesFor(spread(64, 40, 480, 500, 1)), std::vector<size_t>{});
        // At 495: (501 − 495)/(560 − 495) = 0.092: no vote either.
        QCOMPARE(votesFor(spread(64, 40, 495, 500, 1)), std::vector<size_t>{});
    }

    void aboveAHundredMembersTheThreeSigmaRule()
    {
        // 128 members: others alternate 500 / 501 (64 × 500, 63 × 501), rank 7 at 100. Mean = 63663/128 =
        // 497.37, σ = 35.3 (population): mean − 3σ = 391.6 > 100: one vote.
        std::vector<TimeNs> t(128);
        for (size_t r = 0, k = 0; r < 128; ++r)
            t[r] = r == 7 ? 100 : 500 + static_cast<TimeNs>(k++ % 2);
        QCOMPARE(votesFor(t), std::vector<size_t>{7});
        // Two at 100 (ranks 7 and 90; 64 × 500, 62 × 501): mean = 63262/128 = 494.23, σ = 49.7, mean − 3σ =
        // 345.1: both are voted.
        t[90] = 100;
        QCOMPARE(votesFor(t), (std::vector<size_t>{7, 90}));
        // All within a few µs (500…503): nobody is below mean − 3σ, nobody above mean + 3σ.
        for (size_t r = 0; r < 128; ++r)
            t[r] = 500 + static_cast<TimeNs>(r % 4);
        QCOMPARE(votesFor(t), std::vector<size_t>{});
    }

    void theRankingCountsEveryVote()
    {
        // Five collectives of 16 members where rank 3 is the outlier of three and rank 11 of two.
        std::vector<RankSummary> ranks(16);
        const size_t slowOf[5] = {3, 11, 3, 11, 3};
        for (size_t r = 0; r < 16; ++r) {
            ranks[r].rankNumber = static_cast<int>(r);
            ranks[r].steps.push_back({});
            ranks[r].steps[0].stepId = 1;
            ranks[r].steps[0].endNs = 100'000 * us;
            for (size_t c = 0; c < 5; ++c) {
                const std::vector<TimeNs> t = spread(16, slowOf[c], 100, 500, 10);
                const TimeNs end = static_cast<TimeNs>(c + 1) * 10'000 * us;
                ranks[r].collectives.push_back({"g", "allreduce", "allreduce", 1, end - t[r] * us, end});
            }
        }
        const ClusterAnalysis a = analyzeCluster(ranks);
        QCOMPARE(a.ranking[0].rank, size_t(3));
        QCOMPARE(a.ranking[0].votes, size_t(3));
        QCOMPARE(a.ranking[1].rank, size_t(11));
        QCOMPARE(a.ranking[1].votes, size_t(2));
        QCOMPARE(a.ranking[2].votes, size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestSlowVotes)
#include "tst_slow_votes.moc"
