#include "io/db/RowArgs.h"

#include "io/db/Varint.h"

#include <cstring>
#include <string>

namespace dspark::db {

namespace {

std::string formatReal(double v)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

} // namespace

void RowArgs::Row::setReal(int field, double v)
{
    int64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    set(field, bits);
}

RowArgs::RowArgs(const StringTable* strings) : m_strings(strings)
{
}

uint16_t RowArgs::addSchema(std::vector<Field> fields)
{
    if (fields.size() > kMaxFields)
        fields.resize(kMaxFields);
    m_schemas.push_back(std::move(fields));
    return static_cast<uint16_t>(m_schemas.size() - 1);
}

void RowArgs::setKeys(uint16_t id, const std::vector<uint32_t>& keyIds)
{
    std::vector<Field>& fields = m_schemas[id];
    for (size_t i = 0; i < fields.size() && i < keyIds.size(); ++i)
        fields[i].keyId = keyIds[i];
}

std::unique_ptr<RowArgs> RowArgs::emptyWithSchemas() const
{
    auto copy = std::make_unique<RowArgs>(m_strings);
    copy->m_schemas = m_schemas;
    return copy;
}

uint64_t RowArgs::absorb(RowArgs& other)
{
    if (other.m_chunks.empty())
        return 0;
    // The other's chunks go after this one's last (partly used) chunk; its rows' chunk numbers move up.
    const uint64_t shift = m_chunks.size() * kChunkBytes;
    for (auto& chunk : other.m_chunks)
        m_chunks.push_back(std::move(chunk));
    m_used = other.m_used;
    other.m_chunks.clear();
    other.m_used = kChunkBytes;
    return shift;
}

uint64_t RowArgs::add(uint16_t schemaId, const Row& row, uint64_t next)
{
    // Worst case: schema + mask + 32 values of 10 bytes + next.
    uint8_t buf[3 + 5 + kMaxFields * 10 + 10];
    uint8_t* p = putVarint(buf, schemaId);
    const std::vector<Field>& fields = m_schemas[schemaId];
    const uint32_t mask = row.present & (fields.size() >= 32 ? 0xffffffffu : ((1u << fields.size()) - 1));
    p = putVarint(p, mask);
    for (size_t i = 0; i < fields.size(); ++i) {
        if (!(mask & (1u << i)))
            continue;
        switch (fields[i].type) {
        case Type::Int: p = putVarint(p, zigzag(row.value[i])); break;
        case Type::String: p = putVarint(p, static_cast<uint64_t>(row.value[i])); break;
        case Type::Real:
            std::memcpy(p, &row.value[i], 8);
            p += 8;
            break;
        }
    }
    p = putVarint(p, next);
    const size_t size = static_cast<size_t>(p - buf);
    if (m_used + size > kChunkBytes) {
        m_chunks.emplace_back(new uint8_t[kChunkBytes]);
        m_used = m_chunks.size() == 1 ? 1 : 0; // offset 0 of chunk 0 would be reference 0 ("no args")
    }
    std::memcpy(m_chunks.back().get() + m_used, buf, size);
    const uint64_t ref = (m_chunks.size() - 1) * kChunkBytes + m_used;
    m_used += size;
    return ref;
}

std::vector<EventArg> RowArgs::args(uint64_t localRef) const
{
    std::vector<EventArg> out;
    for (int hops = 0; localRef != 0 && hops < 8; ++hops) {
        const size_t chunk = localRef / kChunkBytes;
        const size_t offset = localRef % kChunkBytes;
        if (chunk >= m_chunks.size())
            break;
        const uint8_t* p = m_chunks[chunk].get() + offset;
        const uint8_t* end = m_chunks[chunk].get() + (chunk + 1 == m_chunks.size() ? m_used : kChunkBytes);
        uint64_t schemaId = 0, mask = 0;
        p = getVarint(p, end, schemaId);
        p = getVarint(p, end, mask);
        if (schemaId >= m_schemas.size())
            break;
        const std::vector<Field>& fields = m_schemas[schemaId];
        for (size_t i = 0; i < fields.size() && p < end; ++i) {
            if (!(mask & (uint64_t(1) << i)))
                continue;
            EventArg arg{std::string(m_strings->view(fields[i].keyId)), {}};
            uint64_t v = 0;
            switch (fields[i].type) {
            case Type::Int:
                p = getVarint(p, end, v);
                arg.value = std::to_string(unzigzag(v));
                break;
            case Type::String:
                p = getVarint(p, end, v);
                arg.value = std::string(m_strings->view(static_cast<uint32_t>(v)));
                break;
            case Type::Real: {
                double d = 0;
                if (end - p >= 8)
                    std::memcpy(&d, p, 8);
                p += 8;
                arg.value = formatReal(d);
                break;
            }
            }
            out.push_back(std::move(arg));
        }
        uint64_t next = 0;
        getVarint(p, end, next);
        localRef = next;
    }
    return out;
}

size_t RowArgs::bytesUsed() const
{
    size_t bytes = m_chunks.size() * kChunkBytes;
    for (const auto& s : m_schemas)
        bytes += s.capacity() * sizeof(Field);
    return bytes;
}

} // namespace dspark::db
