#include "compare/RunComparison.h"

#include "model/Profile.h"
#include "session/ProfileSession.h"

#include <QCoreApplication>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace dspark {

namespace {

using Indices = std::vector<size_t>;

// A field the filter does not know ("" mode, -1) matches any value.
bool matchesFilter(const StepClass& filter, const StepClass& cls)
{
    return (filter.mode.empty() || filter.mode == cls.mode) && (filter.bs < 0 || filter.bs == cls.bs) &&
           (filter.verifyTokens < 0 || filter.verifyTokens == cls.verifyTokens);
}

StepClass classKey(const StepClass& cls, bool anyVerifyTokens)
{
    return anyVerifyTokens ? StepClass{cls.mode, cls.bs, -1} : cls;
}

// The steps of a run that the comparison reads: inside the stable windows (all of them when the run has
// none, which `note` says), of the one class when asked.
Indices selectSteps(const RunSamples& run, const CompareOptions& options, bool& fellBackToAll)
{
    Indices out;
    fellBackToAll = false;
    const auto wanted = [&](const StepSample& s) {
        return !options.onlyClass || matchesFilter(*options.onlyClass, s.cls);
    };
    for (size_t i = 0; i < run.steps.size(); ++i)
        if ((!options.stableWindowsOnly || run.steps[i].inStableWindow) && wanted(run.steps[i]))
            out.push_back(i);
    if (out.empty() && options.stableWindowsOnly &&
        std::none_of(run.steps.begin(), run.steps.end(), [](const StepSample& s) { return s.inStableWindow; })) {
        fellBackToAll = true;
        for (size_t i = 0; i < run.steps.size(); ++i)
            if (wanted(run.steps[i]))
                out.push_back(i);
    }
    return out;
}

std::vector<double> sortedValues(const RunSamples& run, const Indices& steps, Quantity q)
{
    std::vector<double> v;
    v.reserve(steps.size());
    for (size_t i : steps)
        if (const double x = run.steps[i].value(q); !std::isnan(x))
            v.push_back(x);
    std::sort(v.begin(), v.end());
    return v;
}

ClassComparison compareClass(const RunSamples& base, const Indices& baseSteps, const RunSamples& changed,
                             const Indices& changedSteps, const BootstrapOptions& bootstrap)
{
    ClassComparison c;
    c.baselineSteps = baseSteps.size();
    c.changedSteps = changedSteps.size();
    c.presence = baseSteps.empty()      ? ClassPresence::ChangedOnly
                 : changedSteps.empty() ? ClassPresence::BaselineOnly
                                        : ClassPresence::Both;
    for (size_t q = 0; q < kQuantityCount; ++q) {
        const Quantity quantity = static_cast<Quantity>(q);
        const std::vector<double> a = sortedValues(base, baseSteps, quantity);
        const std::vector<double> b = sortedValues(changed, changedSteps, quantity);
        if (a.empty() && b.empty())
            continue;
        QuantityComparison qc;
        qc.quantity = quantity;
        qc.baseline = describeSorted(a);
        qc.changed = describeSorted(b);
        qc.change = medianChange(a, b, bootstrap);
        c.quantities.push_back(qc);
    }
    return c;
}

void noteWhatCannotBeCompared(const RunSamples& base, const RunSamples& changed, bool baseAll, bool changedAll,
                              RunComparison& out)
{
    const QString names[2] = {QCoreApplication::translate("Compare", "the baseline"),
                              QCoreApplication::translate("Compare", "the changed run")};
    const RunSamples* runs[2] = {&base, &changed};
    for (int i = 0; i < 2; ++i) {
        if (!runs[i]->hasRecords)
            out.notComparable.push_back(
                QCoreApplication::translate("Compare", "Step classes and record times: %1 has no DSpark step records")
                    .arg(names[i]));
        else if (!runs[i]->hasTimeline)
            out.notComparable.push_back(
                QCoreApplication::translate(
                    "Compare",
                    "Bands, communication, pre-replay gap and critical path: %1 has no analysed step on a timeline")
                    .arg(names[i]));
    }
    if (baseAll || changedAll)
        out.notComparable.push_back(
            QCoreApplication::translate("Compare", "Stable windows: %1 has none, so every step of it is compared")
                .arg(baseAll ? names[0] : names[1]));
    if (!base.platform.empty() && !changed.platform.empty() && base.platform != changed.platform)
        out.notComparable.push_back(
            QCoreApplication::translate(
                "Compare",
                "Kernels: the runs ran on different platforms (%1, %2); kernel names and stages do not correspond, so "
                "device tasks are compared by category only")
                .arg(QString::fromStdString(base.platform).toUpper(),
                     QString::fromStdString(changed.platform).toUpper()));
}

int presenceRank(ClassPresence p)
{
    return static_cast<int>(p);
}

} // namespace

const char* classPresenceKey(ClassPresence p)
{
    switch (p) {
    case ClassPresence::Both: return "both";
    case ClassPresence::BaselineOnly: return "baseline_only";
    case ClassPresence::ChangedOnly: return "changed_only";
    case ClassPresence::Neither: break;
    }
    return "neither";
}

