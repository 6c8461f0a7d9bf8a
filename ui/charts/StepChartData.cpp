#include "charts/StepChartData.h"

#include "overlays/StepAnalyses.h"
#include "steps/StepRecords.h"
#include "steps/StepTable.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace dspark::ui {

StepChartData StepChartData::build(const StepRecordSet* set, const StepAnalyses* analyses, int rank)
{
    StepChartData d;
    if (!set || set->empty())
        return d;
    std::set<int> ranks;
    bool anyGpu = false;
    for (size_t r = 0; r < set->size(); ++r) {
        ranks.insert(set->rows[r].rank);
        anyGpu = anyGpu || set->record(r).stepGpuMs.has_value();
    }
    d.ranks.assign(ranks.begin(), ranks.end());
    d.rank = rank >= 0 && ranks.count(rank) ? rank : d.ranks.front();
    d.gpuStepTimes = anyGpu;

    for (size_t r = 0; r < set->size(); ++r) {
        if (set->rows[r].rank != d.rank)
            continue;
        StepChartRecord c;
        c.recordRow = r;
        c.forwardCt = set->record(r).forwardCt;
        c.draftMs = stepColumnNumber(*set, r, StepColumn::DraftGpuMs);
        c.verifyMs = stepColumnNumber(*set, r, StepColumn::TargetVerifyGpuMs);
        c.outOfSegmentMs = stepColumnNumber(*set, r, StepColumn::UnattributedMs);
        c.stepMs = stepColumnNumber(*set, r, anyGpu ? StepColumn::StepGpuMs : StepColumn::StepCpuMs);
        c.tpotMs = stepColumnNumber(*set, r, anyGpu ? StepColumn::EffectiveTpotMs : StepColumn::EffectiveTpotCpuMs);
        c.meanCommitLen = stepColumnNumber(*set, r, StepColumn::MeanCommitLen);
        if (r < set->anomalies.size())
            c.anomaly = set->anomalies[r];
        d.records.push_back(std::move(c));
    }
    std::stable_sort(d.records.begin(), d.records.end(),
                     [](const StepChartRecord& a, const StepChartRecord& b) { return a.forwardCt < b.forwardCt; });

    if (analyses)
        for (const StepChartRecord& c : d.records) {
            const std::optional<size_t> step = analyses->stepOfRecordRow(c.recordRow);
            const StepAnalysis* a = step ? analyses->analysis(*step) : nullptr;
            if (!a)
                continue;
            StepChartAnalysis p;
            p.recordRow = c.recordRow;
            p.step = *step;
            p.forwardCt = c.forwardCt;
            p.commInflightMs = double(a->comm.totalNs) / 1e6;
            p.commExposedMs = double(a->comm.exposedNs) / 1e6;
            TimeNs hidden = 0;
            for (const CommOperation& op : a->comm.operations)
                hidden += op.hiddenNs;
            p.commHiddenMs = double(hidden) / 1e6;
            p.wallMs = double(a->window.wallNs()) / 1e6;
            for (size_t k = 0; k < kPathCategoryCount; ++k)
                p.pathMs[k] = double(a->criticalPath.byCategory[k]) / 1e6;
            p.anomalous = !c.anomaly.isEmpty();
            d.analysed.push_back(p);
        }
    d.histogram = makeHistogram(d.records);
    return d;
}

std::vector<StepTimeBin> StepChartData::makeHistogram(const std::vector<StepChartRecord>& records)
{
    std::vector<const StepChartRecord*> timed;
    for (const StepChartRecord& r : records)
        if (r.stepMs)
            timed.push_back(&r);
    std::vector<StepTimeBin> bins;
    if (timed.empty())
        return bins;
    double lo = *timed.front()->stepMs, hi = lo;
    for (const StepChartRecord* r : timed) {
        lo = std::min(lo, *r->stepMs);
        hi = std::max(hi, *r->stepMs);
    }
    const int n = hi > lo ? std::clamp(int(std::ceil(std::sqrt(double(timed.size())))), 1, 30) : 1;
    const double width = hi > lo ? (hi - lo) / n : 1.0;
    bins.resize(n);
    for (int i = 0; i < n; ++i) {
        bins[i].loMs = lo + i * width;
        bins[i].hiMs = i + 1 == n ? hi : lo + (i + 1) * width;
    }
    for (const StepChartRecord* r : timed) {
        const int i = std::clamp(int((*r->stepMs - lo) / width), 0, n - 1);
        (r->anomaly.isEmpty() ? bins[i].ordinary : bins[i].anomalous) += 1;
        bins[i].recordRows.push_back(r->recordRow);
    }
    return bins;
}

} // namespace dspark::ui
