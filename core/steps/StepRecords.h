#pragma once

// DSpark step records of a profile (formats.md §4, primer §3): one DecodeStepRecord per decode step
// and DP rank, the derived columns of the step table, anomalies, the stable window and the alignment
// to the timeline. Built by StepRecordLoader, aligned by alignStepRecords(), then read-only.

#include "steps/AnomalyDetector.h"
#include "steps/StableWindow.h"
#include "steps/StepAlignment.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dspark {

// ReqDetail: one request of a decode step. SGLang always writes these fields; a field missing from a
// hand-made or foreign file is nullopt ("not recorded"), never 0.
struct StepRequest {
    std::optional<int64_t> reqPoolIndex;
    std::optional<int64_t> prefixLen;
    std::optional<int64_t> verifyLen; // verify positions of the request: its drafts + 1 (the root)
    std::optional<int64_t> accLen;    // commit length = correct_drafts + 1
    std::optional<int64_t> correctDrafts;
    std::optional<int64_t> capTrim;
    std::optional<int64_t> bonusToken;
    std::optional<int64_t> draftTokenCount; // len(draft_tokens): the drafts proposed (gamma)
    std::string rid;
};

// DecodeStepRecord. msgspec writes it with omit_defaults: a field at its default (-1, "", None) is
// absent; absent, null and the -1 sentinel all load as "not recorded" (nullopt / "").
struct StepRecord {
    int64_t forwardCt = 0; // scheduler step counter (also counts prefill / idle steps)
    std::optional<int64_t> bs;
    std::string mode; // DSpark verify mode ("static", "compact", ...), "" = not recorded
    std::optional<int64_t> budget;
    std::optional<int64_t> lagSteps;
    std::optional<int64_t> numRunningReqs;
    std::optional<int64_t> numVerifyTokens;
    std::optional<int64_t> verifyTokensLocal;
    std::optional<int64_t> verifyTokensDpSynced;
    std::optional<int64_t> verifyTokensGraphKey;
    std::optional<double> predictedStepMs;
    std::optional<double> predictedTheta;
    std::optional<double> stepCpuMs; // host monotonic interval between decode observations
    std::optional<double> stepGpuMs; // device elapsed time of the STEP segment
    std::optional<double> draftGpuMs;
    std::optional<double> targetVerifyGpuMs;
    std::optional<std::vector<StepRequest>> reqs; // nullopt: the reqs component was off
    // dspark_sps_profiler rows: step_cpu_ms holds step_time × 1000 (seconds → ms, host time).
    bool stepCpuFromSps = false;
    uint32_t line = 0; // 1-based line of a JSON Lines file; 0 for records inside a JSON document
};

// The fields of dspark_info_record around its records (DsparkInfoDumper.dump()).
struct StepRecordEnvelope {
    bool present = false;
    std::string mode; // DSpark mode of the worker
    std::optional<int64_t> gamma;
    std::optional<int64_t> verifyNumDraftTokens;
    std::vector<std::string> components; // enabled SGLANG_DSPARK_DEBUG_DUMP components
    std::string simulateAccLen;          // JSON text of simulate_acc_len, "" when absent
};

// The records of one DP rank (server_info internal_states[i] → rank i).
struct RankStepRecords {
    int rank = 0;
    StepRecordEnvelope envelope;
    std::vector<std::string> sources; // files the records came from
    std::vector<StepRecord> records;  // ascending forward_ct
};

// Columns computed from one record (StepTable.h defines them precisely). nullopt = cannot be computed
// because an input is not recorded; a missing input is never taken as 0.
struct StepDerived {
    std::optional<double> unattributedMs;  // step_gpu − draft − target_verify
    std::optional<double> meanCommitLen;   // mean acc_len over the step's requests
    std::optional<int64_t> totalCommitLen; // Σ acc_len
    std::optional<double> meanCorrectDrafts;
    std::optional<double> acceptanceRate;     // Σ correct_drafts / Σ draft length
    std::optional<double> effectiveTpotMs;    // step_gpu_ms / mean commit length
    std::optional<double> effectiveTpotCpuMs; // step_cpu_ms / mean commit length
};

// One row of the step table: a record and its derived columns.
struct StepRow {
    int rank = 0;
    uint32_t rankSlot = 0;    // index into StepRecordSet::ranks
    uint32_t recordIndex = 0; // index into that rank's records
    StepDerived derived;
};

struct StepRecordSet {
    std::vector<RankStepRecords> ranks; // ascending rank
    std::vector<StepRow> rows;          // every record, by (rank, forward_ct)
    AnomalyOptions anomalyOptions;
    std::vector<QString> anomalies; // per row, "" = not anomalous
    StableWindowOptions stableWindowOptions;
    std::vector<StableWindow> stableWindows;
    StepAlignment alignment; // set by alignStepRecords() once the timeline is final

    RankStepRecords& rankRecords(int rank); // finds or creates (keeps ascending order)
    const StepRecord& record(const StepRow& row) const { return ranks[row.rankSlot].records[row.recordIndex]; }
    const StepRecord& record(size_t row) const { return record(rows[row]); }
    size_t size() const { return rows.size(); }
    bool empty() const { return rows.empty(); }

    // Sorts every rank by forward_ct and recomputes rows, derived columns, anomalies and stable windows.
    // Invalidates `alignment` (cleared).
    void rebuild();
};

} // namespace dspark
