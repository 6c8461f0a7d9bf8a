#pragma once

#include "cluster/ClusterLayout.h"
#include "cluster/RankSummary.h"
#include "io/LoadOptions.h"
#include "model/Profile.h"
#include "util/LoadProgress.h"

#include <atomic>
#include <memory>
#include <vector>

namespace dspark {

// One rank after loading: its profile (null when it came from a summary or failed), its summary, or the
// error that stopped it.
struct LoadedRank {
    ClusterRank where;
    std::shared_ptr<const Profile> profile;
    RankSummary summary;
    QString error; // one line naming the file; the rank is then left out of the analyses
    bool ok() const { return error.isEmpty(); }
};

struct ClusterLoad {
    ClusterLayout layout;
    std::vector<LoadedRank> ranks; // every rank of the layout, by rank number
    bool cancelled = false;
    QString error;              // no rank opened (each rank's own error is in `ranks`)
    size_t concurrentLoads = 0; // how many ranks loaded at once
    // The ranks that opened, in order (what analyzeCluster reads).
    std::vector<RankSummary> summaries() const;
};

struct ClusterLoadOptions {
    LoadOptions load;               // each rank's load (threads drops to 1 when several ranks load at once)
    int maxConcurrent = 0;          // 0: the machine's cores
    uint64_t memoryBudgetBytes = 0; // 0: half of the machine's memory
    bool keepProfiles = true;       // false: keep only the summaries (headless cluster reports)
    bool summariesFirst = false;    // a rank's summary file stands for its profile (lazy loading); it
                                    // is not loaded then (keepProfiles has no profile to keep)
};

// Loads every rank of `layout`: a rank with a timeline through loadProfile(), a rank with only a summary
// from it. As many ranks load at once as cores allow and as fit the memory budget (a load's peak taken
// as 3× its files). Progress: ranks done of total and bytes read; a cancel stops before the next rank
// and returns cancelled (`cancel` may be null; `onProgress` is called from the loading threads, one at a
// time).
ClusterLoad loadCluster(const ClusterLayout& layout, const LoadProgress::Callback& onProgress = {},
                        const std::atomic<bool>* cancel = nullptr, const ClusterLoadOptions& options = {});

// How many ranks of `bytesEach` (the largest) load at once on `cores` cores within `budgetBytes`.
size_t clusterConcurrency(size_t ranks, uint64_t largestRankBytes, int cores, uint64_t budgetBytes);
// Half of the machine's physical memory (the default budget).
uint64_t defaultClusterMemoryBudget();

} // namespace dspark
