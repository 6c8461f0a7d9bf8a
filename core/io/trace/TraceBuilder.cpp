#include "io/trace/TraceBuilder.h"

#include "io/trace/FlowMatcher.h"
#include "io/trace/LaneClassifier.h"
#include "io/trace/TraceLoadTuning.h"
#include "util/Parallel.h"
#include "util/StepTimer.h"

#include <QCoreApplication>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <type_traits>
#include <unordered_map>

namespace dspark::trace {

namespace {

// A stable text key of an identifier within one file (the same pid in both threads' tables).
std::string idKey(const RawId& id, const StringTable& strings)
{
    switch (id.kind) {
    case RawId::None: return "n";
    case RawId::Int: return "i" + std::to_string(static_cast<int64_t>(id.value));
    case RawId::BigUInt: return "u" + std::to_string(id.value);
    case RawId::String: return "s" + std::string(strings.view(static_cast<uint32_t>(id.value)));
    case RawId::Other: return "o" + std::string(strings.view(static_cast<uint32_t>(id.value)));
    }
    return "n";
}

std::string idText(const RawId& id, const StringTable& strings)
{
    if (id.kind == RawId::Int)
        return std::to_string(static_cast<int64_t>(id.value));
    if (id.kind == RawId::BigUInt)
        return std::to_string(id.value);
    if (id.kind == RawId::None)
        return {};
    return std::string(strings.view(static_cast<uint32_t>(id.value)));
}

struct ProcessFacts {
    std::optional<std::string> name;
    std::optional<int64_t> sortIndex;
    std::string pidText;
    std::optional<int64_t> pid;
};

struct GlobalTrack {
    TrackFacts facts;
    std::string pidKey;
    uint64_t slices = 0;
    uint32_t lane = UINT32_MAX;
    TrackRole role = TrackRole::HostGeneric;
    uint64_t base = 0;
    uint64_t cursor = 0;
};

// The lanes that receive counter samples (a count per lane, > 0).
std::vector<uint32_t> seriesLaneIds(const std::vector<size_t>& samplesPerLane)
{
    std::vector<uint32_t> out;
    for (size_t i = 0; i < samplesPerLane.size(); ++i)
        if (samplesPerLane[i] > 0)
            out.push_back(static_cast<uint32_t>(i));
    return out;
}

struct OpenMark {
    int64_t ts;
    uint64_t offset;
    uint32_t track;
    uint32_t name;
    uint8_t hint;
};

constexpr uint32_t kNoFrom = UINT32_MAX; // (point numbers are below FlowMatcher::kMaxPoints)
constexpr uint32_t kNoRow = UINT32_MAX;  // a flow point on no slice

// One file's build, phase by phase (numbered as in TraceBuilder::build()); the members are what a
// phase hands on to the later ones.
class TraceBuild {
public:
    TraceBuild(Profile& profile, const TraceBuilder::Settings& settings, const std::vector<TraceIngest*>& parts)
        : m_profile(profile), m_settings(settings), m_parts(parts), m_partCount(parts.size())
    {
    }
    TraceBuilder::Summary run();

private:
    // Where each flow point stands once bound (step 9): its slice as a row over all lanes, the lanes'
    // rows one after the other, with the point's category above it (kNoRow: not on a slice).
    struct BoundPoints {
        std::vector<uint64_t> laneBase; // the first row of each lane, and the row after the last
        bool linkable = false;
        LargeVector<uint64_t> bound;
        std::vector<uint64_t> unbound, continuing; // per part: points on no slice, links to write
    };

    void internStrings();
    void mergeTracks();
    void applyMetadata();
    void pairMarks();
    void resolveFlowCategories();
    void matchFlows();
    void matchEachPart(std::vector<std::unique_ptr<FlowMatcher>>& matchers,
                       std::vector<std::vector<FlowMatcher::Waiting>>& waiting);
    void resolveWaitingPoints(const std::vector<std::unique_ptr<FlowMatcher>>& matchers,
                              std::vector<std::vector<FlowMatcher::Waiting>>& waiting);
    void planLanes();
    int placeRank(const std::vector<LanePlan>& plans, int device);
    void sizeColumns();
    void placeSlices();
    void planCounters();
    void bindFlowsAndLink();
    BoundPoints bindFlowPoints();
    void writeFlowLinks(const BoundPoints& points);
    void linkCommTasks();
    void warnLeftovers();

    uint64_t globalId(size_t k, uint8_t kind, uint64_t value) const
    {
        return kind == RawId::String || kind == RawId::Other ? m_names[k][static_cast<uint32_t>(value)] : value;
    }
    // Flows beyond what a matcher's table or a row over all lanes holds (billions): no links.
    void tooManyToLink();

    Profile& m_profile;
    const TraceBuilder::Settings& m_settings;
    const std::vector<TraceIngest*>& m_parts;
    const size_t m_partCount;
    TraceBuilder::Summary m_sum;
    StepTimer m_clock{"build"};

    std::vector<std::vector<uint32_t>> m_names; // per part: local string id → the profile's
    std::vector<GlobalTrack> m_tracks;
    std::vector<std::vector<uint32_t>> m_trackMap; // per part: local track → global track
    std::unordered_map<std::string, ProcessFacts> m_processes;
    std::vector<SliceRecord> m_paired; // slices of B/E pairs, with global track and name ids

