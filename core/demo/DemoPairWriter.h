#pragma once

#include "demo/DemoWriter.h"

namespace dspark::demo {

// The comparison pair (docs/demo.md §9): OUTDIR/baseline/ and OUTDIR/changed/, each a complete demo
// profile, and OUTDIR/ground_truth_compare.json with what changed and the expected comparison.
struct DemoPairResult {
    QString error; // one line naming the path and the problem; empty on success
    std::string outDir;
    DemoResult baseline, changed;
};

// The baseline is the demo with `options`; the changed run has a larger draft block (verify_len 8
// instead of 4: gamma 7), DeepEP transfers of the verify graph ×1.5, DsparkTreeMask inserted at the start
// of the verify graph and its final ArgMaxWithValue removed, and max_running_requests 160 instead of 144
// (the one configuration field changed besides the intended one).
DemoPairResult writeDemoPair(const DemoOptions& options, const std::string& outDir, const LoadProgress& progress = {});

// The variants of the pair's two runs.
DemoVariant baselineVariant();
DemoVariant changedVariant();

} // namespace dspark::demo
