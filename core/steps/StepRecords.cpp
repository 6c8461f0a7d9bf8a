#include "steps/StepRecords.h"

#include "steps/StepTable.h"

#include <algorithm>

namespace dspark {

RankStepRecords& StepRecordSet::rankRecords(int rank)
{
    auto it = std::lower_bound(ranks.begin(), ranks.end(), rank,
                               [](const RankStepRecords& r, int value) { return r.rank < value; });
    if (it == ranks.end() || it->rank != rank) {
        it = ranks.insert(it, RankStepRecords{});
        it->rank = rank;
    }
    return *it;
}

void StepRecordSet::rebuild()
{
    rows.clear();
    for (size_t slot = 0; slot < ranks.size(); ++slot) {
        RankStepRecords& rr = ranks[slot];
        std::stable_sort(rr.records.begin(), rr.records.end(),
                         [](const StepRecord& a, const StepRecord& b) { return a.forwardCt < b.forwardCt; });
        for (size_t i = 0; i < rr.records.size(); ++i)
            rows.push_back({rr.rank, static_cast<uint32_t>(slot), static_cast<uint32_t>(i), deriveStep(rr.records[i])});
    }
    anomalies = detectStepAnomalies(*this, anomalyOptions);
    stableWindows = findStableWindows(*this, stableWindowOptions);
    alignment = StepAlignment{};
}

} // namespace dspark
