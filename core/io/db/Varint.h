#pragma once

#include <cstdint>

namespace dspark::db {

// LEB128 varints and zig-zag signed values: the compact rows of RowArgs and of the loader's TASK stage.

inline uint8_t* putVarint(uint8_t* p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = static_cast<uint8_t>(v | 0x80);
        v >>= 7;
    }
    *p++ = static_cast<uint8_t>(v);
    return p;
}

// Reads one varint from [p, end); returns where it ended (`end` when it runs past it).
inline const uint8_t* getVarint(const uint8_t* p, const uint8_t* end, uint64_t& v)
{
    v = 0;
    for (int shift = 0; p < end && shift < 64; shift += 7) {
        const uint8_t b = *p++;
        v |= uint64_t(b & 0x7f) << shift;
        if (!(b & 0x80))
            return p;
    }
    return end;
}

inline uint64_t zigzag(int64_t v)
{
    return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

inline int64_t unzigzag(uint64_t v)
{
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

} // namespace dspark::db
