#include "analysis/CommAnalysis.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace dspark {

namespace {

std::string runName(const TimelineIndex& index, EventRef first, EventRef last)
{
    std::vector<std::string_view> names;
    for (uint32_t i = first.index; i <= last.index && names.size() < 4; ++i) {
        const std::string_view n = index.profile().name({first.lane, i});
        if (std::find(names.begin(), names.end(), n) == names.end())
            names.push_back(n);
    }
    std::string out;
    for (size_t k = 0; k < names.size() && k < 3; ++k) {
        if (k)
            out += '+';
        out.append(names[k]);
    }
    if (names.size() > 3)
        out += "+…";
    return out;
}

} // namespace

StepComm computeStepComm(const TimelineIndex& index, const EventPairing& pairing, const StepBands& bands,
                         const StepWindow& window)
{
    StepComm out;
    const Profile& profile = index.profile();
    const TimelineIndex::RankLanes& lanes = index.lanesOf(window.rankIndex);
    const TimeNs t0 = window.startNs, t1 = window.endNs, horizon = window.horizonNs();

    // 1. HCCL ops, and the device tasks that belong to them.
    std::unordered_set<uint64_t> covered;
    std::vector<uint32_t> opLanes = lanes.comm;
    opLanes.insert(opLanes.end(), lanes.device.begin(), lanes.device.end());
    for (uint32_t l : opLanes) {
        const Lane& lane = profile.lanes[l];
        auto [first, last] = lane.overlapping(t0, horizon);
        for (size_t i = first; i < last; ++i) {
            if (lane.kind[i] != EventKind::CommOp)
                continue;
            const EventRef opRef{l, static_cast<uint32_t>(i)};
            CommOperation op;
            op.op = opRef;
            op.name = std::string(profile.name(opRef));
            op.inflight = {lane.startNs[i], lane.endNs(i)};
            for (const Link* link : profile.linksFrom(opRef))
                if (link->kind == LinkKind::CommOpToTask && index.isDevice(link->to.lane))
                    covered.insert(eventKey(link->to));
            const TimelineIndex::Transfer transfer = index.transferOf(opRef);
            if (transfer.first.valid())
                for (uint32_t k = transfer.first.index; k <= transfer.last.index; ++k)
                    covered.insert(eventKey({transfer.first.lane, k}));
            if (op.inflight.startNs < t0 || op.inflight.startNs >= t1)
                continue;
            if (transfer.first.valid()) {
                op.lane = transfer.first.lane;
                op.firstTask = transfer.first;
                op.lastTask = transfer.last;
            }
            out.operations.push_back(std::move(op));
        }
    }

    // 2. Runs of communication tasks on a stream that no HCCL op claims.
    for (uint32_t l : lanes.device) {
        const Lane& lane = profile.lanes[l];
        for (size_t i = lane.firstStartingAtOrAfter(t0); i < lane.size() && lane.startNs[i] < t1; ++i) {
            EventRef task{l, static_cast<uint32_t>(i)};
            if (lane.kind[i] == EventKind::CommOp || !index.isComm(task) || covered.count(eventKey(task)))
                continue;
            size_t j = i;
            TimeNs end = lane.endNs(i);
            while (j + 1 < lane.size() && lane.kind[j + 1] != EventKind::CommOp &&
                   index.isComm({l, static_cast<uint32_t>(j + 1)}) &&
                   !covered.count(eventKey({l, static_cast<uint32_t>(j + 1)}))) {
                ++j;
                end = std::max(end, lane.endNs(j));
            }
            CommOperation op;
            op.lane = l;
            op.firstTask = task;
            op.lastTask = {l, static_cast<uint32_t>(j)};
            op.name = runName(index, op.firstTask, op.lastTask);
            op.inflight = {lane.startNs[i], end};
            out.operations.push_back(std::move(op));
            i = j;
        }
    }

    // Host hook calls of the step, by start (for consumers that wait on the host).
    std::vector<EventRef> hooks;
    for (uint32_t l : lanes.host) {
        const Lane& lane = profile.lanes[l];
        auto [first, last] = lane.overlapping(t0, horizon);
        for (size_t i = first; i < last; ++i)
            if (lane.startNs[i] >= t0 && index.names().matches(lane.nameId[i], RuleId::CommHookCalls))
                hooks.push_back({l, static_cast<uint32_t>(i)});
    }
    std::sort(hooks.begin(), hooks.end(), [&](EventRef a, EventRef b) { return index.start(a) < index.start(b); });

    // 3. Issue, consumer, exposed / hidden of every operation.
    for (CommOperation& op : out.operations) {
        op.issueNs = op.inflight.startNs;
        if (op.lane != UINT32_MAX) {
            const Lane& lane = profile.lanes[op.lane];
            op.streamId = lane.info.streamId;
            op.stage = bands.stageOf(op.firstTask);
            // Issue: the record(s) the transfer's stream waited for right before it.
            bool issued = false;
            for (EventRef k = index.previousOnStream(op.firstTask); k.valid() && index.kind(k) == EventKind::EventWait;
                 k = index.previousOnStream(k)) {
                const WaitPairing* p = pairing.pairingOf(k);
                if (p && p->record.valid() && (!issued || index.start(p->record) > op.issueNs)) {
                    op.issueNs = index.start(p->record);
                    op.issueEvent = p->record;
                    issued = true;
                }
            }
            if (!issued) {
                EventRef call = op.op.valid() ? index.launchOf(op.op) : EventRef{};
                if (!call.valid())
                    call = index.launchOf(op.firstTask);
                if (call.valid()) {
                    op.issueNs = index.start(call);
                    op.issueEvent = call;
                }
            }
            // Consumer: a wait paired with the record(s) right after the transfer.
            const WaitPairing* consumer = nullptr;
            EventRef k = index.nextOnStream(op.lastTask);
            for (; k.valid() && index.kind(k) == EventKind::EventRecord; k = index.nextOnStream(k))
                for (const WaitPairing* p : pairing.waitsFor(k))
                    if (!consumer || (p->blocked && !consumer->blocked) ||
                        (p->blocked == consumer->blocked && p->endNs < consumer->endNs))
                        consumer = p;
            if (consumer) {
                op.wait = consumer->wait;
                op.waitInterval = {consumer->reachedNs, consumer->endNs};
                op.waitStreamId = profile.lanes[consumer->wait.lane].info.streamId;
                op.inferred = true;
                op.pairMethod = consumer->method;
            } else if (k.valid() && index.kind(k) == EventKind::Kernel && !index.isComm(k) && op.lastTask.valid() &&
                       k.index == op.lastTask.index + 1) {
                // Comm on a compute stream: the next kernel of the stream waits for all of it.
                op.consumedInStream = true;
                op.waitStreamId = op.streamId;
            }
        }
        if (!op.wait.valid() && !op.consumedInStream) {
            auto it = std::lower_bound(hooks.begin(), hooks.end(), op.issueNs,
                                       [&](EventRef h, TimeNs t) { return index.start(h) < t; });
            if (it != hooks.end() && index.start(*it) < op.inflight.endNs) {
                op.wait = *it;
                op.waitOnHost = true;
                op.waitInterval = {index.start(*it), index.end(*it)};
            }
        }
        op.deepep =
            op.firstTask.valid() && (index.names().matches(index.nameId(op.firstTask), RuleId::DeepepDispatch) ||
                                     index.names().matches(index.nameId(op.firstTask), RuleId::DeepepCombine));
        const TimeNs inflightNs = op.inflight.lengthNs();
        if (op.consumedInStream) {
            op.exposedNs = inflightNs;
        } else if (op.wait.valid()) {
            const TimeNs reached = op.waitInterval.startNs;
            TimeNs blockedUntil = op.inflight.endNs;
            if (op.waitOnHost)
                blockedUntil = std::min(blockedUntil, op.waitInterval.endNs); // a hook that returned early
            op.exposedNs = std::max<TimeNs>(0, blockedUntil - reached);
            op.hiddenNs = std::max<TimeNs>(0, std::min(op.inflight.endNs, reached) - op.inflight.startNs);
        } else {
            op.hiddenNs = inflightNs;
        }
        out.totalNs += inflightNs;
        out.exposedNs += op.exposedNs;
    }
    std::sort(out.operations.begin(), out.operations.end(), [](const CommOperation& a, const CommOperation& b) {
        return a.inflight.startNs != b.inflight.startNs ? a.inflight.startNs < b.inflight.startNs
                                                        : a.streamId < b.streamId;
    });
    return out;
}

} // namespace dspark
