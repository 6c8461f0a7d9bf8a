#include "analysis/CriticalPath.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <utility>

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
    case Stage::Commit:
    case Stage::Publish: return PathCategory::Commit; // the end-of-step event and output copy finish the commit
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

// A launch of the step: the call's end, its thread and the task it launched.
struct Launch {
    TimeNs callEndNs;
    int64_t threadId;
    EventRef call, task;
};

// The backwards walk over one window; see computeCriticalPath() and docs/analysis.md §7.
class PathWalk {
public:
    PathWalk(const TimelineIndex& index, const EventPairing& pairing, const StepBands& bands, const StepWindow& w)
        : m_index(index), m_pairing(pairing), m_walk{index, pairing, bands}, m_bands(bands), m_t0(w.startNs),
          m_t1(w.endNs), m_rank(w.rankIndex)
    {
        collectSyncs();
        collectLaunches();
    }

    CriticalPath run()
    {
        EventRef x = lastTask();
        m_c = m_t1;
        if (!x.valid()) {
            charge(m_t0, m_t1, PathCategory::HostGap, {}, true);
            return finish();
        }
        if (m_index.end(x) < m_t1) { // the device idle while the host finishes the step
            charge(m_index.end(x), m_t1, PathCategory::HostGap, {}, true);
            m_c = m_index.end(x);
        }
        size_t guard = 4 * (m_bands.tasks().size() + m_syncs.size() + m_launches.size()) + 10000;
        while (m_c > m_t0 && x.valid() && guard-- > 0)
            x = deviceStep(x);
        if (m_c > m_t0) // a walk that did not progress, or that ran out of causes: the rest is idle
            charge(m_t0, m_c, PathCategory::Idle, {}, false);
        return finish();
    }

private:
    void charge(TimeNs a, TimeNs b, PathCategory c, EventRef e, bool onHost, bool ambiguous = false)
    {
        if (b <= a)
            return;
        m_path.byCategory[static_cast<size_t>(c)] += b - a;
        PathHop* last = m_reversed.empty() ? nullptr : &m_reversed.back();
        if (last && last->event == e && last->category == c && last->interval.startNs == b && last->onHost == onHost &&
            last->ambiguous == ambiguous)
            last->interval.startNs = a;
        else
            m_reversed.push_back({e, {a, b}, c, onHost, ambiguous});
    }
    CriticalPath finish()
    {
        m_path.hops.assign(m_reversed.rbegin(), m_reversed.rend());
        return std::move(m_path);
    }
    TimeNs clampToWindow(TimeNs t) const { return std::max(std::min(t, m_c), m_t0); }

    // Blocking host syncs of the step, by end: calls of the host_sync_calls rule during which a device
    // task of the rank ended.
    void collectSyncs()
    {
        const Profile& profile = m_index.profile();
        for (uint32_t l : m_index.lanesOf(m_rank).host) {
            const Lane& lane = profile.lanes[l];
            auto [first, last] = lane.overlapping(m_t0, m_t1);
            for (size_t i = first; i < last; ++i) {
                const EventRef call{l, static_cast<uint32_t>(i)};
                if (lane.endNs(i) > m_t1 || lane.endNs(i) <= m_t0 || !m_index.isHostSync(call))
                    continue;
                const EventRef released = m_index.lastEndingIn(m_rank, lane.startNs[i], lane.endNs(i));
                if (released.valid())
                    m_syncs.push_back({lane.endNs(i), lane.info.threadId, call, released});
            }
        }
        std::sort(m_syncs.begin(), m_syncs.end(),
                  [](const HostSync& a, const HostSync& b) { return a.endNs < b.endNs; });
    }
    // The step's launches (runtime call → task), by call end.
    void collectLaunches()
    {
        const Profile& profile = m_index.profile();
        for (EventRef task : m_bands.tasks()) {
            const EventRef call = m_index.launchOf(task);
            if (call.valid())
                m_launches.push_back({m_index.end(call), profile.lanes[call.lane].info.threadId, call, task});
        }
        std::sort(m_launches.begin(), m_launches.end(), [](const Launch& a, const Launch& b) {
            return a.callEndNs != b.callEndNs ? a.callEndNs < b.callEndNs : a.task < b.task;
        });
    }

