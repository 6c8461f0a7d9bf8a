#pragma once

// Synthetic profiles with exactly known events, built through the public model API (the way loaders
// build them): for UI tests and the UI benchmarks. Every figure is a formula of the index, so tests
// can assert exact positions, names and counts.
#include "model/Profile.h"
#include "session/ProfileAnalyses.h"
#include "steps/StepRecordLoader.h"
#include "steps/StepRecords.h"

#include <memory>
#include <string>

namespace dspark::test {

struct SyntheticSpec {
    int streams = 2;                // NPU streams ("Stream 2", "Stream 3", ...)
    size_t kernelsPerStream = 1000; // kernels per stream
    TimeNs kernelSpacingNs = 1000;  // start of kernel k = base + k * spacing (+ stream offset)
    TimeNs kernelDurationNs = 600;
    int steps = 4;         // host step spans ("step[DECODE bs=8]") over the whole range
    bool hostLanes = true; // Python (nested ops) + CANN (one launch per kernel of stream 0)
    bool counter = true;   // "HBM / Read" sampled every 10 µs
    bool comm = true;      // "HCCL / Group 0 Communication", one op per step
    int ranks = 1;
};

inline constexpr TimeNs kSyntheticBaseNs = 1'700'000'000'000'000'000LL; // a Unix-epoch clock (2023)

// Kernel names cycle through these (index k % 5).
inline const char* syntheticKernelName(size_t k)
{
    static const char* names[] = {"MatMulV2", "FlashAttentionScore", "RmsNorm", "Add", "SoftmaxV2"};
    return names[k % 5];
}

inline TimeNs syntheticKernelStart(const SyntheticSpec& s, int stream, size_t k)
{
    return kSyntheticBaseNs + TimeNs(k) * s.kernelSpacingNs + stream * (s.kernelSpacingNs / 10);
}

inline std::shared_ptr<Profile> makeSyntheticProfile(const SyntheticSpec& s = {})
{
    auto p = std::make_shared<Profile>();
    p->rootPath = "/synthetic";
    const TimeNs total = TimeNs(s.kernelsPerStream) * s.kernelSpacingNs;
    const uint32_t kernelTask = p->strings.intern("Task Type");
    const uint32_t aiCore = p->strings.intern("AI_CORE");
    const uint32_t blockDim = p->strings.intern("Block Dim");
    const uint32_t twentyFour = p->strings.intern("24");
    uint32_t names[5];
    for (size_t i = 0; i < 5; ++i)
        names[i] = p->strings.intern(syntheticKernelName(i));
    auto packed = std::make_unique<PackedArgs>(&p->strings);
    const uint64_t argsLocal = packed->add({{kernelTask, aiCore}, {blockDim, twentyFour}});
    const uint64_t argsRef = Profile::makeArgsRef(p->addArgsSource(std::move(packed)), argsLocal);

    for (int r = 0; r < s.ranks; ++r) {
        const int rank = p->ensureRank(r, r);
        std::vector<uint32_t> streamLanes;
        for (int st = 0; st < s.streams; ++st) {
            LaneInfo info{
                LaneKind::NpuStream, rank, r, 2 + st, -1, "Ascend Hardware", "Stream " + std::to_string(2 + st), 0};
            const uint32_t lane = p->laneFor(info);
            streamLanes.push_back(lane);
            Lane& l = p->lanes[lane];
            l.reserve(s.kernelsPerStream);
            for (size_t k = 0; k < s.kernelsPerStream; ++k)
                l.append(syntheticKernelStart(s, st, k), s.kernelDurationNs, names[k % 5], EventKind::Kernel,
                         int64_t(k), argsRef);
        }
        if (s.hostLanes) {
            LaneInfo py{LaneKind::Host, rank, -1, -1, 100, "Python", "Thread 100", 0};
            const uint32_t pyLane = p->laneFor(py);
            const uint32_t stepName = p->strings.intern("step[DECODE bs=8]");
            const uint32_t mm = p->strings.intern("aten::mm");
            const TimeNs stepNs = total / std::max(1, s.steps);
            for (int k = 0; k < s.steps; ++k) {
                const TimeNs a = kSyntheticBaseNs + k * stepNs;
                p->lanes[pyLane].append(a, stepNs * 9 / 10, stepName, EventKind::TorchOp);
                for (int j = 0; j < 4; ++j)
                    p->lanes[pyLane].append(a + j * stepNs / 5, stepNs / 10, mm, EventKind::TorchOp);
            }
            LaneInfo cann{LaneKind::Host, rank, -1, -1, 101, "CANN", "Thread 101", 0};
            const uint32_t cannLane = p->laneFor(cann);
            const uint32_t launch = p->strings.intern("launch");
            Lane& cl = p->lanes[cannLane];
            cl.reserve(s.kernelsPerStream);
            for (size_t k = 0; k < s.kernelsPerStream; ++k) {
                const uint32_t idx = cl.append(syntheticKernelStart(s, 0, k) - s.kernelSpacingNs / 2,
                                               s.kernelSpacingNs / 4, launch, EventKind::HostApi, int64_t(k));
                p->addLink({cannLane, idx}, {streamLanes[0], uint32_t(k)}, LinkKind::HostToDevice);
            }
        }
        if (s.comm) {
            LaneInfo comm{LaneKind::Comm, rank, r, -1, -1, "HCCL", "Group 0 Communication", 0};
            const uint32_t lane = p->laneFor(comm);
            const uint32_t op = p->strings.intern("hcom_allReduce__586_0_1");
            const TimeNs stepNs = total / std::max(1, s.steps);
            for (int k = 0; k < s.steps; ++k)
                p->lanes[lane].append(kSyntheticBaseNs + k * stepNs + stepNs / 2, stepNs / 4, op, EventKind::CommOp);
        }
        if (s.counter) {
            LaneInfo hbm{LaneKind::Counter, rank, r, -1, -1, "HBM", "Read", 0};
            const uint32_t lane = p->laneFor(hbm);
            const uint32_t read = p->strings.intern("Read");
            for (TimeNs t = 0; t < total; t += 10'000)
                p->lanes[lane].appendSample(kSyntheticBaseNs + t, double((t / 10'000) % 50), read);
        }
    }
    p->finalize();
    return p;
}

// DSpark step records for the profile's `steps` host spans ("step[DECODE bs=8]"): forward_ct
// firstForwardCt + k, bs 8, step_gpu_ms 0.1 except `slowStep` (1.0 ms, flagged as anomalous), anchored
// with profiler_metadata.start_step and aligned to the timeline like a loaded profile.
inline void attachSyntheticSteps(Profile& profile, int steps, int slowStep, int64_t firstForwardCt = 100)
{
    auto set = std::make_shared<StepRecordSet>();
    RankStepRecords& rank = set->rankRecords(0);
    for (int k = 0; k < steps; ++k) {
        StepRecord r;
        r.forwardCt = firstForwardCt + k;
        r.bs = 8;
        r.numVerifyTokens = 32;
        r.stepGpuMs = k == slowStep ? 1.0 : 0.1;
        r.draftGpuMs = 0.03;
        r.targetVerifyGpuMs = 0.05;
        r.stepCpuMs = 0.12;
        rank.records.push_back(r);
    }
    set->rebuild();
    profile.metadata["profiler_metadata.start_step"] = std::to_string(firstForwardCt);
    profile.stepRecords = set;
    deriveProfileAnalyses(profile);
}

} // namespace dspark::test
