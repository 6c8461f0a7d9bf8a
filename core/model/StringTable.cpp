#include "model/StringTable.h"

#include <cstring>

namespace dspark {

StringTable::StringTable()
{
    m_views.emplace_back();
    m_ids.emplace(std::string_view(), 0);
}

std::string_view StringTable::store(std::string_view text)
{
    if (text.empty())
        return {};
    if (m_chunkUsed + text.size() > m_chunkCapacity) {
        const size_t capacity = std::max(kChunkBytes, text.size());
        m_chunks.emplace_back(new char[capacity]);
        m_chunkCapacity = capacity;
        m_chunkUsed = 0;
    }
    char* dst = m_chunks.back().get() + m_chunkUsed;
    std::memcpy(dst, text.data(), text.size());
    m_chunkUsed += text.size();
    return {dst, text.size()};
}

uint32_t StringTable::intern(std::string_view text)
{
    if (auto it = m_ids.find(text); it != m_ids.end())
        return it->second;
    const std::string_view stored = store(text);
    const auto id = static_cast<uint32_t>(m_views.size());
    m_views.push_back(stored);
    m_ids.emplace(stored, id);
    return id;
}

std::optional<uint32_t> StringTable::find(std::string_view text) const
{
    if (auto it = m_ids.find(text); it != m_ids.end())
        return it->second;
    return std::nullopt;
}

size_t StringTable::bytesUsed() const
{
    size_t bytes = m_views.capacity() * sizeof(std::string_view) + m_ids.size() * 48;
    bytes += m_chunks.size() * kChunkBytes;
    return bytes;
}

} // namespace dspark
