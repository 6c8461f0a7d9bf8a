#pragma once

#include "analysis/CriticalPath.h"
#include "model/Profile.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace dspark {

struct AnalysisRules;
struct DeviceActivity;

// One collective as one member rank saw it, on that rank's own clock (docs/cluster.md).
struct CollectiveTiming {
    std::string group;  // communication group (HCCL groupName); the comm lane's name when absent
    std::string name;   // the op name as recorded (its sequence number may differ between ranks)
    std::string kind;   // the name check: op type, else the name without digits (hcom_allReduce_)
    int64_t count = -1; // elements moved (COMMUNICATION_OP.count), the size check; -1 unknown
    TimeNs issueNs = 0; // the rank reached the collective (op start)
    TimeNs endNs = 0;
};

// One piece of a step's critical path on the rank's own clock (CriticalPath hops, adjacent pieces of
// the same category and task merged): what the cross-rank path walks (CrossRankPath.h).
struct RankPathHop {
    TimeNs startNs = 0;
    TimeNs endNs = 0;
    PathCategory category = PathCategory::Idle;
    std::string what; // the task or host call's name, empty for a gap
};

// One step of a rank: a DSpark record window (forward_ct), else a profiler step (STEP_TIME id).
struct RankStep {
    int64_t stepId = -1;
    TimeNs startNs = 0;
    TimeNs endNs = 0;
    std::optional<double> stepGpuMs;                 // from the step record
    TimeNs commTotalNs = 0;                          // T_comm_total of the step (CommAnalysis)
    TimeNs commExposedNs = 0;                        // T_comm_exposed
    TimeNs preReplayGapNs = 0;                       // host gap before graph replay (ReplayGap)
    std::array<TimeNs, kPathCategoryCount> pathNs{}; // critical-path categories (Σ = window)
    std::vector<RankPathHop> path;                   // in time order; empty in version-1 summaries
};

// The HCCL sub-tasks (COMMUNICATION_TASK_INFO rows) of one (group, source, destination, transport) on
// this rank: the ones that moved data (size > 0) counted with their bytes and device time.
struct CommLinkTotal {
    std::string group;
    int64_t srcRank = -1;
    int64_t dstRank = -1;
    std::string transport; // SDMA, RDMA, LOCAL, … as the file names it
    uint64_t tasks = 0;
    int64_t bytes = 0;
    TimeNs timeNs = 0; // Σ the tasks' durations
};

// What the rank's devices did along its time range (version 3): kBins equal bins over [startNs, endNs),
// each with the part of it spent computing (compute kernels, the union over the rank's device lanes)
// and communicating while not computing (collectives less compute: msprof's "Communication (Not
// Overlapped)"), in 1/kUnit of the bin. The rest of a bin is idle.
struct RankActivityBins {
    static constexpr int kBins = 2000;
    static constexpr int kUnit = 10000;
    TimeNs startNs = 0, endNs = 0;
    std::vector<uint16_t> busy, comm; // busy[i] + comm[i] ≤ kUnit; empty: not measured (an older summary)
    bool empty() const { return busy.empty(); }
    size_t size() const { return busy.size(); }
    // Bin i covers [edgeNs(i), edgeNs(i + 1)). (span × i stays in int64 for spans below 2.3e15 ns: 26 days.)
    TimeNs edgeNs(size_t i) const
    {
        return startNs + (endNs - startNs) * static_cast<TimeNs>(i) / static_cast<TimeNs>(std::max<size_t>(1, size()));
    }
};

// This rank's place in one communication group (version 3): its rank within the group, and the group's
// members' global ranks in group order when the profiler wrote them (torch_npu's parallel_group_info,
// in profiler_metadata.json or the database's META_DATA).
struct GroupMembership {
    std::string group;            // the HCCL comm name, as COMMUNICATION_OP.groupName gives it
    int64_t groupRank = -1;       // -1 unknown; else from parallel_group_info, or its own links' source
    std::vector<int> globalRanks; // global_ranks[i] = global rank of in-group rank i; empty unknown
};

struct RankLaneSummary {
    std::string kind; // laneKindName
    std::string process;
    std::string name;
    uint64_t events = 0;
};

// What the cluster analyses need of one rank: written by `summarize`, read back as a rank of a
// cluster. Built from a loaded profile or from a summary file; never both at once.
struct RankSummary {
    static constexpr int kSchemaVersion = 3;       // 2: steps carry their critical path's pieces; 3: activity
    static constexpr int kOldestSchemaVersion = 1; // still read (no per-step path)
    int rankNumber = -1;
    std::string label;
    std::string source; // the rank's folder or file
    TimeNs firstNs = 0, lastNs = 0;
    std::string stepSource;                    // "records", "profiler_steps" or "" (no steps)
    std::vector<RankStep> steps;               // by start
    std::vector<CollectiveTiming> collectives; // by issue
    std::vector<RankLaneSummary> lanes;
    std::vector<CommLinkTotal> links;    // by (group, src, dst, transport); empty in version-1 summaries
    RankActivityBins activity;           // empty in summaries before version 3
    std::vector<GroupMembership> groups; // by group name; empty in summaries before version 3
};

// The activity bins of `rankIndex` over [startNs, endNs) from its device lanes' union coverage.
RankActivityBins measureRankActivity(const Profile& profile, int rankIndex, TimeNs startNs, TimeNs endNs,
                                     int bins = RankActivityBins::kBins);
// ... from the profile's device activity already gathered (collectDeviceActivity, StepAnalyzer::activity).
RankActivityBins measureRankActivity(const std::vector<DeviceActivity>& devices, int rankIndex, TimeNs startNs,
                                     TimeNs endNs, int bins = RankActivityBins::kBins);

// The summary of `rankIndex` of a finalized profile: its steps analysed with `rules`.
RankSummary summarizeRank(const Profile& profile, int rankIndex, const AnalysisRules& rules, const std::string& source);

// The documented JSON of a summary (docs/cluster.md "Summary schema") and back. The reader checks
// the format marker and version; its error names the file.
std::string rankSummaryJson(const RankSummary& summary);
// Its "steps" array (also the cluster report's per-rank steps).
nlohmann::ordered_json rankStepsJson(const RankSummary& summary);
bool readRankSummary(const std::string& path, RankSummary& out, QString& error);
// True when the file at `path` starts like a summary (a cheap look at its first bytes).
bool looksLikeRankSummary(const std::string& path);

// A collective's name check: `opType` when given, else `name` with its digits dropped and runs of
// '_' kept (hcom_allReduce__210_0_1 → hcom_allReduce__).
std::string collectiveKind(const std::string& name, const std::string& opType);

} // namespace dspark
