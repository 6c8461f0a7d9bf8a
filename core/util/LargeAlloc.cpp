#include "util/LargeAlloc.h"

#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace dspark {

static size_t roundUpToHugePage(size_t bytes)
{
    return (bytes + kHugePage - 1) & ~(kHugePage - 1);
}

void* allocateLarge(size_t bytes)
{
    if (bytes < kLargeAllocation) {
        void* p = std::malloc(bytes == 0 ? 1 : bytes);
        if (!p)
            throw std::bad_alloc();
        return p;
    }
    if (bytes > size_t(-1) - 2 * kHugePage)
        throw std::bad_alloc();
    const size_t length = roundUpToHugePage(bytes);
#if defined(__linux__)
    // Map one page more than needed and cut the ends off so that the block starts on a 2 MB boundary.
    void* raw = mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        throw std::bad_alloc();
    const auto begin = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t aligned = (begin + kHugePage - 1) & ~(uintptr_t(kHugePage) - 1);
    if (aligned > begin)
        munmap(raw, aligned - begin);
    const size_t tail = (begin + length + kHugePage) - (aligned + length);
    if (tail > 0)
        munmap(reinterpret_cast<void*>(aligned + length), tail);
#ifdef MADV_HUGEPAGE
    // Advice only. The last 2 MB page only when most of it is asked for: a huge page is cleared whole
    // at its first touch (~2.5 ms when new to the machine), a 4 KB page costs ~13 µs, so below ~0.75 MB
    // a short end is cheaper in 4 KB pages (and holds no unused memory until releaseUnusedPages()).
    const size_t whole = bytes & ~(kHugePage - 1);
    const size_t advised = bytes - whole >= kHugePage / 8 * 3 ? length : whole;
    if (advised > 0)
        madvise(reinterpret_cast<void*>(aligned), advised, MADV_HUGEPAGE);
#endif
    return reinterpret_cast<void*>(aligned);
#else
    void* p = std::aligned_alloc(kHugePage, length);
    if (!p)
        throw std::bad_alloc();
    return p;
#endif
}

void freeLarge(void* p, size_t bytes) noexcept
{
    if (!p)
        return;
    if (bytes < kLargeAllocation) {
        std::free(p);
        return;
    }
#if defined(__linux__)
    munmap(p, roundUpToHugePage(bytes));
#else
    std::free(p);
#endif
}

void releaseUnusedPages(void* p, size_t allocatedBytes, size_t usedBytes) noexcept
{
    if (!p || allocatedBytes < kLargeAllocation)
        return;
#if defined(__linux__) && defined(MADV_DONTNEED)
    const size_t length = roundUpToHugePage(allocatedBytes);
    const size_t from = (usedBytes + 4095) & ~size_t(4095);
    if (from < length)
        madvise(static_cast<char*>(p) + from, length - from, MADV_DONTNEED);
#else
    (void)usedBytes;
#endif
}

} // namespace dspark
