#include "timeline/CounterLevels.h"

#include <algorithm>
#include <limits>
#include <span>

namespace dspark::ui {

static void reduceBlocks(std::span<const double> mins, std::span<const double> maxs, size_t block,
                         std::vector<double>& outMin, std::vector<double>& outMax)
{
    const size_t n = (mins.size() + block - 1) / block;
    outMin.resize(n);
    outMax.resize(n);
    for (size_t b = 0; b < n; ++b) {
        const size_t first = b * block, last = std::min(mins.size(), first + block);
        outMin[b] = *std::min_element(mins.begin() + first, mins.begin() + last);
        outMax[b] = *std::max_element(maxs.begin() + first, maxs.begin() + last);
    }
}

CounterLevels::CounterLevels(const Lane& lane) : m_values(lane.value)
{
    if (m_values.empty())
        return;
    reduceBlocks(m_values, m_values, kBlock, m_blockMin, m_blockMax);
    reduceBlocks(m_blockMin, m_blockMax, kBlock, m_superMin, m_superMax);
    m_min = *std::min_element(m_superMin.begin(), m_superMin.end());
    m_max = *std::max_element(m_superMax.begin(), m_superMax.end());
}

std::pair<double, double> CounterLevels::range(size_t first, size_t last) const
{
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    last = std::min(last, m_values.size());
    auto scan = [&](std::span<const double> mins, std::span<const double> maxs, size_t a, size_t b) {
        for (size_t i = a; i < b; ++i) {
            lo = std::min(lo, mins[i]);
            hi = std::max(hi, maxs[i]);
        }
    };
    // Walk up: raw samples to the next block boundary, whole blocks, whole super-blocks, and back down.
    const size_t super = kBlock * kBlock;
    size_t i = first;
    while (i < last && i % kBlock != 0)
        scan(m_values, m_values, i, i + 1), ++i;
    while (i + kBlock <= last && i % super != 0)
        scan(m_blockMin, m_blockMax, i / kBlock, i / kBlock + 1), i += kBlock;
    while (i + super <= last)
        scan(m_superMin, m_superMax, i / super, i / super + 1), i += super;
    while (i + kBlock <= last)
        scan(m_blockMin, m_blockMax, i / kBlock, i / kBlock + 1), i += kBlock;
    scan(m_values, m_values, i, last);
    return {lo, hi};
}

} // namespace dspark::ui
