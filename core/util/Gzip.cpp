#include "util/Gzip.h"

#include <QCoreApplication>

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace dspark {

// Messages end up in the loader's error ("<file>: the compressed file is damaged (<this>)").
static std::string gzipText(const char* text)
{
    return QCoreApplication::translate("Gzip", text).toStdString();
}

static std::string gzipTextAt(const char* text, size_t byte)
{
    return QCoreApplication::translate("Gzip", text).arg(qulonglong(byte)).toStdString();
}

HeapBytes::HeapBytes(HeapBytes&& other) noexcept
    : m_data(std::exchange(other.m_data, nullptr)), m_size(std::exchange(other.m_size, 0)),
      m_capacity(std::exchange(other.m_capacity, 0))
{
}

HeapBytes& HeapBytes::operator=(HeapBytes&& other) noexcept
{
    if (this != &other) {
        std::free(m_data);
        m_data = std::exchange(other.m_data, nullptr);
        m_size = std::exchange(other.m_size, 0);
        m_capacity = std::exchange(other.m_capacity, 0);
    }
    return *this;
}

HeapBytes::~HeapBytes()
{
    std::free(m_data);
}

GunzipResult gunzip(const char* data, size_t size, size_t padding, HeapBytes& out, std::string& error,
                    const GunzipLimits& limits)
{
    out = HeapBytes();
    if (!looksGzipped(data, size)) {
        error = gzipText(QT_TRANSLATE_NOOP("Gzip", "not gzip data"));
        return GunzipResult::Damaged;
    }
    const uint64_t byRatio = uint64_t(size) > UINT64_MAX / limits.maxRatio ? UINT64_MAX : size * limits.maxRatio;
    const uint64_t allowed = std::min(std::max(byRatio, limits.minAllowed), limits.maxBytes);
    const bool ratioBound = allowed < limits.maxBytes;
    // ISIZE (last 4 bytes) is the length of the last member modulo 2^32: a hint, never trusted.
    uint32_t isize = 0;
    if (size >= 18)
        std::memcpy(&isize, data + size - 4, 4); // little-endian on every platform we build for
    // +64: room to see the end marker; a damaged trailer must not make us reserve gigabytes.
    size_t capacity = std::max<size_t>({std::min<size_t>(isize, size * 64) + 64, size * 2, 4096});
    capacity = static_cast<size_t>(std::min<uint64_t>(capacity, allowed + 1)); // +1: to see it go past
    char* buffer = static_cast<char*>(std::malloc(capacity + padding));
    if (!buffer) {
        error = gzipText(QT_TRANSLATE_NOOP("Gzip", "out of memory"));
        return GunzipResult::Damaged;
    }

    z_stream zs{};
    if (inflateInit2(&zs, 15 + 16) != Z_OK) {
        std::free(buffer);
        error = gzipText(QT_TRANSLATE_NOOP("Gzip", "zlib initialisation failed"));
        return GunzipResult::Damaged;
    }
    size_t inPos = 0, outPos = 0;
    bool ok = true, finished = false, tooLarge = false;
    while (true) {
        if (outPos > allowed) {
            tooLarge = true;
            ok = false;
            break;
        }
        if (outPos == capacity) {
            const size_t grown = static_cast<size_t>(std::min<uint64_t>(capacity + capacity / 2, allowed + 1));
            char* bigger = static_cast<char*>(std::realloc(buffer, grown + padding));
            if (!bigger) {
                error = gzipText(QT_TRANSLATE_NOOP("Gzip", "out of memory"));
                ok = false;
                break;
            }
            buffer = bigger;
            capacity = grown;
        }
        const size_t inChunk = std::min<size_t>(size - inPos, 1u << 30);
        const size_t outChunk = std::min<size_t>(capacity - outPos, 1u << 30);
        zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data + inPos));
        zs.avail_in = static_cast<uInt>(inChunk);
        zs.next_out = reinterpret_cast<Bytef*>(buffer + outPos);
        zs.avail_out = static_cast<uInt>(outChunk);
        const int rc = inflate(&zs, Z_NO_FLUSH);
        inPos += inChunk - zs.avail_in;
        outPos += outChunk - zs.avail_out;
        if (rc == Z_STREAM_END) {
            // Another member may follow (concatenated gzip); trailing zero bytes are tolerated.
            size_t next = inPos;
            while (next < size && data[next] == 0)
                ++next;
            if (next >= size) {
                finished = true;
                break;
            }
            if (!looksGzipped(data + next, size - next)) {
                error = gzipTextAt(
                    QT_TRANSLATE_NOOP("Gzip", "unexpected data after the gzip stream at compressed byte %1"), next);
                ok = false;
                break;
            }
            inPos = next;
            inflateReset(&zs);
            continue;
        }
        if (rc == Z_OK)
            continue;
        if (rc == Z_BUF_ERROR && inPos >= size) {
            error = gzipTextAt(QT_TRANSLATE_NOOP("Gzip", "truncated gzip data (the stream ends at compressed byte %1 "
                                                         "before its end marker)"),
                               size);
            ok = false;
            break;
        }
        if (rc == Z_BUF_ERROR && outPos == capacity)
            continue; // output full: grow and go on
        if (rc == Z_BUF_ERROR) {
            // No progress possible.
            error = gzipTextAt(QT_TRANSLATE_NOOP("Gzip", "corrupt gzip data at compressed byte %1"), inPos);
            ok = false;
            break;
        }
        error = gzipTextAt(QT_TRANSLATE_NOOP("Gzip", "corrupt gzip data at compressed byte %1"), inPos) +
                (zs.msg ? std::string(": ") + zs.msg : std::string()); // zlib's own words
        ok = false;
        break;
    }
    inflateEnd(&zs);
    if (outPos > allowed) { // (also when the stream ended just past it)
        tooLarge = true;
        ok = false;
        error = ratioBound ? QCoreApplication::translate("Gzip", "it inflates to more than %1 times its size "
                                                                 "(%2 MB), like a gzip bomb")
                                 .arg(qulonglong(limits.maxRatio))
                                 .arg(qulonglong(allowed >> 20))
                                 .toStdString()
                           : QCoreApplication::translate("Gzip", "it inflates to more than %1 MB")
                                 .arg(qulonglong(allowed >> 20))
                                 .toStdString();
    }
    if (!ok || !finished) {
        if (ok)
            error = gzipText(QT_TRANSLATE_NOOP("Gzip", "truncated gzip data"));
        std::free(buffer);
        return tooLarge ? GunzipResult::TooLarge : GunzipResult::Damaged;
    }
    std::memset(buffer + outPos, 0, padding);
    out.m_data = buffer;
    out.m_size = outPos;
    out.m_capacity = capacity;
    return GunzipResult::Ok;
}

} // namespace dspark
