#pragma once

namespace dspark {

// Fresh memory is expensive to touch (a page fault per page, the kernel zeroing it: ~1.5-4 s per GiB
// on the virtual machines this runs on), so a load reuses what it frees instead of handing it back:
// large blocks come from the heap (not their own mapping, unmapped on free) and the heap is not trimmed
// while loading. After the load, what is free goes back to the system. No-ops outside glibc.
void keepFreedMemoryForReuse();
void returnFreedMemory();

} // namespace dspark
