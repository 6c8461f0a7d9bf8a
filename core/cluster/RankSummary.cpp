#include "cluster/RankSummary.h"

#include "analysis/AnalysisRules.h"
#include "analysis/OverlapAnalysis.h"
#include "analysis/StepAnalysis.h"
#include "io/FileFormat.h"
#include "io/ProfileScanner.h"
#include "steps/StepAlignment.h"
#include "steps/StepRecordLoader.h"
#include "steps/StepRecords.h"
#include "util/BoundedJson.h"
#include "util/StepTimer.h"

#include <QCoreApplication>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

namespace dspark {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFormatMarker = "dspark-rank-summary";

std::string trimSequence(std::string s)
{
    while (!s.empty() && (std::isdigit(static_cast<unsigned char>(s.back())) || s.back() == '_'))
        s.pop_back();
    return s;
}

// One records file serves every rank of a cluster: the last one read is kept (by path, size and
// modification time) so that N ranks parse it once, not N times. It stays in memory until another file
// is read; null when it does not load.
std::shared_ptr<const StepRecordSet> readRecordsFile(const fs::path& path, FileFormat format)
{
    static std::mutex mutex;
    static std::string cachedKey;
    static std::shared_ptr<const StepRecordSet> cached;
    std::error_code ec;
    const std::string key = path.string() + '|' + std::to_string(fs::file_size(path, ec)) + '|' +
                            std::to_string(fs::last_write_time(path, ec).time_since_epoch().count());
    const std::lock_guard lock(mutex); // a second rank waits for the first one's parse, then shares it
    if (key == cachedKey)
        return cached;
    ScannedFile file;
    file.path = path.string();
    file.format = format;
    Profile scratch;
    const bool ok = loadStepRecords(file, scratch, LoadProgress{}).isEmpty();
    cachedKey = key;
    cached = ok ? scratch.stepRecords : nullptr;
    return cached;
}

// A cluster's step records sit beside its rank folders (server_info.json: internal_states[i] holds DP
// rank i, formats.md §6): those of DP rank = this rank's number, aligned to this rank's timeline; null
// when the folder holding `source` has none for it.
std::shared_ptr<StepRecordSet> clusterRecords(const Profile& profile, int rankIndex, const std::string& source,
                                              const NameRule& stepSpan)
{
    std::error_code ec;
    fs::path run = fs::path(source).lexically_normal();
    if (run.filename().empty())
        run = run.parent_path(); // "…/run/"
    const int dpRank = profile.ranks.at(static_cast<size_t>(rankIndex)).rankNumber;
    for (fs::directory_iterator it(run.parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec))
            continue;
        const FileFormat format = detectFileFormat(it->path().string());
        if (!isStepRecordFormat(format))
            continue;
        const std::shared_ptr<const StepRecordSet> all = readRecordsFile(it->path(), format);
        if (!all)
            continue;
        for (const RankStepRecords& r : all->ranks)
            if (r.dpRank == dpRank) {
                auto set = std::make_shared<StepRecordSet>();
                set->ranks.push_back(r);
                set->rebuild();
                set->alignment = alignSteps(profile, *set, stepSpan);
                return set;
            }
    }
    return nullptr;
}

