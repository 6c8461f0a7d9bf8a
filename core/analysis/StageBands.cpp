#include "analysis/StageBands.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdint>
#include <set>

namespace dspark {

const char* stageKey(Stage stage)
{
    switch (stage) {
    case Stage::Other: return "other";
    case Stage::PreDraft: return "pre_draft";
    case Stage::Draft: return "draft";
    case Stage::Planner: return "planner";
    case Stage::Verify: return "verify";
    case Stage::Accept: return "accept";
    case Stage::Commit: return "commit";
    case Stage::Publish: return "publish";
    }
    return "other";
}

QString stageLabel(Stage stage)
{
    switch (stage) {
    case Stage::Other: return QCoreApplication::translate("StageBands", "Other");
    case Stage::PreDraft: return QCoreApplication::translate("StageBands", "Step start");
    case Stage::Draft: return QCoreApplication::translate("StageBands", "Draft");
    case Stage::Planner: return QCoreApplication::translate("StageBands", "Planner");
    case Stage::Verify: return QCoreApplication::translate("StageBands", "Target Verify");
    case Stage::Accept: return QCoreApplication::translate("StageBands", "Accept / Finalize");
    case Stage::Commit: return QCoreApplication::translate("StageBands", "Commit");
    case Stage::Publish: return QCoreApplication::translate("StageBands", "Publish");
    }
    return {};
}

Stage StepBands::stageOf(EventRef task) const
{
    auto it = m_stages.find(eventKey(task));
    return it == m_stages.end() ? Stage::Other : it->second;
}

EventRef StepBands::originOf(EventRef task) const
{
    auto it = m_origins.find(eventKey(task));
    return it == m_origins.end() ? EventRef{} : it->second;
}

Stage StepBands::stageByPosition(TimeNs startNs) const
{
    if (verify) {
        if (startNs < verify->extent.startNs)
            return Stage::Draft;
        if (startNs < verify->extent.endNs)
            return Stage::Verify;
        if (commit && startNs >= commit->extent.endNs)
            return Stage::Publish;
        if (commit && startNs >= commit->extent.startNs)
            return Stage::Commit;
        return Stage::Accept;
    }
    if (draft && startNs >= draft->extent.startNs && startNs < draft->extent.endNs)
        return Stage::Draft;
    return Stage::Other;
}

namespace {

bool inSpans(const std::vector<StageSpan>& spans, int64_t threadId, TimeNs t)
{
    for (const StageSpan& s : spans)
        if (s.threadId == threadId && t >= s.interval.startNs && t < s.interval.endNs)
            return true;
    return false;
}

// First start / last end over spans of the thread; {INT64_MAX, INT64_MIN} when none.
Interval spanHull(const std::vector<StageSpan>& spans, int64_t threadId)
{
    Interval hull{INT64_MAX, INT64_MIN};
    for (const StageSpan& s : spans)
        if (s.threadId == threadId) {
            hull.startNs = std::min(hull.startNs, s.interval.startNs);
            hull.endNs = std::max(hull.endNs, s.interval.endNs);
        }
    return hull;
}

std::optional<StageBand> makeBand(Stage stage, const std::vector<Interval>& intervals, Interval extent)
{
    if (intervals.empty() || extent.endNs < extent.startNs)
        return std::nullopt;
    StageBand band;
    band.stage = stage;
    band.label = stageLabel(stage);
    band.extent = extent;
    band.busyNs = IntervalSet::fromUnsorted(intervals).coveredNs(extent.startNs, extent.endNs);
    band.tasks = static_cast<uint32_t>(intervals.size());
    return band;
}

Interval hullOf(const std::vector<Interval>& intervals)
{
    Interval h{INT64_MAX, INT64_MIN};
    for (const Interval& i : intervals) {
        h.startNs = std::min(h.startNs, i.startNs);
        h.endNs = std::max(h.endNs, i.endNs);
    }
    return h;
}

TimeNs msToNs(double ms)
{
    return static_cast<TimeNs>(ms * 1e6 + (ms >= 0 ? 0.5 : -0.5));
}

} // namespace

StepBands computeStageBands(const TimelineIndex& index, const StepWindow& window)
{
    StepBands out;
    const Profile& profile = index.profile();
    const TimeNs t0 = window.startNs, t1 = window.endNs;
    const TimelineIndex::RankLanes& lanes = index.lanesOf(window.rankIndex);

    // 1. The stage spans of the step on its host threads.
    for (uint32_t l : lanes.host) {
        const Lane& lane = profile.lanes[l];
        auto [first, last] = lane.overlapping(t0, t1);
        for (size_t i = first; i < last; ++i) {
            if (lane.startNs[i] < t0 || lane.startNs[i] >= t1)
                continue;
            const uint32_t name = lane.nameId[i];
            const StageSpan span{{l, static_cast<uint32_t>(i)}, lane.info.threadId, {lane.startNs[i], lane.endNs(i)}};
            if (index.names().matches(name, RuleId::DraftSpan))
                out.draftSpans.push_back(span);
            else if (index.names().matches(name, RuleId::VerifySpan))
                out.verifySpans.push_back(span);
            else if (index.names().matches(name, RuleId::CommitSpan))
                out.commitSpans.push_back(span);
            else if (index.names().matches(name, RuleId::AcceptSpan))
                out.acceptSpans.push_back(span);
        }
    }

    // 2. The step's device tasks and the stage of each, from where its launch sits.
    struct TailTask {
        TimeNs originNs;
        int64_t thread;
        EventRef task;
    };
    std::vector<TailTask> tail;
    std::set<int64_t> spanThreads; // threads with a draft / verify span
    for (const auto* spans : {&out.draftSpans, &out.verifySpans})
        for (const StageSpan& span : *spans)
            spanThreads.insert(span.threadId);
    const TimeNs horizon = window.horizonNs();
    for (uint32_t l : lanes.device) {
        const Lane& lane = profile.lanes[l];
        for (size_t i = lane.firstStartingAtOrAfter(t0); i < lane.size() && lane.startNs[i] < horizon; ++i) {
            const EventRef task{l, static_cast<uint32_t>(i)};
            EventRef origin = index.opOf(task);
            if (!origin.valid())
                origin = index.launchOf(task);
            Stage stage = Stage::Other;
            if (origin.valid()) {
                const TimeNs t = index.start(origin);
                if (t < t0 || t >= t1)
                    continue; // launched by another step
                int64_t thread = profile.lanes[origin.lane].info.threadId;
                if (!spanThreads.count(thread) && !spanThreads.empty())
                    thread = *spanThreads.begin(); // a task-queue thread's call: the spans of the Python thread
                const Interval draftHull = spanHull(out.draftSpans, thread);
                const Interval verifyHull = spanHull(out.verifySpans, thread);
                if (inSpans(out.draftSpans, thread, t))
                    stage = Stage::Draft;
                else if (inSpans(out.verifySpans, thread, t))
                    stage = Stage::Verify;
                else if (verifyHull.startNs != INT64_MAX && t >= verifyHull.endNs)
                    stage = Stage::Accept; // the eager tail; split below
                else if (draftHull.startNs != INT64_MAX && t < draftHull.startNs)
                    stage = Stage::PreDraft;
                else if (draftHull.startNs != INT64_MAX && verifyHull.startNs != INT64_MAX && t < verifyHull.startNs)
                    stage = Stage::Planner;
                else if (draftHull.startNs == INT64_MAX && verifyHull.startNs != INT64_MAX && t < verifyHull.startNs)
                    stage = Stage::PreDraft;
                if (stage == Stage::Accept)
                    tail.push_back({t, thread, task});
                out.m_origins.emplace(eventKey(task), origin);
            } else if (lane.startNs[i] >= t1) {
                continue;
            }
            out.m_stages.emplace(eventKey(task), stage);
            out.m_tasks.push_back(task);
        }
    }
    // The step's last task: of the launched ones when there are any (profiler control tasks have no launch).
    const bool anyLaunched = !out.m_origins.empty();
    for (EventRef task : out.m_tasks)
        if (!anyLaunched || out.m_origins.count(eventKey(task)))
            out.lastTaskEndNs = std::max(out.lastTaskEndNs, index.end(task));

    // 3. Split the tail: by the accept / commit spans of the launching thread, by names without them.
    std::sort(tail.begin(), tail.end(), [&](const TailTask& a, const TailTask& b) {
        return a.originNs != b.originNs ? a.originNs < b.originNs : index.start(a.task) < index.start(b.task);
    });
    std::vector<const TailTask*> unspanned; // tail tasks of threads without a commit span
    for (const TailTask& t : tail) {
        const Interval commitHull = spanHull(out.commitSpans, t.thread);
        Stage& stage = out.m_stages[eventKey(t.task)];
        if (commitHull.startNs == INT64_MAX) {
            stage = inSpans(out.acceptSpans, t.thread, t.originNs) ? Stage::Accept : Stage::Other;
            if (stage == Stage::Other)
                unspanned.push_back(&t);
        } else if (inSpans(out.commitSpans, t.thread, t.originNs)) {
            stage = Stage::Commit;
        } else if (inSpans(out.acceptSpans, t.thread, t.originNs) || t.originNs < commitHull.startNs) {
            stage = Stage::Accept;
        } else {
            stage = t.originNs >= commitHull.endNs ? Stage::Publish : Stage::Commit;
        }
    }
    // Names only: Commit from the first to the last commit kernel in launch order (accept kernels stay
    // Accept), Publish after it.
    size_t firstCommit = SIZE_MAX, lastCommit = 0;
    for (size_t k = 0; k < unspanned.size(); ++k)
        if (index.names().matches(index.nameId(unspanned[k]->task), RuleId::CommitKernels)) {
            firstCommit = std::min(firstCommit, k);
            lastCommit = k;
        }
    for (size_t k = 0; k < unspanned.size(); ++k) {
        const EventRef task = unspanned[k]->task;
        Stage stage = Stage::Accept;
        if (k >= firstCommit && firstCommit != SIZE_MAX &&
            !index.names().matches(index.nameId(task), RuleId::AcceptKernels))
            stage = k > lastCommit ? Stage::Publish : Stage::Commit;
        out.m_stages[eventKey(task)] = stage;
    }

    // 4. Bands: each of the tasks of its stage.
    std::vector<Interval> byStage[kStageCount];
    for (EventRef task : out.m_tasks)
        byStage[static_cast<int>(out.stageOf(task))].push_back({index.start(task), index.end(task)});
    const auto bandOf = [&](Stage s) { return makeBand(s, byStage[int(s)], hullOf(byStage[int(s)])); };
    out.draft = bandOf(Stage::Draft);
    out.planner = bandOf(Stage::Planner);
    out.verify = bandOf(Stage::Verify);
    out.accept = bandOf(Stage::Accept);
    out.commit = bandOf(Stage::Commit);

    if (out.draft && out.verify && out.verify->extent.startNs > out.draft->extent.endNs) {
        out.plannerGap = {out.draft->extent.endNs, out.verify->extent.startNs};
        out.plannerGapNs = out.plannerGap.lengthNs();
    }
    if (!out.m_tasks.empty() && out.lastTaskEndNs < t1) {
        out.hostGap = {out.lastTaskEndNs, t1};
        out.hostGapNs = out.hostGap.lengthNs();
    }

    // 5. Cross-check against the record.
    if (out.draft && window.draftGpuMs)
        out.draftVsRecordNs = out.draft->extent.lengthNs() - msToNs(*window.draftGpuMs);
    if (out.verify && window.targetVerifyGpuMs)
        out.verifyVsRecordNs = out.verify->extent.lengthNs() - msToNs(*window.targetVerifyGpuMs);
    if (out.verify && window.stepGpuMs && window.draftGpuMs && window.targetVerifyGpuMs) {
        const TimeNs tailEnd = out.commit   ? out.commit->extent.endNs
                               : out.accept ? out.accept->extent.endNs
                                            : out.verify->extent.endNs;
        const TimeNs tail = out.plannerGapNs + std::max<TimeNs>(0, tailEnd - out.verify->extent.endNs);
        out.tailVsRecordNs = tail - msToNs(*window.stepGpuMs - *window.draftGpuMs - *window.targetVerifyGpuMs);
    }
    return out;
}

} // namespace dspark
