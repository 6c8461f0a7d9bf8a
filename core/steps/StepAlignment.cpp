#include "steps/StepAlignment.h"

#include "analysis/AnalysisRules.h"
#include "steps/StepRecords.h"

#include <QCoreApplication>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

namespace dspark {

const char* stepAlignMethodName(StepAlignMethod method)
{
    switch (method) {
    case StepAlignMethod::None: return "none";
    case StepAlignMethod::StepSpans: return "step_spans";
    case StepAlignMethod::StepTimeSpans: return "step_time";
    case StepAlignMethod::ProfilerStepSpans: return "profiler_step";
    }
    return "none";
}

const char* stepMatchName(StepMatch match)
{
    switch (match) {
    case StepMatch::NotAligned: return "not_aligned";
    case StepMatch::Match: return "match";
    case StepMatch::Mismatch: return "mismatch";
    case StepMatch::Unverified: return "unverified";
    case StepMatch::NoTraceStep: return "no_trace_step";
    case StepMatch::OutsideTrace: return "outside_trace";
    case StepMatch::NotMatched: return "not_matched";
    }
    return "not_aligned";
}

TimeNs StepAlignmentRow::windowStartNs() const
{
    if (!hasWindow())
        return -1;
    return deviceStartNs >= 0 ? std::min(hostStartNs, deviceStartNs) : hostStartNs;
}

TimeNs StepAlignmentRow::windowEndNs() const
{
    if (!hasWindow())
        return -1;
    return deviceEndNs >= 0 ? std::max(hostEndNs, deviceEndNs) : hostEndNs;
}

ForwardSpanName parseForwardSpanName(std::string_view name)
{
    ForwardSpanName out;
    const size_t open = name.find("step[");
    if (open == std::string_view::npos)
        return out;
    std::string prefix(name.substr(0, open));
    while (!prefix.empty() && (prefix.back() == ' ' || prefix.back() == '_' || prefix.back() == ':'))
        prefix.pop_back();
    if (!prefix.empty()) {
        std::transform(prefix.begin(), prefix.end(), prefix.begin(), [](unsigned char c) { return std::tolower(c); });
        if (prefix.find("draft") == std::string::npos)
            return out; // some other "...step[" name
        out.draft = true;
    }
    const size_t close = name.find(']', open);
    if (close == std::string_view::npos)
        return out;
    std::string_view body = name.substr(open + 5, close - open - 5);
    size_t modeEnd = 0;
    while (modeEnd < body.size() && (std::isupper(static_cast<unsigned char>(body[modeEnd])) || body[modeEnd] == '_'))
        ++modeEnd;
    if (modeEnd == 0 || (modeEnd < body.size() && body[modeEnd] != ' '))
        return out;
    out.mode = std::string(body.substr(0, modeEnd));
    body.remove_prefix(modeEnd);
    while (!body.empty()) {
        while (!body.empty() && body.front() == ' ')
            body.remove_prefix(1);
        const size_t end = std::min(body.find(' '), body.size());
        const std::string_view field = body.substr(0, end);
        body.remove_prefix(end);
        const size_t eq = field.find('=');
        if (eq == std::string_view::npos)
            continue;
        const std::string_view key = field.substr(0, eq), value = field.substr(eq + 1);
        int64_t v = 0;
        const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
        if (ec != std::errc() || ptr != value.data() + value.size())
            continue;
        if (key == "bs")
            out.bs = v;
        else if (key == "g_sq")
            out.gSq = v;
        else if (key == "c_sq")
            out.cSq = v;
    }
    out.valid = true;
    return out;
}

namespace {

enum class StepKind { Decode, Prefill, Idle, Unknown };

StepKind kindOfMode(const std::string& mode)
{
    if (mode == "DECODE" || mode == "TARGET_VERIFY")
        return StepKind::Decode;
    if (mode == "EXTEND" || mode == "MIXED" || mode == "PREFILL" || mode == "SPLIT_PREFILL" || mode == "DRAFT_EXTEND")
        return StepKind::Prefill;
    if (mode == "IDLE")
        return StepKind::Idle;
    return StepKind::Unknown;
}

struct Span {
    EventRef ref;
    TimeNs start = 0;
    TimeNs end = 0;
    const ForwardSpanName* forward = nullptr;
};

void sortAndDedupe(std::vector<Span>& spans)
{
    std::sort(spans.begin(), spans.end(),
              [](const Span& a, const Span& b) { return a.start != b.start ? a.start < b.start : a.end > b.end; });
    spans.erase(std::unique(spans.begin(), spans.end(),
                            [](const Span& a, const Span& b) { return a.start == b.start && a.end == b.end; }),
                spans.end());
}

// Priority of a main forward span within one iteration: the verify forward of a speculative step.
int forwardPriority(const std::string& mode)
{
    return mode == "TARGET_VERIFY" ? 0 : mode == "DECODE" ? 1 : 2;
}

void adopt(TraceStep& step, const Span& f, int& bestPriority)
{
    step.hostStartNs = std::min(step.hostStartNs, f.start);
    step.hostEndNs = std::max(step.hostEndNs, f.end);
    if (f.forward->draft)
        return;
    const int p = forwardPriority(f.forward->mode);
    if (p < bestPriority) {
        bestPriority = p;
        step.forward = f.ref;
        step.mode = f.forward->mode;
        step.bs = f.forward->bs;
        step.tokens = f.forward->gSq;
    }
}

} // namespace

std::vector<TraceStep> collectTraceSteps(const Profile& profile, int rankIndex, const NameRule& stepSpan,
                                         StepAlignMethod& method)
{
    method = StepAlignMethod::None;
    // Classify every distinct name once: 1 step span (run_batch), 2 forward span, 3 ProfilerStep, 0 other.
    std::vector<int8_t> nameClass(profile.strings.size(), -1);
    std::unordered_map<uint32_t, ForwardSpanName> forwardNames;
    auto classify = [&](uint32_t id) -> int8_t {
        if (id >= nameClass.size())
            return 0;
        int8_t& c = nameClass[id];
        if (c >= 0)
            return c;
        const std::string_view name = profile.strings.view(id);
        c = 0;
        if (stepSpan.matches(name)) {
            c = 1;
        } else if (name.substr(0, 13) == "ProfilerStep#") {
            c = 3;
        } else if (name.find("step[") != std::string_view::npos) {
            ForwardSpanName parsed = parseForwardSpanName(name);
            if (parsed.valid) {
                forwardNames.emplace(id, std::move(parsed));
                c = 2;
            }
        }
        return c;
    };

    std::vector<Span> runBatch, forwards, profilerSteps, stepTimes;
    for (uint32_t l = 0; l < profile.lanes.size(); ++l) {
        const Lane& lane = profile.lanes[l];
        if (lane.info.rankIndex != rankIndex || lane.info.kind != LaneKind::Host)
            continue;
        const bool stepTimeLane = lane.info.profilerSteps;
        for (uint32_t i = 0; i < lane.size(); ++i) {
            const Span s{{l, i}, lane.startNs[i], lane.endNs(i), nullptr};
            if (stepTimeLane) {
                stepTimes.push_back(s);
                continue;
            }
            switch (classify(lane.nameId[i])) {
            case 1: runBatch.push_back(s); break;
            case 2:
                forwards.push_back(s);
                forwards.back().forward = &forwardNames.at(lane.nameId[i]);
                break;
            case 3: profilerSteps.push_back(s); break;
            default: break;
            }
        }
    }

    std::vector<TraceStep> steps;
    auto plain = [&](const std::vector<Span>& spans) {
        for (const Span& s : spans) {
            TraceStep t;
            t.span = s.ref;
            t.hostStartNs = s.start;
            t.hostEndNs = s.end;
            steps.push_back(std::move(t));
        }
    };
    sortAndDedupe(forwards);
    if (!runBatch.empty()) {
        // One scheduler.run_batch per forward_ct; forward spans belong to the latest run_batch that
        // started at or before them (nested on the scheduler thread, or on a worker thread after it).
        method = StepAlignMethod::StepSpans;
        sortAndDedupe(runBatch);
        plain(runBatch);
        std::vector<int> priority(steps.size(), 99);
        for (const Span& f : forwards) {
            auto it = std::upper_bound(runBatch.begin(), runBatch.end(), f.start,
                                       [](TimeNs t, const Span& s) { return t < s.start; });
            if (it == runBatch.begin())
                continue; // before the first captured iteration
            const size_t k = static_cast<size_t>(it - runBatch.begin()) - 1;
            adopt(steps[k], f, priority[k]);
        }
    } else {
        std::vector<Span> mains, drafts;
        for (const Span& f : forwards)
            (f.forward->draft ? drafts : mains).push_back(f);
        if (!mains.empty()) {
            // No run_batch spans: each main forward span is one iteration; a draft span belongs to the
            // first main span that has not ended when it starts.
            method = StepAlignMethod::StepSpans;
            for (const Span& m : mains) {
                TraceStep t;
                t.span = m.ref;
                t.hostStartNs = m.start;
                t.hostEndNs = m.end;
                int p = 99;
                adopt(t, m, p);
                steps.push_back(std::move(t));
            }
            for (const Span& d : drafts) {
                auto it = std::lower_bound(mains.begin(), mains.end(), d.start,
                                           [](const Span& s, TimeNs t) { return s.end < t; });
                if (it == mains.end())
                    continue;
                int p = -1; // drafts never replace the main forward
                adopt(steps[static_cast<size_t>(it - mains.begin())], d, p);
            }
        } else if (!stepTimes.empty()) {
            method = StepAlignMethod::StepTimeSpans;
            sortAndDedupe(stepTimes);
            plain(stepTimes);
        } else if (!profilerSteps.empty()) {
            method = StepAlignMethod::ProfilerStepSpans;
            sortAndDedupe(profilerSteps);
            plain(profilerSteps);
        }
    }
    return steps;
}

namespace {

// The records of one rank, by forward_ct.
struct RecordsOfRank {
    int dpRank = 0;
    std::vector<int64_t> fcts; // ascending
    std::vector<size_t> rows;  // StepRecordSet::rows index, parallel to fcts
    long find(int64_t f) const
    {
        auto it = std::lower_bound(fcts.begin(), fcts.end(), f);
        return it != fcts.end() && *it == f ? static_cast<long>(it - fcts.begin()) : -1;
    }
    // Inside the span of this rank's records: a decode step there should have one.
    bool covers(int64_t f) const { return !fcts.empty() && f >= fcts.front() && f <= fcts.back(); }
    // Records with a < forward_ct < b.
    size_t countBetween(int64_t a, int64_t b) const
    {
        if (b <= a + 1)
            return 0;
        return static_cast<size_t>(std::lower_bound(fcts.begin(), fcts.end(), b) -
                                   std::upper_bound(fcts.begin(), fcts.end(), a));
    }
};

struct Verdict {
    StepMatch status = StepMatch::Unverified;
    QString note;
    double failedShare = 0; // failed checks / checks made (1 when the step kind is wrong)
};

Verdict verify(const StepRecord& r, const TraceStep& step)
{
    Verdict v;
    const StepKind kind = kindOfMode(step.mode);
    if (kind == StepKind::Prefill || kind == StepKind::Idle) {
        v.status = StepMatch::Mismatch;
        v.note = QCoreApplication::translate("StepAlignment", "the trace step is %1; only decode steps have records")
                     .arg(QString::fromStdString(step.mode));
        v.failedShare = 1.0;
        return v;
    }
    int checks = 0;
    QStringList problems;
    const std::optional<int64_t> bs = r.bs ? r.bs : r.numRunningReqs;
    if (step.bs && bs) {
        ++checks;
        if (*step.bs != *bs)
            problems << QCoreApplication::translate("StepAlignment", "bs=%1 in the trace, %2 in the record")
                            .arg(*step.bs)
                            .arg(*bs);
    }
    if (step.tokens) {
        std::vector<int64_t> counts;
        for (const auto& c : {r.numVerifyTokens, r.verifyTokensLocal, r.verifyTokensDpSynced, r.verifyTokensGraphKey})
            if (c && std::find(counts.begin(), counts.end(), *c) == counts.end())
                counts.push_back(*c);
        if (!counts.empty()) {
            ++checks;
            if (std::find(counts.begin(), counts.end(), *step.tokens) == counts.end()) {
                QStringList list;
                for (int64_t c : counts)
                    list << QString::number(c);
                problems << QCoreApplication::translate("StepAlignment",
                                                        "g_sq=%1 in the trace, verify tokens %2 in the record")
                                .arg(*step.tokens)
                                .arg(list.join(QLatin1Char('/')));
            }
        }
    }
    if (!problems.isEmpty()) {
        v.status = StepMatch::Mismatch;
        v.note = problems.join(QStringLiteral("; "));
        v.failedShare = static_cast<double>(problems.size()) / checks;
    } else if (checks == 0) {
        v.status = StepMatch::Unverified;
        v.note = step.forward.valid()
                     ? QCoreApplication::translate("StepAlignment", "neither bs nor token counts to compare")
                     : QCoreApplication::translate("StepAlignment",
                                                   "the trace step has no step[...] forward span to compare with");
    } else {
        v.status = StepMatch::Match;
    }
    return v;
}

// Result of aligning one record rank to one trace rank: the forward_ct of every trace step.
struct Assignment {
    std::vector<int64_t> fct; // per trace step, strictly increasing
    size_t compared = 0;
    size_t agreeing = 0;
    std::optional<double> agreement;
};

constexpr int kMaxShift = 3;          // how far the alignment may drift from the anchor (missing spans)
constexpr double kShiftPenalty = 0.5; // per forward_ct of drift

// verify() without the notes, for the searches: the failed share of the checks (1 when the step kind is
// wrong), -1 when nothing can be checked.
double failedShareOf(const StepRecord& r, const TraceStep& step)
{
    const StepKind kind = kindOfMode(step.mode);
    if (kind == StepKind::Prefill || kind == StepKind::Idle)
        return 1.0;
    int checks = 0, failed = 0;
    const std::optional<int64_t> bs = r.bs ? r.bs : r.numRunningReqs;
    if (step.bs && bs) {
        ++checks;
        failed += *step.bs != *bs ? 1 : 0;
    }
    if (step.tokens) {
        bool any = false, hit = false;
        for (const CompactOptionalInt* c :
             {&r.numVerifyTokens, &r.verifyTokensLocal, &r.verifyTokensDpSynced, &r.verifyTokensGraphKey})
            if (*c) {
                any = true;
                hit = hit || **c == *step.tokens;
            }
        if (any) {
            ++checks;
            failed += hit ? 0 : 1;
        }
    }
    return checks > 0 ? static_cast<double>(failed) / checks : -1.0;
}

double stepCost(const RecordsOfRank& idx, const StepRecordSet& set, const TraceStep& step, int64_t f)
{
    const long k = idx.find(f);
    if (k >= 0) // a step that agrees on some checks is a better match than one that agrees on none
        return std::max(0.0, failedShareOf(set.record(idx.rows[static_cast<size_t>(k)]), step));
    return kindOfMode(step.mode) == StepKind::Decode && idx.covers(f) ? 1.0 : 0.0;
}

// Dynamic programme over the trace steps: step i gets forward_ct base + i + d_i with d_i
// non-decreasing in [-kMaxShift, kMaxShift] (a rise skips forward_cts: trace spans missing).
// Cost: the failed share of each step's checks, decode steps without record, records skipped, and the
// drift itself.
std::vector<int64_t> assignForwardCts(const RecordsOfRank& idx, const StepRecordSet& set,
                                      const std::vector<TraceStep>& steps, int64_t base, bool anchored)
{
    const size_t n = steps.size();
    constexpr int W = 2 * kMaxShift + 1;
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<std::array<double, W>> cost(n);
    std::vector<std::array<int8_t, W>> from(n);
    for (int d = -kMaxShift; d <= kMaxShift; ++d) {
        const int64_t f = base + d;
        double c = stepCost(idx, set, steps[0], f) + kShiftPenalty * std::abs(d);
        if (anchored && d > 0)
            c += static_cast<double>(idx.countBetween(base - 1, f)); // records in [base, f) left out
        cost[0][d + kMaxShift] = c;
        from[0][d + kMaxShift] = static_cast<int8_t>(d);
    }
    for (size_t i = 1; i < n; ++i) {
        for (int d2 = -kMaxShift; d2 <= kMaxShift; ++d2) {
            const int64_t f2 = base + static_cast<int64_t>(i) + d2;
            double best = inf;
            int bestFrom = d2;
            for (int d1 = d2; d1 >= -kMaxShift; --d1) { // staying on d2 wins ties
                const int64_t f1 = f2 - 1 - (d2 - d1);
                const double c = cost[i - 1][d1 + kMaxShift] + kShiftPenalty * (d2 - d1) +
                                 static_cast<double>(idx.countBetween(f1, f2));
                if (c < best) {
                    best = c;
                    bestFrom = d1;
                }
            }
            cost[i][d2 + kMaxShift] = best + stepCost(idx, set, steps[i], f2);
            from[i][d2 + kMaxShift] = static_cast<int8_t>(bestFrom);
        }
    }
    int d = 0;
    double best = inf;
    for (int a = 0; a <= kMaxShift; ++a) // prefer the smallest drift on ties
        for (int s : {a, -a})
            if (cost[n - 1][s + kMaxShift] < best) {
                best = cost[n - 1][s + kMaxShift];
                d = s;
            }
    std::vector<int64_t> fct(n);
    for (size_t i = n; i-- > 0;) {
        fct[i] = base + static_cast<int64_t>(i) + d;
        d = from[i][d + kMaxShift];
    }
    return fct;
}

// Without start_step: the offset (forward_ct of trace step 0) at which the trace best fits the records.
// Candidates come from two votes, each bounded by kVoteBudget record comparisons:
// - changes: where the workload changes between trace steps i-1 → i (bs → other bs, decode → prefill,
//   prefill → decode), the records must change the same way between forward_ct base+i-1 → base+i. Long
//   runs of one bs carry no information about the offset; their ends do.
// - steps: a decode step votes for every offset that puts a record of its workload on it; voters are
//   spread evenly over the trace when not all can vote.
// The best kKeepCandidates of each vote (and every candidate tied with the last kept) are re-scored over
// the trace (matching steps minus failed checks); when that would exceed kRescoreBudget step checks, all
// are first scored on an evenly spread subsample of the steps and the best re-scored in full.
struct Vote {
    std::optional<int64_t> base;
    size_t ties = 0;
};

constexpr size_t kVoteBudget = 2'000'000;    // record comparisons per vote
constexpr size_t kRescoreBudget = 4'000'000; // step checks when re-scoring candidates
constexpr size_t kKeepCandidates = 16;       // per vote (plus ties), and after a subsampled scoring
constexpr size_t kMaxCandidates = 4096;      // before scoring, half from each vote

// Workload of a position for the change vote: the bs of a decode step / record, kNoStep for a prefill or
// idle trace step / a forward_ct without record, kUnknownWorkload when it cannot be told.
constexpr int64_t kNoStep = std::numeric_limits<int64_t>::min();
constexpr int64_t kUnknownWorkload = kNoStep + 1;

std::optional<int64_t> recordBs(const StepRecord& r)
{
    return r.bs ? r.bs : r.numRunningReqs;
}

// Votes per base: a flat array over the bases a vote can name when that range is small, else a hash map.
class VoteCounter {
public:
    VoteCounter(int64_t lo, int64_t hi) : lo_(lo)
    {
        if (hi >= lo && static_cast<uint64_t>(hi - lo) < kFlatVotes)
            flat_.assign(static_cast<size_t>(hi - lo + 1), 0);
    }
    void add(int64_t base)
    {
        ++total_;
        if (!flat_.empty() && base >= lo_ && static_cast<uint64_t>(base - lo_) < flat_.size())
            ++flat_[static_cast<size_t>(base - lo_)];
        else
            ++map_[base];
    }
    bool empty() const { return total_ == 0; }
    template <typename F> void forEach(F&& f) const
    {
        for (size_t b = 0; b < flat_.size(); ++b)
            if (flat_[b] > 0)
                f(lo_ + static_cast<int64_t>(b), static_cast<size_t>(flat_[b]));
        for (const auto& [base, count] : map_)
            f(base, count);
    }

private:
    static constexpr uint64_t kFlatVotes = uint64_t(1) << 21;
    int64_t lo_ = 0;
    std::vector<uint32_t> flat_;
    std::unordered_map<int64_t, size_t> map_;
    size_t total_ = 0;
};

// The best `keep` bases by votes, plus every base tied with the last kept. When those are more than
// this vote's share of kMaxCandidates, the tied ones are ranked by `score` (base, stride) on an evenly
// spread subsample of the `n` steps (at most kRescoreBudget checks) before the cut, never by position.
template <typename Score>
void keepBest(const VoteCounter& votes, size_t keep, size_t n, Score&& score, std::vector<int64_t>& out)
{
    std::vector<std::pair<size_t, int64_t>> ranked;
    votes.forEach([&](int64_t base, size_t count) { ranked.push_back({count, base}); });
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    const size_t limit = out.size() + kMaxCandidates / 2; // each vote gets its share
    const size_t cutCount = ranked[std::min(keep, ranked.size()) - 1].first;
    size_t r = 0;
    for (; r < ranked.size() && ranked[r].first > cutCount; ++r)
        out.push_back(ranked[r].second);
    size_t tiedEnd = r;
    while (tiedEnd < ranked.size() && ranked[tiedEnd].first == cutCount)
        ++tiedEnd;
    if (out.size() + (tiedEnd - r) > limit && n > 0) {
        const size_t tied = tiedEnd - r;
        const size_t stride = std::clamp<size_t>((tied * n + kRescoreBudget - 1) / kRescoreBudget, 1, n);
        std::vector<std::pair<double, int64_t>> sampled;
        sampled.reserve(tied);
        for (size_t t = r; t < tiedEnd; ++t)
            sampled.push_back({score(ranked[t].second, stride), ranked[t].second});
        std::sort(sampled.begin(), sampled.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        for (size_t t = 0; t < sampled.size() && out.size() < limit; ++t)
            out.push_back(sampled[t].second);
        return;
    }
    for (; r < tiedEnd; ++r)
        out.push_back(ranked[r].second);
}

// Every `stride`-th element of `voters` (phase chosen so they spread over the whole trace) casts its
// votes through `cast`, which returns the comparisons it made; stops when the budget is spent.
template <typename Cast> void spreadVotes(const std::vector<size_t>& voters, size_t work, Cast&& cast)
{
    const size_t stride = std::max<size_t>(1, (work + kVoteBudget - 1) / kVoteBudget);
    size_t spent = 0;
    for (size_t v = stride / 2; v < voters.size() && spent < kVoteBudget; v += stride)
        spent += cast(voters[v]);
}

Vote voteBase(const RecordsOfRank& idx, const StepRecordSet& set, const std::vector<TraceStep>& steps)
{
    const size_t n = steps.size();
    std::vector<int64_t> candidates;

    // Score of a base over every stride-th step: steps with a matching record minus the failed share of
    // the other steps' checks.
    auto score = [&](int64_t base, size_t stride) {
        double s = 0;
        for (size_t i = stride / 2; i < n; i += stride) {
            const int64_t f = base + static_cast<int64_t>(i);
            const long k = idx.find(f);
            if (k >= 0) {
                const double share = failedShareOf(set.record(idx.rows[static_cast<size_t>(k)]), steps[i]);
                s += share == 0.0 ? 1.0 : -std::max(0.0, share);
            } else if (kindOfMode(steps[i].mode) == StepKind::Decode && idx.covers(f)) {
                s -= 1.0;
            }
        }
        return s;
    };

    // Change vote.
    auto traceKey = [&](size_t i) -> int64_t {
        switch (kindOfMode(steps[i].mode)) {
        case StepKind::Decode: return steps[i].bs ? *steps[i].bs : kUnknownWorkload;
        case StepKind::Prefill:
        case StepKind::Idle: return kNoStep;
        case StepKind::Unknown: break;
        }
        return kUnknownWorkload;
    };
    auto recordKey = [&](size_t k) {
        const std::optional<int64_t> bs = recordBs(set.record(idx.rows[k]));
        return bs ? *bs : kUnknownWorkload;
    };
    std::map<std::pair<int64_t, int64_t>, std::vector<int64_t>> recordChanges; // (before, after) → forward_ct
    auto addChange = [&](int64_t before, int64_t after, int64_t f) {
        if (before != after && before != kUnknownWorkload && after != kUnknownWorkload)
            recordChanges[{before, after}].push_back(f);
    };
    for (size_t k = 0; k < idx.fcts.size(); ++k) {
        const int64_t f = idx.fcts[k];
        const int64_t key = recordKey(k);
        addChange(k > 0 && idx.fcts[k - 1] == f - 1 ? recordKey(k - 1) : kNoStep, key, f);
        if (k + 1 == idx.fcts.size() || idx.fcts[k + 1] != f + 1)
            addChange(key, kNoStep, f + 1);
    }
    std::vector<size_t> changeVoters;
    size_t work = 0;
    for (size_t i = 1; i < n; ++i) {
        const int64_t before = traceKey(i - 1), after = traceKey(i);
        if (before == after || before == kUnknownWorkload || after == kUnknownWorkload)
            continue;
        const auto it = recordChanges.find({before, after});
        if (it == recordChanges.end())
            continue;
        changeVoters.push_back(i);
        work += it->second.size();
    }
    // Bases a vote can name: a record's forward_ct (or the one after the last) minus a trace position.
    const int64_t lowBase = idx.fcts.front() - static_cast<int64_t>(n), highBase = idx.fcts.back() + 1;
    VoteCounter votes(lowBase, highBase);
    spreadVotes(changeVoters, work, [&](size_t i) {
        const std::vector<int64_t>& fs = recordChanges.at({traceKey(i - 1), traceKey(i)});
        for (int64_t f : fs)
            votes.add(f - static_cast<int64_t>(i));
        return fs.size();
    });
    if (!votes.empty())
        keepBest(votes, kKeepCandidates, n, score, candidates);

    // Step vote.
    std::unordered_map<int64_t, std::vector<size_t>> byBs; // bs → positions in idx
    for (size_t k = 0; k < idx.fcts.size(); ++k)
        if (const auto bs = recordBs(set.record(idx.rows[k])))
            byBs[*bs].push_back(k);
    std::vector<size_t> stepVoters;
    work = 0;
    for (size_t i = 0; i < n; ++i) {
        if (kindOfMode(steps[i].mode) != StepKind::Decode || !steps[i].bs)
            continue;
        const auto it = byBs.find(*steps[i].bs);
        if (it == byBs.end())
            continue;
        stepVoters.push_back(i);
        work += it->second.size();
    }
    votes = VoteCounter(lowBase, highBase);
    spreadVotes(stepVoters, work, [&](size_t i) {
        const std::vector<size_t>& bucket = byBs.at(*steps[i].bs);
        for (size_t k : bucket)
            if (failedShareOf(set.record(idx.rows[k]), steps[i]) == 0.0)
                votes.add(idx.fcts[k] - static_cast<int64_t>(i));
        return bucket.size();
    });
    if (!votes.empty())
        keepBest(votes, kKeepCandidates, n, score, candidates);
    if (candidates.empty())
        return {};
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());

    if (candidates.size() * n > kRescoreBudget) {
        const size_t stride = (candidates.size() * n + kRescoreBudget - 1) / kRescoreBudget;
        std::vector<std::pair<double, int64_t>> ranked;
        for (int64_t base : candidates)
            ranked.push_back({score(base, stride), base});
        std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        candidates.clear();
        const size_t maxFull = std::max<size_t>(kKeepCandidates, kRescoreBudget / std::max<size_t>(n, 1));
        for (size_t r = 0; r < ranked.size() && candidates.size() < maxFull; ++r) {
            if (r >= kKeepCandidates && ranked[r].first < ranked[kKeepCandidates - 1].first)
                break;
            candidates.push_back(ranked[r].second);
        }
        std::sort(candidates.begin(), candidates.end());
    }
    Vote vote;
    double bestScore = -std::numeric_limits<double>::infinity();
    for (int64_t base : candidates) { // ascending: the earliest of tied placements is kept
        const double s = score(base, 1);
        if (s > bestScore) {
            bestScore = s;
            vote.base = base;
            vote.ties = 0;
        } else if (s == bestScore) {
            ++vote.ties;
        }
    }
    return vote;
}

// Fallback spans (STEP_TIME, ProfilerStep#N) carry no bs or token counts; what can be checked is the
// step's length: the record's host interval (step_cpu_ms, else step_gpu_ms) within a factor
// kDurationFactor of the span's. Records of another run rarely pass that for most steps.
constexpr double kDurationFactor = 2.0;

Verdict verifyDuration(const StepRecord& r, const TraceStep& step)
{
    Verdict v;
    const std::optional<double> ms = r.stepCpuMs   ? std::optional<double>(*r.stepCpuMs)
                                     : r.stepGpuMs ? std::optional<double>(*r.stepGpuMs)
                                                   : std::nullopt;
    const double spanMs = double(step.hostEndNs - step.hostStartNs) / 1e6;
    if (!ms || *ms <= 0 || spanMs <= 0) {
        v.note = QCoreApplication::translate("StepAlignment",
                                             "fallback spans carry no bs or token counts, and the record no step time");
        return v;
    }
    if (spanMs > *ms * kDurationFactor || spanMs * kDurationFactor < *ms) {
        v.status = StepMatch::Mismatch;
        v.note = QCoreApplication::translate("StepAlignment", "the trace step lasts %1 ms, the record's step %2 ms")
                     .arg(spanMs, 0, 'f', 3)
                     .arg(*ms, 0, 'f', 3);
        v.failedShare = 1.0;
        return v;
    }
    v.status = StepMatch::Match;
    return v;
}

Verdict verifyStep(const StepRecord& r, const TraceStep& step, bool checkable)
{
    return checkable ? verify(r, step) : verifyDuration(r, step);
}

void evaluate(const RecordsOfRank& idx, const StepRecordSet& set, const std::vector<TraceStep>& steps, Assignment& a,
              bool checkable)
{
    a.compared = a.agreeing = 0;
    const int64_t first = a.fct.front(), last = a.fct.back();
    size_t s = 0;
    for (size_t k = 0; k < idx.fcts.size(); ++k) {
        const int64_t f = idx.fcts[k];
        if (f < first || f > last)
            continue;
        while (s < a.fct.size() && a.fct[s] < f)
            ++s;
        if (s < a.fct.size() && a.fct[s] == f) {
            const StepMatch m = verifyStep(set.record(idx.rows[k]), steps[s], checkable).status;
            if (m == StepMatch::Unverified)
                continue;
            ++a.compared;
            if (m == StepMatch::Match)
                ++a.agreeing;
        } else if (checkable) {
            ++a.compared; // a record inside the traced range without a trace step
        }
    }
    if (checkable)
        for (size_t i = 0; i < steps.size(); ++i)
            if (kindOfMode(steps[i].mode) == StepKind::Decode && idx.covers(a.fct[i]) && idx.find(a.fct[i]) < 0)
                ++a.compared; // a decode step of the trace without a record
    if (a.compared > 0)
        a.agreement = static_cast<double>(a.agreeing) / static_cast<double>(a.compared);
}

// Device tasks reached through launch links from the host events that start inside [t0, t1].
std::pair<TimeNs, TimeNs> deviceWindow(const Profile& profile, const std::vector<uint32_t>& hostLanes, int rankIndex,
                                       TimeNs t0, TimeNs t1)
{
    TimeNs lo = -1, hi = -1;
    for (uint32_t l : hostLanes) {
        const Lane& lane = profile.lanes[l];
        const auto [first, last] = lane.overlapping(t0, t1 + 1);
        for (size_t i = first; i < last; ++i) {
            if (lane.startNs[i] < t0 || lane.startNs[i] > t1)
                continue;
            const EventRef e{l, static_cast<uint32_t>(i)};
            auto it = std::lower_bound(profile.links.begin(), profile.links.end(), e,
                                       [](const Link& k, EventRef v) { return k.from < v; });
            for (; it != profile.links.end() && it->from == e; ++it) {
                if (it->kind != LinkKind::HostToDevice && it->kind != LinkKind::OpToDevice)
                    continue;
                const Lane& to = profile.lanes[it->to.lane];
                if (!isDeviceLane(to.info.kind) || to.info.rankIndex != rankIndex)
                    continue;
                const TimeNs s = to.startNs[it->to.index], end = to.endNs(it->to.index);
                lo = lo < 0 ? s : std::min(lo, s);
                hi = std::max(hi, end);
            }
        }
    }
    return {lo, hi};
}

std::optional<int64_t> metadataInt(const Profile& profile, const char* key)
{
    const auto it = profile.metadata.find(key);
    if (it == profile.metadata.end())
        return std::nullopt;
    int64_t v = 0;
    const std::string& s = it->second;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size())
        return std::nullopt;
    return v;
}

} // namespace