// The steps of the rank as analysis windows: its aligned DSpark records (its own, else the cluster's
// records of its DP rank beside its folder), else the profiler's steps.
std::vector<StepWindow> rankWindows(const Profile& profile, int rankIndex, const AnalysisRules& rules,
                                    const std::string& path, std::string& source)
{
    const NameRule& stepSpan = rules.rule(RuleId::StepSpan);
    std::vector<StepWindow> out;
    for (const RecordWindow& w : stepWindows(profile, stepSpan))
        if (w.window.rankIndex == rankIndex)
            out.push_back(w.window);
    if (out.empty() && !path.empty())
        if (const std::shared_ptr<StepRecordSet> set = clusterRecords(profile, rankIndex, path, stepSpan))
            for (const RecordWindow& w : stepWindows(profile, *set, stepSpan))
                if (w.window.rankIndex == rankIndex)
                    out.push_back(w.window);
    source = out.empty() ? "" : "records";
    if (out.empty())
        for (const Lane& lane : profile.lanes)
            if (lane.info.profilerSteps && lane.info.rankIndex == rankIndex) {
                for (size_t i = 0; i < lane.size(); ++i) {
                    StepWindow w;
                    w.rankIndex = rankIndex;
                    w.forwardCt = lane.corrId[i]; // STEP_TIME.id
                    w.startNs = lane.startNs[i];
                    w.endNs = lane.endNs(i);
                    out.push_back(w);
                }
                source = "profiler_steps";
            }
    std::sort(out.begin(), out.end(), [](const StepWindow& a, const StepWindow& b) { return a.startNs < b.startNs; });
    return out;
}

// The path's hops with their tasks' names; neighbours of one category and name become one piece.
std::vector<RankPathHop> pathPieces(const Profile& profile, const CriticalPath& path)
{
    std::vector<RankPathHop> out;
    for (const PathHop& h : path.hops) {
        std::string what = h.event.valid() ? std::string(profile.name(h.event)) : std::string();
        if (!out.empty() && out.back().endNs == h.interval.startNs && out.back().category == h.category &&
            out.back().what == what)
            out.back().endNs = h.interval.endNs;
        else
            out.push_back({h.interval.startNs, h.interval.endNs, h.category, std::move(what)});
    }
    return out;
}

// The steps analysed; `devices` receives the profile's device activity (the analyzer gathers it for
// the steps' overlap, and the activity bins reuse it), gathered here when there is no step to analyse.
std::vector<RankStep> analysedSteps(const Profile& profile, int rankIndex, const AnalysisRules& rules,
                                    const std::string& path, std::string& source, std::vector<DeviceActivity>& devices,
                                    StepTimer& timer)
{
    const std::vector<StepWindow> windows = rankWindows(profile, rankIndex, rules, path, source);
    timer.lap("windows");
    std::vector<RankStep> steps;
    if (windows.empty()) {
        devices = collectDeviceActivity(profile);
        return steps;
    }
    const StepAnalyzer analyzer(profile, rules);
    timer.lap("index");
    steps.reserve(windows.size());
    for (const StepWindow& w : windows) {
        const StepAnalysis a = analyzer.analyze(w);
        RankStep s;
        s.stepId = w.forwardCt;
        s.startNs = w.startNs;
        s.endNs = w.endNs;
        s.stepGpuMs = w.stepGpuMs;
        s.commTotalNs = a.comm.totalNs;
        s.commExposedNs = a.comm.exposedNs;
        s.preReplayGapNs = a.replay.preReplayGapNs;
        s.pathNs = a.criticalPath.byCategory;
        s.path = pathPieces(profile, a.criticalPath);
        steps.push_back(std::move(s));
    }
    devices = analyzer.activity();
    return steps;
}

std::string argValue(const std::vector<EventArg>& args, std::initializer_list<const char*> keys)
{
    for (const char* key : keys)
        for (const EventArg& a : args)
            if (a.key == key)
                return a.value;
    return {};
}

std::vector<CollectiveTiming> collectivesOf(const Profile& profile, int rankIndex)
{
    std::vector<CollectiveTiming> out;
    for (uint32_t l = 0; l < profile.lanes.size(); ++l) {
        const Lane& lane = profile.lanes[l];
        if (lane.info.rankIndex != rankIndex)
            continue;
        for (uint32_t i = 0; i < lane.size(); ++i) {
            if (lane.kind[i] != EventKind::CommOp)
                continue;
            const EventRef e{l, i};
            const std::vector<EventArg> args = profile.args(e);
            CollectiveTiming c;
            c.group = argValue(args, {"groupName", "Process Group Name", "pg_name"});
            if (c.group.empty())
                c.group = lane.info.name;
            c.name = std::string(profile.name(e));
            c.kind = collectiveKind(c.name, argValue(args, {"opType", "Collective name"}));
            const std::string count = argValue(args, {"count", "In msg nelems"});
            c.count = count.empty() ? -1 : std::strtoll(count.c_str(), nullptr, 10);
            c.issueNs = lane.startNs[i];
            c.endNs = lane.endNs(i);
            out.push_back(std::move(c));
        }
    }
    std::sort(out.begin(), out.end(),
              [](const CollectiveTiming& a, const CollectiveTiming& b) { return a.issueNs < b.issueNs; });
    return out;
}

