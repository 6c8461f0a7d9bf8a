#include "compare/StepPairs.h"

#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"

#include <algorithm>

namespace dspark::ui {

// The aligned steps of a run's stable window in forward_ct order (StepAnalyses indices).
static std::vector<size_t> stableSteps(const ProfileSession& session)
{
    std::vector<size_t> steps;
    const StepAnalyses& analyses = *session.analyses();
    const StepRecordSet* set = session.profile() ? session.profile()->stepRecords.get() : nullptr;
    if (set && !set->stableWindows.empty()) {
        const StableWindow& w = set->stableWindows.front();
        for (size_t row = w.firstRow; row <= w.lastRow && row < set->rows.size(); ++row)
            if (set->rows[row].dpRank == w.dpRank)
                if (const std::optional<size_t> step = analyses.stepOfRecordRow(row))
                    steps.push_back(*step);
    }
    if (steps.empty() && analyses.stepCount() > 0) {
        // No stable window: every aligned step of the first rank (windows are sorted by rank, start).
        const int rank = analyses.step(0).window.rankIndex;
        for (size_t i = 0; i < analyses.stepCount() && analyses.step(i).window.rankIndex == rank; ++i)
            steps.push_back(i);
    }
    std::sort(steps.begin(), steps.end(),
              [&](size_t a, size_t b) { return analyses.step(a).window.startNs < analyses.step(b).window.startNs; });
    return steps;
}

std::vector<StepPair> matchStepPairs(const ProfileSession& baseline, const ProfileSession& changed)
{
    const std::vector<size_t> a = stableSteps(baseline), b = stableSteps(changed);
    std::vector<StepPair> pairs;
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        pairs.push_back({a[i], b[i]});
    return pairs;
}

} // namespace dspark::ui
