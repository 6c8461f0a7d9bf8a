#include "io/db/StringIdMap.h"

#include <algorithm>

namespace dspark::db {

void StringIdMap::insert(int64_t dbId, uint32_t profileId)
{
    m_pending.emplace_back(dbId, profileId);
}

void StringIdMap::build()
{
    std::unordered_map<int64_t, std::pair<uint32_t, size_t>> extent; // block → (max low + 1, count)
    for (const auto& [id, value] : m_pending) {
        auto& e = extent[id >> kBlockBits];
        e.first = std::max<uint32_t>(e.first, static_cast<uint32_t>(id & ((1 << kBlockBits) - 1)) + 1);
        ++e.second;
    }
    for (const auto& [key, e] : extent) {
        Block& b = m_blocks[key];
        if (e.first <= 4 * e.second + 4096)
            b.dense.assign(e.first, kMissing);
        else
            b.sparse.reserve(e.second);
    }
    for (const auto& [id, value] : m_pending) {
        Block& b = m_blocks[id >> kBlockBits];
        const auto low = static_cast<uint32_t>(id & ((1 << kBlockBits) - 1));
        uint32_t& slot = b.dense.empty() ? b.sparse[low] : b.dense[low];
        if (b.dense.empty() || slot == kMissing)
            ++m_count;
        slot = value;
    }
    m_pending.clear();
    m_pending.shrink_to_fit();
    m_lastBlock = nullptr;
    m_lastBlockKey = INT64_MIN;
}

uint32_t StringIdMap::lookup(int64_t dbId) const
{
    return lookup(dbId, m_lastBlockKey, m_lastBlock);
}

uint32_t StringIdMap::find(int64_t dbId, Cursor& cursor) const
{
    return dbId == kNone ? 0 : lookup(dbId, cursor.blockKey, cursor.block);
}

uint32_t StringIdMap::lookup(int64_t dbId, int64_t& blockKey, const Block*& block) const
{
    const int64_t key = dbId >> kBlockBits;
    const Block* b = block;
    if (key != blockKey || !b) {
        auto it = m_blocks.find(key);
        if (it == m_blocks.end())
            return kMissing;
        b = &it->second;
        block = b;
        blockKey = key;
    }
    const auto low = static_cast<uint32_t>(dbId & ((1 << kBlockBits) - 1));
    if (!b->dense.empty())
        return low < b->dense.size() ? b->dense[low] : kMissing;
    auto it = b->sparse.find(low);
    return it == b->sparse.end() ? kMissing : it->second;
}

uint32_t StringIdMap::resolve(int64_t dbId, StringTable& strings, const char* where)
{
    if (dbId == kNone)
        return 0;
    const uint32_t found = lookup(dbId);
    if (found != kMissing)
        return found;
    auto [it, inserted] = m_unknownIds.try_emplace(dbId, 0);
    if (inserted) {
        it->second = strings.intern("<unknown string " + std::to_string(dbId) + ">");
        if (m_examples.size() < 3)
            m_examples.push_back(std::string(where) + "=" + std::to_string(dbId));
    }
    return it->second;
}

} // namespace dspark::db
