#include "charts/StepChartData.h"

#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"
#include "steps/StepTable.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace dspark::ui {

namespace {

// Mean of the recorded values; nullopt when none of them is recorded.
struct Mean {
    double sum = 0;
    size_t n = 0;
    void add(const std::optional<double>& v)
    {
        if (v) {
            sum += *v;
            ++n;
        }
    }
    std::optional<double> value() const { return n ? std::optional<double>(sum / double(n)) : std::nullopt; }
};

size_t perBar(size_t n)
{
    return n > StepChartData::kMaxBars ? (n + StepChartData::kMaxBars - 1) / StepChartData::kMaxBars : 1;
}

// One bar for consecutive records: means, the first anomaly, the anomalous (else slowest) step's row.
StepChartRecord binOf(const std::vector<StepChartRecord>& records)
{
    Mean draft, verify, outside, step, tpot, commit;
    const StepChartRecord* pick = &records.front();
    StepChartRecord bin;
    for (const StepChartRecord& r : records) {
        draft.add(r.draftMs);
        verify.add(r.verifyMs);
        outside.add(r.outOfSegmentMs);
        step.add(r.stepMs);
        tpot.add(r.tpotMs);
        commit.add(r.meanCommitLen);
        if (bin.anomaly.isEmpty() && !r.anomaly.isEmpty()) {
            bin.anomaly = r.anomaly;
            pick = &r;
        } else if (bin.anomaly.isEmpty() && r.stepMs.value_or(-1) > pick->stepMs.value_or(-1)) {
            pick = &r;
        }
    }
    bin.recordRow = pick->recordRow;
    bin.anomalyStepMs = pick->anomalyStepMs;
    bin.anomalyTpotMs = pick->anomalyTpotMs;
    bin.firstRecordRow = records.front().firstRecordRow;
    bin.lastRecordRow = records.back().lastRecordRow;
    bin.forwardCt = records.front().forwardCt;
    bin.draftMs = draft.value();
    bin.verifyMs = verify.value();
    bin.outOfSegmentMs = outside.value();
    bin.stepMs = step.value();
    bin.tpotMs = tpot.value();
    bin.meanCommitLen = commit.value();
    return bin;
}

// A step of the histogram: its time, its row, whether it is anomalous.
struct TimedStep {
    double stepMs;
    size_t recordRow;
    bool anomalous;
};

// Bins: ceil(sqrt(n)) clamped to [1, 30], equal width over [min, max] of the step times.
std::vector<StepTimeBin> makeHistogram(const std::vector<TimedStep>& timed)
{
    std::vector<StepTimeBin> bins;
    if (timed.empty())
        return bins;
    double lo = timed.front().stepMs, hi = lo;
    for (const TimedStep& t : timed) {
        lo = std::min(lo, t.stepMs);
        hi = std::max(hi, t.stepMs);
    }
    const int n = hi > lo ? std::clamp(int(std::ceil(std::sqrt(double(timed.size())))), 1, 30) : 1;
    const double width = hi > lo ? (hi - lo) / n : 1.0;
    bins.resize(n);
    for (int i = 0; i < n; ++i) {
        bins[i].loMs = lo + i * width;
        bins[i].hiMs = i + 1 == n ? hi : lo + (i + 1) * width;
    }
    for (const TimedStep& t : timed) {
        const int i = std::clamp(int((t.stepMs - lo) / width), 0, n - 1);
        (t.anomalous ? bins[i].anomalous : bins[i].ordinary) += 1;
        bins[i].recordRows.push_back(t.recordRow);
    }
    return bins;
}

std::vector<StepChartAnalysis> binAnalysed(const std::vector<StepChartAnalysis>& steps, size_t per)
{
    std::vector<StepChartAnalysis> bins;
    for (size_t from = 0; from < steps.size(); from += per) {
        const size_t to = std::min(steps.size(), from + per);
        const StepChartAnalysis* pick = &steps[from];
        StepChartAnalysis bin;
        for (size_t i = from; i < to; ++i) {
            const StepChartAnalysis& a = steps[i];
            bin.commInflightMs += a.commInflightMs;
            bin.commExposedMs += a.commExposedMs;
            bin.commHiddenMs += a.commHiddenMs;
            bin.wallMs += a.wallMs;
            for (size_t k = 0; k < kPathCategoryCount; ++k)
                bin.pathMs[k] += a.pathMs[k];
            if (!bin.anomalous && a.anomalous) {
                bin.anomalous = true;
                pick = &a;
            } else if (!bin.anomalous && a.wallMs > pick->wallMs) {
                pick = &a;
            }
        }
        const double n = double(to - from);
        bin.commInflightMs /= n;
        bin.commExposedMs /= n;
        bin.commHiddenMs /= n;
        bin.wallMs /= n;
        for (double& v : bin.pathMs)
            v /= n;
        bin.recordRow = pick->recordRow;
        bin.step = pick->step;
        bin.forwardCt = steps[from].forwardCt;
        bin.firstRecordRow = steps[from].firstRecordRow;
        bin.lastRecordRow = steps[to - 1].lastRecordRow;
        bins.push_back(bin);
    }
    return bins;
}

} // namespace

