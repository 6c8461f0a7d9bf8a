// Range statistics over a generated profile (computeRangeStats): 8 device streams of back-to-back
// kernels and 2 host threads of nested spans (depth 0-3), 500 distinct names, `events` in all (default
// 10 M); every event lies in the range aggregated, and a second range holds half of them. Usage:
// bench_range_stats [events] [runs] (default 10000000 7); median printed. Figures go to
// docs/performance.md ("Range statistics"; target ≤ 100 ms for 10 M events).
#include "analysis/RangeStats.h"

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

// Device lanes: kernels of 1-4 µs with 200 ns gaps. Host lanes: a 40 µs span holding 4 children of
// 8 µs, each holding 2 of 3 µs, each holding one of 1 µs (15 events a group).
void generate(Profile& p, size_t events)
{
    const int rank = p.ensureRank(0, 0);
    std::vector<uint32_t> names;
    for (int i = 0; i < 500; ++i)
        names.push_back(p.strings.intern("kernel_or_op_" + std::to_string(i)));
    const size_t perDevice = events * 8 / 10 / 8, perHost = events / 10;
    for (int s = 0; s < 8; ++s) {
        const uint32_t l =
            p.laneFor({LaneKind::NpuStream, rank, 0, s, -1, "Ascend Hardware", "Stream " + std::to_string(s), 0});
        Lane& lane = p.lanes[l];
        lane.reserve(perDevice);
        TimeNs t = s * 100;
        for (size_t i = 0; i < perDevice; ++i) {
            const TimeNs d = 1000 + TimeNs((i * 7919) % 3000);
            lane.append(t, d, names[(i * 31 + s) % 400], EventKind::Kernel);
            t += d + 200;
        }
    }
    for (int h = 0; h < 2; ++h) {
        const uint32_t l =
            p.laneFor({LaneKind::Host, rank, -1, -1, 100 + h, "Python", "Thread " + std::to_string(h), 0});
        Lane& lane = p.lanes[l];
        lane.reserve(perHost);
        TimeNs t = 0;
        for (size_t g = 0; lane.size() + 15 <= perHost; ++g) {
            const auto name = [&](int k) { return names[400 + (g * 7 + k) % 100]; };
            lane.append(t, 40000, name(0), EventKind::TorchOp);
            for (int a = 0; a < 4; ++a) {
                const TimeNs ta = t + 1000 + a * 9000;
                lane.append(ta, 8000, name(1 + a), EventKind::TorchOp);
                for (int b = 0; b < 2; ++b) {
                    const TimeNs tb = ta + 500 + b * 3500;
                    lane.append(tb, 3000, name(5 + b), EventKind::TorchOp);
                    lane.append(tb + 1000, 1000, name(7), EventKind::HostApi);
                }
            }
            t += 45000;
        }
    }
    p.finalize();
}

} // namespace

int main(int argc, char** argv)
{
    const size_t events = argc > 1 ? std::stoul(argv[1]) : 10'000'000;
    const int runs = argc > 2 ? std::stoi(argv[2]) : 7;
    Profile p;
    const auto g0 = Clock::now();
    generate(p, events);
    const ProfileStats stats = p.stats();
    std::printf("generated %llu events in %.0f ms\n", static_cast<unsigned long long>(stats.events),
                std::chrono::duration<double, std::milli>(Clock::now() - g0).count());
    const TimeNs first = p.firstNs(), last = p.lastNs();
    for (auto [label, from, to] :
         {std::tuple{"whole profile", first, last + 1},
          std::tuple{"middle half", first + (last - first) / 4, first + (last - first) * 3 / 4}}) {
        std::vector<double> ms;
        size_t rows = 0;
        uint64_t counted = 0;
        for (int r = 0; r < runs; ++r) {
            const auto t0 = Clock::now();
            const RangeStats s = computeRangeStats(p, {from, to, {}, -1});
            ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            rows = s.rows.size();
            counted = 0;
            for (const RangeNameStats& row : s.rows)
                counted += row.count;
        }
        std::sort(ms.begin(), ms.end());
        std::printf("%-14s %11llu events in range, %4zu rows: median %.1f ms (min %.1f, max %.1f, %d runs)\n", label,
                    static_cast<unsigned long long>(counted), rows, median(ms), ms.front(), ms.back(), runs);
    }
    return 0;
}
