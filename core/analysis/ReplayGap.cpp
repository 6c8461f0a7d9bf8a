#include "analysis/ReplayGap.h"

#include <algorithm>
#include <set>

namespace dspark {

static constexpr size_t kMaxHostSpans = 64;

StepReplayGaps computeReplayGaps(const TimelineIndex& index, const StepBands& bands, const StepWindow& window)
{
    StepReplayGaps out;
    const Profile& profile = index.profile();
    const TimelineIndex::RankLanes& lanes = index.lanesOf(window.rankIndex);

    // Replay calls of the step.
    std::set<int64_t> spanThreads;
    for (const StageSpan& v : bands.verifySpans)
        spanThreads.insert(v.threadId);
    std::vector<EventRef> calls;
    for (uint32_t l : lanes.host) {
        const Lane& lane = profile.lanes[l];
        auto [first, last] = lane.overlapping(window.startNs, window.endNs);
        for (size_t i = first; i < last; ++i) {
            const TimeNs s = lane.startNs[i];
            if (s < window.startNs || s >= window.endNs || !index.names().matches(lane.nameId[i], RuleId::ReplayCall))
                continue;
            // A task-queue thread (no verify span of its own) replays for the verify span of another.
            const bool spanThread = spanThreads.count(lane.info.threadId) > 0;
            bool inVerify = bands.verifySpans.empty();
            for (const StageSpan& v : bands.verifySpans)
                inVerify |= (!spanThread || v.threadId == lane.info.threadId) && s >= v.interval.startNs &&
                            s < v.interval.endNs;
            if (inVerify)
                calls.push_back({l, static_cast<uint32_t>(i)});
        }
    }

    // The first device task launched from inside each call (the call itself, a call nested in it on
    // the same thread, or a call of a task-queue thread while it ran). Calls that share a first task are one replay (a
    // Python span and its runtime call).
    struct Launched {
        TimeNs callNs;
        int64_t threadId;
        EventRef task;
    };
    std::vector<Launched> launched;
    for (EventRef task : bands.tasks()) {
        const EventRef origin = bands.originOf(task);
        const EventRef launch = index.launchOf(task);
        if (origin.valid())
            launched.push_back({index.start(origin), profile.lanes[origin.lane].info.threadId, task});
        if (launch.valid() && launch != origin)
            launched.push_back({index.start(launch), profile.lanes[launch.lane].info.threadId, task});
    }
    std::sort(launched.begin(), launched.end(),
              [](const Launched& a, const Launched& b) { return a.callNs < b.callNs; });
    for (EventRef call : calls) {
        const int64_t thread = profile.lanes[call.lane].info.threadId;
        const TimeNs cs = index.start(call), ce = index.end(call);
        EventRef first;
        auto it = std::lower_bound(launched.begin(), launched.end(), cs,
                                   [](const Launched& l, TimeNs t) { return l.callNs < t; });
        for (; it != launched.end() && it->callNs < std::max(ce, cs + 1); ++it)
            if ((it->threadId == thread || !spanThreads.count(it->threadId)) &&
                (!first.valid() || index.start(it->task) < index.start(first)))
                first = it->task;
        if (!first.valid())
            continue;
        auto dup = std::find_if(out.replays.begin(), out.replays.end(),
                                [&](const ReplayGap& r) { return r.firstTask == first; });
        if (dup != out.replays.end()) {
            // Keep the innermost call (the runtime call rather than the Python span around it).
            if (index.start(call) > index.start(dup->replayCall))
                dup->replayCall = call;
            continue;
        }
        ReplayGap g;
        g.replayCall = call;
        g.firstTask = first;
        g.streamId = profile.lanes[first.lane].info.streamId;
        g.previousTask = index.previousOnStream(first);
        if (g.previousTask.valid() && index.end(g.previousTask) < index.start(first))
            g.gap = {index.end(g.previousTask), index.start(first)};
        out.replays.push_back(g);
    }

    for (ReplayGap& g : out.replays) {
        const int64_t callThread = profile.lanes[g.replayCall.lane].info.threadId;
        for (const StageSpan& v : bands.verifySpans)
            if ((v.threadId == callThread || !spanThreads.count(callThread)) &&
                index.start(g.replayCall) >= v.interval.startNs && index.start(g.replayCall) < v.interval.endNs)
                g.hostPrepNs = index.start(g.replayCall) - v.interval.startNs;
        out.preReplayGapNs += g.gap.lengthNs();
        if (g.gap.lengthNs() == 0)
            continue;
        for (uint32_t l : lanes.host) {
            const Lane& lane = profile.lanes[l];
            auto [first, last] = lane.overlapping(g.gap.startNs, g.gap.endNs);
            for (size_t i = first; i < last && g.hostSpans.size() < kMaxHostSpans; ++i) {
                const TimeNs overlap = std::min(lane.endNs(i), g.gap.endNs) - std::max(lane.startNs[i], g.gap.startNs);
                if (overlap > 0)
                    g.hostSpans.push_back({{l, static_cast<uint32_t>(i)}, overlap});
            }
        }
    }
    std::sort(out.replays.begin(), out.replays.end(), [&](const ReplayGap& a, const ReplayGap& b) {
        return index.start(a.firstTask) < index.start(b.firstTask);
    });
    return out;
}

} // namespace dspark
