#include "compare/MedianInterval.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>

namespace dspark {

double percentileSorted(std::span<const double> sorted, double p)
{
    if (sorted.empty())
        return std::nan("");
    const double h = std::clamp(p, 0.0, 1.0) * double(sorted.size() - 1);
    const size_t lo = static_cast<size_t>(std::floor(h));
    const size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - double(lo)) * (sorted[hi] - sorted[lo]);
}

// percentileSorted() of `v` sorted, without sorting it all: the two order statistics it interpolates
// between are selected (reorders `v`).
static double percentileUnsorted(std::vector<double>& v, double p)
{
    if (v.empty())
        return std::nan("");
    const double h = std::clamp(p, 0.0, 1.0) * double(v.size() - 1);
    const size_t lo = static_cast<size_t>(std::floor(h));
    const auto at = v.begin() + std::ptrdiff_t(lo);
    std::nth_element(v.begin(), at, v.end());
    const double low = *at;
    const double high = lo + 1 < v.size() ? *std::min_element(at + 1, v.end()) : low;
    return low + (h - double(lo)) * (high - low);
}

Distribution describeSorted(std::span<const double> sorted)
{
    Distribution d;
    d.n = sorted.size();
    if (sorted.empty())
        return d;
    d.median = percentileSorted(sorted, 0.5);
    d.p10 = percentileSorted(sorted, 0.1);
    d.p90 = percentileSorted(sorted, 0.9);
    d.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / double(sorted.size());
    return d;
}

namespace {

// Variates from std::mt19937_64 (whose output the standard fixes) by our own transforms, so that a seed
// gives the same interval with any standard library.
class Variates {
public:
    explicit Variates(uint64_t seed) : m_engine(seed) {}
    double uniform() { return double(m_engine() >> 11) * 0x1.0p-53; } // [0, 1)
    double uniformOpen()                                              // (0, 1)
    {
        double u;
        do
            u = uniform();
        while (u <= 0.0);
        return u;
    }
    double normal() // Marsaglia's polar method
    {
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        double u, v, s;
        do {
            u = 2.0 * uniform() - 1.0;
            v = 2.0 * uniform() - 1.0;
            s = u * u + v * v;
        } while (s >= 1.0 || s == 0.0);
        const double f = std::sqrt(-2.0 * std::log(s) / s);
        m_spare = v * f;
        m_hasSpare = true;
        return u * f;
    }
    double gamma(double shape) // Marsaglia & Tsang (2000), shape ≥ 1 (the order statistics need no less)
    {
        const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
        for (;;) {
            double x, v;
            do {
                x = normal();
                v = 1.0 + c * x;
            } while (v <= 0.0);
            v = v * v * v;
            const double u = uniformOpen();
            if (u < 1.0 - 0.0331 * x * x * x * x || std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v)))
                return d * v;
        }
    }
    double beta(double a, double b)
    {
        const double x = gamma(a);
        return x / (x + gamma(b));
    }

private:
    std::mt19937_64 m_engine;
    double m_spare = 0;
    bool m_hasSpare = false;
};

size_t indexOf(double u, size_t n)
{
    return std::min(n - 1, static_cast<size_t>(u * double(n)));
}

// A resample of n draws from n values: its k-th smallest draw is the value at floor(n·U(k)), U(k) the k-th
// of n uniforms ~ Beta(k, n + 1 − k); the next one above is U(k) + (1 − U(k))·Beta(1, n − k).
// The positions drawn depend on (n, resamples, seed) only, not on the values: every quantity of a class
// with the same count reuses them (a comparison has a handful of counts and ~26 quantities a class).
struct MedianDraws {
    size_t n = 0;
    int resamples = 0;
    uint64_t seed = 0;
    std::vector<std::pair<uint32_t, uint32_t>> at; // the two middle positions (the same when n is odd)
};

