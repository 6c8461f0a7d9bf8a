#pragma once

// Two-core parallelism for the loaders: the calling thread plus at most one worker. Tasks are
// plain callables; an exception thrown on the worker (std::bad_alloc) is rethrown on the caller.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>

namespace dspark {

// How many threads a load uses by default (LoadOptions::threads): 2 on a machine with two or more
// cores, else 1.
int defaultLoaderThreads();

// Runs a() on a worker thread and b() on the calling thread (both on the caller when `parallel` is
// false); returns when both are done.
template <typename A, typename B> void runBoth(bool parallel, A&& a, B&& b)
{
    if (!parallel) {
        a();
        b();
        return;
    }
    std::exception_ptr failed;
    std::thread worker([&] {
        try {
            a();
        } catch (...) {
            failed = std::current_exception();
        }
    });
    try {
        b();
    } catch (...) {
        worker.join();
        throw;
    }
    worker.join();
    if (failed)
        std::rethrow_exception(failed);
}

// Calls task(i) for every i in [0, n), on the calling thread and (when `parallel`) one worker,
// each taking the next index as it finishes one. Order the indices largest job first. When a task
// throws, no task starts after it on either thread; the exception reaches the caller once the other
// thread's current task is done.
template <typename Task> void forEachParallel(bool parallel, size_t n, Task&& task)
{
    std::atomic<size_t> next{0};
    const auto drain = [&] {
        try {
            for (size_t i = next++; i < n; i = next++)
                task(i);
        } catch (...) {
            next = n;
            throw;
        }
    };
    runBoth(parallel && n > 1, drain, drain);
}

// std::sort of [first, last) by `less` (a strict total order, so the result does not depend on how
// the work is split): split in place around the median (std::nth_element), then both halves sorted
// concurrently. No buffer: fresh memory is what costs most on the machines this runs on.
template <typename It, typename Less> void sortParallel(bool parallel, It first, It last, Less less)
{
    const auto n = last - first;
    if (!parallel || n < 65536) {
        std::sort(first, last, less);
        return;
    }
    const It mid = first + n / 2;
    std::nth_element(first, mid, last, less);
    runBoth(
        true, [&] { std::sort(first, mid, less); }, [&] { std::sort(mid + 1, last, less); });
}

} // namespace dspark
