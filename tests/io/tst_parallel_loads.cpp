// Two loads at once in one process (each with its own LoadOptions) build the same models as each alone:
// nothing a load reads or writes is process-wide. docs/architecture.md "Loading in parallel" says how this
// test is run under ThreadSanitizer.
#include "io/ProfileLoader.h"
#include "model/ModelDigest.h"

#include "../../bench/TraceViewGenerator.h"
#include "TestSupport.h"

#include <QTemporaryDir>
#include <QTest>

#include <string>
#include <thread>
#include <vector>

using namespace dspark;

namespace {

// Every path a load can take with small files: both threads, tiny chunks and many parse parts, flows
// bound on both cores, a database's detail tables and the second half of TASK on a worker.
LoadOptions everyPath()
{
    LoadOptions options;
    options.threads = 2;
    options.dbParallelRows = 0;
    options.trace.chunkBytes = 4096;
    options.trace.splitThreshold = 0;
    options.trace.minPartBytes = 16 << 10;
    options.trace.maxParts = 8;
    options.trace.parallelFlowPoints = 0;
    return options;
}

// The load's error and its model's digests (by ids and by text), empty-handed loads included.
std::string digestOf(const QString& path, const LoadOptions& options)
{
    const LoadOutcome out = loadProfile(path.toStdString(), {}, options);
    std::string d = out.error.toStdString() + "\n";
    if (out.profile)
        d += modelDigest(*out.profile) + modelDigest(*out.profile, true);
    return d;
}

// Loads every path on a thread of its own, all at once.
std::vector<std::string> loadConcurrently(const QStringList& paths, const LoadOptions& options)
{
    std::vector<std::string> digests(size_t(paths.size()));
    std::vector<std::thread> threads;
    for (qsizetype i = 0; i < paths.size(); ++i)
        threads.emplace_back([&, i] { digests[size_t(i)] = digestOf(paths[i], options); });
    for (std::thread& t : threads)
        t.join();
    return digests;
}

} // namespace

class TestParallelLoads : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void differentProfilesLoadedAtOnceEqualEachLoadedAlone()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QTemporaryDir dir;
        const QString generated = dir.filePath(QStringLiteral("trace_view.json"));
        const bench::TraceViewCounts counts = bench::TraceViewGenerator::write(generated.toStdString(), 1u << 20, 3);
        const QStringList paths{
            test::realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt")),
            test::realData(QStringLiteral("kineto/a100_2rank_nccl_rank0.pt.trace.json.gz")),
            test::realData(QStringLiteral("ascend/torch_npu_text_rank0_ascend_pt")),
            generated,
        };
        for (const LoadOptions& options : {LoadOptions(), everyPath()}) {
            std::vector<std::string> alone;
            for (const QString& path : paths) {
                const LoadOutcome out = loadProfile(path.toStdString(), {}, options);
                QVERIFY2(out.profile, qPrintable(out.error));
                alone.push_back(digestOf(path, options));
            }
            // The inputs are what they should be (so that equal digests mean something).
            const LoadOutcome db = loadProfile(paths[0].toStdString(), {}, options);
            QCOMPARE(db.profile->stats().commOps, uint64_t(4)); // COMMUNICATION_OP has 4 rows
            const LoadOutcome gen = loadProfile(generated.toStdString(), {}, options);
            QCOMPARE(gen.profile->stats().events - gen.profile->stats().counters, counts.completeEvents);
            QCOMPARE(gen.profile->stats().flows, counts.flowFinishes);
            for (size_t i = 0; i < alone.size(); ++i)
                for (size_t j = i + 1; j < alone.size(); ++j)
                    QVERIFY(alone[i] != alone[j]);

            for (int round = 0; round < 2; ++round) {
                const std::vector<std::string> together = loadConcurrently(paths, options);
                for (size_t i = 0; i < alone.size(); ++i)
                    QVERIFY2(together[i] == alone[i], qPrintable(paths[qsizetype(i)]));
            }
            // The same profile twice at once, too (one file's loads share nothing either).
            const std::vector<std::string> same = loadConcurrently({paths[0], paths[0], paths[1], paths[1]}, options);
            QVERIFY(same[0] == alone[0] && same[1] == alone[0]);
            QVERIFY(same[2] == alone[1] && same[3] == alone[1]);
        }
    }
};

QTEST_GUILESS_MAIN(TestParallelLoads)
#include "tst_parallel_loads.moc"
