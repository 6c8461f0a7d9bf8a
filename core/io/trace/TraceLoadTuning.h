#pragma once

#include <atomic>
#include <cstddef>

namespace dspark::trace {

// Knobs of the Chrome-trace loader, part of a load's LoadOptions. Defaults suit large files on two
// cores; tests shrink them to force chunk cuts and thread splits everywhere in small files (the
// results must not change).
struct LoadTuning {
    // Bytes per simdjson chunk. 2 MB: the parser's index (4 KB pages, allocated by simdjson) is
    // touched less than with 4 MB, measured faster; smaller is no better.
    size_t chunkBytes = size_t(2) << 20;
    size_t splitThreshold = size_t(16) << 20; // parse with two threads from this size of events array on
    bool twoThreads = true;
    // Parts of a split parse: each takes a third of what is left, but no less than this (or than half
    // the array, so an array under 2 × minPartBytes is parsed in two halves), and there are at most
    // maxParts. Each part holds its own partly filled 2 MB record blocks, so parts are few; several
    // let the core that runs faster take more of the work.
    size_t minPartBytes = size_t(48) << 20;
    size_t maxParts = 16;
    size_t parallelFlowPoints = 4096; // bind and match flows on both cores from this many flow points on
    // Tests: when set, the build of a file throws std::bad_alloc once this counter, decremented by each
    // build (after its slices are placed), passes 0, as running out of memory there would; negative: never.
    std::atomic<int>* failBuildAfter = nullptr;
};

} // namespace dspark::trace
