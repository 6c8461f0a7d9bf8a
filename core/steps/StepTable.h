#pragma once

// The step table (primer §6): the columns of one row per decode step, their keys (the `steps --json`
// / --csv contract), and how the derived columns are computed from a record.

#include "steps/StepRecords.h"

#include <optional>
#include <string>

namespace dspark {

enum class StepColumn : int {
    Rank,
    ForwardCt,
    Bs,
    Mode,
    NumVerifyTokens,
    VerifyTokensLocal,
    VerifyTokensDpSynced,
    VerifyTokensGraphKey,
    StepCpuMs,
    StepGpuMs,
    DraftGpuMs,
    TargetVerifyGpuMs,
    UnattributedMs,
    MeanCommitLen,
    TotalCommitLen,
    MeanCorrectDrafts,
    AcceptanceRate,
    EffectiveTpotMs,
    EffectiveTpotCpuMs,
    Anomaly,
    Count
};
constexpr int kStepColumnCount = static_cast<int>(StepColumn::Count);

enum class StepColumnType { Integer, Real, Text };

struct StepColumnInfo {
    const char* key; // JSON / CSV key, e.g. "step_gpu_ms"
    StepColumnType type;
    const char* header; // English column title (translate with context "StepTable")
    const char* unit;   // "ms", "%", "" — how the UI shows the value
    const char* help;   // one sentence for the header tooltip (context "StepTable")
};
const StepColumnInfo& stepColumnInfo(StepColumn column);

// Derived columns of one record:
// - unattributed_ms = step_gpu_ms − draft_gpu_ms − target_verify_gpu_ms, only when all three are
//   recorded; rounded to 1e-6 ms (1 ns) so that the 4-decimal inputs do not print binary noise.
// - mean_commit_len / mean_correct_drafts: mean of acc_len / correct_drafts over the step's requests
//   that have the field; total_commit_len = Σ acc_len only when every request has it.
// - acceptance_rate = Σ correct_drafts / Σ draft length over the requests that have both, where a
//   request's draft length is the number of drafts it submitted to verification, verify_len − 1
//   (verify_len counts the drafts plus the root position; it is gamma + 1 in static mode and may be
//   shorter in compact mode). Without verify_len, len(draft_tokens) (the gamma proposed drafts).
// - effective_tpot_ms = step_gpu_ms / mean_commit_len; effective_tpot_cpu_ms = step_cpu_ms /
//   mean_commit_len (host interval, labelled as such).
StepDerived deriveStep(const StepRecord& record);

// Numeric value of a column for a row of `set` (nullopt: not recorded / cannot be computed).
// Text columns (Mode, Anomaly) return nullopt; use stepColumnText.
std::optional<double> stepColumnNumber(const StepRecordSet& set, size_t row, StepColumn column);
// The value of an Integer column, exactly (a double is not past 2^53); nullopt for other columns.
std::optional<int64_t> stepColumnInteger(const StepRecordSet& set, size_t row, StepColumn column);
// Text of Mode (record's mode, nullopt when not recorded) and Anomaly (from `anomalies`, nullopt when
// the step is ordinary). Other columns: nullopt.
std::optional<std::string> stepColumnText(const StepRecordSet& set, size_t row, StepColumn column,
                                          const std::vector<QString>& anomalies);

} // namespace dspark
