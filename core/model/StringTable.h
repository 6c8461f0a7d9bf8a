#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dspark {

// Interns every name of a profile once; events refer to names by a 32-bit id.
// Id 0 is always the empty string. Views stay valid for the table's lifetime (arena storage).
class StringTable {
public:
    StringTable();
    StringTable(const StringTable&) = delete;
    StringTable& operator=(const StringTable&) = delete;
    StringTable(StringTable&&) noexcept = default;
    StringTable& operator=(StringTable&&) noexcept = default;

    uint32_t intern(std::string_view text);
    std::optional<uint32_t> find(std::string_view text) const;
    std::string_view view(uint32_t id) const { return id < m_views.size() ? m_views[id] : std::string_view(); }
    uint32_t size() const { return static_cast<uint32_t>(m_views.size()); }
    size_t bytesUsed() const;

private:
    std::string_view store(std::string_view text);

    static constexpr size_t kChunkBytes = 1 << 16;
    std::vector<std::unique_ptr<char[]>> m_chunks;
    size_t m_chunkUsed = kChunkBytes;
    size_t m_chunkCapacity = 0;
    std::vector<std::string_view> m_views;
    std::unordered_map<std::string_view, uint32_t> m_ids;
};

} // namespace dspark