// The rank's HCCL sub-tasks that moved data, added up per (group, source, destination, transport).
// A destination of 2^32 − 1 (no peer: a local reduce) is left out, as msprof-analyze's matrix does.
std::vector<CommLinkTotal> linksOf(const Profile& profile, int rankIndex)
{
    std::map<std::tuple<std::string, int64_t, int64_t, std::string>, CommLinkTotal> sums;
    for (uint32_t l = 0; l < profile.lanes.size(); ++l) {
        const Lane& lane = profile.lanes[l];
        if (lane.info.rankIndex != rankIndex)
            continue;
        for (uint32_t i = 0; i < lane.size(); ++i) {
            if (lane.kind[i] != EventKind::CommTask)
                continue;
            const std::vector<EventArg> args = profile.args({l, i});
            const std::string size = argValue(args, {"size"}), src = argValue(args, {"srcRank"}),
                              dst = argValue(args, {"dstRank"});
            const int64_t bytes = std::strtoll(size.c_str(), nullptr, 10);
            if (bytes <= 0 || src.empty() || dst.empty())
                continue;
            const int64_t s = std::strtoll(src.c_str(), nullptr, 10), d = std::strtoll(dst.c_str(), nullptr, 10);
            if (s < 0 || d < 0 || s >= 0xFFFFFFFFLL || d >= 0xFFFFFFFFLL)
                continue;
            const std::string group = argValue(args, {"groupName"}), transport = argValue(args, {"transportType"});
            CommLinkTotal& t = sums[{group, s, d, transport}];
            t.group = group;
            t.srcRank = s;
            t.dstRank = d;
            t.transport = transport;
            ++t.tasks;
            t.bytes += bytes;
            t.timeNs += lane.endNs(i) - lane.startNs[i];
        }
    }
    std::vector<CommLinkTotal> out;
    for (auto& [key, t] : sums)
        out.push_back(std::move(t));
    return out;
}

// The length of `set` inside each of `bins` bins: one walk over the intervals, each split at the bin
// edges it crosses (linear in intervals + bins).
std::vector<TimeNs> binCoverage(const IntervalSet& set, const RankActivityBins& bins)
{
    std::vector<TimeNs> out(bins.size(), 0);
    size_t b = 0;
    for (const Interval& iv : set.intervals()) {
        while (b < bins.size() && bins.edgeNs(b + 1) <= iv.startNs)
            ++b;
        for (size_t k = b; k < bins.size() && bins.edgeNs(k) < iv.endNs; ++k)
            out[k] +=
                std::max<TimeNs>(0, std::min(iv.endNs, bins.edgeNs(k + 1)) - std::max(iv.startNs, bins.edgeNs(k)));
    }
    return out;
}

// One group of parallel_group_info ({"group_name", "group_rank", "global_ranks": [...]}) into `out`.
void readGroupInfo(const std::string& comm, const nlohmann::json& info, std::map<std::string, GroupMembership>& out)
{
    if (!info.is_object())
        return;
    GroupMembership& g = out[comm];
    g.group = comm;
    if (const auto r = info.find("group_rank"); r != info.end() && r->is_number_integer())
        g.groupRank = r->get<int64_t>();
    if (const auto m = info.find("global_ranks"); m != info.end() && m->is_array()) {
        g.globalRanks.clear();
        for (const auto& v : *m)
            g.globalRanks.push_back(v.is_number_integer() ? v.get<int>() : -1);
    }
}

