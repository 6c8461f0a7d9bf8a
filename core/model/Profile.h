#pragma once

#include "model/Lane.h"
#include "model/StringTable.h"

#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace dspark {

struct StepRecordSet; // core/steps: DSpark step records of the profile (may be absent)

// Address of one event: lane index and row index within the lane (after finalize).
struct EventRef {
    uint32_t lane = UINT32_MAX;
    uint32_t index = UINT32_MAX;
    bool valid() const { return lane != UINT32_MAX; }
    friend bool operator==(const EventRef&, const EventRef&) = default;
    friend auto operator<=>(const EventRef&, const EventRef&) = default;
};

// A first-class link between two events.
enum class LinkKind : uint8_t {
    HostToDevice, // CANN launch → device task (connectionId), Kineto ac2g launch → kernel
    OpToDevice,   // framework op → device task (PYTORCH_API→CONNECTION_IDS→TASK, Ascend async_npu)
    CommOpToTask, // HCCL op → its sub-task (COMMUNICATION_TASK_INFO.opId)
    Flow,         // any other resolved flow of a trace (async_task_queue, fwdbwd, ...)
};
const char* linkKindName(LinkKind kind);

struct Link {
    EventRef from;
    EventRef to;
    LinkKind kind = LinkKind::Flow;
    uint32_t categoryId = 0; // flow category in Profile::strings (JSON `cat`), 0 if none
};

struct RankInfo {
    int rankNumber = 0; // the job's rank (profiler_info_<r>.json, the file name), not an index
    int deviceId = -1;
    std::string label;        // e.g. "rank 0 (device 0)" or the source folder name
    TimeNs clockOffsetNs = 0; // added to this rank's times to put them on the cluster's clock; 0 for now
    // Host processes of the Kineto traces loaded into this rank, and the first such file: a trace of
    // the same rank number whose processes are all others is another run, never merged into this one.
    std::vector<int64_t> runPids;
    std::string runFile;
};

// One file found while scanning a profile folder.
struct SourceFile {
    std::string path;   // absolute path
    std::string format; // e.g. "torch_npu_db", "msprof_db", "trace_view_json", "kineto_json"
    bool loaded = false;
    std::string note;        // why it was skipped, or empty
    std::string duplicateOf; // the loaded file with the same rank and content, when it is a duplicate
    const char* status() const { return loaded ? "loaded" : !duplicateOf.empty() ? "duplicate" : "not_loaded"; }
};

// How far the scan of the opened folder went (ProfileScanner's limits).
struct ScanSummary {
    size_t examined = 0;
    int maxDepth = 0;
    size_t maxFiles = 0;
    bool stoppedAtDepth = false, stoppedAtCount = false;
    std::vector<std::string> rawFolders; // raw profiler data folders not entered
};

// Key/value arguments of an event, kept compactly and expanded only on demand (details pane).
struct EventArg {
    std::string key;
    std::string value;
};
class ArgsSource {
public:
    virtual ~ArgsSource() = default;
    virtual std::vector<EventArg> args(uint64_t localRef) const = 0;
    virtual size_t bytesUsed() const { return 0; }
};

// Args stored as (key string id, value string id) pairs in one flat buffer.
class PackedArgs final : public ArgsSource {
public:
    explicit PackedArgs(const StringTable* strings) : m_strings(strings) { m_data.push_back(0); }
    // Returns the local reference of the new entry (never 0).
    uint64_t add(const std::vector<std::pair<uint32_t, uint32_t>>& keyValues);
    std::vector<EventArg> args(uint64_t localRef) const override;
    size_t bytesUsed() const override { return m_data.capacity() * sizeof(uint32_t); }

private:
    const StringTable* m_strings;
    std::vector<uint32_t> m_data; // [count, k0, v0, k1, v1, ...] per entry
};

// Counts a profile reports (`info --json` totals).
struct ProfileStats {
    uint64_t deviceTasks = 0;  // events on NPU/GPU stream lanes
    uint64_t namedKernels = 0; // of those, kernels named by a kernel name, not by their task type
                               // (KERNEL_AICORE, ...)
    uint64_t commOps = 0;      // communication operations (collectives)
    uint64_t commTasks = 0;    // communication sub-tasks
    uint64_t hostEvents = 0;   // events on host lanes
    uint64_t flows = 0;        // resolved links (flow finishes matched to a start), not op→sub-task
    uint64_t hostToDevice = 0; // of those, host→device launch links
    uint64_t counters = 0;     // counter samples
    uint64_t events = 0;       // every event of every lane
};

