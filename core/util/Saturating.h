#pragma once

// Integer arithmetic on times and ids from files that cannot overflow: past the int64 range the result
// is held at the limit (a damaged file's times near ±2^63 stay ordered instead of wrapping, which is UB).
#include <cstdint>
#include <limits>

namespace dspark {

inline int64_t addSaturating(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
    return r;
}

inline int64_t subSaturating(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r))
        return b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
    return r;
}

} // namespace dspark