// The rank's groups: parallel_group_info from the database (its JSON text) or from profiler_metadata.json
// (flattened: profiler_metadata.parallel_group_info.<comm>.<field>; a comm name may hold dots, so the
// field is the last part); then, for a group whose rank is still unknown, the source of its own links
// (each rank's COMMUNICATION_TASK_INFO rows are its own sub-tasks: source = itself within the group).
std::vector<GroupMembership> groupsOf(const Profile& profile, const std::vector<CommLinkTotal>& links)
{
    std::map<std::string, GroupMembership> groups;
    if (const auto it = profile.metadata.find("msprof_db.parallel_group_info"); it != profile.metadata.end()) {
        nlohmann::json doc;
        if (parseBoundedJson(it->second, doc) == JsonParse::Ok && doc.is_object())
            for (auto g = doc.begin(); g != doc.end(); ++g)
                readGroupInfo(g.key(), g.value(), groups);
    }
    static const std::string kPrefix = "profiler_metadata.parallel_group_info.";
    std::map<std::string, nlohmann::json> flattened;
    for (auto it = profile.metadata.lower_bound(kPrefix); it != profile.metadata.end(); ++it) {
        if (it->first.compare(0, kPrefix.size(), kPrefix) != 0)
            break;
        const std::string rest = it->first.substr(kPrefix.size());
        const size_t dot = rest.rfind('.');
        if (dot == std::string::npos)
            continue;
        nlohmann::json value;
        if (parseBoundedJson(it->second, value) != JsonParse::Ok)
            value = it->second; // a string field (group_name)
        flattened[rest.substr(0, dot)][rest.substr(dot + 1)] = value;
    }
    for (const auto& [comm, info] : flattened)
        readGroupInfo(comm, info, groups);
    std::map<std::string, std::set<int64_t>> sources;
    for (const CommLinkTotal& l : links)
        sources[l.group].insert(l.srcRank);
    for (const auto& [group, src] : sources)
        if (src.size() == 1 && !group.empty()) {
            GroupMembership& g = groups[group];
            g.group = group;
            if (g.groupRank < 0)
                g.groupRank = *src.begin();
        }
    std::vector<GroupMembership> out;
    for (auto& [name, g] : groups)
        out.push_back(std::move(g));
    return out;
}

QString summaryError(const std::string& path, const QString& problem)
{
    return QCoreApplication::translate("RankSummary", "%1: not a rank summary (%2)")
        .arg(QString::fromStdString(path), problem);
}

} // namespace

std::string collectiveKind(const std::string& name, const std::string& opType)
{
    const std::string fromType = trimSequence(opType);
    return !fromType.empty() ? fromType : trimSequence(name);
}

RankActivityBins measureRankActivity(const Profile& profile, int rankIndex, TimeNs startNs, TimeNs endNs, int bins)
{
    return measureRankActivity(collectDeviceActivity(profile), rankIndex, startNs, endNs, bins);
}

RankActivityBins measureRankActivity(const std::vector<DeviceActivity>& devices, int rankIndex, TimeNs startNs,
                                     TimeNs endNs, int bins)
{
    RankActivityBins out;
    if (endNs <= startNs || bins <= 0)
        return out;
    out.startNs = startNs;
    out.endNs = endNs;
    out.busy.assign(static_cast<size_t>(bins), 0);
    out.comm.assign(static_cast<size_t>(bins), 0);
    IntervalSet computing, communication; // the union over the rank's devices
    for (const DeviceActivity& d : devices)
        if (d.rankIndex == rankIndex) {
            computing = computing.unitedWith(d.computing);
            communication = communication.unitedWith(d.communication);
        }
    const std::vector<TimeNs> busy = binCoverage(computing, out);
    const std::vector<TimeNs> comm = binCoverage(communication.minus(computing), out);
    const auto units = [](TimeNs part, TimeNs whole) {
        return whole > 0 ? static_cast<int>(std::lround(double(RankActivityBins::kUnit) * double(part) / double(whole)))
                         : 0;
    };
    for (size_t i = 0; i < out.size(); ++i) {
        const TimeNs len = out.edgeNs(i + 1) - out.edgeNs(i);
        const int b = std::clamp(units(busy[i], len), 0, RankActivityBins::kUnit);
        out.busy[i] = static_cast<uint16_t>(b);
        out.comm[i] = static_cast<uint16_t>(std::clamp(units(comm[i], len), 0, RankActivityBins::kUnit - b));
    }
    return out;
}

