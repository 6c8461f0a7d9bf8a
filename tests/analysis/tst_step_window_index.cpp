// The step-window look-ups (StepWindowIndex) give what a scan of every window gives: by record row,
// by (rank, forward_ct) and by time range, on hand-made windows and on random ones.
#include "analysis/StepWindowIndex.h"

#include <QTest>

#include <algorithm>
#include <random>
#include <tuple>

using namespace dspark;

namespace {

RecordWindow window(int rank, int64_t fct, TimeNs start, TimeNs end, TimeNs horizon, size_t row)
{
    RecordWindow w;
    w.window.rankIndex = rank;
    w.window.forwardCt = fct;
    w.window.startNs = start;
    w.window.endNs = end;
    w.window.deviceHorizonNs = horizon;
    w.row = row;
    return w;
}

// The scans the index replaces (StepAnalyses before it).
std::optional<size_t> scanRow(const std::vector<RecordWindow>& ws, size_t row)
{
    for (size_t i = 0; i < ws.size(); ++i)
        if (ws[i].row == row)
            return i;
    return std::nullopt;
}
std::optional<size_t> scanFct(const std::vector<RecordWindow>& ws, int rank, int64_t fct)
{
    for (size_t i = 0; i < ws.size(); ++i)
        if (ws[i].window.forwardCt == fct && (rank < 0 || ws[i].window.rankIndex == rank))
            return i;
    return std::nullopt;
}
std::vector<size_t> scanRange(const std::vector<RecordWindow>& ws, int rank, TimeNs a, TimeNs b)
{
    std::vector<size_t> out;
    for (size_t i = 0; i < ws.size(); ++i) {
        const StepWindow& w = ws[i].window;
        if ((rank < 0 || w.rankIndex == rank) && w.startNs < b && w.horizonNs() > a)
            out.push_back(i);
    }
    return out;
}

} // namespace

class TestStepWindowIndex : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void handMadeWindows()
    {
        // Rank 0: [100,200) with device work to 450, [200,300), [300,400). Rank 1: [150,250) forward_ct 7.
        const std::vector<RecordWindow> ws = {window(0, 5, 100, 200, 450, 10), window(0, 6, 200, 300, 0, 11),
                                              window(0, 7, 300, 400, 0, 12), window(1, 7, 150, 250, 0, 3)};
        StepWindowIndex index;
        index.build(ws);
        QCOMPARE(index.ofRecordRow(12), std::optional<size_t>(2));
        QCOMPARE(index.ofRecordRow(3), std::optional<size_t>(3));
        QCOMPARE(index.ofRecordRow(4), std::nullopt);
        QCOMPARE(index.ofRecordRow(1000), std::nullopt);
        QCOMPARE(index.of(-1, 7), std::optional<size_t>(2)); // rank 0's comes first
        QCOMPARE(index.of(1, 7), std::optional<size_t>(3));
        QCOMPARE(index.of(1, 5), std::nullopt);
        QCOMPARE(index.of(-1, 8), std::nullopt);
        // [420, 430) lies after every wall window, but in step 0's device horizon.
        QCOMPARE(index.overlapping(ws, -1, 420, 430), std::vector<size_t>({0}));
        QCOMPARE(index.overlapping(ws, 0, 250, 301), std::vector<size_t>({0, 1, 2}));
        QCOMPARE(index.overlapping(ws, -1, 240, 260), std::vector<size_t>({0, 1, 3}));
        QCOMPARE(index.overlapping(ws, 1, 0, 150), std::vector<size_t>());
        QCOMPARE(index.overlapping(ws, 1, 249, 250), std::vector<size_t>({3}));
        QCOMPARE(index.overlapping(ws, -1, 450, 900), std::vector<size_t>());
    }

    void randomWindowsAgreeWithAScan()
    {
        std::mt19937_64 rng(7);
        for (int round = 0; round < 20; ++round) {
            std::vector<RecordWindow> ws;
            const int n = 1 + int(rng() % 400);
            for (int i = 0; i < n; ++i) {
                const int rank = int(rng() % 3);
                const TimeNs start = TimeNs(rng() % 10'000);
                const TimeNs end = start + TimeNs(rng() % 300);
                const TimeNs horizon = rng() % 4 == 0 ? end + TimeNs(rng() % 2'000) : 0;
                ws.push_back(window(rank, int64_t(rng() % 50), start, end, horizon, size_t(rng() % 600)));
            }
            std::sort(ws.begin(), ws.end(), [](const RecordWindow& a, const RecordWindow& b) {
                return std::tie(a.window.rankIndex, a.window.startNs) < std::tie(b.window.rankIndex, b.window.startNs);
            });
            StepWindowIndex index;
            index.build(ws);
            for (size_t row = 0; row < 610; ++row)
                QCOMPARE(index.ofRecordRow(row), scanRow(ws, row));
            for (int rank = -1; rank < 4; ++rank)
                for (int64_t fct = -1; fct < 52; ++fct)
                    QCOMPARE(index.of(rank, fct), scanFct(ws, rank, fct));
            for (int q = 0; q < 200; ++q) {
                const int rank = int(rng() % 5) - 1;
                const TimeNs a = TimeNs(rng() % 13'000);
                const TimeNs b = a + TimeNs(rng() % 1'500);
                QCOMPARE(index.overlapping(ws, rank, a, b), scanRange(ws, rank, a, b));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestStepWindowIndex)
#include "tst_step_window_index.moc"
