#include "steps/StableWindow.h"

#include "steps/StepRecords.h"

#include <cstdlib>

namespace dspark {

std::vector<StableWindow> findStableWindows(const StepRecordSet& set, const StableWindowOptions& options)
{
    std::vector<StableWindow> windows;
    size_t i = 0;
    while (i < set.rows.size()) {
        // Rows of one rank are contiguous and ascending in forward_ct.
        const int rank = set.rows[i].rank;
        StableWindow best;
        bool found = false;
        size_t runStart = i;
        auto bsOf = [&](size_t row) {
            const StepRecord& r = set.record(row);
            return r.bs ? r.bs : r.numRunningReqs;
        };
        auto close = [&](size_t runEnd) { // [runStart, runEnd)
            const size_t steps = runEnd - runStart;
            if (steps >= options.minSteps && (!found || steps > best.steps)) {
                best = {
                    rank,  runStart,      runEnd - 1, set.record(runStart).forwardCt, set.record(runEnd - 1).forwardCt,
                    steps, bsOf(runStart)};
                found = true;
            }
        };
        size_t j = i + 1;
        for (; j < set.rows.size() && set.rows[j].rank == rank; ++j) {
            const bool consecutive = set.record(j).forwardCt == set.record(j - 1).forwardCt + 1;
            const std::optional<int64_t> bs0 = bsOf(runStart), bs = bsOf(j);
            const bool steady = !bs0 || !bs || std::llabs(*bs - *bs0) <= options.bsTolerance;
            if (!consecutive || !steady) {
                close(j);
                runStart = j;
            }
        }
        close(j);
        if (found)
            windows.push_back(best);
        i = j;
    }
    return windows;
}

} // namespace dspark
