#include "analysis/KernelSummary.h"

#include "io/ProfilerCsv.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <algorithm>
#include <map>
#include <unordered_map>

namespace dspark {

const char* kernelSourceKey(KernelSource source)
{
    return source == KernelSource::KernelDetailsCsv ? "kernel_details_csv" : "timeline";
}

std::string coreLabel(std::string_view t)
{
    if (t == "AI_CORE")
        return "AI Core";
    if (t == "AI_VECTOR_CORE")
        return "AI Vector";
    if (t == "AI_CPU")
        return "AI CPU";
    if (t == "MIX_AIC" || t == "MIX_AIV")
        return "MIX";
    if (t == "HCCL" || t == "COMMUNICATION")
        return "HCCL";
    return std::string(t);
}

QString coreText(const std::string& core)
{
    if (core == "AI Core")
        return QCoreApplication::translate("KernelSummary", "AI Core");
    if (core == "AI Vector")
        return QCoreApplication::translate("KernelSummary", "AI Vector");
    if (core == "AI CPU")
        return QCoreApplication::translate("KernelSummary", "AI CPU");
    if (core == "communication")
        return QCoreApplication::translate("KernelSummary", "communication");
    if (core == "GPU kernel")
        return QCoreApplication::translate("KernelSummary", "GPU kernel");
    if (core == "kernel")
        return QCoreApplication::translate("KernelSummary", "kernel");
    return QString::fromStdString(core); // HCCL, MIX, a task type as written
}

QString listedProfilerCsv(const Profile& profile, const char* fileName)
{
    for (const SourceFile& f : profile.files)
        if (f.format == "profiler_csv" &&
            QFileInfo(QString::fromStdString(f.path)).fileName() == QLatin1String(fileName))
            return QString::fromStdString(f.path);
    return {};
}

namespace {

// One summarised instance: the kernel (KernelSummary::kernels index), its stage, its duration.
struct Instance {
    uint32_t kernel;
    Stage stage;
    TimeNs durationNs;
};

// Count, total, nearest-rank p50 / p90 and max of some durations (sorted here).
KernelFigures figuresOf(std::vector<TimeNs>& d, TimeNs deviceNs)
{
    KernelFigures f;
    if (d.empty())
        return f;
    std::sort(d.begin(), d.end());
    f.count = d.size();
    for (TimeNs v : d)
        f.totalNs += v;
    const auto rank = [&](double p) { return d[static_cast<size_t>(std::max(1.0, std::ceil(p * d.size())) - 1)]; };
    f.p50Ns = rank(0.5);
    f.p90Ns = rank(0.9);
    f.maxNs = d.back();
    f.share = deviceNs ? static_cast<double>(f.totalNs) / static_cast<double>(deviceNs) : 0.0;
    return f;
}

template <typename Row> void sortByTotal(std::vector<Row>& rows)
{
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.figures.totalNs > b.figures.totalNs; });
}

// Every figure of `s` from its kernels (names and cores set) and their instances.
void finish(KernelSummary& s, const std::vector<Instance>& instances, bool byStage)
{
    s.deviceNs = 0;
    for (const Instance& i : instances)
        s.deviceNs += i.durationNs;
    std::vector<std::vector<TimeNs>> perKernel(s.kernels.size());
    std::map<std::string, std::vector<TimeNs>> perCore;
    std::map<int, std::vector<TimeNs>> perStage;
    std::map<std::pair<int, uint32_t>, std::vector<TimeNs>> perStageKernel;
    for (const Instance& i : instances) {
        perKernel[i.kernel].push_back(i.durationNs);
        perCore[s.kernels[i.kernel].core].push_back(i.durationNs);
        if (byStage) {
            perStage[static_cast<int>(i.stage)].push_back(i.durationNs);
            perStageKernel[{static_cast<int>(i.stage), i.kernel}].push_back(i.durationNs);
        }
    }
    for (size_t k = 0; k < s.kernels.size(); ++k)
        s.kernels[k].figures = figuresOf(perKernel[k], s.deviceNs);
    for (auto& [core, d] : perCore)
        s.byCore.push_back({core, figuresOf(d, s.deviceNs)});
    for (auto& [stage, d] : perStage)
        s.byStage.push_back({stageKey(static_cast<Stage>(stage)), figuresOf(d, s.deviceNs)});
    for (auto& [key, d] : perStageKernel)
        s.byStageKernel.push_back(
            {static_cast<Stage>(key.first), s.kernels[key.second].name, figuresOf(d, s.deviceNs)});
    std::erase_if(s.kernels, [](const KernelRow& r) { return r.figures.count == 0; });
    sortByTotal(s.kernels);
    sortByTotal(s.byCore);
    sortByTotal(s.byStage);
    std::stable_sort(s.byStageKernel.begin(), s.byStageKernel.end(),
                     [](const KernelStageRow& a, const KernelStageRow& b) {
                         return a.stage != b.stage ? a.stage < b.stage : a.figures.totalNs > b.figures.totalNs;
                     });
}

// The task type an event's args name (database: the compute task's type, else the task's; trace_view:
// "Task Type"), or empty.
std::string taskTypeOf(const Profile& profile, EventRef e)
{
    std::string taskType;
    for (const EventArg& a : profile.args(e)) {
        if (a.key == "computeTaskType" || a.key == "Task Type")
            return a.value;
        if (a.key == "taskType")
            taskType = a.value;
    }
    return taskType;
}

