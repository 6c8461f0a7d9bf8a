// The memory budget against each rank's estimated loaded size, not its files (docs/cluster.md "Lazy
// loading"): three ranks written by the test (BudgetStory), rank 1's file the largest but its events the
// fewest. A 1 MB budget leaves exactly rank 0 lazy; by file sizes rank 1 would have been.
#include "BudgetStory.h"

#include "cluster/ClusterLoader.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace dspark;
using test::BudgetStory;

class TestClusterBudget : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theEstimateCountsEventRowsNotFileBytes()
    {
        QTemporaryDir dir;
        QCOMPARE(BudgetStory::write(dir.path()), QString());
        const ClusterLayout layout = findClusterRanks(dir.path().toStdString());
        QCOMPARE(layout.ranks.size(), size_t(3));
        // Rank 1's file is the largest (the padding) …
        QVERIFY(layout.ranks[1].bytes > 4'000'000);
        QVERIFY(layout.ranks[1].bytes > layout.ranks[0].bytes);
        // … but its rows are four.
        const RankSizeEstimate e0 = estimateLoadedBytes(layout.ranks[0]), e1 = estimateLoadedBytes(layout.ranks[1]);
        QCOMPARE(e0.basis, RankSizeEstimate::Basis::DatabaseRows);
        QCOMPARE(e0.events, BudgetStory::kRank0Rows);
        QCOMPARE(e1.events, BudgetStory::kSmallRows);
        QVERIFY(e0.loadedBytes > 1'000'000); // 20,003 rows: more than 1 MB in the model
        QVERIFY(e1.loadedBytes < 10'000);

        // The estimate is of the right size: rank 0 loaded really takes within 2× of it.
        ClusterLoadOptions keepAll;
        const ClusterLoad all = loadCluster(layout, {}, nullptr, keepAll);
        QVERIFY(all.ranks[0].profile);
        const double ratio = double(all.ranks[0].profile->bytesUsed()) / double(e0.loadedBytes);
        qInfo("rank 0: loaded %zu bytes, estimated %llu: ratio %.2f", all.ranks[0].profile->bytesUsed(),
              static_cast<unsigned long long>(e0.loadedBytes), ratio);
        QVERIFY2(ratio > 0.5 && ratio < 2.0, qPrintable(QString::number(ratio)));
    }

    void aOneMegabyteBudgetLeavesExactlyTheLargeRankLazy()
    {
        QTemporaryDir dir;
        QCOMPARE(BudgetStory::write(dir.path()), QString());
        const ClusterLayout layout = findClusterRanks(dir.path().toStdString());
        const ClusterLoadPlan plan = planClusterLoad(layout, 1 << 20, 2);
        QCOMPARE(plan.keep, (std::vector<bool>{false, true, true}));
        QCOMPARE(plan.lazyCount(), size_t(1));
        QCOMPARE(plan.concurrent, size_t(1)); // rank 0's load alone peaks above the budget

        ClusterLoadOptions options;
        options.keep = plan.keep;
        const ClusterLoad load = loadCluster(layout, {}, nullptr, options);
        QVERIFY(!load.ranks[0].profile); // summarised, its events dropped
        QCOMPARE(load.ranks[0].summary.steps.size(), size_t(1));
        QVERIFY(load.ranks[1].profile);
        QVERIFY(load.ranks[2].profile);

        // A budget that holds everything keeps every rank, two loading at once on two cores.
        const ClusterLoadPlan roomy = planClusterLoad(layout, uint64_t(64) << 20, 2);
        QCOMPARE(roomy.keep, (std::vector<bool>{true, true, true}));
        QCOMPARE(roomy.concurrent, size_t(2));
        // 300 bytes fit no rank (four rows: 400 B): all lazy.
        QCOMPARE(planClusterLoad(layout, 300, 2).lazyCount(), size_t(3));
    }

    // A JSON trace beside its summary (the summary made where the data is): the summary's lanes say how
    // many events the trace holds. A summary alone has nothing to load: 0, and it is not read.
    void aTraceWithASummaryIsEstimatedFromItsLanes()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("r.json")).toStdString();
        std::ofstream(path) << R"({"format":"dspark-rank-summary","version":2,"rank":0,"time_range_ns":[0,1],)"
                               R"("steps":[],"collectives":[],"links":[],"lanes":[)"
                               R"({"kind":"npu_stream","process":"p","name":"Stream 2","events":1000},)"
                               R"({"kind":"host","process":"p","name":"Thread 1","events":500}]})";
        ClusterRank rank;
        rank.summaryPath = path;
        QCOMPARE(estimateLoadedBytes(rank).loadedBytes, uint64_t(0));
        rank.path = dir.filePath(QStringLiteral("trace.json")).toStdString();
        std::ofstream(rank.path) << "[]";
        const RankSizeEstimate e = estimateLoadedBytes(rank);
        QCOMPARE(e.basis, RankSizeEstimate::Basis::SummaryEvents);
        QCOMPARE(e.events, uint64_t(1500));
        QVERIFY(e.loadedBytes > 0);
    }
};

QTEST_GUILESS_MAIN(TestClusterBudget)
#include "tst_cluster_budget.moc"
