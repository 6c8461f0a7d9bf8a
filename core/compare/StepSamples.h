#pragma once

// One row of figures per decode step, what a comparison of two runs reads: the step records' own times
// and commit lengths, and (when the step is on the timeline and analysed) its bands, communication,
// pre-replay gap and critical path. Kept apart from StepAnalyses so that the comparison runs on any
// table of steps (tests build their own).

#include <QString>

#include <array>
#include <cmath>
#include <compare>
#include <optional>
#include <string>
#include <vector>

namespace dspark {

class Profile;
class StepAnalyses;

// Every quantity compared, in report order. Times in ms.
enum class Quantity : uint8_t {
    StepGpuMs,         // record: step_gpu_ms
    DraftGpuMs,        // record: draft_gpu_ms
    TargetVerifyGpuMs, // record: target_verify_gpu_ms
    UnattributedMs,    // record: step_gpu − draft − target_verify
    StepWallMs,        // timeline: the step's window
    BandDraftMs,       // timeline: stage band extents
    BandPlannerMs,
    BandVerifyMs,
    BandAcceptMs,
    BandCommitMs,
    PlannerGapMs,   // draft band end → verify band start
    HostGapMs,      // host gap before the next step (last task end → window end)
    PreReplayGapMs, // host gap before graph replay
    CommTotalMs,    // Σ in-flight communication
    CommExposedMs,  // Σ exposed communication
    CommHiddenMs,   // Σ hidden communication
    PathDraftMs,    // critical path by category (PathCategory order)
    PathVerifyComputeMs,
    PathExposedCommMs,
    PathAcceptTpSyncMs,
    PathCommitMs,
    PathHostGapMs,
    PathIdleMs,
    MeanCommitLen,       // record: mean acc_len (tokens)
    EffectiveTpotMs,     // record: step_gpu_ms / mean commit length
    CommittedTokensPerS, // record: Σ acc_len / step_gpu_ms
    Count
};
constexpr size_t kQuantityCount = static_cast<size_t>(Quantity::Count);

struct QuantityInfo {
    const char* key;   // JSON / CSV key, e.g. "comm_exposed_ms"
    const char* label; // English (translate with context "Compare")
    const char* unit;  // "ms", "tokens", "tokens/s"
    bool fromTimeline; // needs the step on the timeline (else from the step record)
    bool lowerIsBetter;
};
const QuantityInfo& quantityInfo(Quantity q);
QString quantityLabel(Quantity q); // translated
std::optional<Quantity> quantityFromKey(const std::string& key);

// The workload class steps are matched by (forward_ct of two runs are unrelated numbers).
struct StepClass {
    std::string mode;          // "" when not recorded
    int64_t bs = -1;           // -1 when not recorded
    int64_t verifyTokens = -1; // num_verify_tokens, -1 when not recorded
    friend auto operator<=>(const StepClass&, const StepClass&) = default;
    friend bool operator==(const StepClass&, const StepClass&) = default;
    // "MODE:BS:VT" ("?" for a value not recorded); parse() reads the same, an empty mode allowed.
    std::string label() const;
    static std::optional<StepClass> parse(const QString& text);
};

struct StepSample {
    StepClass cls;
    int dpRank = 0;
    int64_t forwardCt = 0;
    int64_t recordRow = -1; // StepRecordSet::rows index
    int64_t stepIndex = -1; // StepAnalyses step index, -1 when the step is not on the timeline
    bool inStableWindow = false;
    std::array<double, kQuantityCount> values; // NaN = not recorded / not analysed
    StepSample() { values.fill(std::nan("")); }
    double value(Quantity q) const { return values[static_cast<size_t>(q)]; }
    bool has(Quantity q) const { return !std::isnan(value(q)); }
};

// The steps of one run.
struct RunSamples {
    QString label;                 // what the user opened (for reports)
    std::vector<StepSample> steps; // by (dp rank, forward_ct)
    bool hasRecords = false;
    bool hasTimeline = false; // some step is on the timeline and analysed
    std::string platform;     // "npu", "gpu" or "" (no device lanes)
};

// The steps of a profile's records. `analyses` (may be null) gives the timeline figures of the steps it
// has analysed; a step not analysed yet keeps NaN there. Marks the steps inside the stable windows.
RunSamples collectSamples(const Profile& profile, const StepAnalyses* analyses);

} // namespace dspark
