#pragma once

#include "cluster/ClusterLayout.h"
#include "cluster/RankSummary.h"
#include "io/LoadOptions.h"
#include "model/Profile.h"
#include "util/LoadProgress.h"

#include <algorithm>
#include <atomic>
#include <functional>
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
    QString error;                             // no rank opened (each rank's own error is in `ranks`)
    size_t concurrentLoads = 0;                // how many ranks loaded at once
    std::vector<uint64_t> loadedBytesEstimate; // per rank: ClusterLoadOptions::loadedBytes, as given
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
    // Per rank of the layout (empty: every rank as keepProfiles / summariesFirst say): true keeps the
    // rank's events, false keeps its summary only (summariesFirst for that rank). planClusterLoad().
    std::vector<bool> keep;
    // Per rank, the estimated size of its loaded profile (estimateLoadedBytes); empty: 3 × its files.
    std::vector<uint64_t> loadedBytes;
    // Called on the loading thread before each rank loads (its index in the layout): tests hold the
    // load here to press Cancel at a known point.
    std::function<void(size_t)> beforeRank;
};

// What loading a rank will cost in memory, estimated before it is loaded (docs/cluster.md "Lazy loading"):
// a database's event rows (SQLite's max(rowid) of its event tables: no scan) × the model's bytes per
// row; else, with a summary, the events its lanes list × bytes per event; else its trace files' bytes
// × the model's bytes per JSON byte. A rank with only a summary has nothing to load: 0.
struct RankSizeEstimate {
    uint64_t loadedBytes = 0;
    uint64_t events = 0; // the rows or events it rests on (0 for a JSON trace)
    enum class Basis { DatabaseRows, SummaryEvents, FileBytes } basis = Basis::FileBytes;
};
RankSizeEstimate estimateLoadedBytes(const ClusterRank& rank);

// The plan for a budget: every rank's estimate; the ranks kept loaded, in rank order while their
// estimates add up within the budget (a rank that does not fit is left lazy and the next ones still
// tried); how many load at once.
struct ClusterLoadPlan {
    std::vector<RankSizeEstimate> estimates; // by rank of the layout
    std::vector<bool> keep;
    size_t concurrent = 1;
    size_t lazyCount() const { return static_cast<size_t>(std::count(keep.begin(), keep.end(), false)); }
};
ClusterLoadPlan planClusterLoad(const ClusterLayout& layout, uint64_t budgetBytes, int cores);

// Loads every rank of `layout`: a rank with a timeline through loadProfile(), a rank with only a summary
// from it. As many ranks load at once as cores allow and as fit the memory budget (a load's peak taken
// as 3× its files). Progress: ranks done of total and bytes read; a cancel stops before the next rank
// and returns cancelled (`cancel` may be null; `onProgress` is called from the loading threads, one at a
// time).
ClusterLoad loadCluster(const ClusterLayout& layout, const LoadProgress::Callback& onProgress = {},
                        const std::atomic<bool>* cancel = nullptr, const ClusterLoadOptions& options = {});

// How many ranks load at once on `cores` cores within `budgetBytes`, the largest rank's load peaking at
// `largestPeakBytes`.
size_t clusterConcurrency(size_t ranks, uint64_t largestPeakBytes, int cores, uint64_t budgetBytes);
// Half of the machine's physical memory (the default budget).
uint64_t defaultClusterMemoryBudget();

} // namespace dspark
