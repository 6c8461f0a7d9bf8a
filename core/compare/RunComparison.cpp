#include "compare/RunComparison.h"

#include "model/Profile.h"
#include "session/ProfileSession.h"

#include <QCoreApplication>

#include <algorithm>
#include <map>
#include <set>
#include <thread>
#include <tuple>
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

// Time order of a run's steps without a timeline: forward_ct counts steps, dp ranks step together.
bool earlier(const RunSamples& run, size_t x, size_t y)
{
    const StepSample& a = run.steps[x];
    const StepSample& b = run.steps[y];
    return std::tie(a.forwardCt, a.dpRank, x) < std::tie(b.forwardCt, b.dpRank, y);
}

// RunComparison::allPairs: the k-th of each class with the k-th, the median pairs flagged (or added).
std::vector<MatchedPair> pairEveryStep(const RunSamples& base, const RunSamples& changed,
                                       const std::map<StepClass, std::pair<Indices, Indices>>& byClass,
                                       const std::vector<MatchedPair>& medians)
{
    std::vector<MatchedPair> out;
    for (auto [cls, sides] : byClass) {
        std::sort(sides.first.begin(), sides.first.end(), [&](size_t x, size_t y) { return earlier(base, x, y); });
        std::sort(sides.second.begin(), sides.second.end(), [&](size_t x, size_t y) { return earlier(changed, x, y); });
        for (size_t k = 0; k < std::min(sides.first.size(), sides.second.size()); ++k) {
            MatchedPair p = pairSteps(base, sides.first[k], changed, sides.second[k]);
            p.cls = cls;
            p.picked = false;
            out.push_back(std::move(p));
        }
    }
    for (const MatchedPair& m : medians) {
        const auto same = std::find_if(out.begin(), out.end(), [&](const MatchedPair& p) {
            return p.baselineSample == m.baselineSample && p.changedSample == m.changedSample;
        });
        if (same != out.end()) {
            same->median = true;
        } else {
            out.push_back(m);
            out.back().extraMedian = true;
        }
    }
    std::sort(out.begin(), out.end(), [&](const MatchedPair& x, const MatchedPair& y) {
        if (x.baselineSample != y.baselineSample)
            return earlier(base, x.baselineSample, y.baselineSample);
        return earlier(changed, x.changedSample, y.changedSample);
    });
    return out;
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
        p.median = true;
        out.pairs.push_back(p);
    }
    out.allPairs = pairEveryStep(baseline, changed, byClass, out.pairs);
    out.baselineRun = baseline;
    out.changedRun = changed;
    return out;
}

// Durations (ms) of one profile's device tasks by category and by kernel name, each group sorted
// (indexed by name id: a profile has few distinct names, so no string is built a task).
struct TaskDurations {
    std::array<std::vector<double>, 5> categories; // kTaskCategories order
    std::vector<std::vector<double>> byNameId;
    std::vector<double> totalByNameId;                  // Σ ms, in task order
    std::unordered_map<std::string_view, uint32_t> ids; // the names with tasks
    const std::vector<double>* named(std::string_view name) const
    {
        const auto it = ids.find(name);
        return it == ids.end() ? nullptr : &byNameId[it->second];
    }
};