RankSummary summarizeRank(const Profile& profile, int rankIndex, const AnalysisRules& rules, const std::string& source)
{
    RankSummary s;
    const RankInfo& info = profile.ranks.at(static_cast<size_t>(rankIndex));
    s.rankNumber = info.rankNumber;
    s.label = info.label;
    s.source = source;
    s.firstNs = INT64_MAX;
    s.lastNs = INT64_MIN;
    for (const Lane& lane : profile.lanes) {
        if (lane.info.rankIndex != rankIndex)
            continue;
        s.lanes.push_back({laneKindName(lane.info.kind), lane.info.process, lane.info.name, lane.size()});
        if (!lane.empty() && lane.info.kind != LaneKind::Counter) {
            s.firstNs = std::min(s.firstNs, lane.startNs[0]);
            s.lastNs = std::max(s.lastNs, lane.lastNs());
        }
    }
    if (s.firstNs > s.lastNs)
        s.firstNs = s.lastNs = 0;
    StepTimer timer("summary");
    std::vector<DeviceActivity> devices;
    s.steps = analysedSteps(profile, rankIndex, rules, source, s.stepSource, devices, timer);
    timer.lap("steps");
    s.collectives = collectivesOf(profile, rankIndex);
    timer.lap("collectives");
    s.links = linksOf(profile, rankIndex);
    timer.lap("links");
    s.activity = measureRankActivity(devices, rankIndex, s.firstNs, s.lastNs);
    timer.lap("activity");
    s.groups = groupsOf(profile, s.links);
    timer.lap("groups");
    return s;
}

nlohmann::ordered_json rankStepsJson(const RankSummary& s)
{
    using J = nlohmann::ordered_json;
    J steps = J::array();
    for (const RankStep& st : s.steps) {
        J path = J::object();
        for (size_t c = 0; c < kPathCategoryCount; ++c)
            path[pathCategoryKey(static_cast<PathCategory>(c))] = st.pathNs[c];
        steps.push_back({{"step", st.stepId},
                         {"window_ns", {st.startNs, st.endNs}},
                         {"step_gpu_ms", st.stepGpuMs ? J(*st.stepGpuMs) : J(nullptr)},
                         {"comm_total_ns", st.commTotalNs},
                         {"comm_exposed_ns", st.commExposedNs},
                         {"pre_replay_gap_ns", st.preReplayGapNs},
                         {"critical_path_ns", std::move(path)}});
    }
    return steps;
}

