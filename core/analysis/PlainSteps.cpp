#include "analysis/PlainSteps.h"

#include "analysis/StepAnalysis.h"
#include "steps/AnomalyDetector.h"
#include "steps/StepAlignment.h"

#include <QCoreApplication>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace dspark {

const char* stepSourceKey(StepSource source)
{
    switch (source) {
    case StepSource::None: return "none";
    case StepSource::ProfilerStep: return "profiler_step";
    case StepSource::StepTime: return "step_time";
    case StepSource::StepSpans: return "step_spans";
    }
    return "none";
}

QString stepSourceText(StepSource source)
{
    switch (source) {
    case StepSource::None: return QCoreApplication::translate("PlainSteps", "no steps");
    case StepSource::ProfilerStep: return QCoreApplication::translate("PlainSteps", "ProfilerStep#N spans");
    case StepSource::StepTime: return QCoreApplication::translate("PlainSteps", "the profiler's STEP_TIME steps");
    case StepSource::StepSpans:
        return QCoreApplication::translate("PlainSteps",
                                           "scheduler iterations (scheduler.run_batch / step[...] spans)");
    }
    return {};
}

const char* plainPathKey(PlainPathCategory c)
{
    switch (c) {
    case PlainPathCategory::Compute: return "compute";
    case PlainPathCategory::Communication: return "communication";
    case PlainPathCategory::Host: return "host";
    case PlainPathCategory::Idle:
    case PlainPathCategory::Count: break;
    }
    return "idle";
}

namespace {

struct Span {
    EventRef ref;
    TimeNs start, end;
    int64_t number; // -1: none in the name
};

// N of "ProfilerStep#N" (or of a STEP_TIME span named by its step id), -1 when the name has none.
int64_t numberIn(std::string_view name)
{
    const size_t hash = name.rfind('#');
    const std::string_view digits = hash == std::string_view::npos ? name : name.substr(hash + 1);
    int64_t n = -1;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    return ec == std::errc() && p == digits.data() + digits.size() ? n : -1;
}

// The rank's ProfilerStep#N spans and its profiler step-lane spans (host lanes), each sorted, deduplicated.
void profilerSpans(const Profile& profile, int rank, std::vector<Span>& profilerSteps, std::vector<Span>& stepTimes)
{
    std::vector<int8_t> isStep(profile.strings.size(), -1); // per name, decided once
    for (uint32_t l = 0; l < profile.lanes.size(); ++l) {
        const Lane& lane = profile.lanes[l];
        if (lane.info.rankIndex != rank || lane.info.kind != LaneKind::Host)
            continue;
        for (uint32_t i = 0; i < lane.size(); ++i) {
            const std::string_view name = profile.strings.view(lane.nameId[i]);
            if (lane.info.profilerSteps) {
                stepTimes.push_back({{l, i}, lane.startNs[i], lane.endNs(i), numberIn(name)});
                continue;
            }
            int8_t& s = isStep[lane.nameId[i]];
            if (s < 0)
                s = name.substr(0, 13) == "ProfilerStep#";
            if (s)
                profilerSteps.push_back({{l, i}, lane.startNs[i], lane.endNs(i), numberIn(name)});
        }
    }
    for (std::vector<Span>* v : {&profilerSteps, &stepTimes}) {
        std::sort(v->begin(), v->end(),
                  [](const Span& a, const Span& b) { return a.start != b.start ? a.start < b.start : a.end > b.end; });
        v->erase(std::unique(v->begin(), v->end(),
                             [](const Span& a, const Span& b) { return a.start == b.start && a.end == b.end; }),
                 v->end());
    }
}

// The end of the rank's last event (where the last step's device work is looked for up to).
TimeNs rankEndNs(const Profile& profile, int rank)
{
    TimeNs end = INT64_MIN;
    for (const Lane& lane : profile.lanes)
        if (lane.info.rankIndex == rank && !lane.empty())
            end = std::max(end, lane.lastNs());
    return end;
}

void appendSteps(const Profile& profile, int rank, const std::vector<Span>& spans, PlainSteps& out)
{
    const TimeNs rankEnd = rankEndNs(profile, rank);
    for (size_t k = 0; k < spans.size(); ++k) {
        PlainStep s;
        s.span = spans[k].ref;
        s.window.rankIndex = rank;
        s.window.forwardCt = spans[k].number >= 0 ? spans[k].number : static_cast<int64_t>(k);
        s.window.startNs = spans[k].start;
        s.window.endNs = spans[k].end;
        s.deviceEndNs = std::max(spans[k].end, k + 1 < spans.size() ? spans[k + 1].start : rankEnd);
        s.window.deviceHorizonNs = s.deviceEndNs;
        out.steps.push_back(std::move(s));
    }
}

// The wall-time anomalies of one rank's steps [begin, end) of out.steps.
void flagAnomalies(std::vector<PlainStep>& steps, size_t begin, size_t end, double robustZ)
{
    constexpr size_t kMinSteps = 5;
    if (end - begin < kMinSteps)
        return;
    std::vector<double> wall;
    for (size_t i = begin; i < end; ++i)
        wall.push_back(static_cast<double>(steps[i].window.wallNs()));
    std::vector<double> sorted = wall;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted[sorted.size() / 2];
    const RobustStats stats = robustStats(wall, 0.002 * median);
    if (stats.sigma <= 0)
        return;
    for (size_t i = begin; i < end; ++i) {
        const double z = (wall[i - begin] - stats.median) / stats.sigma;
        if (std::abs(z) <= robustZ)
            continue;
        steps[i].anomaly =
            QCoreApplication::translate("PlainSteps", "wall %1 ms is %2 robust σ %3 the median %4 ms of %5 steps")
                .arg(wall[i - begin] / 1e6, 0, 'f', 3)
                .arg(std::abs(z), 0, 'f', 1)
                .arg(z > 0 ? QCoreApplication::translate("PlainSteps", "above")
                           : QCoreApplication::translate("PlainSteps", "below"))
                .arg(stats.median / 1e6, 0, 'f', 3)
                .arg(stats.count);
    }
}

PlainPathCategory plainCategory(PathCategory c)
{
    switch (c) {
    case PathCategory::ExposedComm: return PlainPathCategory::Communication;
    case PathCategory::HostGap: return PlainPathCategory::Host;
    case PathCategory::Idle: return PlainPathCategory::Idle;
    default: return PlainPathCategory::Compute;
    }
}

} // namespace

