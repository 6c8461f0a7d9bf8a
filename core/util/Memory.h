#pragma once

namespace dspark {

// Fresh memory is expensive to touch (a page fault per page, the kernel zeroing it: docs/performance.md,
// "The machine"), so a load reuses what it frees instead of handing it back.
// Large arrays have mappings of their own in 2 MB pages (util/LargeAlloc.h), which the kernel hands
// out again hot once unmapped; for what malloc serves, blocks up to 32 MB come from the heap and the
// heap is not trimmed while loading. After a load, what is free goes back to the system. No-ops
// outside glibc.
// Process-wide allocator settings: call once at the start of main(), before any other thread runs
// (the app and the CLI, each bench that loads).
void keepFreedMemoryForReuse();
// After a load. Safe while another load runs on another thread (glibc locks each arena while trimming);
// that load may then fault in again pages it would have reused: slower, never different.
void returnFreedMemory();

} // namespace dspark