    std::vector<uint64_t> m_pointBase; // per part: the number of its first flow point
    uint64_t m_points = 0;
    // Each part's flow categories: profile string id, link kind, dense number (as the matchers count).
    std::vector<std::vector<uint32_t>> m_categoryIds;
    std::vector<std::vector<LinkKind>> m_categoryKinds;
    std::vector<std::vector<uint32_t>> m_categorySlots;
    std::unordered_map<uint32_t, uint32_t> m_denseCategory;
    bool m_matchable = false;
    bool m_parallelFlows = false;
    LargeVector<uint32_t> m_from; // per point: the point its flow continues from (kNoFrom: none)

    int m_rankIndex = 0;
    bool m_parallel = false;                         // lanes built part by part on both cores
    std::vector<uint64_t> m_laneSize;                // per lane: its size once this file's slices are in
    std::vector<std::vector<uint64_t>> m_partCursor; // per part and track: the row of its next slice
    std::function<void()> m_placeCounters;
};

TraceBuilder::Summary TraceBuild::run()
{
    internStrings(); // 1
    m_clock.lap("strings");
    mergeTracks(); // 2
    m_clock.lap("tracks");
    applyMetadata(); // 3
    m_clock.lap("metadata");
    pairMarks(); // 4
    m_clock.lap("pairs");
    matchFlows(); // 5
    m_clock.lap("flows:match");
    planLanes(); // 6
    sizeColumns();
    m_clock.lap("lanes+sizing");
    placeSlices(); // 7
    m_clock.lap("slices");
    if (std::atomic<int>* failAfter = m_settings.tuning.failBuildAfter;
        failAfter && *failAfter >= 0 && (*failAfter)-- == 0)
        throw std::bad_alloc(); // (tests: running out of memory with the lanes half built)
    planCounters();             // 8
    m_clock.lap("counters");
    bindFlowsAndLink(); // 9
    m_clock.lap("flows");
    linkCommTasks(); // 10
    m_clock.lap("hccl");
    warnLeftovers(); // 11
    return std::move(m_sum);
}

// 1. Strings: every thread's local ids → the profile's ids.
void TraceBuild::internStrings()
{
    m_names.resize(m_partCount);
    for (size_t k = 0; k < m_partCount; ++k) {
        const StringTable& local = m_parts[k]->strings;
        m_names[k].resize(local.size());
        for (uint32_t id = 0; id < local.size(); ++id)
            m_names[k][id] = m_profile.strings.intern(local.view(id));
    }
}

// 2. Tracks: (pid, tid) as written, merged over the threads.
void TraceBuild::mergeTracks()
{
    std::unordered_map<std::string, uint32_t> trackIndex;
    m_trackMap.resize(m_partCount);
    for (size_t k = 0; k < m_partCount; ++k) {
        const TraceIngest& part = *m_parts[k];
        m_trackMap[k].resize(part.tracks.size());
        for (size_t t = 0; t < part.tracks.size(); ++t) {
            const TrackKey& key = part.tracks[t];
            const std::string pidKey = idKey(key.pid, part.strings);
            auto [it, inserted] =
                trackIndex.try_emplace(pidKey + '\x1f' + idKey(key.tid, part.strings), uint32_t(m_tracks.size()));
            if (inserted) {
                GlobalTrack g;
                g.pidKey = pidKey;
                g.facts.pidText = idText(key.pid, part.strings);
                g.facts.tidText = idText(key.tid, part.strings);
                if (key.pid.kind == RawId::Int)
                    g.facts.pid = static_cast<int64_t>(key.pid.value);
                if (key.tid.kind == RawId::Int)
                    g.facts.tid = static_cast<int64_t>(key.tid.value);
                m_tracks.push_back(std::move(g));
                ProcessFacts& proc = m_processes[pidKey];
                proc.pidText = m_tracks.back().facts.pidText;
                proc.pid = m_tracks.back().facts.pid;
            }
            GlobalTrack& g = m_tracks[it->second];
            m_trackMap[k][t] = it->second;
            g.slices += part.sliceCount[t];
            if (!g.facts.gpu.known && part.trackGpu[t].known)
                g.facts.gpu = part.trackGpu[t];
        }
    }
}

// 3. Metadata, in file order (a later record wins).
void TraceBuild::applyMetadata()
{
    for (size_t k = 0; k < m_partCount; ++k) {
        const TraceIngest& part = *m_parts[k];
        for (const MetaRecord& m : part.metas) {
            GlobalTrack& g = m_tracks[m_trackMap[k][m.track]];
            ProcessFacts& proc = m_processes[g.pidKey];
            switch (m.kind) {
            case MetaRecord::ProcessName: proc.name = std::string(part.strings.view(m.text)); break;
            case MetaRecord::ThreadName: g.facts.threadName = std::string(part.strings.view(m.text)); break;
            case MetaRecord::ProcessSortIndex: proc.sortIndex = m.number; break;
            case MetaRecord::ThreadSortIndex: g.facts.threadSortIndex = m.number; break;
            case MetaRecord::ProcessLabels: break;
            }
        }
    }
    for (GlobalTrack& g : m_tracks) {
        const ProcessFacts& proc = m_processes[g.pidKey];
        g.facts.processName = proc.name;
        g.facts.processSortIndex = proc.sortIndex;
    }
}

// 4. B/E (per thread, nested) and b/e (async, by cat and id) pairs become slices.
void TraceBuild::pairMarks()
{
    int64_t maxEnd = INT64_MIN;
    for (const TraceIngest* part : m_parts)
        maxEnd = std::max(maxEnd, part->maxEndNs);
    std::vector<std::vector<OpenMark>> openStacks(m_tracks.size());
    std::unordered_map<std::string, std::vector<OpenMark>> openAsync;
    for (size_t k = 0; k < m_partCount; ++k) {
        for (const MarkRecord& m : m_parts[k]->marks) {
            const uint32_t g = m_trackMap[k][m.track];
            const OpenMark mark{m.tsNs, m.offset, g, m_names[k][m.name], m.hint};
            if (m.ph == 'B') {
                openStacks[g].push_back(mark);
                continue;
            }
            std::vector<OpenMark>* stack = &openStacks[g];
            if (m.ph == 'b' || m.ph == 'e') {
                const std::string key = std::to_string(m_names[k][m.cat]) + '|' + std::to_string(m.id.kind) + '|' +
                                        std::to_string(globalId(k, m.id.kind, m.id.value));
                stack = &openAsync[key];
                if (m.ph == 'b') {
                    stack->push_back(mark);
                    continue;
                }
            }
            if (stack->empty()) {
                ++m_sum.unmatchedEnds;
                continue;
            }
            const OpenMark& b = stack->back();
            SliceRecord s{};
            s.corr = SliceRecord::kCorrNone;
            s.startNs = b.ts;
            s.durationNs = std::max<int64_t>(0, m.tsNs - b.ts);
            s.offset = b.offset ? b.offset : m.offset;
            s.track = b.track;
            s.name = b.name ? b.name : mark.name;
            s.hint = b.hint;
            m_paired.push_back(s);
            stack->pop_back();
        }
        std::vector<MarkRecord>().swap(m_parts[k]->marks);
    }
    // A slice never closed ends with the trace.
    const auto closeAll = [&](std::vector<OpenMark>& stack) {
        for (const OpenMark& b : stack) {
            SliceRecord s{};
            s.corr = SliceRecord::kCorrNone;
            s.startNs = b.ts;
            s.durationNs = std::max<int64_t>(0, maxEnd - b.ts);
            s.offset = b.offset;
            s.track = b.track;
            s.name = b.name;
            s.hint = b.hint;
            m_paired.push_back(s);
            ++m_sum.unclosedBegins;
        }
    };
    for (auto& stack : openStacks)
        closeAll(stack);
    for (auto& [key, stack] : openAsync)
        closeAll(stack);
    for (const SliceRecord& s : m_paired)
        ++m_tracks[s.track].slices;
}

// Each part's few flow categories, resolved once: profile string id and link kind; and numbered densely
// over the parts (the matchers' table entries hold 29 bits of category).
void TraceBuild::resolveFlowCategories()
{
    m_categoryIds.resize(m_partCount);
    m_categoryKinds.resize(m_partCount);
    for (size_t k = 0; k < m_partCount; ++k) {
        const std::vector<uint32_t>& localCategories = m_parts[k]->flowCategories;
        m_categoryIds[k].resize(localCategories.size());
        m_categoryKinds[k].resize(localCategories.size());
        for (size_t c = 0; c < localCategories.size(); ++c) {
            m_categoryIds[k][c] = m_names[k][localCategories[c]];
            const FlowClass fc = flowClassOf(m_profile.strings.view(m_categoryIds[k][c]));
            m_categoryKinds[k][c] = fc == FlowClass::HostToDevice ? LinkKind::HostToDevice
                                    : fc == FlowClass::OpToDevice ? LinkKind::OpToDevice
                                                                  : LinkKind::Flow;
        }
    }
    m_categorySlots.resize(m_partCount);
    for (size_t k = 0; k < m_partCount; ++k)
        for (const uint32_t id : m_categoryIds[k])
            m_categorySlots[k].push_back(
                m_denseCategory.try_emplace(id, static_cast<uint32_t>(m_denseCategory.size())).first->second);
}

// 5. Flows matched by (cat, id) before any lane is written, so that the match tables are freed
//    before the lane columns are first touched (the columns reuse their pages; a load pays for
//    its peak of fresh memory). Points are numbered over the parts in file order; m_from[p] is the
//    number of the point p's flow continues from (kNoFrom: none).
//    Each part is matched on its own, both cores taking parts: its table is a part's size and a
//    flow's two ends are mostly close together in the file, so its look-ups mostly hit the
//    cache (and each point is read once, where one matcher per half of the key space had both
//    cores read every point). A finish or step whose (cat, id) its part has not started waits.
//    Then, part by part in file order, each waiting point takes where its flow stands after the
//    parts before it (the latest part that has the key); a point still without a start (a
//    finish before its start in the file) takes where its flow ends in the whole file. That is
//    what one matcher fed the whole file in order gives.
void TraceBuild::matchFlows()
{
    m_pointBase.assign(m_partCount + 1, 0);
    for (size_t k = 0; k < m_partCount; ++k)
        m_pointBase[k + 1] = m_pointBase[k] + m_parts[k]->flows.size();
    m_points = m_pointBase[m_partCount];
    resolveFlowCategories();
    m_matchable = m_points < FlowMatcher::kMaxPoints && m_denseCategory.size() < FlowMatcher::kMaxCategories;
    m_parallelFlows = m_settings.threads > 1 && m_points >= m_settings.tuning.parallelFlowPoints;
    m_from = LargeVector<uint32_t>(m_matchable ? m_points : 0); // each point written by its part's matcher
    if (!m_matchable) {
        tooManyToLink();
        return;
    }
    std::vector<std::unique_ptr<FlowMatcher>> matchers(m_partCount);
    std::vector<std::vector<FlowMatcher::Waiting>> waiting(m_partCount);
    matchEachPart(matchers, waiting);
    resolveWaitingPoints(matchers, waiting);
}

void TraceBuild::tooManyToLink()
{
    m_sum.warnings.push_back(QCoreApplication::translate("ChromeTraceLoader",
                                                         "%1: %2 flow events are more than can be linked; "
                                                         "flows are not shown")
                                 .arg(QString::fromStdString(m_settings.fileLabel))
                                 .arg(m_points));
}

// Each part's points through a matcher of its own, on both cores; what waits for an earlier part is kept.
void TraceBuild::matchEachPart(std::vector<std::unique_ptr<FlowMatcher>>& matchers,
                               std::vector<std::vector<FlowMatcher::Waiting>>& waiting)
{
    forEachParallel(m_parallelFlows, m_partCount, [&](size_t k) {
        TraceIngest& part = *m_parts[k];
        // Each category's id step, from its first starts in the part (at most 64 Ki points read).
        std::vector<uint8_t> idShifts(part.flowCategories.size(), 0);
        {
            constexpr size_t kSamples = 64;
            std::vector<std::vector<uint64_t>> startIds(idShifts.size());
            size_t full = 0, budget = size_t(1) << 16;
            part.flows.forEachWhile([&](const FlowRecord& f) {
                std::vector<uint64_t>& ids = startIds[f.category];
                if (f.ph == 's' && ids.size() < kSamples) {
                    ids.push_back(f.id);
                    full += ids.size() == kSamples ? 1 : 0;
                }
                return --budget > 0 && full < startIds.size();
            });
            for (size_t c = 0; c < startIds.size(); ++c)
                idShifts[c] = FlowMatcher::idShift(startIds[c]);
        }
        // (Its table first touched on this core; the part's own category and string numbers.)
        auto matcher = std::make_unique<FlowMatcher>(part.flowStarts, std::move(idShifts));
        uint64_t point = m_pointBase[k];
        part.flows.forEach([&](const FlowRecord& f) {
            const uint64_t p = point++;
            const uint64_t continues = matcher->add(f.ph, f.category, f.idKind, f.id, p);
            m_from[p] = continues == FlowMatcher::kNoStart ? kNoFrom : static_cast<uint32_t>(continues);
        });
        waiting[k] = matcher->takeWaiting();
        matchers[k] = std::move(matcher);
    });
}

// The waiting points, part by part in file order: where their flow stands after the parts before them,
// else (a finish before its start in the file) where it ends in the whole file.
void TraceBuild::resolveWaitingPoints(const std::vector<std::unique_ptr<FlowMatcher>>& matchers,
                                      std::vector<std::vector<FlowMatcher::Waiting>>& waiting)
{
    // Keys over all parts: the dense category, the id kind and the profile's id.
    struct FlowKey {
        uint64_t id;
        uint32_t category;
        uint8_t kind;
        bool operator==(const FlowKey&) const = default;
    };
    struct FlowKeyHash {
        size_t operator()(const FlowKey& k) const
        {
            return std::hash<uint64_t>()(k.id * 0x9E3779B97F4A7C15ull ^ (uint64_t(k.category) << 3 | k.kind));
        }
    };
    std::vector<std::vector<uint32_t>> localCategory(m_partCount); // dense category → the part's
    for (size_t k = 0; k < m_partCount; ++k) {
        localCategory[k].assign(m_denseCategory.size(), UINT32_MAX);
        for (uint32_t c = 0; c < m_categorySlots[k].size(); ++c)
            localCategory[k][m_categorySlots[k][c]] = c;
    }
    // Per part: the waiting steps that continued a flow of an earlier part (where it now stands).
    std::vector<std::unordered_map<FlowKey, uint32_t, FlowKeyHash>> steps(m_partCount);
    // Where the flow of `key` stands after all of part j: its matcher's table, then its steps
    // (which all came before any start of the key in the part).
    const auto standsIn = [&](size_t j, const FlowKey& key) -> uint64_t {
        const uint32_t category = localCategory[j][key.category];
        if (category == UINT32_MAX)
            return FlowMatcher::kNoStart; // (no point of the category in the part: no step either)
        uint64_t id = key.id;
        bool known = true;
        if (key.kind == RawId::String || key.kind == RawId::Other) {
            const std::optional<uint32_t> local =
                m_parts[j]->strings.find(m_profile.strings.view(static_cast<uint32_t>(key.id)));
            known = local.has_value();
            id = local.value_or(0);
        }
        if (known)
            if (const uint64_t at = matchers[j]->lookup(category, key.kind, id); at != FlowMatcher::kNoStart)
                return at;
        const auto step = steps[j].find(key);
        return step == steps[j].end() ? FlowMatcher::kNoStart : step->second;
    };
    std::vector<std::pair<FlowKey, uint64_t>> beforeStart; // (key, point): no start before them
    for (size_t k = 0; k < m_partCount; ++k) {
        for (const FlowMatcher::Waiting& w : waiting[k]) {
            const FlowKey key{globalId(k, w.idKind, w.id), m_categorySlots[k][w.category], w.idKind};
            uint64_t at = FlowMatcher::kNoStart;
            if (const auto step = steps[k].find(key); step != steps[k].end())
                at = step->second;
            for (size_t j = k; at == FlowMatcher::kNoStart && j-- > 0;)
                at = standsIn(j, key);
            if (at == FlowMatcher::kNoStart) {
                beforeStart.emplace_back(key, w.point);
                continue;
            }
            m_from[w.point] = static_cast<uint32_t>(at);
            if (w.ph == 't')
                steps[k][key] = static_cast<uint32_t>(w.point);
        }
        std::vector<FlowMatcher::Waiting>().swap(waiting[k]);
    }
    for (const auto& [key, point] : beforeStart) {
        uint64_t at = FlowMatcher::kNoStart;
        for (size_t j = m_partCount; at == FlowMatcher::kNoStart && j-- > 0;)
            at = standsIn(j, key);
        if (at == FlowMatcher::kNoStart)
            ++m_sum.flowsWithoutStart;
        else
            m_from[point] = static_cast<uint32_t>(at);
    }
}

// The rank of this file. Kineto traces of the same rank number from other processes are other runs
// (unrelated clocks): each gets a rank of its own, with a warning, instead of being stacked on one.
int TraceBuild::placeRank(const std::vector<LanePlan>& plans, int device)
{
    if (!m_settings.separateRuns)
        return m_profile.ensureRank(m_settings.rankNumber, device);
    std::vector<int64_t> pids;
    for (size_t g = 0; g < m_tracks.size(); ++g) {
        const std::optional<int64_t>& pid = m_tracks[g].facts.pid;
        if (m_tracks[g].slices > 0 && plans[g].info.kind == LaneKind::Host && pid && *pid >= 0 &&
            std::find(pids.begin(), pids.end(), *pid) == pids.end())
            pids.push_back(*pid);
    }
    std::string otherRun;
    const int index = m_profile.ensureRunRank(m_settings.rankNumber, device, pids, m_settings.fileLabel, otherRun);
    if (!otherRun.empty())
        m_sum.warnings.push_back(QCoreApplication::translate("ChromeTraceLoader",
                                                             "%1: rank %2 again, but from other processes than %3: "
                                                             "another run, shown as a rank of its own")
                                     .arg(QString::fromStdString(m_settings.fileLabel))
                                     .arg(m_settings.rankNumber)
                                     .arg(QString::fromStdString(otherRun)));
    return index;
}

// 6. Lanes. The rank's device is the first device a lane names. Each track's rows come after the lane's
//    rows so far; within them, each part's slices in file order, then the paired B/E slices.
void TraceBuild::planLanes()
{
    Profile& profile = m_profile;
    int device = -1;
    std::vector<LanePlan> plans(m_tracks.size());
    for (size_t g = 0; g < m_tracks.size(); ++g) {
        if (m_tracks[g].slices == 0)
            continue;
        plans[g] = planTrackLane(m_tracks[g].facts, 0, -1);
        if (device < 0 && isDeviceLane(plans[g].info.kind) && plans[g].info.deviceId >= 0)
            device = plans[g].info.deviceId;
    }
    m_rankIndex = placeRank(plans, device);
    m_laneSize.resize(profile.lanes.size());
    for (size_t i = 0; i < profile.lanes.size(); ++i)
        m_laneSize[i] = profile.lanes[i].size();
    for (size_t g = 0; g < m_tracks.size(); ++g) {
        GlobalTrack& t = m_tracks[g];
        if (t.slices == 0)
            continue;
        plans[g].info.rankIndex = m_rankIndex;
        if (plans[g].info.kind == LaneKind::NpuStream && ascendDeviceFromPid(t.facts) < 0 && device >= 0)
            plans[g].info.deviceId = device;
        t.lane = profile.laneFor(plans[g].info);
        t.role = plans[g].role;
        if (t.lane >= m_laneSize.size())
            m_laneSize.resize(t.lane + 1, 0);
        t.base = t.cursor = m_laneSize[t.lane];
        m_laneSize[t.lane] += t.slices;
    }
    m_partCursor.resize(m_partCount);
    for (size_t k = 0; k < m_partCount; ++k) {
        m_partCursor[k].resize(m_parts[k]->tracks.size());
        for (size_t t = 0; t < m_parts[k]->tracks.size(); ++t) {
            GlobalTrack& g = m_tracks[m_trackMap[k][t]];
            m_partCursor[k][t] = g.cursor;
            g.cursor += m_parts[k]->sliceCount[t];
        }
    }
}

// The columns' first touch (the expensive part of sizing them) split over both cores by column.
void TraceBuild::sizeColumns()
{
    m_parallel = m_settings.threads > 1 && m_partCount > 1;
    std::vector<uint32_t> growing;
    for (size_t i = 0; i < m_profile.lanes.size(); ++i)
        if (m_laneSize[i] != m_profile.lanes[i].size())
            growing.push_back(static_cast<uint32_t>(i));
    const auto size = [&](int half) {
        for (const uint32_t i : growing) {
            Lane& lane = m_profile.lanes[i];
            const size_t n = m_laneSize[i];
            if (half == 0) {
                lane.startNs.resize(n);
                lane.nameId.resize(n);
                lane.corrId.resize(n);
            } else {
                lane.durationNs.resize(n);
                lane.kind.resize(n);
                lane.argsRef.setBase(Profile::makeArgsRef(m_settings.argsSource, 0));
                lane.argsRef.resize(n);
            }
        }
    };
    runBoth(
        m_parallel, [&] { size(0); }, [&] { size(1); });
}

// 7. Slices into their lanes, each part on its own core (disjoint rows; records freed block by block).
void TraceBuild::placeSlices()
{
    const ArgsSourceId source = m_settings.argsSource;
    // Device tasks without a task type are classed by their names: one look per name, read by both cores.
    std::vector<uint8_t> untypedTask;
    if (std::any_of(m_tracks.begin(), m_tracks.end(),
                    [](const GlobalTrack& t) { return t.role == TrackRole::NpuStream; })) {
        untypedTask.resize(m_profile.strings.size());
        for (uint32_t id = 0; id < untypedTask.size(); ++id)
            untypedTask[id] = untypedTaskClass(m_profile.strings.view(id));
    }
    const auto place = [&](const SliceRecord& s, uint32_t g, uint32_t name, size_t i) {
        const GlobalTrack& t = m_tracks[g];
        Lane& lane = m_profile.lanes[t.lane];
        lane.startNs[i] = s.startNs;
        lane.durationNs.set(i, s.durationNs);
        lane.nameId[i] = name;
        const bool untyped = t.role == TrackRole::NpuStream && hintTask(s.hint) == TaskNone;
        lane.kind[i] = eventKindFor(
            t.role, untyped && name < untypedTask.size() ? withTask(s.hint, TaskClass(untypedTask[name])) : s.hint);
        lane.corrId.set(i, s.corr == SliceRecord::kCorrNone ? -1 : s.corr);
        lane.argsRef.set(i, s.offset ? Profile::makeArgsRef(source, s.offset) : 0);
    };
    forEachParallel(m_parallel, m_partCount, [&](size_t k) {
        const std::vector<uint32_t>& map = m_trackMap[k];
        const std::vector<uint32_t>& nameMap = m_names[k];
        std::vector<uint64_t>& cursor = m_partCursor[k];
        m_parts[k]->slices.drain(
            [&](const SliceRecord& s) { place(s, map[s.track], nameMap[s.name], cursor[s.track]++); });
    });
    for (const SliceRecord& s : m_paired)
        place(s, s.track, s.name, m_tracks[s.track].cursor++);
    std::vector<SliceRecord>().swap(m_paired);
    for (const GlobalTrack& t : m_tracks)
        m_sum.slices += t.slices;
}

// 8. Counter samples: one lane per (process, series), its room reserved; the samples go in while flows
//    are bound (m_placeCounters, step 9: other lanes, other records), unless a lane holds slices too.
void TraceBuild::planCounters()
{
    Profile& profile = m_profile;
    const uint8_t source = m_settings.argsSource;
    std::unordered_map<std::string, uint32_t> seriesIndex;
    std::vector<uint32_t> seriesLane;
    std::vector<uint32_t> seriesName;
    std::vector<std::vector<uint32_t>> seriesMap(m_partCount);
    for (size_t k = 0; k < m_partCount; ++k) {
        const TraceIngest& part = *m_parts[k];
        seriesMap[k].resize(part.series.size());
        for (size_t s = 0; s < part.series.size(); ++s) {
            const CounterSeriesKey& key = part.series[s];
            std::string label(part.strings.view(key.name));
            if (key.key != 0)
                label += " " + std::string(part.strings.view(key.key));
            const std::string pidKey = idKey(key.pid, part.strings);
            auto [it, inserted] = seriesIndex.try_emplace(pidKey + '\x1f' + label, uint32_t(seriesLane.size()));
            if (inserted) {
                TrackFacts facts;
                const auto proc = m_processes.find(pidKey);
                facts.pidText = idText(key.pid, part.strings);
                if (key.pid.kind == RawId::Int)
                    facts.pid = static_cast<int64_t>(key.pid.value);
                if (proc != m_processes.end()) {
                    facts.processName = proc->second.name;
                    facts.processSortIndex = proc->second.sortIndex;
                }
                seriesLane.push_back(profile.laneFor(counterLane(facts, label, m_rankIndex)));
                seriesName.push_back(profile.strings.intern(label));
            }
            seriesMap[k][s] = it->second;
        }
    }
    std::vector<size_t> extra(profile.lanes.size(), 0);
    for (size_t k = 0; k < m_partCount; ++k)
        m_parts[k]->counters.forEach([&](const CounterRecord& c) { ++extra[seriesLane[seriesMap[k][c.series]]]; });
    for (size_t i = 0; i < extra.size(); ++i)
        if (extra[i] > 0) {
            Lane& lane = profile.lanes[i];
            lane.argsRef.setBase(Profile::makeArgsRef(source, 0));
            lane.reserve(lane.size() + extra[i]);
            lane.value.reserve(lane.size() + extra[i]);
        }
    m_placeCounters = [this, source, seriesMap = std::move(seriesMap), seriesLane = std::move(seriesLane),
                       seriesName = std::move(seriesName)] {
        for (size_t k = 0; k < m_partCount; ++k)
            m_parts[k]->counters.drain([&](const CounterRecord& c) {
                const uint32_t s = seriesMap[k][c.series];
                Lane& lane = m_profile.lanes[seriesLane[s]];
                const uint32_t row = lane.appendSample(c.tsNs, c.value, seriesName[s]);
                lane.argsRef.set(row, c.offset ? Profile::makeArgsRef(source, c.offset) : 0);
                ++m_sum.counterSamples;
            });
    };
    // Should a lane hold both slices (bound to below) and samples, the samples go in first.
    bool shared = false;
    for (const uint32_t lane : seriesLaneIds(extra))
        for (const GlobalTrack& t : m_tracks)
            shared = shared || t.lane == lane;
    if (shared) {
        m_placeCounters();
        m_placeCounters = [] {};
    }
}

// 9. Flows: bind each point to its slice (each part on its own core, its records handed back as
//    they are read) while the counter samples go in, then one link per point that continues a
//    flow whose both ends are on a slice (each part writing its own range of the links).
void TraceBuild::bindFlowsAndLink()
{
    const BoundPoints points = bindFlowPoints();
    writeFlowLinks(points);
    for (TraceIngest* part : m_parts)
        part->flows.clear();
    m_clock.lap("flows:links");
}

// Each point's slice as a row over all lanes (the lanes' rows one after the other, as they are now:
// points bind to slices already placed), with the point's category above it. So the links need no
// record read again, and the records are gone before the links are written (the load's peak of memory
// was there).
TraceBuild::BoundPoints TraceBuild::bindFlowPoints()
{
    Profile& profile = m_profile;
    SliceLocator locator;
    for (uint32_t g = 0; g < m_tracks.size(); ++g)
        if (m_tracks[g].lane != UINT32_MAX)
            locator.setTrack(g, m_tracks[g].lane, static_cast<uint32_t>(m_tracks[g].base),
                             static_cast<uint32_t>(m_tracks[g].slices));
    locator.prepare(profile, m_parallelFlows);
    m_clock.lap("flows:prep");
    BoundPoints out;
    out.laneBase.assign(profile.lanes.size() + 1, 0);
    for (size_t i = 0; i < profile.lanes.size(); ++i)
        out.laneBase[i + 1] = out.laneBase[i] + profile.lanes[i].size();
    out.linkable = m_matchable && out.laneBase.back() < kNoRow;
    if (m_matchable && !out.linkable)
        tooManyToLink();
    out.bound = LargeVector<uint64_t>(m_points);
    out.unbound.assign(m_partCount, 0);
    out.continuing.assign(m_partCount, 0);
    // Tasks: place the counter samples (one long task: first, so that it does not end last), bind
    // part 0, bind part 1, ...
    forEachParallel(m_parallelFlows, m_partCount + 1, [&](size_t task) {
        if (task == 0) {
            m_placeCounters();
            return;
        }
        const size_t k = task - 1;
        std::vector<uint32_t> hints(m_tracks.size(), 0);
        uint64_t notBound = 0, continues = 0; // (local counts: the parts' counters share a cache line)
        uint64_t point = m_pointBase[k];
        m_parts[k]->flows.drain([&](const FlowRecord& f) {
            const EventRef at =
                locator.bind(profile, m_trackMap[k][f.track], f.tsNs, f.ph != 'f' || f.enclosing, &hints);
            notBound += at.valid() ? 0 : 1;
            continues += out.linkable && m_from[point] != kNoFrom ? 1 : 0;
            const uint64_t row = at.valid() && out.linkable ? out.laneBase[at.lane] + at.index : kNoRow;
            out.bound[point++] = uint64_t(f.category) << 32 | row;
        });
        out.unbound[k] = notBound;
        out.continuing[k] = continues;
    });
    m_clock.lap("flows:bind");
    return out;
}

// One link per point that continues a flow whose both ends are on a slice, each part writing its own
// range of the links on either core.
void TraceBuild::writeFlowLinks(const BoundPoints& points)
{
    Profile& profile = m_profile;
    const auto sliceAt = [&](uint64_t row) -> EventRef {
        if (row == kNoRow)
            return {};
        const std::vector<uint64_t>& laneBase = points.laneBase;
        const auto lane = std::upper_bound(laneBase.begin(), laneBase.end(), row) - laneBase.begin() - 1;
        return {static_cast<uint32_t>(lane), static_cast<uint32_t>(row - laneBase[size_t(lane)])};
    };
    size_t planeSlices = 0; // an upper bound of step 10's links
    for (const GlobalTrack& t : m_tracks)
        if (t.role == TrackRole::CommPlane)
            planeSlices += t.slices;
    std::vector<size_t> linkStart(m_partCount + 1, profile.links.size());
    for (size_t k = 0; k < m_partCount; ++k)
        linkStart[k + 1] = linkStart[k] + points.continuing[k];
    profile.links.reserve(linkStart[m_partCount] + planeSlices);
    {
        // The new links' first touch on both cores, by part (resize() writes every Link's defaults
        // on one core: fresh memory is what costs most here); the storage is then warm.
        char* storage = reinterpret_cast<char*>(profile.links.data());
        forEachParallel(m_parallelFlows, m_partCount, [&](size_t k) {
            if (linkStart[k + 1] > linkStart[k]) // (storage is null when there are no links at all)
                std::memset(storage + linkStart[k] * sizeof(Link), 0, (linkStart[k + 1] - linkStart[k]) * sizeof(Link));
        });
    }
    profile.links.resize(linkStart[m_partCount]); // written below, part by part
    forEachParallel(m_parallelFlows, m_partCount, [&](size_t k) {
        Link* out = profile.links.data() + linkStart[k];
        for (uint64_t p = m_pointBase[k]; points.linkable && p < m_pointBase[k + 1]; ++p) {
            if (m_from[p] == kNoFrom)
                continue;
            const uint32_t category = static_cast<uint32_t>(points.bound[p] >> 32);
            Link& l = *out++;
            l.from = sliceAt(static_cast<uint32_t>(points.bound[m_from[p]]));
            l.to = sliceAt(static_cast<uint32_t>(points.bound[p]));
            l.kind = m_categoryKinds[k][category];
            l.categoryId = m_categoryIds[k][category];
            if (!l.to.valid())
                l.from = EventRef{}; // dropped below
        }
    });
    const auto first = profile.links.begin() + static_cast<ptrdiff_t>(linkStart[0]);
    profile.links.erase(std::remove_if(first, profile.links.end(), [](const Link& l) { return !l.from.valid(); }),
                        profile.links.end());
    m_sum.flowsResolved += profile.links.size() - linkStart[0];
    for (size_t k = 0; k < m_partCount; ++k)
        m_sum.flowPointsUnbound += points.unbound[k];
}

// 10. HCCL sub-tasks (Plane lanes) → the collective (Group lane) whose span contains them.
void TraceBuild::linkCommTasks()
{
    Profile& profile = m_profile;
    struct Op {
        TimeNs start, end;
        EventRef ref;
    };
    std::map<std::pair<int, std::string>, std::vector<Op>> ops;
    for (const GlobalTrack& t : m_tracks) {
        if (t.role != TrackRole::CommGroup)
            continue;
        const Lane& lane = profile.lanes[t.lane];
        std::vector<Op>& list = ops[{lane.info.rankIndex, lane.info.process}];
        for (uint64_t i = t.base; i < t.base + t.slices; ++i)
            list.push_back({lane.startNs[i], lane.startNs[i] + lane.durationNs[i], {t.lane, static_cast<uint32_t>(i)}});
    }
    for (auto& [key, list] : ops)
        std::sort(list.begin(), list.end(), [](const Op& a, const Op& b) { return a.start < b.start; });
    for (const GlobalTrack& t : m_tracks) {
        if (t.role != TrackRole::CommPlane)
            continue;
        const Lane& lane = profile.lanes[t.lane];
        const auto it = ops.find({lane.info.rankIndex, lane.info.process});
        if (it == ops.end())
            continue;
        const std::vector<Op>& list = it->second;
        for (uint64_t i = t.base; i < t.base + t.slices; ++i) {
            const TimeNs s = lane.startNs[i];
            auto after =
                std::upper_bound(list.begin(), list.end(), s, [](TimeNs v, const Op& op) { return v < op.start; });
            for (int steps = 0; after != list.begin() && steps < 8; ++steps) {
                --after;
                if (after->end >= s) {
                    profile.addLink(after->ref, {t.lane, static_cast<uint32_t>(i)}, LinkKind::CommOpToTask);
                    ++m_sum.commLinks;
                    break;
                }
            }
        }
    }
}

// 11. What did not fit, once per kind of problem.
void TraceBuild::warnLeftovers()
{
    TraceBuilder::Summary& sum = m_sum;
    const QString file = QString::fromStdString(m_settings.fileLabel);
    if (sum.flowsWithoutStart > 0)
        sum.warnings.push_back(QCoreApplication::translate(
                                   "ChromeTraceLoader",
                                   "%1: %2 flow finishes have no flow start (the trace was probably trimmed); they "
                                   "are not linked")
                                   .arg(file)
                                   .arg(sum.flowsWithoutStart));
    if (sum.flowPointsUnbound > 0)
        sum.warnings.push_back(
            QCoreApplication::translate(
                "ChromeTraceLoader", "%1: %2 flow events are not on any slice of their thread; their links are dropped")
                .arg(file)
                .arg(sum.flowPointsUnbound));
    if (sum.unmatchedEnds > 0)
        sum.warnings.push_back(
            QCoreApplication::translate("ChromeTraceLoader",
                                        "%1: %2 slice ends (ph E/e) have no matching begin; they are ignored")
                .arg(file)
                .arg(sum.unmatchedEnds));
    if (sum.unclosedBegins > 0)
        sum.warnings.push_back(
            QCoreApplication::translate("ChromeTraceLoader",
                                        "%1: %2 slices (ph B/b) never end; they are shown up to the end of the trace")
                .arg(file)
                .arg(sum.unclosedBegins));
}

} // namespace

TraceBuilder::Summary TraceBuilder::build(const std::vector<TraceIngest*>& parts)
{
    return TraceBuild(m_profile, m_settings, parts).run();
}

} // namespace dspark::trace