StepChartData StepChartData::build(const StepRecordSet* set, const StepAnalyses* analyses, int dpRank)
{
    StepChartData d;
    if (!set || set->empty())
        return d;
    std::set<int> ranks;
    bool anyGpu = false;
    for (size_t r = 0; r < set->size(); ++r) {
        ranks.insert(set->rows[r].dpRank);
        anyGpu = anyGpu || set->record(r).stepGpuMs.has_value();
    }
    d.dpRanks.assign(ranks.begin(), ranks.end());
    d.dpRank = dpRank >= 0 && ranks.count(dpRank) ? dpRank : d.dpRanks.front();
    d.gpuStepTimes = anyGpu;

    // The dpRank's rows by forward_ct (a dpRank's rows are in step order: the sort is rarely needed).
    std::vector<size_t> rows;
    for (size_t r = 0; r < set->size(); ++r)
        if (set->rows[r].dpRank == d.dpRank)
            rows.push_back(r);
    const auto byForwardCt = [&](size_t a, size_t b) { return set->record(a).forwardCt < set->record(b).forwardCt; };
    if (!std::is_sorted(rows.begin(), rows.end(), byForwardCt))
        std::stable_sort(rows.begin(), rows.end(), byForwardCt);

    // One record at a time: a long run's steps go straight into their bins, so that its records
    // (~180 bytes each, most of this function's time as fresh memory) are never all held at once.
    d.stepsPerBar = perBar(rows.size());
    d.records.reserve(d.stepsPerBar > 1 ? (rows.size() + d.stepsPerBar - 1) / d.stepsPerBar : rows.size());
    std::vector<StepChartRecord> bar; // the records of the bar being filled (binned runs)
    std::vector<TimedStep> timed;
    timed.reserve(rows.size());
    for (size_t k = 0; k < rows.size(); ++k) {
        const size_t r = rows[k];
        StepChartRecord c;
        c.recordRow = c.firstRecordRow = c.lastRecordRow = r;
        c.forwardCt = set->record(r).forwardCt;
        c.draftMs = stepColumnNumber(*set, r, StepColumn::DraftGpuMs);
        c.verifyMs = stepColumnNumber(*set, r, StepColumn::TargetVerifyGpuMs);
        c.outOfSegmentMs = stepColumnNumber(*set, r, StepColumn::UnattributedMs);
        c.stepMs = stepColumnNumber(*set, r, anyGpu ? StepColumn::StepGpuMs : StepColumn::StepCpuMs);
        c.tpotMs = stepColumnNumber(*set, r, anyGpu ? StepColumn::EffectiveTpotMs : StepColumn::EffectiveTpotCpuMs);
        c.meanCommitLen = stepColumnNumber(*set, r, StepColumn::MeanCommitLen);
        if (r < set->anomalies.size())
            c.anomaly = set->anomalies[r];
        // The height of a step's bar: its segments, or its step time when that is more.
        c.anomalyStepMs =
            std::max(c.draftMs.value_or(0) + c.verifyMs.value_or(0) + std::max(0.0, c.outOfSegmentMs.value_or(0)),
                     c.stepMs.value_or(0));
        c.anomalyTpotMs = c.tpotMs;
        if (c.stepMs)
            timed.push_back({*c.stepMs, r, !c.anomaly.isEmpty()});
        if (analyses) {
            const std::optional<size_t> step = analyses->stepOfRecordRow(r);
            if (const StepAnalysis* a = step ? analyses->analysis(*step) : nullptr) {
                StepChartAnalysis p;
                p.recordRow = p.firstRecordRow = p.lastRecordRow = r;
                p.step = *step;
                p.forwardCt = c.forwardCt;
                p.commInflightMs = double(a->comm.totalNs) / 1e6;
                p.commExposedMs = double(a->comm.exposedNs) / 1e6;
                TimeNs hidden = 0;
                for (const CommOperation& op : a->comm.operations)
                    hidden += op.hiddenNs;
                p.commHiddenMs = double(hidden) / 1e6;
                p.wallMs = double(a->window.wallNs()) / 1e6;
                for (size_t i = 0; i < kPathCategoryCount; ++i)
                    p.pathMs[i] = double(a->criticalPath.byCategory[i]) / 1e6;
                p.anomalous = !c.anomaly.isEmpty();
                d.analysed.push_back(p);
            }
        }
        if (d.stepsPerBar == 1) {
            d.records.push_back(std::move(c));
            continue;
        }
        bar.push_back(std::move(c));
        if (bar.size() == d.stepsPerBar || k + 1 == rows.size()) {
            d.records.push_back(binOf(bar));
            bar.clear();
        }
    }
    d.histogram = makeHistogram(timed);
    d.analysedPerBar = perBar(d.analysed.size());
    if (d.analysedPerBar > 1)
        d.analysed = binAnalysed(d.analysed, d.analysedPerBar);
    return d;
}

} // namespace dspark::ui
