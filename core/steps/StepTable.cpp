#include "steps/StepTable.h"

#include <QtGlobal>

#include <array>
#include <cmath>

namespace dspark {

const StepColumnInfo& stepColumnInfo(StepColumn column)
{
    using T = StepColumnType;
    static const std::array<StepColumnInfo, kStepColumnCount> columns = {{
        {"rank", T::Integer, QT_TRANSLATE_NOOP("StepTable", "Rank"), "",
         QT_TRANSLATE_NOOP("StepTable", "DP rank of the record (server_info internal_states index)")},
        {"forward_ct", T::Integer, QT_TRANSLATE_NOOP("StepTable", "forward_ct"), "",
         QT_TRANSLATE_NOOP("StepTable", "Scheduler step counter; gaps are prefill or idle steps")},
        {"bs", T::Integer, QT_TRANSLATE_NOOP("StepTable", "BS"), "",
         QT_TRANSLATE_NOOP("StepTable", "Batch size of the decode step")},
        {"mode", T::Text, QT_TRANSLATE_NOOP("StepTable", "Mode"), "",
         QT_TRANSLATE_NOOP("StepTable", "DSpark verify mode of the step")},
        {"num_verify_tokens", T::Integer, QT_TRANSLATE_NOOP("StepTable", "Verify tokens"), "",
         QT_TRANSLATE_NOOP("StepTable", "Tokens in the target verify forward")},
        {"verify_tokens_local", T::Integer, QT_TRANSLATE_NOOP("StepTable", "Verify tokens (local)"), "",
         QT_TRANSLATE_NOOP("StepTable", "Verify tokens of this rank before DP synchronisation")},
        {"verify_tokens_dp_synced", T::Integer, QT_TRANSLATE_NOOP("StepTable", "Verify tokens (DP synced)"), "",
         QT_TRANSLATE_NOOP("StepTable", "Verify tokens after synchronisation across DP ranks")},
        {"verify_tokens_graph_key", T::Integer, QT_TRANSLATE_NOOP("StepTable", "Verify tokens (graph key)"), "",
         QT_TRANSLATE_NOOP("StepTable", "Verify tokens of the graph bucket that was replayed")},
        {"step_cpu_ms", T::Real, QT_TRANSLATE_NOOP("StepTable", "Step CPU"), "ms",
         QT_TRANSLATE_NOOP("StepTable", "Host monotonic interval between decode observations")},
        {"step_gpu_ms", T::Real, QT_TRANSLATE_NOOP("StepTable", "Step GPU"), "ms",
         QT_TRANSLATE_NOOP("StepTable", "Device elapsed time of the STEP segment")},
        {"draft_gpu_ms", T::Real, QT_TRANSLATE_NOOP("StepTable", "Draft GPU"), "ms",
         QT_TRANSLATE_NOOP("StepTable", "Device elapsed time of the DRAFT segment")},
        {"target_verify_gpu_ms", T::Real, QT_TRANSLATE_NOOP("StepTable", "Verify GPU"), "ms",
         QT_TRANSLATE_NOOP("StepTable", "Device elapsed time of the TARGET_VERIFY segment")},
        {"unattributed_ms", T::Real, QT_TRANSLATE_NOOP("StepTable", "Unattributed"), "ms",
         QT_TRANSLATE_NOOP("StepTable",
                           "Step GPU − Draft GPU − Verify GPU: time outside both segments (eager accept/commit "
                           "tail, gaps); empty when any part is not recorded")},
        {"mean_commit_len", T::Real, QT_TRANSLATE_NOOP("StepTable", "Mean commit"), "",
         QT_TRANSLATE_NOOP("StepTable", "Mean commit length (acc_len) over the step's requests")},
        {"total_commit_len", T::Integer, QT_TRANSLATE_NOOP("StepTable", "Committed"), "",
         QT_TRANSLATE_NOOP("StepTable", "Tokens committed by the step (Σ acc_len)")},
        {"mean_correct_drafts", T::Real, QT_TRANSLATE_NOOP("StepTable", "Mean correct drafts"), "",
         QT_TRANSLATE_NOOP("StepTable", "Mean number of accepted draft tokens per request")},
        {"acceptance_rate", T::Real, QT_TRANSLATE_NOOP("StepTable", "Acceptance"), "%",
         QT_TRANSLATE_NOOP("StepTable", "Σ correct drafts / Σ drafts verified (verify_len − 1 per request)")},
        {"effective_tpot_ms", T::Real, QT_TRANSLATE_NOOP("StepTable", "Effective TPOT (GPU)"), "ms",
         QT_TRANSLATE_NOOP("StepTable", "Step GPU / mean commit length")},
        {"effective_tpot_cpu_ms", T::Real, QT_TRANSLATE_NOOP("StepTable", "Effective TPOT (CPU)"), "ms",
         QT_TRANSLATE_NOOP("StepTable", "Step CPU (host interval) / mean commit length")},
        {"anomaly", T::Text, QT_TRANSLATE_NOOP("StepTable", "Anomaly"), "",
         QT_TRANSLATE_NOOP("StepTable", "Why the step stands out from steps with the same workload")},
    }};
    return columns[static_cast<size_t>(column)];
}

static double roundToNs(double ms)
{
    return std::round(ms * 1e6) / 1e6;
}

StepDerived deriveStep(const StepRecord& r)
{
    StepDerived d;
    if (r.stepGpuMs && r.draftGpuMs && r.targetVerifyGpuMs)
        d.unattributedMs = roundToNs(*r.stepGpuMs - *r.draftGpuMs - *r.targetVerifyGpuMs);
    if (r.reqs && !r.reqs->empty()) {
        double accSum = 0, correctSum = 0, acceptedSum = 0, draftSum = 0;
        int64_t accTotal = 0;
        size_t accCount = 0, correctCount = 0;
        for (const StepRequest& q : *r.reqs) {
            if (q.accLen) {
                accSum += static_cast<double>(*q.accLen);
                accTotal += *q.accLen;
                ++accCount;
            }
            if (q.correctDrafts) {
                correctSum += static_cast<double>(*q.correctDrafts);
                ++correctCount;
                std::optional<int64_t> drafts;
                if (q.verifyLen && *q.verifyLen >= 1)
                    drafts = *q.verifyLen - 1;
                else if (q.draftTokenCount)
                    drafts = q.draftTokenCount;
                if (drafts) {
                    acceptedSum += static_cast<double>(*q.correctDrafts);
                    draftSum += static_cast<double>(*drafts);
                }
            }
        }
        if (accCount > 0)
            d.meanCommitLen = accSum / static_cast<double>(accCount);
        if (accCount == r.reqs->size())
            d.totalCommitLen = accTotal;
        if (correctCount > 0)
            d.meanCorrectDrafts = correctSum / static_cast<double>(correctCount);
        if (draftSum > 0)
            d.acceptanceRate = acceptedSum / draftSum;
    }
    if (d.meanCommitLen && *d.meanCommitLen > 0) {
        if (r.stepGpuMs)
            d.effectiveTpotMs = *r.stepGpuMs / *d.meanCommitLen;
        if (r.stepCpuMs)
            d.effectiveTpotCpuMs = *r.stepCpuMs / *d.meanCommitLen;
    }
    return d;
}

// An integer that may be not recorded (std::optional or CompactOptional) as a column's number.
template <typename Optional> static std::optional<double> num(const Optional& v)
{
    return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
}

std::optional<double> stepColumnNumber(const StepRecordSet& set, size_t rowIndex, StepColumn column)
{
    const StepRow& row = set.rows[rowIndex];
    const StepRecord& r = set.record(row);
    const StepDerived& d = row.derived;
    switch (column) {
    case StepColumn::Rank: return row.dpRank;
    case StepColumn::ForwardCt: return static_cast<double>(r.forwardCt);
    case StepColumn::Bs: return num(r.bs);
    case StepColumn::NumVerifyTokens: return num(r.numVerifyTokens);
    case StepColumn::VerifyTokensLocal: return num(r.verifyTokensLocal);
    case StepColumn::VerifyTokensDpSynced: return num(r.verifyTokensDpSynced);
    case StepColumn::VerifyTokensGraphKey: return num(r.verifyTokensGraphKey);
    case StepColumn::StepCpuMs: return r.stepCpuMs;
    case StepColumn::StepGpuMs: return r.stepGpuMs;
    case StepColumn::DraftGpuMs: return r.draftGpuMs;
    case StepColumn::TargetVerifyGpuMs: return r.targetVerifyGpuMs;
    case StepColumn::UnattributedMs: return d.unattributedMs;
    case StepColumn::MeanCommitLen: return d.meanCommitLen;
    case StepColumn::TotalCommitLen: return num(d.totalCommitLen);
    case StepColumn::MeanCorrectDrafts: return d.meanCorrectDrafts;
    case StepColumn::AcceptanceRate: return d.acceptanceRate;
    case StepColumn::EffectiveTpotMs: return d.effectiveTpotMs;
    case StepColumn::EffectiveTpotCpuMs: return d.effectiveTpotCpuMs;
    case StepColumn::Mode:
    case StepColumn::Anomaly:
    case StepColumn::Count: break;
    }
    return std::nullopt;
}

// An integer that may be not recorded, exactly.
template <typename Optional> static std::optional<int64_t> integer(const Optional& v)
{
    return v ? std::optional<int64_t>(static_cast<int64_t>(*v)) : std::nullopt;
}

std::optional<int64_t> stepColumnInteger(const StepRecordSet& set, size_t rowIndex, StepColumn column)
{
    const StepRow& row = set.rows[rowIndex];
    const StepRecord& r = set.record(row);
    switch (column) {
    case StepColumn::Rank: return row.dpRank;
    case StepColumn::ForwardCt: return r.forwardCt;
    case StepColumn::Bs: return integer(r.bs);
    case StepColumn::NumVerifyTokens: return integer(r.numVerifyTokens);
    case StepColumn::VerifyTokensLocal: return integer(r.verifyTokensLocal);
    case StepColumn::VerifyTokensDpSynced: return integer(r.verifyTokensDpSynced);
    case StepColumn::VerifyTokensGraphKey: return integer(r.verifyTokensGraphKey);
    case StepColumn::TotalCommitLen: return row.derived.totalCommitLen;
    default: break;
    }
    return std::nullopt;
}

std::optional<std::string> stepColumnText(const StepRecordSet& set, size_t row, StepColumn column,
                                          const std::vector<QString>& anomalies)
{
    if (column == StepColumn::Mode) {
        const std::string& mode = set.record(row).mode;
        return mode.empty() ? std::nullopt : std::optional<std::string>(mode);
    }
    if (column == StepColumn::Anomaly && row < anomalies.size() && !anomalies[row].isEmpty())
        return anomalies[row].toStdString();
    return std::nullopt;
}

} // namespace dspark
