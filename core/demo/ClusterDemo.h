#pragma once

#include "model/Lane.h"

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace dspark::demo {

// The many-rank demo (docs/cluster.md "The demo"): an EP decode run of `ranks` NPUs, each rank's
// torch_npu database in its own `{host}_{pid}_{time}_ascend_pt` folder, DeepEP dispatch / combine as
// collectives of one group, per-rank clock skews of tens of µs, one rank slow in a known window (its
// gating compute before dispatch longer, so the others wait at dispatch), step records per DP rank in
// server_info.json and the ground truth in ground_truth.json.
struct ClusterDemoOptions {
    int ranks = 8;
    int steps = 100; // common steps (after each rank's own warm-up steps)
    int layers = 2;  // MoE layers per step: one dispatch and one combine each
    uint64_t seed = 24;
    int slowRank = 5;      // −1: none
    int slowFromStep = 40; // the slow window, as indices of the common steps [from, to)
    int slowToStep = 60;
    TimeNs slowExtraNs = 200'000; // added to the slow rank's gating compute per layer in the window
};

struct ClusterDemoResult {
    QString error;
    std::string outDir;
    int64_t collectives = 0; // per rank, in the common window
    int64_t tasks = 0;       // device tasks over all ranks
};

ClusterDemoResult writeClusterDemo(const ClusterDemoOptions& options, const std::string& outDir);

} // namespace dspark::demo
