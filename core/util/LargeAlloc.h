#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace dspark {

// Large arrays (lane columns, links, a loader's records and tables) get mappings of their own, made
// of whole 2 MB pages and advised for transparent huge pages (the last page only when at least 3/8 of
// it is asked for); smaller requests go to malloc.
// Why: on the virtual machines this runs on, a 4 KB page fault costs ~13 µs (3.4 s per GiB first
// touched), a 2 MB page one fault for the lot (1-2 s per GiB when the memory is new to the machine),
// and a 2 MB page handed back to the kernel (munmap) is handed out again hot: touching it again takes
// ~0.07 s per GiB. So a load that frees its parse records before it writes the model reuses their
// pages nearly for free. Measured by bench_json_load (docs/performance.md).
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kLargeAllocation = size_t(1) << 20; // from this size on, a mapping of its own

// Throws std::bad_alloc. A large allocation starts on a 2 MB boundary.
void* allocateLarge(size_t bytes);
// `bytes` must be the size given to allocateLarge.
void freeLarge(void* p, size_t bytes) noexcept;
// Hands the pages of a large allocation past its first `usedBytes` back to the kernel, the unused
// part of the last 2 MB page included (the page is split): for arrays that are done growing, whose
// last page is otherwise resident whole. Reading there afterwards gives zeros. No-op for small ones.
void releaseUnusedPages(void* p, size_t allocatedBytes, size_t usedBytes) noexcept;

// Unlike std::allocator, it default-initialises: like `new T[n]`, `resize(n)` and `LargeVector<T>(n)`
// leave trivial elements unwritten, so sizing a column does not touch its pages (the writes that
// fill it do, later, when the pages freed meanwhile can be reused). Give a value to have one:
// `resize(n, 0)`, `assign(n, T{})`.
template <typename T> struct LargeAllocator {
    using value_type = T;
    LargeAllocator() = default;
    template <typename U> LargeAllocator(const LargeAllocator<U>&) noexcept {}
    T* allocate(size_t n);
    void deallocate(T* p, size_t n) noexcept { freeLarge(p, n * sizeof(T)); }
    template <typename U> void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>)
    {
        ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args> void construct(U* p, Args&&... args)
    {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
    friend bool operator==(const LargeAllocator&, const LargeAllocator&) { return true; }
};

template <typename T> T* LargeAllocator<T>::allocate(size_t n)
{
    static_assert(alignof(T) <= 16, "malloc's alignment serves small requests");
    if (n > size_t(-1) / sizeof(T))
        throw std::bad_array_new_length();
    return static_cast<T*>(allocateLarge(n * sizeof(T)));
}

template <typename T> using LargeVector = std::vector<T, LargeAllocator<T>>;

template <typename T> void releaseUnusedPages(LargeVector<T>& v) noexcept
{
    releaseUnusedPages(v.data(), v.capacity() * sizeof(T), v.size() * sizeof(T));
}

} // namespace dspark
