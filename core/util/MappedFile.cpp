#include "util/MappedFile.h"

#include <QCoreApplication>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dspark {

static size_t pageSize()
{
    static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return size;
}

static size_t roundUpToPage(size_t n)
{
    const size_t page = pageSize();
    return (n + page - 1) / page * page;
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : m_base(std::exchange(other.m_base, nullptr)), m_size(std::exchange(other.m_size, 0)),
      m_padding(std::exchange(other.m_padding, 0)), m_mappedBytes(std::exchange(other.m_mappedBytes, 0))
{
}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept
{
    if (this != &other) {
        reset();
        m_base = std::exchange(other.m_base, nullptr);
        m_size = std::exchange(other.m_size, 0);
        m_padding = std::exchange(other.m_padding, 0);
        m_mappedBytes = std::exchange(other.m_mappedBytes, 0);
    }
    return *this;
}

MappedFile::~MappedFile()
{
    reset();
}

void MappedFile::reset()
{
    if (m_base && m_mappedBytes > 0)
        munmap(m_base, m_mappedBytes);
    m_base = nullptr;
    m_size = m_padding = m_mappedBytes = 0;
}

MappedFile MappedFile::open(const std::string& path, std::string& error, size_t padding)
{
    MappedFile file;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = std::strerror(errno);
        return file;
    }
    struct stat st {};
    if (fstat(fd, &st) != 0) {
        error = std::strerror(errno);
        ::close(fd);
        return file;
    }
    if (!S_ISREG(st.st_mode)) {
        error = QCoreApplication::translate("MappedFile", "not a regular file").toStdString();
        ::close(fd);
        return file;
    }
    const auto size = static_cast<size_t>(st.st_size);
    // Reserve file pages + padding as zeroed anonymous memory, then map the file over the front. The
    // kernel zero-fills the tail of the file's last page; the pages after it stay anonymous zeros, so
    // [size, size + padding) is always readable (a plain file mapping would SIGBUS past its last page).
    const size_t fileBytes = roundUpToPage(size);
    const size_t reserve = std::max(roundUpToPage(size + padding), pageSize());
    void* base = mmap(nullptr, reserve, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
        error = std::strerror(errno);
        ::close(fd);
        return file;
    }
    if (size > 0) {
        void* mapped = mmap(base, fileBytes, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
        if (mapped == MAP_FAILED) {
            error = std::strerror(errno);
            munmap(base, reserve);
            ::close(fd);
            return file;
        }
    }
    ::close(fd); // the mapping keeps the file referenced
    file.m_base = base;
    file.m_size = size;
    file.m_padding = padding;
    file.m_mappedBytes = reserve;
    return file;
}

void MappedFile::adviseSequential() const
{
    if (m_base && m_size > 0)
        madvise(m_base, roundUpToPage(m_size), MADV_SEQUENTIAL);
}

void MappedFile::release(size_t offset, size_t length) const
{
    if (!m_base || length == 0 || offset >= m_size)
        return;
    // Only whole pages inside the range: a page shared with unread bytes must stay.
    const size_t page = pageSize();
    const size_t first = (offset + page - 1) / page * page;
    const size_t end = std::min(offset + length, m_size) / page * page;
    if (end > first)
        madvise(static_cast<char*>(m_base) + first, end - first, MADV_DONTNEED);
}

} // namespace dspark
