#pragma once

#include "analysis/AnalysisRules.h"
#include "model/Profile.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dspark {

struct StepRecordSet;

// What the records were aligned against (the trace carries no forward_ct: formats.md §4).
enum class StepAlignMethod {
    None,              // no trace, or no step spans of any kind
    StepSpans,         // scheduler.run_batch / step[<MODE> bs=N ...] spans: bs and token counts checked
    StepTimeSpans,     // fallback: STEP_TIME table spans ("Steps" / "STEP_TIME" lane); nothing to check
    ProfilerStepSpans, // fallback: torch profiler ProfilerStep#N spans; nothing to check
};
const char* stepAlignMethodName(StepAlignMethod method); // "none", "step_spans", "step_time", "profiler_step"

// The outcome for one step record.
enum class StepMatch {
    NotAligned,   // no trace step to compare with (no trace, or this rank has none)
    Match,        // mapped to a trace step; every check that could be made agrees
    Mismatch,     // mapped to a trace step, but bs / token count / step kind disagree (see note)
    Unverified,   // mapped to a trace step, but nothing could be checked (fallback spans)
    NoTraceStep,  // forward_ct inside the traced range, but no trace step maps to it
    OutsideTrace, // forward_ct before or after the traced steps (normal: records cover the whole run)
    NotMatched,   // the records as a whole do not agree with this profile: not placed (see StepAlignment)
};
const char* stepMatchName(StepMatch match); // "not_aligned", "match", "mismatch", ...

// Parsed name of a SGLang forward span: "step[TARGET_VERIFY bs=8 g_sq=48 g_sqsq=... ]",
// "draft step[DECODE bs=8]" (formats.md §4; the g_* fields only with detailed annotations).
struct ForwardSpanName {
    bool valid = false;
    bool draft = false; // prefixed by the draft runner ("draft ")
    std::string mode;   // DECODE, TARGET_VERIFY, EXTEND, MIXED, IDLE, ...
    std::optional<int64_t> bs;
    std::optional<int64_t> gSq; // Σ query tokens of the generation (decode/verify) part
    std::optional<int64_t> cSq; // Σ query tokens of the context (prefill) part
};
ForwardSpanName parseForwardSpanName(std::string_view name);

// One scheduler iteration found on the timeline.
struct TraceStep {
    EventRef span;    // scheduler.run_batch, else the main forward span, else STEP_TIME / ProfilerStep
    EventRef forward; // the main (non-draft) forward span of the iteration, invalid if none
    TimeNs hostStartNs = 0;
    TimeNs hostEndNs = 0; // the span and its forward spans together
    std::string mode;     // of the main forward span, "" when unknown
    std::optional<int64_t> bs;
    std::optional<int64_t> tokens; // g_sq of the main forward span
};

// Per record (row of StepRecordSet::rows).
struct StepAlignmentRow {
    StepMatch status = StepMatch::NotAligned;
    QString note;            // why it mismatches / what could not be checked
    int traceRankIndex = -1; // Profile::ranks index of the trace steps it was compared with
    int traceStep = -1;      // index into the rank's trace steps, -1 if none
    EventRef span;           // the matched span
    TimeNs hostStartNs = -1; // matched host window, -1 when none
    TimeNs hostEndNs = -1;
    TimeNs deviceStartNs = -1; // device tasks launched from inside the host window, -1 when none
    TimeNs deviceEndNs = -1;
    bool hasWindow() const { return hostStartNs >= 0; }
    TimeNs windowStartNs() const; // host ∪ device
    TimeNs windowEndNs() const;
};

// A decode trace step (DECODE / TARGET_VERIFY) to which no record maps: shown, not hidden.
struct UnmatchedTraceStep {
    int dpRank = 0;         // of the records
    int traceRankIndex = 0; // Profile::ranks index
    int traceStep = 0;
    int64_t forwardCt = 0; // the forward_ct the alignment assigns to it
    EventRef span;
    TimeNs hostStartNs = 0;
    TimeNs hostEndNs = 0;
    std::string name;
};

// How one rank's records were aligned.
struct RankAlignment {
    int dpRank = 0;             // of the records
    int traceRankIndex = -1;    // Profile::ranks index, -1 when none
    int traceRankNumber = -1;   // Profile::ranks[traceRankIndex].rankNumber
    int64_t firstForwardCt = 0; // forward_ct assigned to the first trace step
    int64_t lastForwardCt = 0;  // ... and to the last
    size_t traceSteps = 0;
    size_t compared = 0; // records mapped or expected inside the trace + unmatched decode trace steps
    size_t agreeing = 0;
    std::optional<double> agreement; // agreeing / compared; null when nothing could be checked
};

struct StepAlignment {
    StepAlignMethod method = StepAlignMethod::None;
    std::string anchor;               // "start_step", "workload" (matched bs/tokens), "first_record"
    std::optional<int64_t> startStep; // profiler_metadata.start_step when known
    std::optional<double> agreement;  // over all ranks; null when nothing could be checked
    size_t compared = 0, agreeing = 0, mismatched = 0, noTraceStep = 0, unverified = 0, outside = 0;
    std::vector<RankAlignment> ranks;
    std::vector<UnmatchedTraceStep> unmatchedTraceSteps;
    std::vector<StepAlignmentRow> rows; // parallel to StepRecordSet::rows (empty when not aligned)
    QStringList notes;                  // what was done and what could not be checked, one line each
    bool aligned() const { return method != StepAlignMethod::None; }

    // Records are placed on the timeline only when they agree with it: agreement >= kAgreementThreshold
    // (docs/steps.md §5). Otherwise `rows` say NotMatched without windows, and what the alignment found is
    // held until attachAnyway() (the user's choice) puts it back.
    static constexpr double kAgreementThreshold = 0.5;
    bool attached = true; // false: refused (the records are from another run, or cannot be checked)
    bool attachedByHand = false;
    QString refusal; // why they were refused, one line
    std::vector<StepAlignmentRow> heldRows;
    std::vector<UnmatchedTraceStep> heldUnmatchedTraceSteps;
    void attachAnyway();
};

// The scheduler iterations of one rank (Profile::ranks index) and the method they were found with.
// `stepSpan` names the host span of one iteration (AnalysisRules' step_span rule).
std::vector<TraceStep> collectTraceSteps(const Profile& profile, int rankIndex, const NameRule& stepSpan,
                                         StepAlignMethod& method);

// Aligns every rank of `set` to the trace of `profile` (finalized). Reads the anchor from
// profile.metadata["profiler_metadata.start_step"].
StepAlignment alignSteps(const Profile& profile, const StepRecordSet& set,
                         const NameRule& stepSpan = AnalysisRules::builtin().rule(RuleId::StepSpan));

} // namespace dspark