const QuantityComparison* ClassComparison::find(Quantity q) const
{
    for (const QuantityComparison& c : quantities)
        if (c.quantity == q)
            return &c;
    return nullptr;
}

std::optional<size_t> medianStepOf(const RunSamples& run, const StepClass& cls, Quantity by, bool stableOnly,
                                   bool anyVerifyTokens)
{
    Indices candidates;
    const auto collect = [&](bool stable, bool onTimeline) {
        candidates.clear();
        for (size_t i = 0; i < run.steps.size(); ++i) {
            const StepSample& s = run.steps[i];
            if (classKey(s.cls, anyVerifyTokens) == cls && (!stable || s.inStableWindow) &&
                (!onTimeline || s.has(Quantity::StepWallMs)))
                candidates.push_back(i);
        }
        return !candidates.empty();
    };
    // Preference: stable and on the timeline, stable, on the timeline, any.
    if (!(collect(stableOnly, true) || collect(stableOnly, false) || collect(false, true) || collect(false, false)))
        return std::nullopt;
    Indices valued;
    for (size_t i : candidates)
        if (run.steps[i].has(by))
            valued.push_back(i);
    Indices& pool = valued.empty() ? candidates : valued;
    if (!valued.empty())
        std::stable_sort(pool.begin(), pool.end(),
                         [&](size_t a, size_t b) { return run.steps[a].value(by) < run.steps[b].value(by); });
    return pool[(pool.size() - 1) / 2];
}

MatchedPair pairSteps(const RunSamples& baseline, size_t baselineSample, const RunSamples& changed,
                      size_t changedSample)
{
    MatchedPair p;
    const StepSample& a = baseline.steps[baselineSample];
    const StepSample& b = changed.steps[changedSample];
    p.cls = a.cls;
    p.baselineSample = baselineSample;
    p.changedSample = changedSample;
    p.baselineDpRank = a.dpRank;
    p.changedDpRank = b.dpRank;
    p.baselineForwardCt = a.forwardCt;
    p.changedForwardCt = b.forwardCt;
    p.baselineStepIndex = a.stepIndex;
    p.changedStepIndex = b.stepIndex;
    p.baseline = a.values;
    p.changed = b.values;
    p.picked = true;
    return p;
}

RunComparison compareRuns(const RunSamples& baseline, const RunSamples& changed, const CompareOptions& options)
{
    RunComparison out;
    out.baselineLabel = baseline.label;
    out.changedLabel = changed.label;
    bool baseAll = false, changedAll = false;
    const Indices baseSteps = selectSteps(baseline, options, baseAll);
    const Indices changedSteps = selectSteps(changed, options, changedAll);
    noteWhatCannotBeCompared(baseline, changed, baseAll, changedAll, out);

    out.whole = compareClass(baseline, baseSteps, changed, changedSteps, options.bootstrap);
    out.whole.whole = true;

    // Verify widths that never meet (the draft block changed): classes by (mode, bs).
    std::set<StepClass> baseClasses;
    for (size_t i : baseSteps)
        baseClasses.insert(baseline.steps[i].cls);
    const bool anyVt = !baseSteps.empty() && !changedSteps.empty() &&
                       std::none_of(changedSteps.begin(), changedSteps.end(),
                                    [&](size_t i) { return baseClasses.count(changed.steps[i].cls) > 0; });
    out.classesIgnoreVerifyTokens = anyVt;
    if (anyVt)
        out.notComparable.push_back(QCoreApplication::translate(
            "Compare",
            "Verify tokens: no (mode, bs, verify tokens) class is in both runs, so steps are matched by (mode, bs) "
            "and the verify width is part of the change"));

    std::map<StepClass, std::pair<Indices, Indices>> byClass;
    for (size_t i : baseSteps)
        byClass[classKey(baseline.steps[i].cls, anyVt)].first.push_back(i);
    for (size_t i : changedSteps)
        byClass[classKey(changed.steps[i].cls, anyVt)].second.push_back(i);
    for (const auto& [cls, sides] : byClass) {
        ClassComparison c = compareClass(baseline, sides.first, changed, sides.second, options.bootstrap);
        c.cls = cls;
        out.classes.push_back(std::move(c));
    }
    // Classes seen only outside the stable windows of both runs.
    const auto addNeither = [&](const RunSamples& run) {
        for (const StepSample& s : run.steps) {
            const StepClass key = classKey(s.cls, anyVt);
            if ((!options.onlyClass || matchesFilter(*options.onlyClass, s.cls)) && !byClass.count(key)) {
                byClass[key];
                ClassComparison c;
                c.cls = key;
                c.presence = ClassPresence::Neither;
                out.classes.push_back(std::move(c));
            }
        }
    };
    addNeither(baseline);
    addNeither(changed);
    std::stable_sort(out.classes.begin(), out.classes.end(), [](const ClassComparison& a, const ClassComparison& b) {
        if (a.presence != b.presence)
            return presenceRank(a.presence) < presenceRank(b.presence);
        return a.baselineSteps + a.changedSteps > b.baselineSteps + b.changedSteps;
    });

    const Quantity by = baseline.hasTimeline && changed.hasTimeline ? Quantity::StepWallMs : options.medianBy;
    for (const ClassComparison& c : out.classes) {
        if (c.presence != ClassPresence::Both)
            continue;
        const auto a = medianStepOf(baseline, c.cls, by, options.stableWindowsOnly && !baseAll, anyVt);
        const auto b = medianStepOf(changed, c.cls, by, options.stableWindowsOnly && !changedAll, anyVt);
        if (!a || !b)
            continue;
        MatchedPair p = pairSteps(baseline, *a, changed, *b);
        p.cls = c.cls; // the class as matched (verify tokens "?" when they never meet)
        p.picked = false;
        out.pairs.push_back(p);
    }
    out.baselineRun = baseline;
    out.changedRun = changed;
    return out;
}