namespace {

// The categories in report order (alphabetical, as the JSON has always listed them).
constexpr std::array<const char*, 5> kTaskCategories{"communication", "compute", "memcpy", "other", "sync"};
static_assert(std::tuple_size_v<decltype(TaskDurations::categories)> == kTaskCategories.size());

size_t taskCategory(EventKind kind)
{
    switch (kind) {
    case EventKind::Kernel: return 1;
    case EventKind::CommOp:
    case EventKind::CommTask: return 0;
    case EventKind::Memcpy: return 2;
    case EventKind::EventRecord:
    case EventKind::EventWait: return 4;
    default: break;
    }
    return 3;
}

TaskDurations taskDurations(const Profile& profile)
{
    TaskDurations out;
    out.byNameId.resize(profile.strings.size());
    for (const Lane& lane : profile.lanes) {
        if (!isDeviceLane(lane.info.kind))
            continue;
        for (size_t i = 0; i < lane.size(); ++i) {
            const double ms = double(lane.durationNs[i]) * 1e-6;
            out.categories[taskCategory(lane.kind[i])].push_back(ms);
            if (lane.nameId[i] < out.byNameId.size())
                out.byNameId[lane.nameId[i]].push_back(ms);
        }
    }
    out.totalByNameId.assign(out.byNameId.size(), 0.0);
    for (uint32_t id = 0; id < out.byNameId.size(); ++id)
        if (std::vector<double>& v = out.byNameId[id]; !v.empty()) {
            for (double x : v)
                out.totalByNameId[id] += x;
            std::sort(v.begin(), v.end());
            out.ids.emplace(profile.strings.view(id), id);
        }
    for (std::vector<double>& v : out.categories)
        std::sort(v.begin(), v.end());
    return out;
}

// Both sides sorted.
TaskGroupComparison compareGroup(std::string name, bool category, const std::vector<double>& a,
                                 const std::vector<double>& b, const BootstrapOptions& bootstrap)
{
    TaskGroupComparison g;
    g.name = std::move(name);
    g.category = category;
    g.baseline = describeSorted(a);
    g.changed = describeSorted(b);
    g.change = medianChange(a, b, bootstrap);
    for (double v : a)
        g.baselineTotalMs += v;
    for (double v : b)
        g.changedTotalMs += v;
    return g;
}

DeviceTaskComparison compareTaskDurations(const TaskDurations& a, const TaskDurations& b,
                                          const BootstrapOptions& bootstrap, size_t topNames)
{
    DeviceTaskComparison out;
    for (size_t c = 0; c < kTaskCategories.size(); ++c)
        if (!a.categories[c].empty() || !b.categories[c].empty())
            out.categories.push_back(
                compareGroup(kTaskCategories[c], true, a.categories[c], b.categories[c], bootstrap));
    // The names with the largest total over both runs.
    std::unordered_map<std::string_view, double> sum;
    for (const TaskDurations* side : {&a, &b})
        for (const auto& [name, id] : side->ids)
            sum[name] += side->totalByNameId[id];
    std::vector<std::pair<double, std::string_view>> totals;
    for (const auto& [name, total] : sum)
        totals.push_back({total, name});
    const size_t n = std::min(topNames, totals.size());
    std::partial_sort(
        totals.begin(), totals.begin() + std::ptrdiff_t(n), totals.end(),
        [](const auto& x, const auto& y) { return x.first != y.first ? x.first > y.first : x.second < y.second; });
    static const std::vector<double> none;
    for (size_t i = 0; i < n; ++i) {
        const std::string_view name = totals[i].second;
        const std::vector<double>* va = a.named(name);
        const std::vector<double>* vb = b.named(name);
        out.names.push_back(compareGroup(std::string(name), false, va ? *va : none, vb ? *vb : none, bootstrap));
    }
    return out;
}

constexpr size_t kTopTaskNames = 30;

uint64_t seedOf(ComparisonRole role, const BootstrapOptions& bootstrap)
{
    return role == ComparisonRole::Baseline ? bootstrap.seed : changedSideSeed(bootstrap.seed);
}

// The counts this run brings to compareRuns(samples): of every quantity over the compared steps, whole
// and by class (keyed by (mode, bs, verify tokens) and by (mode, bs): which one depends on the other run).
void prepareStepBootstrap(const RunSamples& run, const CompareOptions& options, uint64_t seed)
{
    bool all = false;
    const Indices steps = selectSteps(run, options, all);
    std::set<size_t> counts;
    const auto take = [&](const Indices& group) {
        for (size_t q = 0; q < kQuantityCount; ++q) {
            const auto n = size_t(std::count_if(group.begin(), group.end(),
                                                [&](size_t i) { return run.steps[i].has(static_cast<Quantity>(q)); }));
            if (n > 0)
                counts.insert(n);
        }
    };
    take(steps);
    for (bool anyVt : {false, true}) {
        std::map<StepClass, Indices> byClass;
        for (size_t i : steps)
            byClass[classKey(run.steps[i].cls, anyVt)].push_back(i);
        for (const auto& [cls, group] : byClass)
            take(group);
    }
    for (size_t n : counts)
        prepareBootstrap(n, options.bootstrap.resamples, seed);
}

// The counts of its categories and of the names with this run's largest totals (the names compared are
// the largest over both runs: most are among a run's own first 2 × topNames).
void prepareTaskBootstrap(const TaskDurations& tasks, const BootstrapOptions& bootstrap, uint64_t seed)
{
    std::set<size_t> counts;
    for (const std::vector<double>& v : tasks.categories)
        counts.insert(v.size());
    std::vector<std::pair<double, uint32_t>> totals;
    for (const auto& [name, id] : tasks.ids)
        totals.push_back({tasks.totalByNameId[id], id});
    const size_t n = std::min(2 * kTopTaskNames, totals.size());
    std::partial_sort(totals.begin(), totals.begin() + std::ptrdiff_t(n), totals.end(), std::greater<>());
    for (size_t i = 0; i < n; ++i)
        counts.insert(tasks.byNameId[totals[i].second].size());
    for (size_t c : counts)
        if (c > 0)
            prepareBootstrap(c, bootstrap.resamples, seed);
}

} // namespace

