// The cross-rank critical path (CrossRankPath.h) of a 3-rank step written by the test (ClusterDbBuilder,
// read back through the real loader) whose answer is worked out by hand below, and of the 8-rank demo:
// in its slow window the path must run through the slow rank's gating compute.
#include "ClusterDbBuilder.h"
#include "CrossRankStory.h"
#include "TestSupport.h"

#include "cluster/ClusterLoader.h"
#include "cluster/CrossRankPath.h"
#include "demo/ClusterDemo.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace dspark;
using dspark::test::ClusterDbBuilder;
using namespace dspark::test::story;

namespace {

struct Expected {
    int rank;
    PathCategory category;
    TimeNs start, end; // µs on the true clock
    const char* what;
    bool collective;
};

} // namespace

class TestCrossRankPath : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theStepRunsThroughTheLateRanksByHand()
    {
        QTemporaryDir dir;
        QCOMPARE(writeStory(dir.path()), QString());
        const std::vector<RankSummary> ranks = loadCluster(findClusterRanks(dir.path().toStdString())).summaries();
        QCOMPARE(ranks.size(), size_t(3));
        const ClusterAnalysis a = analyzeCluster(ranks);
        QCOMPARE(a.clocks[1].offsetNs, -50 * us);
        QCOMPARE(a.clocks[2].offsetNs, 30 * us);
        const CrossRankStepPath p = crossRankCriticalPath(ranks, a, 1);
        QCOMPARE(p.stepId, int64_t(1));
        QCOMPARE(ranks[p.endRank].rankNumber, 2);
        QCOMPARE(p.jumps, size_t(2));
        QVERIFY(p.complete);
        QCOMPARE(p.lengthNs(), 1000 * us);
        const TimeNs zero = p.startNs; // the true clock's 0 on the cluster clock
        QCOMPARE(p.endNs, zero + 1000 * us);
        using C = PathCategory;
        const Expected expected[] = {
            {1, C::Idle, 0, 10, "", false},        {1, C::VerifyCompute, 10, 100, "Attn", false},
            {1, C::Idle, 100, 110, "", false},     {1, C::VerifyCompute, 110, 400, "Gate", false},
            {1, C::Idle, 400, 410, "", false},     {0, C::ExposedComm, 410, 500, "dispatch_7", true},
            {0, C::Idle, 500, 510, "", false},     {0, C::VerifyCompute, 510, 840, "Expert", false},
            {0, C::Idle, 840, 850, "", false},     {2, C::ExposedComm, 850, 900, "combine_10", true},
            {2, C::Idle, 900, 910, "", false},     {2, C::VerifyCompute, 910, 995, "Tail", false},
            {2, C::HostGap, 995, 1000, "", false},
        };
        QCOMPARE(p.segments.size(), std::size(expected));
        for (size_t i = 0; i < p.segments.size(); ++i) {
            const CrossRankSegment& s = p.segments[i];
            const Expected& e = expected[i];
            const QByteArray where = QByteArray::number(qulonglong(i)) + ' ' + pathCategoryKey(s.category);
            QVERIFY2(ranks[s.rank].rankNumber == e.rank, where.constData());
            QVERIFY2(s.category == e.category, where.constData());
            QCOMPARE(s.startNs - zero, e.start * us);
            QCOMPARE(s.endNs - zero, e.end * us);
            QCOMPARE(s.what, std::string(e.what));
            QCOMPARE(s.collective, e.collective);
        }
        // Totals per (rank, category), largest first: rank 1's compute 90 + 290, rank 0's 330, …
        QCOMPARE(p.totals.size(), size_t(9));
        QCOMPARE(ranks[p.totals[0].rank].rankNumber, 1);
        QCOMPARE(p.totals[0].category, C::VerifyCompute);
        QCOMPARE(p.totals[0].ns, 380 * us);
        QCOMPARE(ranks[p.totals[1].rank].rankNumber, 0);
        QCOMPARE(p.totals[1].category, C::VerifyCompute);
        QCOMPARE(p.totals[1].ns, 330 * us);
        QCOMPARE(ranks[p.totals[2].rank].rankNumber, 0);
        QCOMPARE(p.totals[2].category, C::ExposedComm);
        QCOMPARE(p.totals[2].ns, 90 * us);
        TimeNs sum = 0;
        for (const CrossRankTotal& t : p.totals)
            sum += t.ns;
        QCOMPARE(sum, p.lengthNs());
    }

    void summariesCarryThePathAndOldOnesStillOpen()
    {
        QTemporaryDir dir;
        QCOMPARE(writeStory(dir.path()), QString());
        const std::vector<RankSummary> ranks = loadCluster(findClusterRanks(dir.path().toStdString())).summaries();
        std::vector<RankSummary> reread(3), old(3);
        for (size_t r = 0; r < 3; ++r) {
            const std::string path = dir.filePath(QStringLiteral("s%1.json").arg(r)).toStdString();
            std::ofstream(path) << rankSummaryJson(ranks[r]);
            QString error;
            QVERIFY2(readRankSummary(path, reread[r], error), qPrintable(error));
            QCOMPARE(reread[r].steps.at(0).path.size(), ranks[r].steps.at(0).path.size());
            // The same summary as version 1 wrote it: no per-step path.
            nlohmann::json doc = nlohmann::json::parse(rankSummaryJson(ranks[r]));
            doc["version"] = 1;
            for (auto& st : doc["steps"])
                st.erase("path");
            std::ofstream(path, std::ios::trunc) << doc.dump();
            QVERIFY2(readRankSummary(path, old[r], error), qPrintable(error));
            QVERIFY(old[r].steps.at(0).path.empty());
        }
        const CrossRankStepPath fresh = crossRankCriticalPath(ranks, analyzeCluster(ranks), 1);
        const CrossRankStepPath again = crossRankCriticalPath(reread, analyzeCluster(reread), 1);
        QCOMPARE(again.segments.size(), fresh.segments.size());
        for (size_t i = 0; i < fresh.segments.size(); ++i) {
            QCOMPARE(again.segments[i].startNs, fresh.segments[i].startNs);
            QCOMPARE(again.segments[i].what, fresh.segments[i].what);
        }
        // Without per-rank paths the walk still goes through the collectives to the late ranks, the rest
        // of each rank's time unexplained (idle), and says it is incomplete.
        const CrossRankStepPath bare = crossRankCriticalPath(old, analyzeCluster(old), 1);
        QVERIFY(!bare.complete);
        QCOMPARE(bare.jumps, size_t(2));
        QCOMPARE(bare.lengthNs(), 1000 * us);
    }

    void theDemosSlowWindowRunsThroughTheSlowRanksCompute()
    {
        QTemporaryDir dir;
        demo::ClusterDemoOptions o;
        o.steps = 30;
        o.slowFromStep = 10;
        o.slowToStep = 20;
        const std::string root = dir.filePath(QStringLiteral("demo")).toStdString();
        QCOMPARE(demo::writeClusterDemo(o, root).error, QString());
        const std::vector<RankSummary> ranks = loadCluster(findClusterRanks(root)).summaries();
        QCOMPARE(ranks.size(), size_t(8));
        const ClusterAnalysis a = analyzeCluster(ranks);
        const std::vector<CrossRankStepPath> paths = crossRankCriticalPaths(ranks, a);
        QCOMPARE(paths.size(), size_t(30));
        const int64_t first = a.firstStepId;
        for (const CrossRankStepPath& p : paths) {
            QVERIFY(p.complete);
            TimeNs sum = 0;
            for (const CrossRankTotal& t : p.totals)
                sum += t.ns;
            QCOMPARE(sum, p.lengthNs());
            const bool slow = p.stepId >= first + o.slowFromStep && p.stepId < first + o.slowToStep;
            TimeNs gating = 0; // the slow rank's MoeGatingTopK on the path
            for (const CrossRankSegment& s : p.segments)
                if (ranks[s.rank].rankNumber == o.slowRank && s.what == "MoeGatingTopK")
                    gating += s.endNs - s.startNs;
            if (slow) {
                // Both layers' extra 200 µs of gating on rank 5 are on the path, and rank 5's compute is
                // the largest share of the step.
                QVERIFY2(gating >= 2 * o.slowExtraNs, qPrintable(QString::number(p.stepId)));
                QCOMPARE(ranks[p.totals.front().rank].rankNumber, o.slowRank);
                QCOMPARE(p.totals.front().category, PathCategory::VerifyCompute);
            } else {
                QVERIFY2(gating < o.slowExtraNs / 4, qPrintable(QString::number(p.stepId)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCrossRankPath)
#include "tst_cross_rank_path.moc"
