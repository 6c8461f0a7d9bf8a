#pragma once

// A small DSpark decode step built by hand, with every time chosen so that the analyses' answers can
// be worked out on paper (tst_step_analysis.cpp writes the arithmetic next to each assertion).
// Times are ns; the step window is [0, 1000). One host thread (tid 100) with a Python lane (spans) and
// a CANN lane (runtime calls); device 0 with stream 2 (compute), 5 (DeepEP) and 7 (HCCL); one HCCL
// group lane. EVENT_WAITs are placed when satisfied (the stream idles before them), as in the demo.
#include "model/Profile.h"

#include <memory>
#include <string>

namespace dspark::test {

class ProfileBuilder {
public:
    ProfileBuilder()
    {
        rank = profile->ensureRank(0, 0);
        py = profile->laneFor({LaneKind::Host, rank, -1, -1, 100, "Python", "Thread 100", 0});
        cann = profile->laneFor({LaneKind::Host, rank, -1, -1, 100, "CANN", "Thread 100", 0});
        s2 = stream(2);
        s5 = stream(5);
        s7 = stream(7);
        group = profile->laneFor({LaneKind::Comm, rank, -1, -1, -1, "HCCL", "Group 0 Communication", 0});
    }
    uint32_t stream(int64_t id)
    {
        return profile->laneFor(
            {LaneKind::NpuStream, rank, 0, id, -1, "Ascend Hardware", "Stream " + std::to_string(id), 0});
    }
    EventRef add(uint32_t lane, const std::string& name, TimeNs start, TimeNs end, EventKind kind)
    {
        const uint32_t i = profile->lanes[lane].append(start, end - start, profile->strings.intern(name), kind);
        return {lane, i};
    }
    EventRef span(const std::string& name, TimeNs start, TimeNs end)
    {
        return add(py, name, start, end, EventKind::TorchOp);
    }
    EventRef call(const std::string& name, TimeNs start, TimeNs end)
    {
        return add(cann, name, start, end, EventKind::HostApi);
    }
    // A runtime call that launches one device task.
    EventRef launch(const std::string& callName, TimeNs cs, TimeNs ce, uint32_t lane, const std::string& task,
                    TimeNs ts, TimeNs te, EventKind kind)
    {
        const EventRef c = call(callName, cs, ce);
        const EventRef t = add(lane, task, ts, te, kind);
        profile->addLink(c, t, LinkKind::HostToDevice);
        return t;
    }
    std::shared_ptr<Profile> finish()
    {
        profile->finalize();
        return profile;
    }

