#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace dspark {

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
    friend bool gunzip(const char*, size_t, size_t, HeapBytes&, std::string&);
    char* m_data = nullptr;
    size_t m_size = 0;
    size_t m_capacity = 0;
};

inline bool looksGzipped(const char* data, size_t size)
{
    return size >= 2 && static_cast<unsigned char>(data[0]) == 0x1f && static_cast<unsigned char>(data[1]) == 0x8b;
}

// Inflates a whole gzip stream (one member or several concatenated) into `out`, sized once from the
// trailer's length field and grown only if that was wrong. Returns false with `error` (translated, context
// "Gzip"; it names the compressed byte offset) for corrupt or truncated data: a partial result is never returned.
bool gunzip(const char* data, size_t size, size_t padding, HeapBytes& out, std::string& error);

} // namespace dspark