DeviceTaskComparison compareDeviceTasks(const Profile& baseline, const Profile& changed,
                                        const BootstrapOptions& bootstrap, size_t topNames)
{
    return compareTaskDurations(taskDurations(baseline), taskDurations(changed), bootstrap, topNames);
}

ComparisonSide prepareSide(const ProfileSession& session, ComparisonRole role, const CompareOptions& options)
{
    ComparisonSide side;
    side.profile = session.profile();
    side.role = role;
    side.samples = collectSamples(*side.profile, session.analyses());
    if (!session.path().isEmpty())
        side.samples.label = session.path();
    side.config = readRunConfig(*side.profile);
    const uint64_t seed = seedOf(role, options.bootstrap);
    prepareStepBootstrap(side.samples, options, seed);
    if (options.deviceTasks) { // (~4-5 % of a side's CPU: every task's duration, sorted; the window shows none)
        auto tasks = std::make_shared<TaskDurations>(taskDurations(*side.profile));
        prepareTaskBootstrap(*tasks, options.bootstrap, seed);
        side.tasks = std::move(tasks);
    }
    return side;
}

RunComparison compareRuns(const ComparisonSide& baseline, const ComparisonSide& changed, const CompareOptions& options)
{
    // The device tasks (about as long as the steps) on a second thread.
    DeviceTaskComparison tasks;
    std::jthread worker;
    if (options.deviceTasks && baseline.tasks && changed.tasks)
        worker = std::jthread(
            [&] { tasks = compareTaskDurations(*baseline.tasks, *changed.tasks, options.bootstrap, kTopTaskNames); });
    RunComparison out = compareRuns(baseline.samples, changed.samples, options);
    out.config = compareConfigs(baseline.config, changed.config);
    if (worker.joinable())
        worker.join();
    out.deviceTasks = std::move(tasks);
    return out;
}

RunComparison compareRuns(const ProfileSession& baseline, const ProfileSession& changed, const CompareOptions& options)
{
    // Each side's own part on a thread of its own, then the pairwise part (docs/performance.md, "Opening
    // a comparison").
    ComparisonSide a;
    std::jthread worker([&] { a = prepareSide(baseline, ComparisonRole::Baseline, options); });
    const ComparisonSide b = prepareSide(changed, ComparisonRole::Changed, options);
    worker.join();
    return compareRuns(a, b, options);
}

} // namespace dspark