    std::shared_ptr<Profile> profile = std::make_shared<Profile>();
    int rank = 0;
    uint32_t py = 0, cann = 0, s2 = 0, s5 = 0, s7 = 0, group = 0;
};

// Finds an event by lane kind / stream and name and start after finalize().
inline EventRef findEvent(const Profile& p, const std::string& name, TimeNs start)
{
    for (uint32_t l = 0; l < p.lanes.size(); ++l)
        for (uint32_t i = 0; i < p.lanes[l].size(); ++i)
            if (p.lanes[l].startNs[i] == start && p.name({l, i}) == name)
                return {l, i};
    return {};
}

// The step of tst_step_analysis (see the table in its header comment).
inline std::shared_ptr<Profile> handBuiltStep()
{
    ProfileBuilder b;
    const auto K = EventKind::Kernel;
    const auto REC = EventKind::EventRecord;
    const auto WAIT = EventKind::EventWait;
    b.span("scheduler.run_batch", 0, 780);
    b.span("scheduler.process_batch_result", 780, 950);

    // Draft forward: K1, the DeepEP dispatch issue (record → stream 5 wait → dispatch → record),
    // K2 independent of it, the hook (stream 2 waits for the dispatch), K3.
    b.span("draft step[DECODE bs=2]", 10, 200);
    b.launch("launch", 24, 30, b.s2, "GatherV2", 30, 100, K);
    b.launch("aclrtRecordEvent", 26, 28, b.s2, "EVENT_RECORD", 100, 102, REC);
    b.launch("aclrtStreamWaitEvent", 29, 31, b.s5, "EVENT_WAIT", 103, 105, WAIT);
    b.launch("launch", 32, 35, b.s5, "MoeDistributeDispatch", 106, 306, K);
    b.launch("aclrtRecordEvent", 36, 38, b.s5, "EVENT_RECORD", 306, 308, REC);
    b.launch("launch", 40, 45, b.s2, "MatMulV2", 110, 150, K);
    b.launch("aclrtStreamWaitEvent", 50, 52, b.s2, "EVENT_WAIT", 310, 312, WAIT);
    b.launch("launch", 55, 60, b.s2, "GroupedMatmul", 313, 363, K);

    // Planner: one kernel, then the host blocks until the device is done.
    b.span("dspark.verify_planner", 200, 390);
    b.launch("launch", 205, 210, b.s2, "DsparkVerifyLayout", 365, 385, K);
    b.call("aclrtSynchronizeStream", 215, 390);

    // Target verify: a pre-replay copy, host metadata work, the graph replay (two tasks).
    b.span("step[TARGET_VERIFY bs=2 g_sq=8]", 392, 480);
    b.launch("aclrtMemcpyAsync", 395, 400, b.s2, "MEMCPY_ASYNC", 402, 412, EventKind::Memcpy);
    b.span("AscendDSV4Backend.init_forward_metadata", 400, 450);
    const EventRef replay = b.span("NPUGraph.replay", 450, 470);
    const EventRef exec = b.call("aclmdlRIExecuteAsync", 452, 468);
    const EventRef vk1 = b.add(b.s2, "SparseFlashAttention", 472, 560, K);
    const EventRef vk2 = b.add(b.s2, "MatMulV2", 561, 600, K);
    for (EventRef t : {vk1, vk2}) {
        b.profile->addLink(exec, t, LinkKind::HostToDevice);
        b.profile->addLink(replay, t, LinkKind::OpToDevice);
    }

    // Eager accept tail with SpecTpSync (an HCCL all-reduce on stream 7 between a record/wait pair).
    b.span("dspark.accept_and_finalize", 480, 540);
    b.launch("launch", 482, 485, b.s2, "AcceptDraftTokens", 602, 622, K);
    b.launch("aclrtRecordEvent", 486, 488, b.s2, "EVENT_RECORD", 623, 625, REC);
    b.launch("aclrtStreamWaitEvent", 489, 491, b.s7, "EVENT_WAIT", 628, 630, WAIT);
    const EventRef hccl = b.call("HcclAllReduce", 492, 496);
    const EventRef nw = b.add(b.s7, "Notify Wait", 631, 660, EventKind::CommTask);
    const EventRef sdma = b.add(b.s7, "SDMA", 660, 680, EventKind::CommTask);
    const EventRef op = b.add(b.group, "hcom_allReduce__SpecTpSync_1", 631, 680, EventKind::CommOp);
    for (EventRef t : {nw, sdma}) {
        b.profile->addLink(hccl, t, LinkKind::HostToDevice);
        b.profile->addLink(op, t, LinkKind::CommOpToTask);
    }
    b.launch("aclrtRecordEvent", 497, 499, b.s7, "EVENT_RECORD", 681, 683, REC);
    b.launch("aclrtStreamWaitEvent", 500, 502, b.s2, "EVENT_WAIT", 686, 688, WAIT);
    b.launch("launch", 503, 506, b.s2, "BuildOutTokens", 689, 709, K);

    // Eager commit, then the output copy and the host sync that waits for it.
    b.span("dspark.commit_hidden", 540, 580);
    b.launch("launch", 545, 550, b.s2, "CommitTargetHidden", 710, 750, K);
    b.launch("launch", 555, 560, b.s2, "ScatterPaKvCache", 751, 761, K);
    b.span("dspark.publish_out_tokens", 580, 778);
    b.launch("aclrtMemcpyAsync", 585, 590, b.s2, "MEMCPY_ASYNC", 762, 772, EventKind::Memcpy);
    b.call("aclrtSynchronizeStream", 591, 776);
    return b.finish();
}

} // namespace dspark::test
