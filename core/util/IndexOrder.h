#pragma once

// Row numbers in a sorted order, for columns that are sorted by permuting them.
#include "util/LargeAlloc.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace dspark {

// `order` becomes 0..n-1 sorted by `before`, ties in row order: std::stable_sort's result without its
// buffer, which would be fresh memory (what costs most on the machines this runs on).
template <typename Before> void orderRows(LargeVector<uint32_t>& order, size_t n, Before&& before)
{
    order.resize(n);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return before(a, b) || (!before(b, a) && a < b); });
}

} // namespace dspark