    // Where the walk starts: the step's last device task (one still running at the window's end, else
    // the last to end in it). Tasks with a launch link are preferred: profiler control tasks have none.
    EventRef lastTask() const
    {
        EventRef x;
        bool anyLaunched = false;
        for (EventRef task : m_bands.tasks())
            anyLaunched |= m_bands.originOf(task).valid();
        for (EventRef task : m_bands.tasks()) {
            if (anyLaunched && !m_bands.originOf(task).valid())
                continue;
            const TimeNs end = std::min(m_index.end(task), m_t1);
            if (m_index.start(task) < m_t1 && (!x.valid() || end > std::min(m_index.end(x), m_t1)))
                x = task;
        }
        return x.valid() ? x : m_index.lastEndingIn(m_rank, m_t0, m_t1);
    }

    // The stream had nothing outstanding when the launch call ended: the launch, not the stream, let
    // the task start (HTA's launch-delay edge). A tie goes to the device.
    bool launchBound(EventRef task) const
    {
        const TimeNs callEnd = m_index.callEndNs(task);
        if (callEnd == std::numeric_limits<TimeNs>::min() || callEnd <= m_t0)
            return false;
        const EventRef prev = m_index.previousOnStream(task);
        return !prev.valid() || callEnd > m_index.end(prev);
    }
    // The call ended within a launch latency (at least 1 µs, the clocks' alignment) of the predecessor's
    // end: the files cannot tell which of the two held the task back.
    bool launchAmbiguous(EventRef task) const
    {
        const TimeNs callEnd = m_index.callEndNs(task);
        const EventRef prev = m_index.previousOnStream(task);
        if (callEnd == std::numeric_limits<TimeNs>::min() || !prev.valid() || m_index.end(prev) <= m_t0)
            return false;
        const TimeNs slack = std::max<TimeNs>(m_index.launchLatencyNs(task.lane), 1'000);
        return std::llabs(callEnd - m_index.end(prev)) <= slack;
    }

    // One device task: its time, then what let it start. Returns the next task to walk, invalid when
    // the walk reached the window's start (or ran out of causes).
    EventRef deviceStep(EventRef x)
    {
        const bool returned = std::exchange(m_returnedFromHost, false);
        if (m_index.end(x) < m_c) { // back from the host at a task that had already ended
            charge(clampToWindow(m_index.end(x)), m_c, PathCategory::Idle, {}, false, returned);
            m_c = clampToWindow(m_index.end(x));
        }
        const WaitPairing* p = m_index.kind(x) == EventKind::EventWait ? m_pairing.pairingOf(x) : nullptr;
        TimeNs readyAt;
        if (p && p->blocked && p->record.valid()) {
            // Charged to what it waited for, from when the stream reached it.
            readyAt = clampToWindow(p->reachedNs);
            charge(readyAt, m_c, m_walk.waitedCategory(p->record), x, false, returned);
        } else {
            readyAt = clampToWindow(m_index.start(x));
            charge(readyAt, m_c, m_walk.categoryOf(x), x, false, returned);
        }
        m_c = readyAt;
        if (m_c <= m_t0)
            return {};
        const EventRef prev = m_index.previousOnStream(x);
        if (launchBound(x)) {
            // The stream idled until the host issued the task: launch latency, then the host.
            const bool ambiguous = launchAmbiguous(x);
            const TimeNs callEnd = clampToWindow(m_index.callEndNs(x));
            const EventRef launch = m_index.launchOf(x);
            charge(callEnd, m_c, PathCategory::HostGap, launch, true, ambiguous);
            m_c = callEnd;
            return hostStep(x, launch, ambiguous);
        }
        if (prev.valid() && m_index.end(prev) > m_t0) {
            const TimeNs pe = clampToWindow(m_index.end(prev));
            charge(pe, m_c, PathCategory::Idle, {}, false, launchAmbiguous(x));
            m_c = pe;
            return prev;
        }
        charge(m_t0, m_c, PathCategory::Idle, {}, false);
        m_c = m_t0;
        return {};
    }

    // On the host at the end of the call that launched `task`: back to the device through the thread's
    // latest blocking sync since the stream went idle, else at the stream's previous task (the host held
    // the stream only while it idled), else along the thread's earlier launches.
    EventRef hostStep(EventRef task, EventRef call, bool ambiguous)
    {
        size_t guard = m_launches.size() + 2;
        while (m_c > m_t0 && guard-- > 0) {
            const int64_t thread = m_index.profile().lanes[call.lane].info.threadId;
            const EventRef prev = m_index.previousOnStream(task);
            const TimeNs idleFrom = prev.valid() ? std::min(std::max(m_index.end(prev), m_t0), m_c) : m_t0;
            if (const HostSync* sync = latestSync(thread, idleFrom)) {
                const TimeNs released = clampToWindow(m_index.end(sync->releasedBy));
                charge(released, m_c, PathCategory::HostGap, sync->call, true);
                m_c = released;
                return sync->releasedBy;
            }
            if (idleFrom > m_t0) {
                charge(idleFrom, m_c, PathCategory::HostGap, call, true, ambiguous);
                m_c = idleFrom;
                return prev;
            }
            // The stream idled since before the window: the thread's previous launch of the step.
            const Launch* before = previousLaunch(thread, m_c);
            if (!before)
                break;
            charge(clampToWindow(before->callEndNs), m_c, PathCategory::HostGap, call, true, ambiguous);
            m_c = clampToWindow(before->callEndNs);
            call = before->call;
            if (!launchBound(before->task)) {
                // That launch was queued behind running work: the host was ahead of the device there.
                const EventRef running = runningAt(before->task, m_c);
                if (running.valid()) {
                    m_returnedFromHost = true;
                    return running;
                }
                continue; // queued behind work not started yet: further back along the thread
            }
            task = before->task;
            ambiguous = launchAmbiguous(task);
        }
        charge(m_t0, m_c, PathCategory::HostGap, call, true, ambiguous);
        m_c = m_t0;
        return {};
    }

    // The thread's latest blocking sync that ended in (afterNs, now].
    const HostSync* latestSync(int64_t thread, TimeNs afterNs) const
    {
        auto it = std::upper_bound(m_syncs.begin(), m_syncs.end(), m_c,
                                   [](TimeNs t, const HostSync& s) { return t < s.endNs; });
        while (it != m_syncs.begin()) {
            --it;
            if (it->endNs <= afterNs)
                return nullptr;
            if (it->threadId == thread)
                return &*it;
        }
        return nullptr;
    }
    // The thread's latest launch whose call ended before `beforeNs`.
    const Launch* previousLaunch(int64_t thread, TimeNs beforeNs) const
    {
        auto it = std::lower_bound(m_launches.begin(), m_launches.end(), beforeNs,
                                   [](const Launch& l, TimeNs t) { return l.callEndNs < t; });
        while (it != m_launches.begin()) {
            --it;
            if (it->callEndNs <= m_t0)
                return nullptr;
            if (it->threadId == thread)
                return &*it;
        }
        return nullptr;
    }
    // The task of `queued`'s stream that ran at (or last ended before) `t`, before `queued`.
    EventRef runningAt(EventRef queued, TimeNs t) const
    {
        EventRef r = m_index.previousOnStream(queued);
        while (r.valid() && m_index.start(r) >= t)
            r = m_index.previousOnStream(r);
        return r.valid() && m_index.end(r) > m_t0 ? r : EventRef{};
    }

    const TimelineIndex& m_index;
    const EventPairing& m_pairing;
    const Walk m_walk;
    const StepBands& m_bands;
    const TimeNs m_t0, m_t1;
    const int m_rank;
    std::vector<HostSync> m_syncs;
    std::vector<Launch> m_launches;
    CriticalPath m_path;
    std::vector<PathHop> m_reversed;
    TimeNs m_c = 0;
    bool m_returnedFromHost = false; // the next task is an ambiguous return from the host
};

} // namespace

CriticalPath computeCriticalPath(const TimelineIndex& index, const EventPairing& pairing, const StepBands& bands,
                                 const StepWindow& window)
{
    if (window.endNs <= window.startNs)
        return {};
    return PathWalk(index, pairing, bands, window).run();
}

} // namespace dspark