std::string rankSummaryJson(const RankSummary& s)
{
    using J = nlohmann::ordered_json;
    J doc;
    doc["format"] = kFormatMarker;
    doc["version"] = RankSummary::kSchemaVersion;
    doc["rank"] = s.rankNumber;
    doc["label"] = s.label;
    doc["source"] = s.source;
    doc["time_range_ns"] = {s.firstNs, s.lastNs};
    doc["step_source"] = s.stepSource;
    doc["steps"] = rankStepsJson(s);
    for (size_t i = 0; i < s.steps.size(); ++i) {
        J pieces = J::array();
        for (const RankPathHop& h : s.steps[i].path)
            pieces.push_back({h.startNs, h.endNs, pathCategoryKey(h.category), h.what});
        doc["steps"][i]["path"] = std::move(pieces);
    }
    J colls = J::array();
    for (const CollectiveTiming& c : s.collectives)
        colls.push_back({{"group", c.group},
                         {"name", c.name},
                         {"kind", c.kind},
                         {"count", c.count},
                         {"issue_ns", c.issueNs},
                         {"end_ns", c.endNs}});
    doc["collectives"] = std::move(colls);
    J lanes = J::array();
    for (const RankLaneSummary& l : s.lanes)
        lanes.push_back({{"kind", l.kind}, {"process", l.process}, {"name", l.name}, {"events", l.events}});
    doc["lanes"] = std::move(lanes);
    J links = J::array();
    for (const CommLinkTotal& l : s.links)
        links.push_back({{"group", l.group},
                         {"src", l.srcRank},
                         {"dst", l.dstRank},
                         {"transport", l.transport},
                         {"tasks", l.tasks},
                         {"bytes", l.bytes},
                         {"time_ns", l.timeNs}});
    doc["links"] = std::move(links);
    J groups = J::array();
    for (const GroupMembership& g : s.groups)
        groups.push_back({{"group", g.group}, {"group_rank", g.groupRank}, {"global_ranks", g.globalRanks}});
    doc["groups"] = std::move(groups);
    if (!s.activity.empty())
        doc["activity"] = {{"range_ns", {s.activity.startNs, s.activity.endNs}},
                           {"unit", RankActivityBins::kUnit},
                           {"busy", s.activity.busy},
                           {"comm", s.activity.comm}};
    return dumpJson(doc) + "\n";
}

bool looksLikeRankSummary(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    char head[64] = {};
    in.read(head, sizeof head - 1);
    return std::string_view(head, static_cast<size_t>(in.gcount())).find(kFormatMarker) != std::string_view::npos;
}

namespace {

// Reads the fields of one document; false on a missing or mistyped field (nlohmann throws).
PathCategory pathCategoryFromKey(const std::string& key)
{
    for (size_t c = 0; c < kPathCategoryCount; ++c)
        if (key == pathCategoryKey(static_cast<PathCategory>(c)))
            return static_cast<PathCategory>(c);
    throw nlohmann::json::other_error::create(501, "unknown critical-path category \"" + key + "\"",
                                              static_cast<const nlohmann::json*>(nullptr));
}

// The bins in the file's unit (1/10000 in version 3), kept in this build's.
void activityFromDocument(const nlohmann::json& j, RankActivityBins& a)
{
    a.startNs = j.at("range_ns").at(0).get<TimeNs>();
    a.endNs = j.at("range_ns").at(1).get<TimeNs>();
    const double unit = j.at("unit").get<double>();
    const auto& busy = j.at("busy");
    const auto& comm = j.at("comm");
    constexpr size_t kMaxBins = 1'000'000; // this build writes 2,000; a larger count is not a summary of ours
    if (!(unit > 0) || busy.size() != comm.size() || busy.size() > kMaxBins || a.endNs < a.startNs)
        throw nlohmann::json::other_error::create(501, "activity: bins and range do not agree",
                                                  static_cast<const nlohmann::json*>(nullptr));
    const auto scaled = [unit](const nlohmann::json& v) {
        return std::clamp(v.get<double>() / unit, 0.0, 1.0) * RankActivityBins::kUnit;
    };
    for (size_t i = 0; i < busy.size(); ++i) {
        const long b = std::lround(scaled(busy[i]));
        a.busy.push_back(static_cast<uint16_t>(b));
        a.comm.push_back(static_cast<uint16_t>(std::min(std::lround(scaled(comm[i])), RankActivityBins::kUnit - b)));
    }
}

void fromDocument(const nlohmann::json& doc, RankSummary& s)
{
    s.rankNumber = doc.at("rank").get<int>();
    s.label = doc.value("label", std::string());
    s.source = doc.value("source", std::string());
    s.firstNs = doc.at("time_range_ns").at(0).get<TimeNs>();
    s.lastNs = doc.at("time_range_ns").at(1).get<TimeNs>();
    s.stepSource = doc.value("step_source", std::string());
    for (const auto& j : doc.at("steps")) {
        RankStep st;
        st.stepId = j.at("step").get<int64_t>();
        st.startNs = j.at("window_ns").at(0).get<TimeNs>();
        st.endNs = j.at("window_ns").at(1).get<TimeNs>();
        if (j.contains("step_gpu_ms") && j["step_gpu_ms"].is_number())
            st.stepGpuMs = j["step_gpu_ms"].get<double>();
        st.commTotalNs = j.at("comm_total_ns").get<TimeNs>();
        st.commExposedNs = j.at("comm_exposed_ns").get<TimeNs>();
        st.preReplayGapNs = j.at("pre_replay_gap_ns").get<TimeNs>();
        const auto& path = j.at("critical_path_ns");
        for (size_t c = 0; c < kPathCategoryCount; ++c)
            st.pathNs[c] = path.value(pathCategoryKey(static_cast<PathCategory>(c)), TimeNs(0));
        if (j.contains("path")) // version 2: [[start, end, category key, what], …]
            for (const auto& h : j["path"])
                st.path.push_back({h.at(0).get<TimeNs>(), h.at(1).get<TimeNs>(),
                                   pathCategoryFromKey(h.at(2).get<std::string>()), h.at(3).get<std::string>()});
        s.steps.push_back(st);
    }
    for (const auto& j : doc.at("collectives"))
        s.collectives.push_back({j.at("group").get<std::string>(), j.at("name").get<std::string>(),
                                 j.at("kind").get<std::string>(), j.at("count").get<int64_t>(),
                                 j.at("issue_ns").get<TimeNs>(), j.at("end_ns").get<TimeNs>()});
    for (const auto& j : doc.at("lanes"))
        s.lanes.push_back({j.at("kind").get<std::string>(), j.at("process").get<std::string>(),
                           j.at("name").get<std::string>(), j.at("events").get<uint64_t>()});
    if (doc.contains("links")) // version 2
        for (const auto& j : doc["links"])
            s.links.push_back({j.at("group").get<std::string>(), j.at("src").get<int64_t>(), j.at("dst").get<int64_t>(),
                               j.at("transport").get<std::string>(), j.at("tasks").get<uint64_t>(),
                               j.at("bytes").get<int64_t>(), j.at("time_ns").get<TimeNs>()});
    if (doc.contains("groups")) // version 3
        for (const auto& j : doc["groups"])
            s.groups.push_back({j.at("group").get<std::string>(), j.at("group_rank").get<int64_t>(),
                                j.at("global_ranks").get<std::vector<int>>()});
    if (doc.contains("activity")) // version 3
        activityFromDocument(doc["activity"], s.activity);
}

} // namespace

