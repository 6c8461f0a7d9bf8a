#pragma once

#include "cluster/ClusterAnalysis.h"
#include "cluster/ClusterLoader.h"

#include <nlohmann/json.hpp>

#include <string>

namespace dspark {

// The `analyze --json` document of a cluster (docs/analysis.md §10): "cluster" (what was found and
// opened), "ranks" (per rank: its clock, its steps' figures from its summary) and "cross_rank" (matched
// collectives with the last rank and each member's wait / transfer, the slow-rank ranking, per-step
// figures on the cluster clock). Times in "cross_rank" are ns on the cluster clock (the reference rank's);
// in "ranks" on each rank's own clock. The same document comes out of a folder of rank folders and of a
// folder of their summaries.
nlohmann::ordered_json clusterJson(const ClusterLoad& load, const ClusterAnalysis& analysis);

// A readable report of the same (`analyze` of a cluster without --json).
std::string clusterText(const ClusterLoad& load, const ClusterAnalysis& analysis);

} // namespace dspark
