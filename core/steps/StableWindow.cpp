#include "steps/StableWindow.h"

#include "steps/StepRecords.h"

#include <cstdint>

namespace dspark {

static uint64_t distance(int64_t a, int64_t b) // |a − b|, which may exceed INT64_MAX
{
    return a > b ? uint64_t(a) - uint64_t(b) : uint64_t(b) - uint64_t(a);
}

std::vector<StableWindow> findStableWindows(const StepRecordSet& set, const StableWindowOptions& options)
{
    std::vector<StableWindow> windows;
    size_t i = 0;
    while (i < set.rows.size()) {
        // Rows of one rank are contiguous and ascending in forward_ct.
        const int rank = set.rows[i].dpRank;
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
        for (; j < set.rows.size() && set.rows[j].dpRank == rank; ++j) {
            // (A file may hold any int64: no sum or difference here may overflow.)
            const int64_t previous = set.record(j - 1).forwardCt;
            const bool consecutive = previous < INT64_MAX && set.record(j).forwardCt == previous + 1;
            const std::optional<int64_t> bs0 = bsOf(runStart), bs = bsOf(j);
            const bool steady =
                !bs0 || !bs || (options.bsTolerance >= 0 && distance(*bs, *bs0) <= uint64_t(options.bsTolerance));
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
