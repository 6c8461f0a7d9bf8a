#include "analysis/CriticalPath.h"

#include <QCoreApplication>

#include <algorithm>

namespace dspark {

const char* pathCategoryKey(PathCategory c)
{
    switch (c) {
    case PathCategory::Draft: return "draft";
    case PathCategory::VerifyCompute: return "verify_compute";
    case PathCategory::ExposedComm: return "exposed_comm";
    case PathCategory::AcceptTpSync: return "accept_tp_sync";
    case PathCategory::Commit: return "commit";
    case PathCategory::HostGap: return "host_gap";
    case PathCategory::Idle: return "idle";
    case PathCategory::Count: break;
    }
    return "idle";
}

QString pathCategoryLabel(PathCategory c)
{
    switch (c) {
    case PathCategory::Draft: return QCoreApplication::translate("CriticalPath", "Draft");
    case PathCategory::VerifyCompute: return QCoreApplication::translate("CriticalPath", "Verify compute");
    case PathCategory::ExposedComm: return QCoreApplication::translate("CriticalPath", "Exposed communication");
    case PathCategory::AcceptTpSync: return QCoreApplication::translate("CriticalPath", "Accept / TP sync");
    case PathCategory::Commit: return QCoreApplication::translate("CriticalPath", "Commit");
    case PathCategory::HostGap: return QCoreApplication::translate("CriticalPath", "Host gap (launch-bound)");
    case PathCategory::Idle: return QCoreApplication::translate("CriticalPath", "Idle");
    case PathCategory::Count: break;
    }
    return {};
}

TimeNs CriticalPath::totalNs() const
{
    TimeNs total = 0;
    for (TimeNs t : byCategory)
        total += t;
    return total;
}

namespace {

PathCategory categoryOfStage(Stage s)
{
    switch (s) {
    case Stage::PreDraft:
    case Stage::Draft:
    case Stage::Planner: return PathCategory::Draft;
    case Stage::Verify: return PathCategory::VerifyCompute;
    case Stage::Accept: return PathCategory::AcceptTpSync;
    case Stage::Commit: return PathCategory::Commit;
    case Stage::Other: break;
    }
    // Device work outside every recognised stage (no stage spans in the step) counts as compute.
    return PathCategory::VerifyCompute;
}

struct Walk {
    const TimelineIndex& index;
    const EventPairing& pairing;
    const StepBands& bands;

