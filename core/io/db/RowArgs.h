#pragma once

#include "model/Profile.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace dspark::db {

// Args of database rows, stored compactly: a row is a schema id, a presence mask and varint-encoded
// values (integers zig-zag encoded, strings as Profile::strings ids, reals as 8 raw bytes), optionally
// followed by a reference to a continuation row (e.g. a TASK row continued by its COMPUTE_TASK_INFO
// row, written once). Unlike PackedArgs, per-row numbers (task ids, connection ids, sizes) are not
// interned as strings, so a 10-field row typically costs ~20 bytes instead of ~90 plus string-table
// entries. Rows are appended to 1 MiB chunks, never reallocated.
class RowArgs final : public ArgsSource {
public:
    enum class Type : uint8_t { Int, String, Real };
    struct Field {
        uint32_t keyId; // Profile::strings id of the key
        Type type;
    };
    static constexpr int kMaxFields = 32;

    explicit RowArgs(const StringTable* strings);

    uint16_t addSchema(std::vector<Field> fields);
    const std::vector<Field>& schema(uint16_t id) const { return m_schemas[id]; }
    // Sets the keys of a schema added with placeholders (rows do not hold keys: add() needs only the
    // types, args() reads the keys).
    void setKeys(uint16_t id, const std::vector<uint32_t>& keyIds);

    // Rows written on another thread: an empty store with this one's schemas, whose rows absorb()
    // then moves over here. absorb() returns what to add to the references `other` gave its rows.
    std::unique_ptr<RowArgs> emptyWithSchemas() const;
    uint64_t absorb(RowArgs& other);

    // Values of one row being built: set() the fields that are present, then add().
    struct Row {
        int64_t value[kMaxFields];
        uint32_t present = 0;
        void clear() { present = 0; }
        void set(int field, int64_t v)
        {
            value[field] = v;
            present |= 1u << field;
        }
        void setReal(int field, double v);
    };
    // Appends a row; returns its local reference (never 0). `next` is a continuation row or 0.
    uint64_t add(uint16_t schema, const Row& row, uint64_t next = 0);

    std::vector<EventArg> args(uint64_t localRef) const override;
    size_t bytesUsed() const override;

private:
    static constexpr size_t kChunkBytes = size_t(1) << 20;
    const StringTable* m_strings;
    std::vector<std::vector<Field>> m_schemas;
    std::vector<std::unique_ptr<uint8_t[]>> m_chunks;
    size_t m_used = kChunkBytes; // bytes used in the last chunk
};

} // namespace dspark::db
