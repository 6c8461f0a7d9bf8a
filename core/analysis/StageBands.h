#pragma once

#include "analysis/IntervalSet.h"
#include "analysis/StepWindow.h"
#include "analysis/TimelineIndex.h"

#include <QString>

#include <optional>
#include <unordered_map>
#include <vector>

namespace dspark {

// The stage of one device task of a step, from where its launch sits among the step's host spans
// (primer §2, §4.2): launched inside the draft forward span → Draft, inside the target-verify forward
// span → Verify, between them → Planner, before the draft → PreDraft, after the verify span → the
// eager tail: inside an accept span → Accept, inside a commit span → Commit, after the commit span →
// Publish (end-of-step event, output copy), else Accept. Without accept / commit spans the tail is
// split by kernel names: Commit from the first to the last commit kernel (in launch order; accept
// kernels stay Accept), Publish after it. Other: no launch link, or no stage span in the step.
enum class Stage : uint8_t { Other, PreDraft, Draft, Planner, Verify, Accept, Commit, Publish };
constexpr int kStageCount = 8;
// "other", "pre_draft", "draft", "planner", "verify", "accept", "commit", "publish"
const char* stageKey(Stage stage);
QString stageLabel(Stage stage); // translated label for the timeline

// One translucent band across the step's lanes.
struct StageBand {
    Stage stage = Stage::Other;
    QString label;
    Interval extent;   // first start → last end of the band's tasks (device time)
    TimeNs busyNs = 0; // union of the band's task intervals (busy time on its streams)
    uint32_t tasks = 0;
};

// A host span that defines a stage (draft / verify forward) in a step.
struct StageSpan {
    EventRef span;
    int64_t threadId = -1;
    Interval interval;
};

struct StepBands {
    std::optional<StageBand> draft;
    std::optional<StageBand> planner; // device work of the planner (confidence / budget / layout)
    std::optional<StageBand> verify;
    std::optional<StageBand> accept;
    std::optional<StageBand> commit;
    TimeNs plannerGapNs = 0; // device time between the draft band's end and the verify band's start
    TimeNs hostGapNs = 0;    // device idle from the step's last task to the window end (host preparing)
    Interval plannerGap;     // as intervals, for drawing ({0,0} when zero)
    Interval hostGap;
    std::vector<StageSpan> draftSpans, verifySpans, acceptSpans, commitSpans;
    TimeNs lastTaskEndNs = 0; // end of the step's last device task (0 when none)

    // Cross-check against the record (ns; nullopt when the record or the band is missing):
    // band length − record time. The record times are current-stream event elapsed times, so a few µs
    // of difference is expected; a large one means the band or the alignment is off.
    std::optional<TimeNs> draftVsRecordNs;  // draft band − draft_gpu_ms
    std::optional<TimeNs> verifyVsRecordNs; // verify band − target_verify_gpu_ms
    std::optional<TimeNs> tailVsRecordNs;   // (planner gap + accept..commit tail) − unattributed_ms

    // Stage of every device task of the step (launched in the window), for the other analyses.
    Stage stageOf(EventRef task) const;
    // Stage of a device task that is not in the step's map: by where it runs relative to the bands.
    Stage stageByPosition(TimeNs startNs) const;
    const std::unordered_map<uint64_t, Stage>& stages() const { return m_stages; }
    // Device tasks of the step (launched inside the window, or running in it without a launch link).
    const std::vector<EventRef>& tasks() const { return m_tasks; }
    // The host event a task was launched from (framework op, else runtime call), invalid when none.
    EventRef originOf(EventRef task) const;

    // ---- filled by computeStageBands ----
    std::unordered_map<uint64_t, Stage> m_stages;
    std::unordered_map<uint64_t, EventRef> m_origins;
    std::vector<EventRef> m_tasks;
};

StepBands computeStageBands(const TimelineIndex& index, const StepWindow& window);

inline uint64_t eventKey(EventRef e)
{
    return (uint64_t(e.lane) << 32) | e.index;
}

} // namespace dspark