// The core of a kernel from its first instance: the CSV's Accelerator Core when given, else the
// task type of its args, else what its lane and kind say.
std::string coreOf(const Profile& profile, EventRef e, const NameClassifier& names,
                   const std::unordered_map<std::string, std::string>& csvCores)
{
    const Lane& lane = profile.lanes[e.lane];
    const std::string_view name = profile.strings.view(lane.nameId[e.index]);
    if (auto it = csvCores.find(std::string(name)); it != csvCores.end() && !it->second.empty())
        return coreLabel(it->second);
    const uint32_t id = lane.nameId[e.index];
    if (lane.kind[e.index] == EventKind::CommOp)
        return lane.info.kind == LaneKind::Comm ? "HCCL" : "communication";
    if (names.matches(id, RuleId::CommKernels) || names.matches(id, RuleId::DeepepDispatch) ||
        names.matches(id, RuleId::DeepepCombine))
        return "communication";
    const std::string type = taskTypeOf(profile, e);
    if (!type.empty())
        return coreLabel(type);
    return lane.info.kind == LaneKind::GpuStream ? "GPU kernel" : "kernel";
}

// Accelerator Core by kernel name from a kernel_details.csv (empty when none or unreadable).
std::unordered_map<std::string, std::string> csvCoresOf(const KernelDetails& details)
{
    std::unordered_map<std::string, std::string> cores;
    for (const KernelDetailRow& r : details.rows)
        cores.emplace(r.name, r.acceleratorCore);
    return cores;
}

bool isSummarised(LaneKind lane, EventKind kind)
{
    if (lane == LaneKind::Comm)
        return kind == EventKind::CommOp;
    return isDeviceLane(lane) && (kind == EventKind::Kernel || kind == EventKind::CommOp);
}

bool timelineHasKernels(const Profile& profile)
{
    for (const Lane& lane : profile.lanes)
        if (lane.info.kind == LaneKind::Comm || isDeviceLane(lane.info.kind))
            for (size_t i = 0; i < lane.size(); ++i)
                if (isSummarised(lane.info.kind, lane.kind[i]))
                    return true;
    return false;
}

} // namespace

KernelDetails readListedKernelDetails(const Profile& profile)
{
    KernelDetails d;
    d.path = listedProfilerCsv(profile, "kernel_details.csv");
    if (!d.path.isEmpty())
        d.rows = readKernelDetailsCsv(d.path, &d.error);
    return d;
}

KernelSummary summarizeKernels(const Profile& profile, const KernelQuery& query, const AnalysisRules& rules)
{
    return summarizeKernels(profile, query, rules, readListedKernelDetails(profile));
}

KernelSummary summarizeKernels(const Profile& profile, const KernelQuery& query, const AnalysisRules& rules,
                               const KernelDetails& details)
{
    if (!timelineHasKernels(profile) && !details.path.isEmpty())
        return summarizeKernelDetails(details, query);

    KernelSummary s;
    const NameClassifier names(profile.strings, rules);
    const auto csvCores = csvCoresOf(details);
    std::unordered_map<uint32_t, uint32_t> kernelOfName; // one entry per distinct kernel name
    std::vector<Instance> instances;
    for (uint32_t l = 0; l < profile.lanes.size(); ++l) {
        const Lane& lane = profile.lanes[l];
        if ((lane.info.kind != LaneKind::Comm && !isDeviceLane(lane.info.kind)) ||
            (query.rankIndex >= 0 && lane.info.rankIndex != query.rankIndex))
            continue;
        const size_t end = lane.firstStartingAtOrAfter(query.toNs);
        for (size_t i = lane.firstStartingAtOrAfter(query.fromNs); i < end; ++i) {
            if (!isSummarised(lane.info.kind, lane.kind[i]))
                continue;
            const EventRef e{l, static_cast<uint32_t>(i)};
            auto [it, added] = kernelOfName.try_emplace(lane.nameId[i], static_cast<uint32_t>(s.kernels.size()));
            if (added)
                s.kernels.push_back({std::string(profile.strings.view(lane.nameId[i])),
                                     coreOf(profile, e, names, csvCores),
                                     lane.nameId[i],
                                     {}});
            instances.push_back({it->second, query.bands ? query.bands->stageOf(e) : Stage::Other, lane.durationNs[i]});
        }
    }
    finish(s, instances, query.bands != nullptr);
    return s;
}

KernelSummary summarizeKernelDetailsCsv(const QString& path, const KernelQuery& query)
{
    KernelDetails d;
    d.path = path;
    d.rows = readKernelDetailsCsv(path, &d.error);
    return summarizeKernelDetails(d, query);
}

KernelSummary summarizeKernelDetails(const KernelDetails& details, const KernelQuery& query)
{
    KernelSummary s;
    s.source = KernelSource::KernelDetailsCsv;
    s.sourcePath = details.path;
    s.note = details.error;
    std::unordered_map<std::string, uint32_t> kernelOfName;
    std::vector<Instance> instances;
    for (const KernelDetailRow& r : details.rows) {
        if (query.step ? r.step != query.step : (r.startNs < query.fromNs || r.startNs >= query.toNs))
            continue;
        auto [it, added] = kernelOfName.try_emplace(r.name, static_cast<uint32_t>(s.kernels.size()));
        if (added)
            s.kernels.push_back({r.name, coreLabel(r.acceleratorCore), 0, {}});
        instances.push_back({it->second, Stage::Other, r.durationNs});
    }
    finish(s, instances, false);
    return s;
}

} // namespace dspark