void StepAlignment::attachAnyway()
{
    if (attached)
        return;
    rows = std::move(heldRows);
    unmatchedTraceSteps = std::move(heldUnmatchedTraceSteps);
    heldRows.clear();
    heldUnmatchedTraceSteps.clear();
    attached = attachedByHand = true;
}

namespace {

// Below the threshold (or with nothing checked) the records are not placed: every row says so.
void decideAttachment(StepAlignment& a)
{
    if (!a.aligned() || (a.agreement && *a.agreement >= StepAlignment::kAgreementThreshold))
        return;
    a.attached = false;
    a.refusal = a.agreement
                    ? QCoreApplication::translate("StepAlignment",
                                                  "The step records do not match this profile: %1 of %2 compared "
                                                  "steps agree (%3 %), below the %4 % needed")
                          .arg(a.agreeing)
                          .arg(a.compared)
                          .arg(*a.agreement * 100.0, 0, 'f', 1)
                          .arg(StepAlignment::kAgreementThreshold * 100.0, 0, 'f', 0)
                    : QCoreApplication::translate("StepAlignment",
                                                  "The step records cannot be checked against this profile (no step "
                                                  "of the trace could be compared with a record)");
    a.heldRows = std::move(a.rows);
    a.heldUnmatchedTraceSteps = std::move(a.unmatchedTraceSteps);
    a.unmatchedTraceSteps.clear();
    a.rows.assign(a.heldRows.size(), StepAlignmentRow{});
    for (StepAlignmentRow& row : a.rows) {
        row.status = StepMatch::NotMatched;
        row.note = QCoreApplication::translate("StepAlignment", "not matched to this profile");
    }
    a.notes << a.refusal;
}

} // namespace

