#pragma once

#include "model/Profile.h"

#include <memory>

namespace dspark::trace {

// Args of Chrome-trace events, parsed on demand from the file itself: the source keeps the mapped
// file (or the inflated .gz buffer) alive and each event stores only the byte offset of its object
// (local reference = offset + 1). Nothing is expanded until the details pane asks.
class TraceArgsSource final : public ArgsSource {
public:
    // `owner` keeps [data, data + size) alive (a MappedFile or the inflated buffer).
    TraceArgsSource(std::shared_ptr<const void> owner, const char* data, size_t size)
        : m_owner(std::move(owner)), m_data(data), m_size(size)
    {
    }
    // The members of the event's "args" object in file order: strings unescaped, numbers exactly as
    // written (so values above INT64_MAX survive), objects and arrays as JSON text. A repeated key
    // keeps its first position and its last value (as JSON parsers do).
    std::vector<EventArg> args(uint64_t localRef) const override;
    size_t bytesUsed() const override { return sizeof(*this); }

private:
    std::shared_ptr<const void> m_owner;
    const char* m_data;
    size_t m_size;
};

} // namespace dspark::trace
