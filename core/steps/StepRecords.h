#pragma once

// DSpark step records of a profile (formats.md §4, primer §3): one DecodeStepRecord per decode step
// and DP rank, the derived columns of the step table, anomalies, the stable window and the alignment
// to the timeline. Built by StepRecordLoader, aligned by alignStepRecords(), then read-only.

#include "steps/AnomalyDetector.h"
#include "steps/StableWindow.h"
#include "steps/StepAlignment.h"

#include <QString>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace dspark {

// A number that may be "not recorded", in 8 bytes where std::optional takes 16 (a long run holds
// millions): a mark value stands for not recorded. For int64 the mark is INT64_MIN (so that value, which
// no step record field means, reads as not recorded); for double it is NaN (JSON has no NaN, so no
// recorded value is one). Reads like std::optional (has_value, *, value_or, reset, a test) and converts
// to and from it.
template <typename T> class CompactOptional {
public:
    constexpr CompactOptional() = default;
    constexpr CompactOptional(std::nullopt_t) {}
    constexpr CompactOptional(T v) : m_value(v) {}
    constexpr CompactOptional(const std::optional<T>& v) : m_value(v ? *v : kNone) {}
    bool has_value() const
    {
        if constexpr (std::is_floating_point_v<T>)
            return !std::isnan(m_value);
        else
            return m_value != kNone;
    }
    explicit operator bool() const { return has_value(); }
    constexpr T operator*() const { return m_value; }
    T value_or(T fallback) const { return has_value() ? m_value : fallback; }
    constexpr void reset() { m_value = kNone; }
    operator std::optional<T>() const { return has_value() ? std::optional<T>(m_value) : std::nullopt; }
    friend bool operator==(CompactOptional a, CompactOptional b)
    {
        return a.has_value() == b.has_value() && (!a.has_value() || a.m_value == b.m_value);
    }

private:
    static constexpr T kNone =
        std::is_floating_point_v<T> ? std::numeric_limits<T>::quiet_NaN() : std::numeric_limits<T>::min();
    T m_value = kNone;
};
using CompactOptionalInt = CompactOptional<int64_t>;
using CompactOptionalReal = CompactOptional<double>;

// ReqDetail: one request of a decode step. SGLang always writes these fields; a field missing from a
// hand-made or foreign file is "not recorded", never 0. (A long run holds millions of these: 8-byte
// fields, not std::optional's 16, make it 96 bytes instead of 160.)
struct StepRequest {
    CompactOptionalInt reqPoolIndex;
    CompactOptionalInt prefixLen;
    CompactOptionalInt verifyLen; // verify positions of the request: its drafts + 1 (the root)
    CompactOptionalInt accLen;    // commit length = correct_drafts + 1
    CompactOptionalInt correctDrafts;
    CompactOptionalInt capTrim;
    CompactOptionalInt bonusToken;
    CompactOptionalInt draftTokenCount; // len(draft_tokens): the drafts proposed (gamma)
    std::string rid;
};
static_assert(sizeof(StepRequest) == 8 * sizeof(int64_t) + sizeof(std::string));

// DecodeStepRecord. msgspec writes it with omit_defaults: a field at its default (-1, "", None) is
// absent; absent, null and the -1 sentinel all load as "not recorded" (nullopt / "").
struct StepRecord {
    int64_t forwardCt = 0; // scheduler step counter (also counts prefill / idle steps)
    CompactOptionalInt bs;
    std::string mode; // DSpark verify mode ("static", "compact", ...), "" = not recorded
    CompactOptionalInt budget;
    CompactOptionalInt lagSteps;
    CompactOptionalInt numRunningReqs;
    CompactOptionalInt numVerifyTokens;
    CompactOptionalInt verifyTokensLocal;
    CompactOptionalInt verifyTokensDpSynced;
    CompactOptionalInt verifyTokensGraphKey;
    CompactOptionalReal predictedStepMs;
    CompactOptionalReal predictedTheta;
    CompactOptionalReal stepCpuMs; // host monotonic interval between decode observations
    CompactOptionalReal stepGpuMs; // device elapsed time of the STEP segment
    CompactOptionalReal draftGpuMs;
    CompactOptionalReal targetVerifyGpuMs;
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
    int dpRank = 0; // the record files' DP rank, not a Profile::ranks index
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
    int dpRank = 0;
    uint32_t rankSlot = 0;    // index into StepRecordSet::ranks
    uint32_t recordIndex = 0; // index into that rank's records
    StepDerived derived;
};

struct StepRecordSet {
    std::vector<RankStepRecords> ranks; // ascending rank
    std::vector<StepRow> rows;          // every record, by (rank, forward_ct)
    AnomalyOptions anomalyOptions;
    // Derived once the profile is loaded (deriveProfileAnalyses, core/session/ProfileAnalyses.h):
    std::vector<QString> anomalies; // per row, "" = not anomalous
    StableWindowOptions stableWindowOptions;
    std::vector<StableWindow> stableWindows;
    StepAlignment alignment; // set by alignStepRecords() once the timeline is final

    RankStepRecords& rankRecords(int dpRank); // finds or creates (keeps ascending order)
    const StepRecord& record(const StepRow& row) const { return ranks[row.rankSlot].records[row.recordIndex]; }
    const StepRecord& record(size_t row) const { return record(rows[row]); }
    size_t size() const { return rows.size(); }
    bool empty() const { return rows.empty(); }

    // Sorts every rank by forward_ct and recomputes rows and derived columns (what the loader fills).
    // Clears what is derived from them (anomalies, stable windows, alignment): deriveProfileAnalyses().
    void rebuild();
};

} // namespace dspark