namespace {

// The trace steps of every rank of the profile, all found with the most informative method present.
struct TraceRank {
    int rankIndex = 0;
    StepAlignMethod method = StepAlignMethod::None;
    std::vector<TraceStep> steps;
};

StepAlignMethod collectTraceRanks(const Profile& profile, const NameRule& stepSpan, std::vector<TraceRank>& out)
{
    StepAlignMethod method = StepAlignMethod::None;
    for (int r = 0; r < static_cast<int>(profile.ranks.size()); ++r) {
        TraceRank t;
        t.rankIndex = r;
        t.steps = collectTraceSteps(profile, r, stepSpan, t.method);
        if (t.steps.empty())
            continue;
        if (method == StepAlignMethod::None || static_cast<int>(t.method) < static_cast<int>(method))
            method = t.method;
        out.push_back(std::move(t));
    }
    std::erase_if(out, [&](const TraceRank& t) { return t.method != method; });
    return method;
}

void noteMethod(StepAlignment& out)
{
    if (out.method == StepAlignMethod::StepTimeSpans)
        out.notes << QCoreApplication::translate(
            "StepAlignment", "No scheduler.run_batch or step[...] spans in the trace: aligned by order to STEP_TIME "
                             "spans, one per scheduler step assumed; bs and token counts cannot be checked");
    else if (out.method == StepAlignMethod::ProfilerStepSpans)
        out.notes << QCoreApplication::translate(
            "StepAlignment",
            "No scheduler.run_batch or step[...] spans in the trace: aligned by order to ProfilerStep#N "
            "spans, one per scheduler step assumed; bs and token counts cannot be checked");
}

// Records by DP rank. forward_ct counts steps from 0: one past ±2^40 (a damaged record) stays out, so
// that the offsets tried around it (forward_ct ± steps) cannot overflow.
constexpr int64_t kMaxForwardCt = int64_t(1) << 40;

std::vector<RecordsOfRank> groupRecords(const StepRecordSet& set, StepAlignment& out)
{
    std::vector<RecordsOfRank> recordRanks;
    size_t outOfRange = 0;
    for (size_t i = 0; i < set.rows.size(); ++i) {
        const int64_t fct = set.record(i).forwardCt;
        if (fct > kMaxForwardCt || fct < -kMaxForwardCt) {
            ++outOfRange;
            continue;
        }
        if (recordRanks.empty() || recordRanks.back().dpRank != set.rows[i].dpRank)
            recordRanks.push_back({set.rows[i].dpRank, {}, {}});
        recordRanks.back().fcts.push_back(fct);
        recordRanks.back().rows.push_back(i);
    }
    if (outOfRange > 0) {
        const int records = static_cast<int>(std::min<size_t>(outOfRange, INT32_MAX));
        out.notes << QCoreApplication::translate(
            "StepAlignment", "%n record(s) have a forward_ct beyond ±2^40 and are not aligned", nullptr, records);
    }
    return recordRanks;
}

// Where one DP rank's records sit in the trace: the trace rank and forward_cts that agree best.
struct Placement {
    Assignment best;
    const TraceRank* trace = nullptr;
    int64_t base = 0;
    bool anchored = false;  // by start_step
    std::string anchorName; // "start_step", "workload" or "first_record"
    size_t ties = 0;
};

// The anchor of the records on one trace rank: start_step, else the best workload match, else the first
// record on the first decode step.
std::pair<int64_t, std::string> anchorOn(const StepAlignment& out, const RecordsOfRank& idx, const StepRecordSet& set,
                                         const TraceRank& t, bool checkable, size_t& ties)
{
    ties = 0;
    if (out.startStep)
        return {*out.startStep, "start_step"};
    if (checkable) {
        const Vote v = voteBase(idx, set, t.steps);
        if (v.base) {
            ties = v.ties;
            return {*v.base, "workload"};
        }
    }
    size_t firstDecode = 0;
    while (checkable && firstDecode < t.steps.size() && kindOfMode(t.steps[firstDecode].mode) != StepKind::Decode)
        ++firstDecode;
    if (firstDecode == t.steps.size())
        firstDecode = 0;
    return {idx.fcts.front() - static_cast<int64_t>(firstDecode), "first_record"};
}

Placement placeRecords(const Profile& profile, const StepAlignment& out, const RecordsOfRank& idx,
                       const StepRecordSet& set, const std::vector<TraceRank>& traceRanks, bool checkable)
{
    Placement p;
    // Best agreement, then most agreeing steps, then the trace rank of the same number, then the lowest.
    auto key = [&](const Assignment& x, const TraceRank* trace) {
        const int same = trace && profile.ranks[trace->rankIndex].rankNumber == idx.dpRank;
        return std::make_tuple(x.agreement.value_or(-1.0), x.agreeing, same, trace ? -trace->rankIndex : INT32_MIN);
    };
    for (const TraceRank& t : traceRanks) {
        size_t ties = 0;
        const auto [b, name] = anchorOn(out, idx, set, t, checkable, ties);
        Assignment a;
        if (checkable) {
            a.fct = assignForwardCts(idx, set, t.steps, b, name == "start_step");
        } else {
            a.fct.resize(t.steps.size());
            for (size_t i = 0; i < t.steps.size(); ++i)
                a.fct[i] = b + static_cast<int64_t>(i);
        }
        evaluate(idx, set, t.steps, a, checkable);
        if (!p.trace || key(a, &t) > key(p.best, p.trace)) {
            p.best = std::move(a);
            p.trace = &t;
            p.base = b;
            p.anchored = name == "start_step";
            p.anchorName = name;
            p.ties = ties;
        }
    }
    return p;
}

void notePlacement(StepAlignment& out, const RecordsOfRank& idx, const Placement& p)
{
    if (p.ties > 0) {
        const int ties = static_cast<int>(p.ties); // a plain name: lupdate skips casts in the count argument
        out.notes << QCoreApplication::translate(
                         "StepAlignment",
                         "rank %1: %n other placement(s) of the trace fit the records equally well; the earliest "
                         "is used",
                         nullptr, ties)
                         .arg(idx.dpRank);
    }
    const std::vector<int64_t>& fct = p.best.fct;
    if (p.anchored && fct.front() != p.base)
        out.notes << QCoreApplication::translate("StepAlignment",
                                                 "rank %1: the trace's first step is placed at forward_ct %2, "
                                                 "start_step is %3")
                         .arg(idx.dpRank)
                         .arg(fct.front())
                         .arg(p.base);
    for (size_t i = 1; i < fct.size(); ++i)
        if (fct[i] > fct[i - 1] + 1)
            out.notes << QCoreApplication::translate(
                             "StepAlignment",
                             "rank %1: no trace step for forward_ct %2–%3 (spans missing from the trace?)")
                             .arg(idx.dpRank)
                             .arg(fct[i - 1] + 1)
                             .arg(fct[i] - 1);
}

// Each record's row: its trace step, the verdict, and its host and device windows.
void fillRows(const Profile& profile, const StepRecordSet& set, const RecordsOfRank& idx, const Placement& p,
              bool checkable, StepAlignment& out)
{
    const TraceRank& t = *p.trace;
    const std::vector<int64_t>& fct = p.best.fct;
    std::vector<uint32_t> hostLanes;
    for (uint32_t l = 0; l < profile.lanes.size(); ++l)
        if (profile.lanes[l].info.rankIndex == t.rankIndex && profile.lanes[l].info.kind == LaneKind::Host)
            hostLanes.push_back(l);

    for (size_t k = 0; k < idx.fcts.size(); ++k) {
        StepAlignmentRow& row = out.rows[idx.rows[k]];
        row.traceRankIndex = t.rankIndex;
        const int64_t f = idx.fcts[k];
        const auto it = std::lower_bound(fct.begin(), fct.end(), f);
        if (it == fct.end() || *it != f) {
            if (f < fct.front() || f > fct.back()) {
                row.status = StepMatch::OutsideTrace;
                ++out.outside;
            } else {
                row.status = StepMatch::NoTraceStep;
                row.note = QCoreApplication::translate("StepAlignment", "no trace step maps to this forward_ct");
                ++out.noTraceStep;
            }
            continue;
        }
        const size_t s = static_cast<size_t>(it - fct.begin());
        const TraceStep& step = t.steps[s];
        const Verdict v = verifyStep(set.record(idx.rows[k]), step, checkable);
        row.status = v.status;
        row.note = v.note;
        if (row.status == StepMatch::Mismatch)
            ++out.mismatched;
        else if (row.status == StepMatch::Unverified)
            ++out.unverified;
        row.traceStep = static_cast<int>(s);
        row.span = step.span;
        row.hostStartNs = step.hostStartNs;
        row.hostEndNs = step.hostEndNs;
        std::tie(row.deviceStartNs, row.deviceEndNs) =
            deviceWindow(profile, hostLanes, t.rankIndex, step.hostStartNs, step.hostEndNs);
    }
    if (!checkable)
        return;
    for (size_t s = 0; s < t.steps.size(); ++s)
        if (kindOfMode(t.steps[s].mode) == StepKind::Decode && idx.covers(fct[s]) && idx.find(fct[s]) < 0) {
            const TraceStep& step = t.steps[s];
            out.unmatchedTraceSteps.push_back({idx.dpRank, t.rankIndex, static_cast<int>(s), fct[s], step.span,
                                               step.hostStartNs, step.hostEndNs,
                                               std::string(profile.name(step.forward))});
        }
}

void noteAnchor(StepAlignment& out)
{
    if (out.startStep)
        out.notes.prepend(
            QCoreApplication::translate("StepAlignment", "Anchored at start_step=%1 from profiler_metadata.json")
                .arg(*out.startStep));
    else if (out.anchor == "workload")
        out.notes.prepend(QCoreApplication::translate(
            "StepAlignment", "start_step unknown: placed where the trace's bs and g_sq best match the records"));
    else
        out.notes.prepend(QCoreApplication::translate(
            "StepAlignment", "start_step unknown: the first record is placed on the first decode step of the trace"));
}

} // namespace

