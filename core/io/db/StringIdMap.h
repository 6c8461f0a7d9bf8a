#pragma once

#include "model/StringTable.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace dspark::db {

// Maps the ids of a database's STRING_IDS (or an ENUM_* table) to Profile::strings ids.
// STRING_IDS ids are clustered (msprof: 0.., torch_npu: 2^28.., 2^29..), so each 2^24 block of
// ids is a dense vector when it is dense enough and a hash map otherwise: a look-up per row is an
// array access. Ids that point nowhere resolve to "<unknown string N>" and are counted once each.
class StringIdMap {
    struct Block;

public:
    static constexpr int64_t kNone = 4294967295; // msprof's "no string"

    void insert(int64_t dbId, uint32_t profileId);
    // Call once every id is inserted: picks the storage of each block.
    void build();
    // Profile string id of dbId; kNone resolves to 0 (the empty string).
    // `where` names the column for the warning ("TASK.taskType"); unknown ids are interned.
    uint32_t resolve(int64_t dbId, StringTable& strings, const char* where);
    bool contains(int64_t dbId) const { return lookup(dbId) != kMissing; }

    // For another thread, while this one may resolve(): the profile id of a known dbId (kNone: 0), or
    // kMissing; interns nothing. `cursor` is the caller's own look-up cache.
    static constexpr uint32_t kMissing = UINT32_MAX;
    struct Cursor {
        int64_t blockKey = INT64_MIN;
        const Block* block = nullptr;
    };
    uint32_t find(int64_t dbId, Cursor& cursor) const;
    size_t size() const { return m_count; }

    // Distinct ids that point nowhere (each is counted once, however many rows use it).
    uint64_t unknownCount() const { return m_unknownIds.size(); }
    const std::vector<std::string>& unknownExamples() const { return m_examples; }

private:
    static constexpr int kBlockBits = 24;
    struct Block {
        std::vector<uint32_t> dense;                   // index = low bits, kMissing if absent
        std::unordered_map<uint32_t, uint32_t> sparse; // when dense would be mostly empty
    };
    uint32_t lookup(int64_t dbId) const;
    uint32_t lookup(int64_t dbId, int64_t& blockKey, const Block*& block) const;

    std::vector<std::pair<int64_t, uint32_t>> m_pending;
    std::unordered_map<int64_t, Block> m_blocks; // key: dbId >> kBlockBits
    mutable int64_t m_lastBlockKey = INT64_MIN;  // look-up cache: rows mostly hit one block
    mutable const Block* m_lastBlock = nullptr;
    size_t m_count = 0;
    std::vector<std::string> m_examples;
    std::unordered_map<int64_t, uint32_t> m_unknownIds;
};

} // namespace dspark::db
