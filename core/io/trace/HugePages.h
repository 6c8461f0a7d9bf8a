#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include <sys/mman.h>

namespace dspark::trace {

// Large buffers the loader fills once (records, lane columns, the flow table) are backed by 2 MB
// pages where the kernel allows it (transparent huge pages in "madvise" mode): one page fault per
// 2 MB instead of per 4 KB. First touch of fresh memory dominates a load otherwise (a page fault
// costs microseconds on a virtual machine). Advice only: nothing changes if it is refused.
constexpr size_t kHugePage = size_t(2) << 20;

// Advises the whole 2 MB pages inside [p, p + bytes). Call before the memory is first written.
inline void adviseHugePages(const void* p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const auto begin = reinterpret_cast<uintptr_t>(p);
    const uintptr_t first = (begin + kHugePage - 1) & ~(uintptr_t(kHugePage) - 1);
    const uintptr_t end = (begin + bytes) & ~(uintptr_t(kHugePage) - 1);
    if (end > first)
        madvise(reinterpret_cast<void*>(first), end - first, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

// Grows `v` to `n` elements, advising the new storage for huge pages before it is first touched.
template <typename Vector> void resizeAdvised(Vector& v, size_t n)
{
    if (n > v.capacity()) {
        v.reserve(n);
        adviseHugePages(v.data(), v.capacity() * sizeof(typename Vector::value_type));
    }
    v.resize(n);
}

struct FreeDeleter {
    void operator()(void* p) const { std::free(p); }
};

} // namespace dspark::trace
