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

} // namespace

TraceBuilder::Summary TraceBuilder::build(const std::vector<TraceIngest*>& parts)
{
    Summary sum;
    Profile& profile = m_profile;
    const size_t partCount = parts.size();

    StepTimer clock("build");
    // 1. Strings: every thread's local ids → the profile's ids.
    std::vector<std::vector<uint32_t>> names(partCount);
    for (size_t k = 0; k < partCount; ++k) {
        const StringTable& local = parts[k]->strings;
        names[k].resize(local.size());
        for (uint32_t id = 0; id < local.size(); ++id)
            names[k][id] = profile.strings.intern(local.view(id));
    }
    const auto globalId = [&](size_t k, uint8_t kind, uint64_t value) -> uint64_t {
        return kind == RawId::String || kind == RawId::Other ? names[k][static_cast<uint32_t>(value)] : value;
    };

    clock.lap("strings");
    // 2. Tracks: (pid, tid) as written, merged over the threads.
    std::unordered_map<std::string, uint32_t> trackIndex;
    std::vector<GlobalTrack> tracks;
    std::vector<std::vector<uint32_t>> trackMap(partCount);
    std::unordered_map<std::string, ProcessFacts> processes;
    for (size_t k = 0; k < partCount; ++k) {
        const TraceIngest& part = *parts[k];
        trackMap[k].resize(part.tracks.size());
        for (size_t t = 0; t < part.tracks.size(); ++t) {
            const TrackKey& key = part.tracks[t];
            const std::string pidKey = idKey(key.pid, part.strings);
            auto [it, inserted] =
                trackIndex.try_emplace(pidKey + '\x1f' + idKey(key.tid, part.strings), uint32_t(tracks.size()));
            if (inserted) {
                GlobalTrack g;
                g.pidKey = pidKey;
                g.facts.pidText = idText(key.pid, part.strings);
                g.facts.tidText = idText(key.tid, part.strings);
                if (key.pid.kind == RawId::Int)
                    g.facts.pid = static_cast<int64_t>(key.pid.value);
                if (key.tid.kind == RawId::Int)
                    g.facts.tid = static_cast<int64_t>(key.tid.value);
                tracks.push_back(std::move(g));
                ProcessFacts& proc = processes[pidKey];
                proc.pidText = tracks.back().facts.pidText;
                proc.pid = tracks.back().facts.pid;
            }
            GlobalTrack& g = tracks[it->second];
            trackMap[k][t] = it->second;
            g.slices += part.sliceCount[t];
            if (!g.facts.gpu.known && part.trackGpu[t].known)
                g.facts.gpu = part.trackGpu[t];
        }
    }

    clock.lap("tracks");
    // 3. Metadata, in file order (a later record wins).
    for (size_t k = 0; k < partCount; ++k) {
        const TraceIngest& part = *parts[k];
        for (const MetaRecord& m : part.metas) {
            GlobalTrack& g = tracks[trackMap[k][m.track]];
            ProcessFacts& proc = processes[g.pidKey];
            switch (m.kind) {
            case MetaRecord::ProcessName: proc.name = std::string(part.strings.view(m.text)); break;
            case MetaRecord::ThreadName: g.facts.threadName = std::string(part.strings.view(m.text)); break;
            case MetaRecord::ProcessSortIndex: proc.sortIndex = m.number; break;
            case MetaRecord::ThreadSortIndex: g.facts.threadSortIndex = m.number; break;
            case MetaRecord::ProcessLabels: break;
            }
        }
    }
    for (GlobalTrack& g : tracks) {
        const ProcessFacts& proc = processes[g.pidKey];
        g.facts.processName = proc.name;
        g.facts.processSortIndex = proc.sortIndex;
    }

    clock.lap("metadata");
    // 4. B/E (per thread, nested) and b/e (async, by cat and id) pairs become slices.
    int64_t maxEnd = INT64_MIN;
    for (const TraceIngest* part : parts)
        maxEnd = std::max(maxEnd, part->maxEndNs);
    std::vector<SliceRecord> paired; // global track and name ids
    {
        std::vector<std::vector<OpenMark>> openStacks(tracks.size());
        std::unordered_map<std::string, std::vector<OpenMark>> openAsync;
        for (size_t k = 0; k < partCount; ++k) {
            for (const MarkRecord& m : parts[k]->marks) {
                const uint32_t g = trackMap[k][m.track];
                const OpenMark mark{m.tsNs, m.offset, g, names[k][m.name], m.hint};
                if (m.ph == 'B') {
                    openStacks[g].push_back(mark);
                    continue;
                }
                std::vector<OpenMark>* stack = &openStacks[g];
                if (m.ph == 'b' || m.ph == 'e') {
                    const std::string key = std::to_string(names[k][m.cat]) + '|' + std::to_string(m.id.kind) + '|' +
                                            std::to_string(globalId(k, m.id.kind, m.id.value));
                    stack = &openAsync[key];
                    if (m.ph == 'b') {
                        stack->push_back(mark);
                        continue;
                    }
                }
                if (stack->empty()) {
                    ++sum.unmatchedEnds;
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
                paired.push_back(s);
                stack->pop_back();
            }
            std::vector<MarkRecord>().swap(parts[k]->marks);
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
                paired.push_back(s);
                ++sum.unclosedBegins;
            }
        };
        for (auto& stack : openStacks)
            closeAll(stack);
        for (auto& [key, stack] : openAsync)
            closeAll(stack);
        for (const SliceRecord& s : paired)
            ++tracks[s.track].slices;
    }

    clock.lap("pairs");
    // 5. Flows matched by (cat, id) before any lane is written, so that the match tables are freed
    //    before the lane columns are first touched (the columns reuse their pages; a load pays for
    //    its peak of fresh memory). Points are numbered over the parts in file order; from[p] is the
    //    number of the point p's flow continues from (kNoFrom: none).
    //    Each part is matched on its own, both cores taking parts: its table is a part's size and a
    //    flow's two ends are mostly close together in the file, so its look-ups mostly hit the
    //    cache (and each point is read once, where one matcher per half of the key space had both
    //    cores read every point). A finish or step whose (cat, id) its part has not started waits.
    //    Then, part by part in file order, each waiting point takes where its flow stands after the
    //    parts before it (the latest part that has the key); a point still without a start (a
    //    finish before its start in the file) takes where its flow ends in the whole file. That is
    //    what one matcher fed the whole file in order gives.
    std::vector<uint64_t> pointBase(partCount + 1, 0);
    for (size_t k = 0; k < partCount; ++k)
        pointBase[k + 1] = pointBase[k] + parts[k]->flows.size();
    const uint64_t points = pointBase[partCount];
    // Each part's few flow categories, resolved once: profile string id and link kind.
    std::vector<std::vector<uint32_t>> categoryIds(partCount);
    std::vector<std::vector<LinkKind>> categoryKinds(partCount);
    for (size_t k = 0; k < partCount; ++k) {
        const std::vector<uint32_t>& localCategories = parts[k]->flowCategories;
        categoryIds[k].resize(localCategories.size());
        categoryKinds[k].resize(localCategories.size());
        for (size_t c = 0; c < localCategories.size(); ++c) {
            categoryIds[k][c] = names[k][localCategories[c]];
            const FlowClass fc = flowClassOf(profile.strings.view(categoryIds[k][c]));
            categoryKinds[k][c] = fc == FlowClass::HostToDevice ? LinkKind::HostToDevice
                                  : fc == FlowClass::OpToDevice ? LinkKind::OpToDevice
                                                                : LinkKind::Flow;
        }
    }
    // The matchers number categories densely (their table entries hold 29 bits of category).
    std::vector<std::vector<uint32_t>> categorySlots(partCount);
    std::unordered_map<uint32_t, uint32_t> denseCategory;
    for (size_t k = 0; k < partCount; ++k)
        for (const uint32_t id : categoryIds[k])
            categorySlots[k].push_back(
                denseCategory.try_emplace(id, static_cast<uint32_t>(denseCategory.size())).first->second);
    const bool matchable = points < FlowMatcher::kMaxPoints && denseCategory.size() < FlowMatcher::kMaxCategories;
    const bool parallelFlows = m_settings.threads > 1 && points >= m_settings.tuning.parallelFlowPoints;
    constexpr uint32_t kNoFrom = UINT32_MAX;            // (point numbers are below FlowMatcher::kMaxPoints)
    LargeVector<uint32_t> from(matchable ? points : 0); // each point written by its part's matcher
    // Flows beyond what a matcher's table or a row over all lanes holds (billions): no links.
    const auto tooManyToLink = [&] {
        sum.warnings.push_back(QCoreApplication::translate("ChromeTraceLoader",
                                                           "%1: %2 flow events are more than can be linked; "
                                                           "flows are not shown")
                                   .arg(QString::fromStdString(m_settings.fileLabel))
                                   .arg(points));
    };
    if (!matchable) {
        tooManyToLink();
    } else {
        std::vector<std::unique_ptr<FlowMatcher>> matchers(partCount);
        std::vector<std::vector<FlowMatcher::Waiting>> waiting(partCount);
        forEachParallel(parallelFlows, partCount, [&](size_t k) {
            TraceIngest& part = *parts[k];
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
            uint64_t point = pointBase[k];
            part.flows.forEach([&](const FlowRecord& f) {
                const uint64_t p = point++;
                const uint64_t continues = matcher->add(f.ph, f.category, f.idKind, f.id, p);
                from[p] = continues == FlowMatcher::kNoStart ? kNoFrom : static_cast<uint32_t>(continues);
            });
            waiting[k] = matcher->takeWaiting();
            matchers[k] = std::move(matcher);
        });
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
        std::vector<std::vector<uint32_t>> localCategory(partCount); // dense category → the part's
        for (size_t k = 0; k < partCount; ++k) {
            localCategory[k].assign(denseCategory.size(), UINT32_MAX);
            for (uint32_t c = 0; c < categorySlots[k].size(); ++c)
                localCategory[k][categorySlots[k][c]] = c;
        }
        // Per part: the waiting steps that continued a flow of an earlier part (where it now stands).
        std::vector<std::unordered_map<FlowKey, uint32_t, FlowKeyHash>> steps(partCount);
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
                    parts[j]->strings.find(profile.strings.view(static_cast<uint32_t>(key.id)));
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
        for (size_t k = 0; k < partCount; ++k) {
            for (const FlowMatcher::Waiting& w : waiting[k]) {
                const FlowKey key{globalId(k, w.idKind, w.id), categorySlots[k][w.category], w.idKind};
                uint64_t at = FlowMatcher::kNoStart;
                if (const auto step = steps[k].find(key); step != steps[k].end())
                    at = step->second;
                for (size_t j = k; at == FlowMatcher::kNoStart && j-- > 0;)
                    at = standsIn(j, key);
                if (at == FlowMatcher::kNoStart) {
                    beforeStart.emplace_back(key, w.point);
                    continue;
                }
                from[w.point] = static_cast<uint32_t>(at);
                if (w.ph == 't')
                    steps[k][key] = static_cast<uint32_t>(w.point);
            }
            std::vector<FlowMatcher::Waiting>().swap(waiting[k]);
        }
        for (const auto& [key, point] : beforeStart) {
            uint64_t at = FlowMatcher::kNoStart;
            for (size_t j = partCount; at == FlowMatcher::kNoStart && j-- > 0;)
                at = standsIn(j, key);
            if (at == FlowMatcher::kNoStart)
                ++sum.flowsWithoutStart;
            else
                from[point] = static_cast<uint32_t>(at);
        }
    }

    clock.lap("flows:match");
    // 6. Lanes. The rank's device is the first device a lane names.
    int device = -1;
    std::vector<LanePlan> plans(tracks.size());
    for (size_t g = 0; g < tracks.size(); ++g) {
        if (tracks[g].slices == 0)
            continue;
        plans[g] = planTrackLane(tracks[g].facts, 0, -1);
        if (device < 0 && isDeviceLane(plans[g].info.kind) && plans[g].info.deviceId >= 0)
            device = plans[g].info.deviceId;
    }
    const int rankIndex = profile.ensureRank(m_settings.rank, device);
    std::vector<uint64_t> laneSize(profile.lanes.size());
    for (size_t i = 0; i < profile.lanes.size(); ++i)
        laneSize[i] = profile.lanes[i].size();
    for (size_t g = 0; g < tracks.size(); ++g) {
        GlobalTrack& t = tracks[g];
        if (t.slices == 0)
            continue;
        plans[g].info.rank = rankIndex;
        if (plans[g].info.kind == LaneKind::NpuStream && ascendDeviceFromPid(t.facts) < 0 && device >= 0)
            plans[g].info.deviceId = device;
        t.lane = profile.laneFor(plans[g].info);
        t.role = plans[g].role;
        if (t.lane >= laneSize.size())
            laneSize.resize(t.lane + 1, 0);
        t.base = t.cursor = laneSize[t.lane];
        laneSize[t.lane] += t.slices;
    }
    // Where each part's slices of each track go: parts in file order, then the paired B/E slices.
    std::vector<std::vector<uint64_t>> partCursor(partCount);
    for (size_t k = 0; k < partCount; ++k) {
        partCursor[k].resize(parts[k]->tracks.size());
        for (size_t t = 0; t < parts[k]->tracks.size(); ++t) {
            GlobalTrack& g = tracks[trackMap[k][t]];
            partCursor[k][t] = g.cursor;
            g.cursor += parts[k]->sliceCount[t];
        }
    }
    // The columns' first touch (the expensive part of sizing them) split over both cores by column.
    const bool parallel = m_settings.threads > 1 && partCount > 1;
    std::vector<uint32_t> growing;
    for (size_t i = 0; i < profile.lanes.size(); ++i)
        if (laneSize[i] != profile.lanes[i].size())
            growing.push_back(static_cast<uint32_t>(i));
    const auto sizeColumns = [&](int half) {
        for (const uint32_t i : growing) {
            Lane& lane = profile.lanes[i];
            const size_t n = laneSize[i];
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
        parallel, [&] { sizeColumns(0); }, [&] { sizeColumns(1); });

    clock.lap("lanes+sizing");
    // 7. Slices into their lanes, each part on its own core (disjoint rows; records freed block by block).
    const ArgsSourceId source = m_settings.argsSource;
    // Device tasks without a task type are classed by their names: one look per name, read by both cores.
    std::vector<uint8_t> untypedTask;
    if (std::any_of(tracks.begin(), tracks.end(),
                    [](const GlobalTrack& t) { return t.role == TrackRole::NpuStream; })) {
        untypedTask.resize(profile.strings.size());
        for (uint32_t id = 0; id < untypedTask.size(); ++id)
            untypedTask[id] = untypedTaskClass(profile.strings.view(id));
    }
    const auto place = [&](const SliceRecord& s, uint32_t g, uint32_t name, size_t i) {
        const GlobalTrack& t = tracks[g];
        Lane& lane = profile.lanes[t.lane];
        lane.startNs[i] = s.startNs;
        lane.durationNs.set(i, s.durationNs);
        lane.nameId[i] = name;
        const bool untyped = t.role == TrackRole::NpuStream && hintTask(s.hint) == TaskNone;
        lane.kind[i] = eventKindFor(
            t.role, untyped && name < untypedTask.size() ? withTask(s.hint, TaskClass(untypedTask[name])) : s.hint);
        lane.corrId.set(i, s.corr == SliceRecord::kCorrNone ? -1 : s.corr);
        lane.argsRef.set(i, s.offset ? Profile::makeArgsRef(source, s.offset) : 0);
    };
    forEachParallel(parallel, partCount, [&](size_t k) {
        const std::vector<uint32_t>& map = trackMap[k];
        const std::vector<uint32_t>& nameMap = names[k];
        std::vector<uint64_t>& cursor = partCursor[k];
        parts[k]->slices.drain(
            [&](const SliceRecord& s) { place(s, map[s.track], nameMap[s.name], cursor[s.track]++); });
    });
    for (const SliceRecord& s : paired)
        place(s, s.track, s.name, tracks[s.track].cursor++);
    std::vector<SliceRecord>().swap(paired);
    for (const GlobalTrack& t : tracks)
        sum.slices += t.slices;

    clock.lap("slices");
    if (std::atomic<int>* failAfter = m_settings.tuning.failBuildAfter;
        failAfter && *failAfter >= 0 && (*failAfter)-- == 0)
        throw std::bad_alloc(); // (tests: running out of memory with the lanes half built)
    // 8. Counter samples: one lane per (process, series).
    std::function<void()> placeCounters;
    {
        std::unordered_map<std::string, uint32_t> seriesIndex;
        std::vector<uint32_t> seriesLane;
        std::vector<uint32_t> seriesName;
        std::vector<std::vector<uint32_t>> seriesMap(partCount);
        for (size_t k = 0; k < partCount; ++k) {
            const TraceIngest& part = *parts[k];
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
                    const auto proc = processes.find(pidKey);
                    facts.pidText = idText(key.pid, part.strings);
                    if (key.pid.kind == RawId::Int)
                        facts.pid = static_cast<int64_t>(key.pid.value);
                    if (proc != processes.end()) {
                        facts.processName = proc->second.name;
                        facts.processSortIndex = proc->second.sortIndex;
                    }
                    seriesLane.push_back(profile.laneFor(counterLane(facts, label, rankIndex)));
                    seriesName.push_back(profile.strings.intern(label));
                }
                seriesMap[k][s] = it->second;
            }
        }
        std::vector<size_t> extra(profile.lanes.size(), 0);
        for (size_t k = 0; k < partCount; ++k)
            parts[k]->counters.forEach([&](const CounterRecord& c) { ++extra[seriesLane[seriesMap[k][c.series]]]; });
        for (size_t i = 0; i < extra.size(); ++i)
            if (extra[i] > 0) {
                Lane& lane = profile.lanes[i];
                lane.argsRef.setBase(Profile::makeArgsRef(source, 0));
                lane.reserve(lane.size() + extra[i]);
                lane.value.reserve(lane.size() + extra[i]);
            }
        // The samples go in while flows are bound (step 9): other lanes, other records.
        placeCounters = [&, seriesMap = std::move(seriesMap), seriesLane = std::move(seriesLane),
                         seriesName = std::move(seriesName)] {
            for (size_t k = 0; k < partCount; ++k)
                parts[k]->counters.drain([&](const CounterRecord& c) {
                    const uint32_t s = seriesMap[k][c.series];
                    Lane& lane = profile.lanes[seriesLane[s]];
                    const uint32_t row = lane.appendSample(c.tsNs, c.value, seriesName[s]);
                    lane.argsRef.set(row, c.offset ? Profile::makeArgsRef(source, c.offset) : 0);
                    ++sum.counterSamples;
                });
        };
        // Should a lane hold both slices (bound to below) and samples, the samples go in first.
        bool shared = false;
        for (const uint32_t lane : seriesLaneIds(extra))
            for (const GlobalTrack& t : tracks)
                shared = shared || t.lane == lane;
        if (shared) {
            placeCounters();
            placeCounters = [] {};
        }
    }

    clock.lap("counters");
    // 9. Flows: bind each point to its slice (each part on its own core, its records handed back as
    //    they are read) while the counter samples go in, then one link per point that continues a
    //    flow whose both ends are on a slice (each part writing its own range of the links).
    {
        SliceLocator locator;
        for (uint32_t g = 0; g < tracks.size(); ++g)
            if (tracks[g].lane != UINT32_MAX)
                locator.setTrack(g, tracks[g].lane, static_cast<uint32_t>(tracks[g].base),
                                 static_cast<uint32_t>(tracks[g].slices));
        locator.prepare(profile, parallelFlows);
        clock.lap("flows:prep");
        // Each point's slice as a row over all lanes (the lanes' rows one after the other, as they
        // are now: points bind to slices already placed), with the point's category above it. So the
        // links need no record read again, and the records are gone before the links are written
        // (the load's peak of memory was there). kNoRow: not on a slice.
        constexpr uint32_t kNoRow = UINT32_MAX;
        std::vector<uint64_t> laneBase(profile.lanes.size() + 1, 0);
        for (size_t i = 0; i < profile.lanes.size(); ++i)
            laneBase[i + 1] = laneBase[i] + profile.lanes[i].size();
        const bool linkable = matchable && laneBase.back() < kNoRow;
        if (matchable && !linkable)
            tooManyToLink();
        LargeVector<uint64_t> bound(points);
        const auto sliceAt = [&](uint64_t row) -> EventRef {
            if (row == kNoRow)
                return {};
            const auto lane = std::upper_bound(laneBase.begin(), laneBase.end(), row) - laneBase.begin() - 1;
            return {static_cast<uint32_t>(lane), static_cast<uint32_t>(row - laneBase[size_t(lane)])};
        };
        std::vector<uint64_t> unbound(partCount, 0), continuing(partCount, 0);
        // Tasks: place the counter samples (one long task: first, so that it does not end last), bind
        // part 0, bind part 1, ...
        forEachParallel(parallelFlows, partCount + 1, [&](size_t task) {
            if (task == 0) {
                placeCounters();
                return;
            }
            const size_t k = task - 1;
            std::vector<uint32_t> hints(tracks.size(), 0);
            uint64_t notBound = 0, continues = 0; // (local counts: the parts' counters share a cache line)
            uint64_t point = pointBase[k];
            parts[k]->flows.drain([&](const FlowRecord& f) {
                const EventRef at =
                    locator.bind(profile, trackMap[k][f.track], f.tsNs, f.ph != 'f' || f.enclosing, &hints);
                notBound += at.valid() ? 0 : 1;
                continues += linkable && from[point] != kNoFrom ? 1 : 0;
                const uint64_t row = at.valid() && linkable ? laneBase[at.lane] + at.index : kNoRow;
                bound[point++] = uint64_t(f.category) << 32 | row;
            });
            unbound[k] = notBound;
            continuing[k] = continues;
        });
        clock.lap("flows:bind");
        size_t planeSlices = 0; // an upper bound of step 10's links
        for (const GlobalTrack& t : tracks)
            if (t.role == TrackRole::CommPlane)
                planeSlices += t.slices;
        std::vector<size_t> linkStart(partCount + 1, profile.links.size());
        for (size_t k = 0; k < partCount; ++k)
            linkStart[k + 1] = linkStart[k] + continuing[k];
        profile.links.reserve(linkStart[partCount] + planeSlices);
        {
            // The new links' first touch on both cores, by part (resize() writes every Link's defaults
            // on one core: fresh memory is what costs most here); the storage is then warm.
            char* storage = reinterpret_cast<char*>(profile.links.data());
            forEachParallel(parallelFlows, partCount, [&](size_t k) {
                if (linkStart[k + 1] > linkStart[k]) // (storage is null when there are no links at all)
                    std::memset(storage + linkStart[k] * sizeof(Link), 0,
                                (linkStart[k + 1] - linkStart[k]) * sizeof(Link));
            });
        }
        profile.links.resize(linkStart[partCount]); // written below, part by part
        forEachParallel(parallelFlows, partCount, [&](size_t k) {
            Link* out = profile.links.data() + linkStart[k];
            for (uint64_t p = pointBase[k]; linkable && p < pointBase[k + 1]; ++p) {
                if (from[p] == kNoFrom)
                    continue;
                const uint32_t category = static_cast<uint32_t>(bound[p] >> 32);
                Link& l = *out++;
                l.from = sliceAt(static_cast<uint32_t>(bound[from[p]]));
                l.to = sliceAt(static_cast<uint32_t>(bound[p]));
                l.kind = categoryKinds[k][category];
                l.categoryId = categoryIds[k][category];
                if (!l.to.valid())
                    l.from = EventRef{}; // dropped below
            }
        });
        const auto first = profile.links.begin() + static_cast<ptrdiff_t>(linkStart[0]);
        profile.links.erase(std::remove_if(first, profile.links.end(), [](const Link& l) { return !l.from.valid(); }),
                            profile.links.end());
        sum.flowsResolved += profile.links.size() - linkStart[0];
        for (size_t k = 0; k < partCount; ++k)
            sum.flowPointsUnbound += unbound[k];
        for (TraceIngest* part : parts)
            part->flows.clear();
        clock.lap("flows:links");
    }

    clock.lap("flows");
    // 10. HCCL sub-tasks (Plane lanes) → the collective (Group lane) whose span contains them.
    {
        struct Op {
            TimeNs start, end;
            EventRef ref;
        };
        std::map<std::pair<int, std::string>, std::vector<Op>> ops;
        for (const GlobalTrack& t : tracks) {
            if (t.role != TrackRole::CommGroup)
                continue;
            const Lane& lane = profile.lanes[t.lane];
            std::vector<Op>& list = ops[{lane.info.rank, lane.info.process}];
            for (uint64_t i = t.base; i < t.base + t.slices; ++i)
                list.push_back(
                    {lane.startNs[i], lane.startNs[i] + lane.durationNs[i], {t.lane, static_cast<uint32_t>(i)}});
        }
        for (auto& [key, list] : ops)
            std::sort(list.begin(), list.end(), [](const Op& a, const Op& b) { return a.start < b.start; });
        for (const GlobalTrack& t : tracks) {
            if (t.role != TrackRole::CommPlane)
                continue;
            const Lane& lane = profile.lanes[t.lane];
            const auto it = ops.find({lane.info.rank, lane.info.process});
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
                        ++sum.commLinks;
                        break;
                    }
                }
            }
        }
    }

    clock.lap("hccl");
    // 11. What did not fit, once per kind of problem.
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
    return sum;
}

} // namespace dspark::trace