StepAlignment alignSteps(const Profile& profile, const StepRecordSet& set, const NameRule& stepSpan)
{
    StepAlignment out;
    out.startStep = metadataInt(profile, "profiler_metadata.start_step");
    if (set.rows.empty())
        return out;
    std::vector<TraceRank> traceRanks;
    out.method = collectTraceRanks(profile, stepSpan, traceRanks);
    out.rows.resize(set.rows.size());
    if (out.method == StepAlignMethod::None) {
        if (!profile.lanes.empty())
            out.notes << QCoreApplication::translate(
                "StepAlignment",
                "The trace has no scheduler.run_batch, step[...], STEP_TIME or ProfilerStep spans: the "
                "records cannot be placed on the timeline");
        out.rows.clear();
        return out;
    }
    noteMethod(out);
    const bool checkable = out.method == StepAlignMethod::StepSpans;
    if (out.startStep && (*out.startStep > kMaxForwardCt || *out.startStep < -kMaxForwardCt))
        out.startStep.reset();

    for (const RecordsOfRank& idx : groupRecords(set, out)) {
        const Placement p = placeRecords(profile, out, idx, set, traceRanks, checkable);
        if (out.anchor.empty() || p.anchorName == "first_record")
            out.anchor = p.anchorName;
        notePlacement(out, idx, p);
        fillRows(profile, set, idx, p, checkable, out);
        RankAlignment ra;
        ra.dpRank = idx.dpRank;
        ra.traceRankIndex = p.trace->rankIndex;
        ra.traceRankNumber = profile.ranks[p.trace->rankIndex].rankNumber;
        ra.firstForwardCt = p.best.fct.front();
        ra.lastForwardCt = p.best.fct.back();
        ra.traceSteps = p.trace->steps.size();
        ra.compared = p.best.compared;
        ra.agreeing = p.best.agreeing;
        ra.agreement = p.best.agreement;
        out.compared += ra.compared;
        out.agreeing += ra.agreeing;
        out.ranks.push_back(ra);
    }
    if (out.compared > 0)
        out.agreement = static_cast<double>(out.agreeing) / static_cast<double>(out.compared);
    noteAnchor(out);
    decideAttachment(out);
    return out;
}

} // namespace dspark