int rankNumberOf(const Profile& profile, int rankIndex)
{
    return rankIndex >= 0 && rankIndex < static_cast<int>(profile.ranks.size())
               ? profile.ranks[static_cast<size_t>(rankIndex)].rankNumber
               : rankIndex;
}

bool sharesRankNumber(const Profile& profile, int rankIndex)
{
    if (rankIndex < 0 || rankIndex >= static_cast<int>(profile.ranks.size()))
        return false;
    const int number = profile.ranks[static_cast<size_t>(rankIndex)].rankNumber;
    return std::count_if(profile.ranks.begin(), profile.ranks.end(),
                         [number](const RankInfo& r) { return r.rankNumber == number; }) > 1;
}

QString rankColumnText(const Profile& profile, int rankIndex)
{
    return sharesRankNumber(profile, rankIndex)
               ? QString::fromStdString(profile.ranks[static_cast<size_t>(rankIndex)].label)
               : QString::number(rankNumberOf(profile, rankIndex));
}

PlainSteps findPlainSteps(const Profile& profile, const AnalysisRules& rules)
{
    PlainSteps out;
    for (int rank = 0; rank < static_cast<int>(profile.ranks.size()); ++rank) {
        std::vector<Span> profilerSteps, stepTimes;
        profilerSpans(profile, rank, profilerSteps, stepTimes);
        StepSource source = StepSource::None;
        std::vector<Span> spans;
        if (!profilerSteps.empty()) {
            source = StepSource::ProfilerStep;
            spans = std::move(profilerSteps);
        } else if (!stepTimes.empty()) {
            source = StepSource::StepTime;
            spans = std::move(stepTimes);
        } else {
            StepAlignMethod method = StepAlignMethod::None;
            const std::vector<TraceStep> trace = collectTraceSteps(profile, rank, rules.rule(RuleId::StepSpan), method);
            if (method == StepAlignMethod::StepSpans) {
                source = StepSource::StepSpans;
                for (const TraceStep& t : trace)
                    spans.push_back({t.span, t.hostStartNs, t.hostEndNs, -1});
            }
        }
        if (spans.empty())
            continue;
        if (out.source == StepSource::None)
            out.source = source; // the first rank's (ranks of one run give their steps the same way)
        appendSteps(profile, rank, spans, out);
    }
    return out;
}

PlainSteps analyzePlainSteps(const Profile& profile, const AnalysisRules& rules, double robustZ)
{
    PlainSteps out = findPlainSteps(profile, rules);
    if (out.steps.empty())
        return out;
    const StepAnalyzer analyzer(profile, rules);
    const KernelDetails details = readListedKernelDetails(profile); // once, not once per step
    size_t rankBegin = 0;
    for (size_t i = 0; i < out.steps.size(); ++i) {
        PlainStep& s = out.steps[i];
        for (const DeviceActivity& d : analyzer.activity())
            if (d.rankIndex == s.window.rankIndex) {
                const DeviceOverlap o = overlapOf(d, s.window.startNs, s.deviceEndNs);
                s.computingNs = o.computingNs();
                s.commNotOverlappedNs = o.communicationNotOverlappedNs();
                s.deviceBusyNs = s.computingNs + s.commNotOverlappedNs;
                s.freeNs = o.freeNs();
                break;
            }
        const StepAnalysis a = analyzer.analyze(s.window);
        for (size_t c = 0; c < kPathCategoryCount; ++c)
            s.criticalPathNs[static_cast<size_t>(plainCategory(static_cast<PathCategory>(c)))] +=
                a.criticalPath.byCategory[c];
        KernelQuery q;
        q.fromNs = s.window.startNs;
        q.toNs = s.deviceEndNs;
        q.rankIndex = s.window.rankIndex;
        q.step = s.window.forwardCt;
        KernelSummary k = summarizeKernels(profile, q, rules, details);
        k.kernels.resize(std::min(k.kernels.size(), PlainStep::kTopKernels));
        s.topKernels = std::move(k.kernels);
        if (i + 1 == out.steps.size() || out.steps[i + 1].window.rankIndex != s.window.rankIndex) {
            flagAnomalies(out.steps, rankBegin, i + 1, robustZ);
            rankBegin = i + 1;
        }
    }
    return out;
}

} // namespace dspark
