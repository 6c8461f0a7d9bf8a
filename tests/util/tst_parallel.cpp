// The two-core helpers the loaders build on (core/util/Parallel.h).
#include "util/Parallel.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

using namespace dspark;

class TestParallel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sortParallelGivesStdSortsOrder_data()
    {
        QTest::addColumn<int>("size");
        for (int n : {0, 1, 10, 65535, 65536, 200001})
            QTest::newRow(qPrintable(QString::number(n))) << n;
    }
    void sortParallelGivesStdSortsOrder()
    {
        QFETCH(int, size);
        // Many equal keys: the split around the median must still give one order (a total one here).
        std::mt19937 random(size);
        std::vector<std::pair<int, int>> values(static_cast<size_t>(size));
        for (auto& v : values)
            v = {int(random() % 97), int(random() % 5)};
        std::vector<std::pair<int, int>> expected = values;
        std::sort(expected.begin(), expected.end());
        for (const bool parallel : {false, true}) {
            std::vector<std::pair<int, int>> sorted = values;
            sortParallel(parallel, sorted.begin(), sorted.end(), std::less<std::pair<int, int>>());
            QVERIFY(sorted == expected);
        }
    }

    void forEachParallelRunsEveryTaskOnce()
    {
        for (const size_t n : {size_t(0), size_t(1), size_t(2), size_t(1000)}) {
            std::vector<std::atomic<int>> runs(n);
            forEachParallel(true, n, [&](size_t i) { ++runs[i]; });
            for (size_t i = 0; i < n; ++i)
                QCOMPARE(runs[i].load(), 1);
        }
    }

    // A failed task (out of memory in a loader) ends the loop: neither thread starts another one.
    void forEachParallelStopsAfterAFailedTask()
    {
        for (const bool parallel : {false, true}) {
            const size_t n = 10000;
            std::atomic<size_t> started{0};
            bool thrown = false;
            try {
                forEachParallel(parallel, n, [&](size_t i) {
                    ++started;
                    if (i == 10)
                        throw std::runtime_error("task failed");
                });
            } catch (const std::runtime_error&) {
                thrown = true;
            }
            QVERIFY(thrown);
            // Without the stop the other thread would run all of the remaining ~9,990 tasks.
            QVERIFY2(started.load() < 100, qPrintable(QString::number(started.load())));
        }
    }

    void runBothRunsInOrderOnOneThread()
    {
        std::vector<int> order;
        runBoth(
            false, [&] { order.push_back(1); }, [&] { order.push_back(2); });
        QCOMPARE(order, (std::vector<int>{1, 2}));
    }

    void runBothRethrowsTheWorkersException()
    {
        bool callerRan = false;
        bool thrown = false;
        try {
            runBoth(
                true, [] { throw std::runtime_error("worker failed"); }, [&] { callerRan = true; });
        } catch (const std::runtime_error& e) {
            thrown = QByteArray(e.what()) == "worker failed";
        }
        QVERIFY(thrown);
        QVERIFY(callerRan);
    }
};

QTEST_GUILESS_MAIN(TestParallel)
#include "tst_parallel.moc"
