// The communication matrix per group (CommMatrix.h) of three ranks written by the test: group "g" with
// HCCL sub-task rows (COMMUNICATION_TASK_INFO) chosen below, group "h" without (its members' collective
// times only); every figure worked out by hand. The summaries carry the links and read back the same.
// Then a group whose HCCL order differs from the global ranks: each link's ends by global rank.
#include "ClusterDbBuilder.h"
#include "TestSupport.h"

#include "cluster/ClusterLoader.h"
#include "cluster/CommMatrix.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace dspark;
using dspark::test::ClusterDbBuilder;

namespace {

constexpr TimeNs us = 1000;

// µs, one clock (no skew). Group g: one all-reduce, issues 0 / 50 / 20, ends 200 on every rank; group h:
// one broadcast, issues 300 / 300 / 310, ends 400.
//   rank 0 rows: Notify_Wait 0→1 (size 0: left out), Memcpy 0→1 SDMA 1 000 000 B 100–150, Reduce_Inline
//   0→1 SDMA 1 000 000 B 150–170, Memcpy 0→2 RDMA 2 000 000 B 100–200, Reduce_Inline 0→4294967295 32 B
//   (no peer: left out);
//   rank 1 rows: Memcpy 1→0 SDMA 1 000 000 B 100–140; rank 2: none.
QString writeRanks(const QString& root)
{
    const TimeNs gIssue[3] = {0, 50, 20}, hIssue[3] = {300, 300, 310};
    for (int r = 0; r < 3; ++r) {
        ClusterDbBuilder b(r, 0);
        b.step(1, 0, 1000 * us);
        b.collective("allreduce_" + std::to_string(r), "hcom_allReduce_", "g", 64, gIssue[r] * us, 200 * us);
        b.collective("broadcast_" + std::to_string(r), "hcom_broadcast_", "h", 64, hIssue[r] * us, 400 * us);
        if (r == 0) {
            b.commTask("Notify_Wait", 1, 0, 1, 2, 0, 10 * us, 100 * us);
            b.commTask("Memcpy", 1, 0, 1, 0, 1'000'000, 100 * us, 150 * us);
            b.commTask("Reduce_Inline", 1, 0, 1, 0, 1'000'000, 150 * us, 170 * us);
            b.commTask("Memcpy", 1, 0, 2, 1, 2'000'000, 100 * us, 200 * us);
            b.commTask("Reduce_Inline", 1, 0, 4294967295LL, 0, 32, 190 * us, 195 * us);
        } else if (r == 1) {
            b.commTask("Memcpy", 1, 1, 0, 0, 1'000'000, 100 * us, 140 * us);
        }
        const QString error = b.writeRunFolder(root + QStringLiteral("/host%1_1_2025010108000000%1_ascend_pt").arg(r));
        if (!error.isEmpty())
            return error;
    }
    return {};
}

void checkMatrices(const std::vector<RankSummary>& ranks)
{
    const std::vector<GroupCommMatrix> groups = commMatrices(ranks, analyzeCluster(ranks));
    QCOMPARE(groups.size(), size_t(2));
    const GroupCommMatrix& g = groups[0];
    QCOMPARE(g.group, std::string("g"));
    QVERIFY(g.fromTasks());
    QCOMPARE(g.cells.size(), size_t(3));
    const struct {
        int64_t src, dst;
        const char* transport;
        uint64_t tasks;
        int64_t bytes;
        TimeNs time;
        double gbps;
    } cells[] = {
        {0, 1, "SDMA", 2, 2'000'000, 70 * us, 2e6 / 70e3}, // 28.57 GB/s
        {0, 2, "RDMA", 1, 2'000'000, 100 * us, 20.0},
        {1, 0, "SDMA", 1, 1'000'000, 40 * us, 25.0},
    };
    for (size_t i = 0; i < 3; ++i) {
        const CommMatrixCell& c = g.cells[i];
        QCOMPARE(c.srcRank, cells[i].src);
        QCOMPARE(c.dstRank, cells[i].dst);
        QCOMPARE(c.transport, std::string(cells[i].transport));
        QCOMPARE(c.tasks, cells[i].tasks);
        QCOMPARE(c.bytes, cells[i].bytes);
        QCOMPARE(c.timeNs, cells[i].time);
        QVERIFY(qAbs(c.bandwidthGBps() - cells[i].gbps) < 1e-9);
    }
    // Members of g: rank 1 issued last (50): waits 50 / 0 / 30, transfers 150 each.
    QCOMPARE(g.members.size(), size_t(3));
    const TimeNs wait[3] = {50, 0, 30};
    for (size_t r = 0; r < 3; ++r) {
        QCOMPARE(g.members[r].collectives, size_t(1));
        QCOMPARE(g.members[r].waitNs, wait[r] * us);
        QCOMPARE(g.members[r].transferNs, 150 * us);
        QCOMPARE(g.members[r].timeNs, (wait[r] + 150) * us);
    }
    // Group h has no rows: its members only (rank 2 last at 310: ranks 0 and 1 wait 10, transfer 90).
    const GroupCommMatrix& h = groups[1];
    QCOMPARE(h.group, std::string("h"));
    QVERIFY(!h.fromTasks());
    QCOMPARE(h.members.size(), size_t(3));
    QCOMPARE(h.members[0].waitNs, 10 * us);
    QCOMPARE(h.members[0].transferNs, 90 * us);
    QCOMPARE(h.members[2].waitNs, TimeNs(0));
    QCOMPARE(h.members[2].transferNs, 90 * us);
}

// Global ranks 3 and 5 in group "ep", whose HCCL order differs: rank 5 is in-group 0, rank 3 in-group 1,
// and in-group 2 is global rank 9 (not captured). Rank 3's rows: 1 → 0 (to rank 5) and 1 → 2 (to rank 9);
// rank 5's: 0 → 1. With `memberList`, rank 5's folder has torch_npu's profiler_metadata.json with the
// group's parallel_group_info (global_ranks [5, 3, 9]).
QString writeReorderedGroup(const QString& root, bool memberList)
{
    for (int r : {3, 5}) {
        ClusterDbBuilder b(r, 0);
        b.step(1, 0, 1000 * us);
        b.collective("alltoall_" + std::to_string(r), "hcom_alltoall_", "ep", 64, 0, 200 * us);
        if (r == 3) {
            b.commTask("Memcpy", 1, 1, 0, 0, 1'000'000, 100 * us, 150 * us);
            b.commTask("Memcpy", 1, 1, 2, 1, 500'000, 100 * us, 200 * us);
        } else {
            b.commTask("Memcpy", 1, 0, 1, 0, 1'000'000, 100 * us, 140 * us);
        }
        const QString folder = root + QStringLiteral("/host%1_1_2025010108000000%1_ascend_pt").arg(r);
        if (const QString error = b.writeRunFolder(folder); !error.isEmpty())
            return error;
        if (r == 5 && memberList) {
            std::ofstream(QString(folder + QStringLiteral("/profiler_metadata.json")).toStdString())
                << R"({"ENV_VARIABLES": {}, "parallel_group_info": {"ep": {"group_name": "ep_group", )"
                   R"("group_rank": 0, "global_ranks": [5, 3, 9]}}})";
        }
    }
    return {};
}

const CommMatrixCell* cellOf(const GroupCommMatrix& g, int64_t src, int64_t dst)
{
    for (const CommMatrixCell& c : g.cells)
        if (c.srcRank == src && c.dstRank == dst)
            return &c;
    return nullptr;
}

} // namespace

class TestCommMatrix : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void linksAndMembersByHand()
    {
        QTemporaryDir dir;
        QCOMPARE(writeRanks(dir.path()), QString());
        const std::vector<RankSummary> ranks = loadCluster(findClusterRanks(dir.path().toStdString())).summaries();
        QCOMPARE(ranks.size(), size_t(3));
        checkMatrices(ranks);
        if (QTest::currentTestFailed())
            return;
        // The same from the summaries written and read back.
        std::vector<RankSummary> reread(3);
        for (size_t r = 0; r < 3; ++r) {
            const std::string path = dir.filePath(QStringLiteral("r%1.json").arg(r)).toStdString();
            std::ofstream(path) << rankSummaryJson(ranks[r]);
            QString error;
            QVERIFY2(readRankSummary(path, reread[r], error), qPrintable(error));
        }
        checkMatrices(reread);
    }