    Stage stageOf(EventRef task) const
    {
        Stage s = bands.stageOf(task);
        if (s == Stage::Other)
            s = bands.stageByPosition(index.start(task));
        return s;
    }
    PathCategory categoryOf(EventRef task) const
    {
        const Stage s = stageOf(task);
        if (index.isComm(task))
            return s == Stage::Accept ? PathCategory::AcceptTpSync : PathCategory::ExposedComm;
        return categoryOfStage(s);
    }
    // What a blocked wait waited for: the work before the awaited record on its stream.
    PathCategory waitedCategory(EventRef record) const
    {
        EventRef t = index.previousOnStream(record);
        while (t.valid() && index.kind(t) == EventKind::EventRecord)
            t = index.previousOnStream(t);
        return t.valid() ? categoryOf(t) : PathCategory::Idle;
    }
};

struct HostSync {
    TimeNs endNs;
    int64_t threadId;
    EventRef call;
    EventRef releasedBy; // the device task that ended while the call blocked
};

} // namespace

CriticalPath computeCriticalPath(const TimelineIndex& index, const EventPairing& pairing, const StepBands& bands,
                                 const StepWindow& window)
{
    CriticalPath path;
    const Profile& profile = index.profile();
    const TimeNs t0 = window.startNs, t1 = window.endNs;
    if (t1 <= t0)
        return path;
    const Walk walk{index, pairing, bands};
    const TimelineIndex::RankLanes& lanes = index.lanesOf(window.rank);

    std::vector<PathHop> reversed;
    const auto charge = [&](TimeNs a, TimeNs b, PathCategory c, EventRef e, bool onHost) {
        if (b <= a)
            return;
        path.byCategory[static_cast<size_t>(c)] += b - a;
        if (!reversed.empty() && reversed.back().event == e && reversed.back().category == c &&
            reversed.back().interval.startNs == b && reversed.back().onHost == onHost)
            reversed.back().interval.startNs = a;
        else
            reversed.push_back({e, {a, b}, c, onHost});
    };

    // Blocking host syncs of the step, by end: calls of the host_sync_calls rule during which a device
    // task of the rank ended.
    std::vector<HostSync> syncs;
    for (uint32_t l : lanes.host) {
        const Lane& lane = profile.lanes[l];
        auto [first, last] = lane.overlapping(t0, t1);
        for (size_t i = first; i < last; ++i) {
            const EventRef call{l, static_cast<uint32_t>(i)};
            if (lane.endNs(i) > t1 || lane.endNs(i) <= t0 || !index.isHostSync(call))
                continue;
            const EventRef released = index.lastEndingIn(window.rank, lane.startNs[i], lane.endNs(i));
            if (released.valid())
                syncs.push_back({lane.endNs(i), lane.info.threadId, call, released});
        }
    }
    std::sort(syncs.begin(), syncs.end(), [](const HostSync& a, const HostSync& b) { return a.endNs < b.endNs; });

    // Where the walk starts: the step's last device task (one still running at the window's end, else
    // the last to end in it; the time after it, the device idle while the host finishes the step, is
    // host gap). Tasks with a launch link are preferred: profiler control tasks have none.
    EventRef x;
    TimeNs c = t1;
    bool anyLaunched = false;
    for (EventRef task : bands.tasks())
        anyLaunched |= bands.originOf(task).valid();
    for (EventRef task : bands.tasks()) {
        if (anyLaunched && !bands.originOf(task).valid())
            continue;
        const TimeNs end = std::min(index.end(task), t1);
        if (index.start(task) < t1 && (!x.valid() || end > std::min(index.end(x), t1)))
            x = task;
    }
    if (!x.valid())
        x = index.lastEndingIn(window.rank, t0, t1);
    if (x.valid() && index.end(x) < t1) {
        charge(index.end(x), t1, PathCategory::HostGap, {}, true);
        c = index.end(x);
    }
    if (!x.valid())
        charge(t0, t1, PathCategory::HostGap, {}, true);

    bool onDevice = x.valid();
    int64_t hostThread = -1;
    EventRef hostCall;
    size_t guard = 4 * (bands.tasks().size() + syncs.size()) + 10000;
    while (c > t0 && guard-- > 0) {
        if (onDevice) {
            const WaitPairing* p = index.kind(x) == EventKind::EventWait ? pairing.pairingOf(x) : nullptr;
            const EventRef prev = index.previousOnStream(x);
            const TimeNs prevEnd = prev.valid() ? index.end(prev) : INT64_MIN;
            TimeNs readyAt;
            bool launchBound;
            if (p && p->blocked && p->record.valid()) {
                // Charged to what it waited for, from when the stream reached it; the stream reached it
                // through its launch when the launch arrived after the predecessor ended.
                readyAt = std::max(std::min(p->reachedNs, c), t0);
                charge(readyAt, c, walk.waitedCategory(p->record), x, false);
                launchBound = index.launchReadyNs(x) > prevEnd;
            } else {
                readyAt = std::max(std::min(index.start(x), c), t0);
                charge(readyAt, c, walk.categoryOf(x), x, false);
                launchBound = index.launchBound(x);
            }
            c = readyAt;
            if (c <= t0)
                break;
            if (launchBound) {
                // The stream idled until the host issued the task: launch latency, then the host.
                const TimeNs callEnd = std::max(std::min(index.callEndNs(x), c), t0);
                const EventRef launch = index.launchOf(x);
                charge(callEnd, c, PathCategory::HostGap, launch, true);
                c = callEnd;
                onDevice = false;
                hostThread = profile.lanes[launch.lane].info.threadId;
                hostCall = launch;
            } else if (prev.valid() && prevEnd > t0) {
                const TimeNs pe = std::min(prevEnd, c);
                charge(pe, c, PathCategory::Idle, {}, false);
                c = pe;
                x = prev;
            } else {
                charge(t0, c, PathCategory::Idle, {}, false);
                c = t0;
            }
        } else {
            // On the host: host work back to the last blocking sync, then the device task that released it.
            auto it = std::upper_bound(syncs.begin(), syncs.end(), c,
                                       [](TimeNs t, const HostSync& s) { return t < s.endNs; });
            const HostSync* sync = nullptr;
            while (it != syncs.begin()) {
                --it;
                if (it->threadId == hostThread) {
                    sync = &*it;
                    break;
                }
            }
            if (!sync) {
                charge(t0, c, PathCategory::HostGap, hostCall, true);
                c = t0;
                break;
            }
            const TimeNs released = std::max(index.end(sync->releasedBy), t0);
            charge(released, c, PathCategory::HostGap, sync->call, true);
            c = std::min(c, released);
            x = sync->releasedBy;
            onDevice = true;
        }
    }
    if (c > t0) // the guard stopped a walk that did not progress: account the rest as idle
        charge(t0, c, PathCategory::Idle, {}, false);

    path.hops.assign(reversed.rbegin(), reversed.rend());
    return path;
}

} // namespace dspark
