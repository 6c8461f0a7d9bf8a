// Finding the ranks of a folder (formats.md §6): by their databases' names, Kineto's distributedInfo and
// SGLang's trace names; several runs of one rank (the newest opened, the others listed with a warning);
// two sources that claim one rank (a warning, never merged); a rank that fails while the rest open.
#include "ClusterDbBuilder.h"
#include "TestSupport.h"

#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterLoader.h"
#include "io/ProfileScanner.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <mutex>

using namespace dspark;
using dspark::test::ClusterDbBuilder;

namespace {

// A rank with one step and one collective that ends at `endUs` on the true clock.
QString writeRank(const QString& folder, int rank, TimeNs endUs = 450)
{
    ClusterDbBuilder b(rank, 0);
    b.step(1, 0, 1'000'000);
    b.collective("hcom_allReduce__1_0_1", "hcom_allReduce_", "g", 10, 100'000, endUs * 1000);
    return b.writeRunFolder(folder);
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace

class TestClusterLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Two links of one folder of ranks: "a" to one rank's folder, "b" to the job folder that holds it and
    // the other rank. Both ranks, whatever the links' names (the rank under both is scanned once): the
    // job's folder is entered, not left out for holding a folder entered before it.
    void aLinkToAFolderHoldingAnotherLinksTargetIsEntered()
    {
        QTemporaryDir dir;
        const QString job = dir.filePath(QStringLiteral("store/job"));
        QCOMPARE(writeRank(job + QStringLiteral("/w0_20250101080000001_ascend_pt"), 0), QString());
        QCOMPARE(writeRank(job + QStringLiteral("/w1_20250101080000002_ascend_pt"), 1), QString());
        const QString view = dir.filePath(QStringLiteral("view"));
        QVERIFY(QDir().mkpath(view));
        QVERIFY(QFile::link(job + QStringLiteral("/w0_20250101080000001_ascend_pt"), view + QStringLiteral("/a")));
        QVERIFY(QFile::link(job, view + QStringLiteral("/b")));
        const ClusterLayout layout = findClusterRanks(view.toStdString());
        QCOMPARE(layout.ranks.size(), size_t(2));
        QCOMPARE(QString::fromStdString(layout.ranks[0].path),
                 view + QStringLiteral("/b/w0_20250101080000001_ascend_pt"));
        QCOMPARE(QString::fromStdString(layout.ranks[1].path),
                 view + QStringLiteral("/b/w1_20250101080000002_ascend_pt"));
        QVERIFY(layout.skipped.empty());
        QCOMPARE(scanProfilePath(view.toStdString()).examined, size_t(2)); // each database once
    }

    // A rank folder whose name says nothing (not *_ascend_pt) is a run by its content (an
    // ASCEND_PROFILER_OUTPUT folder): its files are one rank, and its FRAMEWORK folder (raw data, which may
    // hold thousands of files) is not entered, as under a *_ascend_pt folder.
    void aRankFolderIsARunByItsContent()
    {
        QTemporaryDir dir;
        const QString rank = dir.filePath(QStringLiteral("node zero"));
        QCOMPARE(writeRank(rank, 0), QString());
        QVERIFY(QDir().mkpath(rank + QStringLiteral("/FRAMEWORK")));
        QVERIFY(writeFile(rank + QStringLiteral("/FRAMEWORK/raw.json"),
                          R"({"traceEvents": [{"ph":"X","name":"k","pid":0,"tid":7,"ts":1,"dur":2}]})"));
        const ScanResult scan = scanProfilePath(dir.path().toStdString());
        QCOMPARE(scan.rawFolders, std::vector<std::string>{QString(rank + QStringLiteral("/FRAMEWORK")).toStdString()});
        QCOMPARE(scan.files.size(), size_t(1));
        QCOMPARE(QString::fromStdString(scan.files[0].runRoot), rank);
        const ClusterLayout layout = findClusterRanks(dir.path().toStdString());
        QCOMPARE(layout.ranks.size(), size_t(1));
        QCOMPARE(QString::fromStdString(layout.ranks[0].path), rank);
        QVERIFY(layout.skipped.empty());
    }

    void sglangTraceNamesGiveTheTpRank()
    {
        QCOMPARE(rankFromSglangTraceName("1712345678-TP-3-DP-1-EP-3.trace.json.gz"), 3);
        QCOMPARE(rankFromSglangTraceName("prefix-1712345678-TP-12-EP-12-DECODE.trace.json.gz"), 12);
        QCOMPARE(rankFromSglangTraceName("1712345678-TP-0.trace.json"), 0);
        QCOMPARE(rankFromSglangTraceName("resnet.pt.trace.json.gz"), -1);
        QCOMPARE(rankFromSglangTraceName("1712345678-TP-3.json"), -1);
    }

    void kinetoAndSglangTracesAreRanks()
    {
        QTemporaryDir dir;
        const QByteArray event = R"({"ph":"X","name":"k","cat":"kernel","pid":0,"tid":7,"ts":1,"dur":2})";
        // The name says nothing; the document says rank 4.
        QVERIFY(writeFile(dir.filePath(QStringLiteral("worker_a.json")),
                          R"({"distributedInfo": {"rank": 4, "world_size": 8}, "traceEvents": [)" + event + "]}"));
        // No distributedInfo: SGLang's name says TP 6.
        QVERIFY(writeFile(dir.filePath(QStringLiteral("1712345678-TP-6-DP-6.trace.json")),
                          R"({"traceEvents": [)" + event + "]}"));
        const ClusterLayout layout = findClusterRanks(dir.path().toStdString());
        QCOMPARE(layout.ranks.size(), size_t(2));
        QCOMPARE(layout.ranks[0].rankNumber, 4);
        QVERIFY(QString::fromStdString(layout.ranks[0].path).endsWith(QStringLiteral("worker_a.json")));
        QCOMPARE(layout.ranks[1].rankNumber, 6);
    }

    void theNewestRunOfARankIsOpenedAndTheOlderListed()
    {
        QTemporaryDir dir;
        QCOMPARE(writeRank(dir.filePath(QStringLiteral("h_1_20250101080000001_ascend_pt")), 0), QString());
        const QString older = dir.filePath(QStringLiteral("h_2_20250101080000001_ascend_pt"));
        const QString newer = dir.filePath(QStringLiteral("h_3_20250101093000001_ascend_pt"));
        QCOMPARE(writeRank(older, 1, 451), QString());
        QCOMPARE(writeRank(newer, 1, 452), QString());
        const ClusterLayout layout = findClusterRanks(dir.path().toStdString());
        QCOMPARE(layout.ranks.size(), size_t(2));
        QCOMPARE(QString::fromStdString(layout.ranks[1].path), newer);
        QCOMPARE(layout.skipped.size(), size_t(1));
        QCOMPARE(QString::fromStdString(layout.skipped[0].path), older);
        QCOMPARE(layout.warnings.size(), qsizetype(1));
        QCOMPARE(layout.warnings[0], QStringLiteral("rank 1 has several runs: the newest, %1, is opened; %2 is not "
                                                    "loaded")
                                         .arg(newer, older));
    }

    void twoFoldersClaimingOneRankWarnAndAreNotMerged()
    {
        QTemporaryDir dir;
        QCOMPARE(writeRank(dir.filePath(QStringLiteral("h_1_20250101080000001_ascend_pt")), 0), QString());
        const QString a = dir.filePath(QStringLiteral("hostA_2_20250101080000001_ascend_pt"));
        const QString b = dir.filePath(QStringLiteral("hostB_2_20250101080000001_ascend_pt"));
        QCOMPARE(writeRank(a, 1, 451), QString());
        QCOMPARE(writeRank(b, 1, 452), QString()); // other content: not a duplicate file
        const ClusterLayout layout = findClusterRanks(dir.path().toStdString());
        QCOMPARE(layout.ranks.size(), size_t(2));
        QCOMPARE(QString::fromStdString(layout.ranks[1].path), a);
        QCOMPARE(layout.warnings.size(), qsizetype(1));
        QCOMPARE(layout.warnings[0],
                 QStringLiteral("%1 and %2 both claim rank 1; only %1 is opened (they are never merged)").arg(a, b));
        // The CLI says so too.
        const test::CliResult r = test::runCli({QStringLiteral("analyze"), dir.path(), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("both claim rank 1"), r.err.constData());
        QCOMPARE(r.json()["cluster"]["warnings"].size(), size_t(1));
        QCOMPARE(r.json()["cluster"]["not_loaded"][0]["path"].get<std::string>(), b.toStdString());
    }

    void aRankThatFailsLetsTheOthersOpen()
    {
        QTemporaryDir dir;
        QCOMPARE(writeRank(dir.filePath(QStringLiteral("h_1_20250101080000001_ascend_pt")), 0), QString());
        QCOMPARE(writeRank(dir.filePath(QStringLiteral("h_2_20250101080000001_ascend_pt")), 1, 460), QString());
        const QString broken = dir.filePath(
            QStringLiteral("h_3_20250101080000001_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_2.db"));
        QVERIFY(QDir().mkpath(QFileInfo(broken).path()));
        QVERIFY(writeFile(broken, QByteArray("SQLite format 3") + QByteArray(4000, 'x')));
        const ClusterLoad load = loadCluster(findClusterRanks(dir.path().toStdString()));
        QCOMPARE(load.ranks.size(), size_t(3));
        QVERIFY(load.ranks[0].ok());
        QVERIFY(load.ranks[1].ok());
        QVERIFY(!load.ranks[2].ok());
        QVERIFY2(load.ranks[2].error.startsWith(broken + QStringLiteral(": ")), qPrintable(load.ranks[2].error));
        QVERIFY(load.error.isEmpty());
        const ClusterAnalysis a = analyzeCluster(load.summaries());
        QCOMPARE(a.collectives.size(), size_t(1));
        QCOMPARE(a.clocks[1].offsetNs, TimeNs(-10'000)); // rank 1's collective ends 10 µs later
        const test::CliResult r = test::runCli({QStringLiteral("analyze"), dir.path(), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const nlohmann::json doc = r.json();
        QCOMPARE(doc["ranks"][2]["status"].get<std::string>(), std::string("failed"));
        QVERIFY(doc["ranks"][2]["error"].get<std::string>().starts_with(broken.toStdString()));
        QCOMPARE(doc["cluster"]["opened"].get<int>(), 2);
        QVERIFY2(r.err.contains("rank 2 not opened"), r.err.constData());
    }

    void aCancelledLoadOpensNoRank()
    {
        QTemporaryDir dir;
        QCOMPARE(writeRank(dir.filePath(QStringLiteral("h_1_20250101080000001_ascend_pt")), 0), QString());
        QCOMPARE(writeRank(dir.filePath(QStringLiteral("h_2_20250101080000001_ascend_pt")), 1), QString());
        const std::atomic<bool> cancel{true};
        const ClusterLoad load = loadCluster(findClusterRanks(dir.path().toStdString()), {}, &cancel);
        QVERIFY(load.cancelled);
        QVERIFY(load.summaries().empty());
        QCOMPARE(load.ranks[0].error, QStringLiteral("cancelled"));
    }

    void oneProgressCountsRanksAndBytes()
    {
        QTemporaryDir dir;
        for (int r = 0; r < 3; ++r)
            QCOMPARE(writeRank(dir.filePath(QStringLiteral("h_%1_20250101080000001_ascend_pt").arg(r)), r), QString());
        QStringList phases;
        double last = 0;
        std::mutex mutex;
        const ClusterLoad load = loadCluster(
            findClusterRanks(dir.path().toStdString()),
            [&](double f, const QString& phase) {
                std::lock_guard lock(mutex);
                phases << phase;
                last = f;
            },
            nullptr);
        QCOMPARE(load.summaries().size(), size_t(3));
        QCOMPARE(last, 1.0);
        QVERIFY2(phases.last().startsWith(QStringLiteral("Loading ranks: 3 of 3 done, ")), qPrintable(phases.last()));
    }

    void manyRanksLoadAtOnceWithinCoresAndMemory()
    {
        QCOMPARE(clusterConcurrency(8, 750'000'000, 2, uint64_t(8) << 30), size_t(2)); // peaks of 750 MB
        QCOMPARE(clusterConcurrency(8, 750'000'000, 16, uint64_t(8) << 30), size_t(8));
        QCOMPARE(clusterConcurrency(8, 6'000'000'000, 16, uint64_t(8) << 30), size_t(1)); // 6 GB a load
        QCOMPARE(clusterConcurrency(3, 1000, 16, uint64_t(8) << 30), size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestClusterLayout)
#include "tst_cluster_layout.moc"
