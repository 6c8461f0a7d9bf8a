#pragma once

// The distribution of a quantity over some steps and the change of its median between two runs, with a
// bootstrap confidence interval (docs/analysis.md "Comparing two runs"). Both sides are resampled
// independently; the median of a resample is drawn directly from its order-statistic distribution
// (the k-th of n uniform draws is Beta(k, n + 1 − k)), which is exactly the bootstrap of the median at
// O(1) a resample after one sort. Seeded, so a report is reproducible.

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace dspark {

struct Distribution {
    size_t n = 0;
    double median = std::nan(""), p10 = std::nan(""), p90 = std::nan(""), mean = std::nan("");
};
// Of `sorted` (ascending, no NaN). Percentiles interpolate linearly between order statistics
// (Hyndman–Fan type 7, numpy's default).
Distribution describeSorted(std::span<const double> sorted);
double percentileSorted(std::span<const double> sorted, double p); // p in [0, 1]

struct MedianChange {
    double delta = std::nan("");                    // median(changed) − median(baseline)
    double low = std::nan(""), high = std::nan(""); // percentile bootstrap interval of delta
    double relative = std::nan("");                 // delta / |median(baseline)| (NaN when the baseline median is 0)
    // The interval lies wholly above or below zero.
    bool significant() const { return !std::isnan(low) && (low > 0 || high < 0); }
};

struct BootstrapOptions {
    int resamples = 2000;
    double confidence = 0.95;
    uint64_t seed = 23;
};
// Both inputs sorted ascending without NaN; an empty side gives NaN everywhere.
MedianChange medianChange(std::span<const double> baselineSorted, std::span<const double> changedSorted,
                          const BootstrapOptions& options = {});

// The bootstrap medians of one sorted sample, `resamples` of them (for tests and the interval itself).
std::vector<double> bootstrapMedians(std::span<const double> sorted, int resamples, uint64_t seed);

// The seed of the changed side's resamples (the baseline's is BootstrapOptions::seed): independent streams.
constexpr uint64_t changedSideSeed(uint64_t seed)
{
    return seed + 0x9E3779B97F4A7C15ull;
}
// Draws now the resample positions of a sample of n values (they depend on n, resamples and the seed
// only), so that a later medianChange() of that count finds them ready: a run's load thread does this for
// the counts it will bring to a comparison. Kept process-wide (bounded), shared by every thread.
void prepareBootstrap(size_t n, int resamples, uint64_t seed);

} // namespace dspark