bool readRankSummary(const std::string& path, RankSummary& out, QString& error)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error =
            QCoreApplication::translate("RankSummary", "%1: cannot read the file").arg(QString::fromStdString(path));
        return false;
    }
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    nlohmann::json doc;
    if (parseBoundedJson(text, doc) != JsonParse::Ok || !doc.is_object()) {
        error = summaryError(path, QCoreApplication::translate("RankSummary", "invalid JSON"));
        return false;
    }
    if (doc.value("format", std::string()) != kFormatMarker) {
        error = summaryError(
            path,
            QCoreApplication::translate("RankSummary", "no \"format\": \"%1\"").arg(QLatin1String(kFormatMarker)));
        return false;
    }
    const int version = doc.value("version", 0);
    if (version < RankSummary::kOldestSchemaVersion || version > RankSummary::kSchemaVersion) {
        error = QCoreApplication::translate("RankSummary", "%1: summary version %2, this build reads version %3")
                    .arg(QString::fromStdString(path))
                    .arg(version)
                    .arg(RankSummary::kSchemaVersion);
        return false;
    }
    RankSummary s;
    try {
        fromDocument(doc, s);
    } catch (const nlohmann::json::exception& e) {
        error = summaryError(path, QString::fromUtf8(e.what()));
        return false;
    }
    std::sort(s.collectives.begin(), s.collectives.end(),
              [](const CollectiveTiming& a, const CollectiveTiming& b) { return a.issueNs < b.issueNs; });
    out = std::move(s);
    return true;
}

} // namespace dspark