using ArgsSourceId = uint32_t;
constexpr ArgsSourceId kMaxArgsSources = (ArgsSourceId(1) << (64 - ArgsColumn::kSourceShift)) - 1;

// A loaded profile: profile → ranks → lanes → events, plus links between events.
// Built by loaders, then finalize() sorts every lane and remaps links; immutable afterwards and
// shared read-only between threads (std::shared_ptr<const Profile>).
class Profile {
public:
    Profile();
    Profile(const Profile&) = delete;
    Profile& operator=(const Profile&) = delete;
    ~Profile();

    std::string rootPath; // what the user opened (file or folder)
    StringTable strings;
    std::vector<SourceFile> files; // every file the scan looked at
    ScanSummary scan;
    std::vector<RankInfo> ranks;
    std::vector<Lane> lanes;
    LargeVector<Link> links;                     // sorted by `from` after finalize()
    QStringList warnings;                        // problems that did not stop loading, each naming its file
    std::map<std::string, std::string> metadata; // run metadata (profiler_metadata.json, info json)
    std::shared_ptr<StepRecordSet> stepRecords;  // null when the profile has no step records

    // ---- building (loaders) ----
    int ensureRank(int rankNumber, int deviceId = -1, const std::string& label = {});
    // The rank of a trace of `file` whose host processes are `pids`: the rank of that number that already
    // holds one of them (or holds none yet), else a new rank of the same number, labelled by the file,
    // and `otherRun` names the file whose rank it would have merged into.
    int ensureRunRank(int rankNumber, int deviceId, const std::vector<int64_t>& pids, const std::string& file,
                      std::string& otherRun);
    // Finds the lane with the same rank, kind, process and name, or creates it.
    uint32_t laneFor(const LaneInfo& info);
    // Registers an args source; returns its id for makeArgsRef(), or 0 (no args kept) once
    // kMaxArgsSources are registered: the caller warns.
    ArgsSourceId addArgsSource(std::unique_ptr<ArgsSource> source);
    PackedArgs& packedArgs(); // the profile's shared PackedArgs (created on first use)
    // A registered source by id (null for 0 / unknown): lets the loaders of several files share one
    // source of their own type instead of registering one per file.
    ArgsSource* argsSource(ArgsSourceId id) const
    {
        return id < m_argSources.size() ? m_argSources[id].get() : nullptr;
    }
    size_t argsSourceCount() const { return m_argSources.size(); }
    static uint64_t makeArgsRef(ArgsSourceId sourceId, uint64_t localRef)
    {
        constexpr int shift = ArgsColumn::kSourceShift;
        return (uint64_t(sourceId) << shift) | (localRef & ((uint64_t(1) << shift) - 1));
    }
    void addLink(EventRef from, EventRef to, LinkKind kind, uint32_t categoryId = 0);
    void warn(const QString& message);
    // What the profile holds, for a loader that fails half way (out of memory) to take back what it
    // added: lanes, their events, links, ranks and args sources (interned strings stay, unused).
    // Before finalize() only.
    struct Contents {
        size_t lanes = 0, links = 0, ranks = 0, argsSources = 0;
        std::vector<size_t> laneSizes;
    };
    Contents contents() const;
    void restore(const Contents& before);
    // Sorts lanes (and lane order), remaps links to sorted indices, builds link indices.
    void finalize();

    // ---- reading ----
    std::string_view name(EventRef e) const { return strings.view(lanes[e.lane].nameId[e.index]); }
    TimeNs startNs(EventRef e) const { return lanes[e.lane].startNs[e.index]; }
    TimeNs endNs(EventRef e) const { return lanes[e.lane].endNs(e.index); }
    std::vector<EventArg> args(EventRef e) const;
    // Links leaving / entering an event (binary search over the sorted indices).
    std::vector<const Link*> linksFrom(EventRef e) const;
    std::vector<const Link*> linksTo(EventRef e) const;
    TimeNs firstNs() const { return m_firstNs; }
    TimeNs lastNs() const { return m_lastNs; }
    ProfileStats stats() const;
    size_t bytesUsed() const;
    bool finalized() const { return m_finalized; }

private:
    std::vector<std::unique_ptr<ArgsSource>> m_argSources; // id 0 unused
    int m_packedArgsId = -1;
    LargeVector<uint32_t> m_linksByTo; // indices into links, sorted by `to`
    TimeNs m_firstNs = 0;
    TimeNs m_lastNs = 0;
    bool m_finalized = false;
};

} // namespace dspark
