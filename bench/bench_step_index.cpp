// The step-window look-ups behind the step charts, the overlays and the exports (StepWindowIndex)
// against the scans they replaced: the charts look up every record row's step once, so a scan made
// building them rows x steps. Usage: bench_step_index [steps...] (default 20000 50000 200000); each
// size 5 rounds, median printed. Figures go to docs/performance.md ("Step records").
#include "analysis/StepWindowIndex.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace dspark;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

std::vector<RecordWindow> windows(size_t n)
{
    // Two DP ranks, 20 ms steps back to back, device work up to 5 ms past each wall window.
    std::vector<RecordWindow> ws(n);
    for (size_t i = 0; i < n; ++i) {
        RecordWindow& w = ws[i];
        w.window.rankIndex = int(i % 2);
        w.window.forwardCt = int64_t(1000 + i / 2);
        w.window.startNs = TimeNs(i / 2) * 20'000'000;
        w.window.endNs = w.window.startNs + 20'000'000;
        w.window.deviceHorizonNs = w.window.endNs + 5'000'000;
        w.row = i;
    }
    std::sort(ws.begin(), ws.end(), [](const RecordWindow& a, const RecordWindow& b) {
        return std::tie(a.window.rankIndex, a.window.startNs) < std::tie(b.window.rankIndex, b.window.startNs);
    });
    return ws;
}

template <typename F> double timeMs(F&& f)
{
    const auto t0 = Clock::now();
    f();
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<size_t> sizes;
    for (int i = 1; i < argc; ++i)
        sizes.push_back(std::stoul(argv[i]));
    if (sizes.empty())
        sizes = {20000, 50000, 200000};
    std::printf("%10s %14s %22s %22s %20s\n", "steps", "build ms", "every row: index ms", "every row: scan ms",
                "1,000 ranges: ms");
    size_t sink = 0;
    for (const size_t n : sizes) {
        const std::vector<RecordWindow> ws = windows(n);
        std::vector<double> build, index, scan, ranges;
        for (int round = 0; round < 5; ++round) {
            StepWindowIndex idx;
            build.push_back(timeMs([&] { idx.build(ws); }));
            index.push_back(timeMs([&] {
                for (size_t row = 0; row < n; ++row)
                    sink += idx.ofRecordRow(row).value_or(0);
            }));
            // The scan is quadratic: past 50,000 steps one round would take minutes, so it is not run.
            if (n <= 50000)
                scan.push_back(timeMs([&] {
                    for (size_t row = 0; row < n; ++row)
                        for (size_t i = 0; i < ws.size(); ++i)
                            if (ws[i].row == row) {
                                sink += i;
                                break;
                            }
                }));
            ranges.push_back(timeMs([&] {
                for (size_t q = 0; q < 1000; ++q) {
                    const TimeNs a = TimeNs(q * (n / 1000)) * 10'000'000;
                    sink += idx.overlapping(ws, -1, a, a + 50'000'000).size();
                }
            }));
        }
        const std::string scanText = scan.empty() ? std::string("(not run)") : std::to_string(median(scan));
        std::printf("%10zu %14.3f %22.3f %22s %20.3f\n", n, median(build), median(index), scanText.c_str(),
                    median(ranges));
    }
    std::fprintf(stderr, "(checksum %zu)\n", sink);
    return 0;
}
