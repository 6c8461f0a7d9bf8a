#include "steps/StepRecords.h"

#include "steps/StepTable.h"

#include <algorithm>

namespace dspark {

RankStepRecords& StepRecordSet::rankRecords(int rank)
{
    auto it = std::lower_bound(ranks.begin(), ranks.end(), rank,
                               [](const RankStepRecords& r, int value) { return r.dpRank < value; });
    if (it == ranks.end() || it->dpRank != rank) {
        it = ranks.insert(it, RankStepRecords{});
        it->dpRank = rank;
    }
    return *it;
}

void StepRecordSet::rebuild()
{
    rows.clear();
    size_t total = 0;
    for (const RankStepRecords& rr : ranks)
        total += rr.records.size();
    rows.reserve(total);
    for (size_t slot = 0; slot < ranks.size(); ++slot) {
        RankStepRecords& rr = ranks[slot];
        const auto byForwardCt = [](const StepRecord& a, const StepRecord& b) { return a.forwardCt < b.forwardCt; };
        // (Records come in step order: a check instead of a sort that moves every record through a buffer.)
        if (!std::is_sorted(rr.records.begin(), rr.records.end(), byForwardCt))
            std::stable_sort(rr.records.begin(), rr.records.end(), byForwardCt);
        for (size_t i = 0; i < rr.records.size(); ++i)
            rows.push_back(
                {rr.dpRank, static_cast<uint32_t>(slot), static_cast<uint32_t>(i), deriveStep(rr.records[i])});
    }
    anomalies.clear();
    stableWindows.clear();
    alignment = StepAlignment{};
}

} // namespace dspark