std::shared_ptr<const MedianDraws> drawMedianPositions(size_t n, int resamples, uint64_t seed)
{
    auto d = std::make_shared<MedianDraws>();
    d->n = n;
    d->resamples = resamples;
    d->seed = seed;
    d->at.reserve(size_t(resamples));
    Variates rng(seed);
    const size_t k = (n + 1) / 2; // 1-based rank of the (lower) median
    for (int r = 0; r < resamples; ++r) {
        const double uk = rng.beta(double(k), double(n + 1 - k));
        const auto lo = uint32_t(indexOf(uk, n));
        if (n % 2 == 1) {
            d->at.emplace_back(lo, lo);
            continue;
        }
        const double next = uk + (1.0 - uk) * (1.0 - std::pow(rng.uniformOpen(), 1.0 / double(n - k)));
        d->at.emplace_back(lo, uint32_t(indexOf(next, n)));
    }
    return d;
}

// Process-wide, the latest draws (each 16 kB at 2,000 resamples): a run's load thread draws its counts
// ahead (prepareBootstrap) and the comparison's thread reads them. Drawn outside the lock: two threads
// may draw the same positions at once, which is only wasted work (the draws are a function of the key).
std::shared_ptr<const MedianDraws> medianPositions(size_t n, int resamples, uint64_t seed)
{
    static std::mutex lock;
    static std::deque<std::shared_ptr<const MedianDraws>> cache;
    const auto find = [&]() -> std::shared_ptr<const MedianDraws> {
        for (const auto& d : cache)
            if (d->n == n && d->resamples == resamples && d->seed == seed)
                return d;
        return nullptr;
    };
    {
        const std::lock_guard guard(lock);
        if (auto d = find())
            return d;
    }
    std::shared_ptr<const MedianDraws> drawn = drawMedianPositions(n, resamples, seed);
    const std::lock_guard guard(lock);
    if (auto d = find())
        return d;
    if (cache.size() >= 512)
        cache.pop_front();
    cache.push_back(std::move(drawn));
    return cache.back();
}

} // namespace

void prepareBootstrap(size_t n, int resamples, uint64_t seed)
{
    if (n > 0 && resamples > 0)
        (void)medianPositions(n, resamples, seed);
}

std::vector<double> bootstrapMedians(std::span<const double> sorted, int resamples, uint64_t seed)
{
    std::vector<double> out;
    const size_t n = sorted.size();
    if (n == 0 || resamples <= 0)
        return out;
    const std::shared_ptr<const MedianDraws> draws = medianPositions(n, resamples, seed);
    out.reserve(draws->at.size());
    for (const auto& [lo, hi] : draws->at)
        out.push_back(n % 2 == 1 ? sorted[lo] : 0.5 * (sorted[lo] + sorted[hi]));
    return out;
}

MedianChange medianChange(std::span<const double> baselineSorted, std::span<const double> changedSorted,
                          const BootstrapOptions& options)
{
    MedianChange c;
    if (baselineSorted.empty() || changedSorted.empty())
        return c;
    const double base = percentileSorted(baselineSorted, 0.5);
    c.delta = percentileSorted(changedSorted, 0.5) - base;
    c.relative = base != 0.0 ? c.delta / std::fabs(base) : std::nan("");
    // Independent streams for the two sides: the seed, and the seed's successor under a fixed odd step.
    const std::vector<double> a = bootstrapMedians(baselineSorted, options.resamples, options.seed);
    const std::vector<double> b = bootstrapMedians(changedSorted, options.resamples, changedSideSeed(options.seed));
    std::vector<double> diffs(a.size());
    for (size_t i = 0; i < a.size(); ++i)
        diffs[i] = b[i] - a[i];
    if (diffs.empty())
        return c;
    const double tail = (1.0 - options.confidence) / 2.0;
    c.low = percentileUnsorted(diffs, tail);
    c.high = percentileUnsorted(diffs, 1.0 - tail);
    return c;
}

} // namespace dspark