namespace {

const char* taskCategory(EventKind kind)
{
    switch (kind) {
    case EventKind::Kernel: return "compute";
    case EventKind::CommOp:
    case EventKind::CommTask: return "communication";
    case EventKind::Memcpy: return "memcpy";
    case EventKind::EventRecord:
    case EventKind::EventWait: return "sync";
    default: break;
    }
    return "other";
}

// Durations (ms) of the device tasks by category and by kernel name.
struct TaskDurations {
    std::map<std::string, std::vector<double>> categories;
    std::unordered_map<std::string, std::vector<double>> names;
};

TaskDurations taskDurations(const Profile& profile)
{
    TaskDurations out;
    for (const Lane& lane : profile.lanes) {
        if (!isDeviceLane(lane.info.kind))
            continue;
        std::unordered_map<uint32_t, std::vector<double>*> byId;
        for (size_t i = 0; i < lane.size(); ++i) {
            const double ms = double(lane.durationNs[i]) * 1e-6;
            out.categories[taskCategory(lane.kind[i])].push_back(ms);
            std::vector<double>*& slot = byId[lane.nameId[i]];
            if (!slot)
                slot = &out.names[std::string(profile.strings.view(lane.nameId[i]))];
            slot->push_back(ms);
        }
    }
    return out;
}

TaskGroupComparison compareGroup(std::string name, bool category, std::vector<double> a, std::vector<double> b,
                                 const BootstrapOptions& bootstrap)
{
    TaskGroupComparison g;
    g.name = std::move(name);
    g.category = category;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    g.baseline = describeSorted(a);
    g.changed = describeSorted(b);
    g.change = medianChange(a, b, bootstrap);
    for (double v : a)
        g.baselineTotalMs += v;
    for (double v : b)
        g.changedTotalMs += v;
    return g;
}

} // namespace

DeviceTaskComparison compareDeviceTasks(const Profile& baseline, const Profile& changed,
                                        const BootstrapOptions& bootstrap, size_t topNames)
{
    DeviceTaskComparison out;
    TaskDurations a = taskDurations(baseline), b = taskDurations(changed);
    std::map<std::string, int> categories;
    for (const auto& kv : a.categories)
        categories[kv.first];
    for (const auto& kv : b.categories)
        categories[kv.first];
    for (const auto& kv : categories)
        out.categories.push_back(
            compareGroup(kv.first, true, a.categories[kv.first], b.categories[kv.first], bootstrap));
    // The names with the largest total over both runs.
    std::vector<std::pair<double, std::string>> totals;
    std::unordered_map<std::string, double> sum;
    for (const auto& [name, v] : a.names)
        for (double x : v)
            sum[name] += x;
    for (const auto& [name, v] : b.names)
        for (double x : v)
            sum[name] += x;
    for (const auto& [name, total] : sum)
        totals.push_back({total, name});
    std::sort(totals.begin(), totals.end(), [](const auto& x, const auto& y) {
        return x.first != y.first ? x.first > y.first : x.second < y.second;
    });
    for (size_t i = 0; i < totals.size() && i < topNames; ++i) {
        const std::string& name = totals[i].second;
        out.names.push_back(compareGroup(name, false, a.names[name], b.names[name], bootstrap));
    }
    return out;
}

RunComparison compareRuns(const ProfileSession& baseline, const ProfileSession& changed, const CompareOptions& options)
{
    RunSamples a = collectSamples(*baseline.profile(), baseline.analyses());
    RunSamples b = collectSamples(*changed.profile(), changed.analyses());
    if (!baseline.path().isEmpty())
        a.label = baseline.path();
    if (!changed.path().isEmpty())
        b.label = changed.path();
    RunComparison out = compareRuns(a, b, options); // copies the samples: the tables are small (~200 B a step)
    out.config = compareConfigs(*baseline.profile(), *changed.profile());
    out.deviceTasks = compareDeviceTasks(*baseline.profile(), *changed.profile(), options.bootstrap);
    return out;
}

} // namespace dspark
