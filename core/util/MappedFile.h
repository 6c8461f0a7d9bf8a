#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace dspark {

// A file mapped read-only into memory (never written, never copied). Optionally followed by `padding`
// readable zero bytes, so parsers that read a little past the end (simdjson's SIMDJSON_PADDING) can
// run on the mapping directly. Move-only; unmapped on destruction. Empty files give a valid, empty
// mapping (data() points at `padding` zero bytes).
class MappedFile {
public:
    MappedFile() = default;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    ~MappedFile();

    // Maps `path`. On failure returns an empty object and sets `error` (the OS's reason, or a translated one).
    static MappedFile open(const std::string& path, std::string& error, size_t padding = 0);

    bool isOpen() const { return m_base != nullptr; }
    const char* data() const { return static_cast<const char*>(m_base); }
    size_t size() const { return m_size; }
    size_t padding() const { return m_padding; }

    // Access hints for [offset, offset+length): read soon in order / not needed any more (drops the
    // pages from this process; the page cache keeps them and a later read faults them back in).
    void adviseSequential() const;
    void release(size_t offset, size_t length) const;

private:
    void reset();

    void* m_base = nullptr;
    size_t m_size = 0;
    size_t m_padding = 0;
    size_t m_mappedBytes = 0; // whole reservation (file pages + padding pages)
};

} // namespace dspark
