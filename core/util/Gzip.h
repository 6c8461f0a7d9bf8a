#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace dspark {

enum class GunzipResult { Ok, Damaged, TooLarge };

// How far a file may inflate: a gzip bomb (gigabytes of zeros in a few MB) is refused before it eats the
// memory. Real traces inflate 10-20 times.
struct GunzipLimits {
    uint64_t maxRatio = 100;                   // times the compressed size...
    uint64_t minAllowed = uint64_t(256) << 20; // ...but a small file may always inflate to this
    uint64_t maxBytes = uint64_t(16) << 30;    // and never past this
};

class HeapBytes;

// Inflates a whole gzip stream (one member or several concatenated) into `out`, sized once from the
// trailer's length field and grown only if that was wrong. Damaged: corrupt or truncated data; TooLarge:
// past `limits`; both with `error` (translated, context "Gzip"; it names the offset or the limit). A
// partial result is never returned.
GunzipResult gunzip(const char* data, size_t size, size_t padding, HeapBytes& out, std::string& error,
                    const GunzipLimits& limits = {});

// An owned, heap-allocated byte buffer followed by `padding` zero bytes (readable past the end, for
// parsers that need it). Move-only.
class HeapBytes {
public:
    HeapBytes() = default;
    HeapBytes(const HeapBytes&) = delete;
    HeapBytes& operator=(const HeapBytes&) = delete;
    HeapBytes(HeapBytes&& other) noexcept;
    HeapBytes& operator=(HeapBytes&& other) noexcept;
    ~HeapBytes();

    const char* data() const { return m_data; }
    size_t size() const { return m_size; }
    size_t capacity() const { return m_capacity; }

private:
    friend GunzipResult gunzip(const char*, size_t, size_t, HeapBytes&, std::string&, const GunzipLimits&);
    char* m_data = nullptr;
    size_t m_size = 0;
    size_t m_capacity = 0;
};

inline bool looksGzipped(const char* data, size_t size)
{
    return size >= 2 && static_cast<unsigned char>(data[0]) == 0x1f && static_cast<unsigned char>(data[1]) == 0x8b;
}

} // namespace dspark