    void globalRanksWhereTheGroupsOrderDiffers()
    {
        QTemporaryDir dir;
        QCOMPARE(writeReorderedGroup(dir.path(), true), QString());
        std::vector<RankSummary> ranks = loadCluster(findClusterRanks(dir.path().toStdString())).summaries();
        QCOMPARE(ranks.size(), size_t(2));
        QCOMPARE(ranks[0].rankNumber, 3);
        QCOMPARE(ranks[1].groups.size(), size_t(1)); // rank 5: group_rank 0 and the member list
        QCOMPARE(ranks[1].groups[0].groupRank, int64_t(0));
        QCOMPARE(ranks[1].groups[0].globalRanks, (std::vector<int>{5, 3, 9}));
        QCOMPARE(ranks[0].groups[0].groupRank, int64_t(1)); // rank 3: the source of its own rows
        for (int pass = 0; pass < 2; ++pass) {              // the profiles, then their summaries read back
            const std::vector<GroupCommMatrix> groups = commMatrices(ranks, analyzeCluster(ranks));
            QCOMPARE(groups.size(), size_t(1));
            const GroupCommMatrix& g = groups[0];
            QCOMPARE(g.cells.size(), size_t(3));
            QCOMPARE(cellOf(g, 0, 1)->srcGlobal, 5);
            QCOMPARE(cellOf(g, 0, 1)->dstGlobal, 3);
            QCOMPARE(cellOf(g, 1, 0)->srcGlobal, 3);
            QCOMPARE(cellOf(g, 1, 0)->dstGlobal, 5);
            QCOMPARE(cellOf(g, 1, 2)->dstGlobal, 9); // not captured: known from the member list
            for (RankSummary& r : ranks) {
                const std::string path = dir.filePath(QStringLiteral("s%1.json").arg(r.rankNumber)).toStdString();
                std::ofstream(path) << rankSummaryJson(r);
                QString error;
                QVERIFY2(readRankSummary(path, r, error), qPrintable(error));
            }
        }

        // Without the member list: the captured ranks still by their own rows, rank 9 unknown.
        QTemporaryDir bare;
        QCOMPARE(writeReorderedGroup(bare.path(), false), QString());
        const std::vector<RankSummary> plain = loadCluster(findClusterRanks(bare.path().toStdString())).summaries();
        const GroupCommMatrix g = commMatrices(plain, analyzeCluster(plain)).at(0);
        QCOMPARE(cellOf(g, 0, 1)->srcGlobal, 5);
        QCOMPARE(cellOf(g, 0, 1)->dstGlobal, 3);
        QCOMPARE(cellOf(g, 1, 2)->srcGlobal, 3);
        QCOMPARE(cellOf(g, 1, 2)->dstGlobal, -1);
    }
};

QTEST_GUILESS_MAIN(TestCommMatrix)
#include "tst_comm_matrix.moc"
