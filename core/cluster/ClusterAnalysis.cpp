#include "cluster/ClusterAnalysis.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace dspark {

namespace {

// The first step every rank has (their latest first step id), and where it starts on each rank:
// collectives before it are warm-up that some ranks may have filtered out.
int64_t windowStarts(const std::vector<RankSummary>& ranks, std::vector<TimeNs>& starts)
{
    starts.assign(ranks.size(), INT64_MIN);
    int64_t first = INT64_MIN;
    for (const RankSummary& r : ranks) {
        if (r.steps.empty())
            return -1;
        int64_t lowest = INT64_MAX;
        for (const RankStep& s : r.steps)
            lowest = std::min(lowest, s.stepId);
        first = std::max(first, lowest);
    }
    for (size_t i = 0; i < ranks.size(); ++i) {
        TimeNs start = INT64_MAX;
        for (const RankStep& s : ranks[i].steps)
            if (s.stepId >= first)
                start = std::min(start, s.startNs);
        starts[i] = start == INT64_MAX ? INT64_MIN : start;
    }
    return first;
}

int64_t stepAt(const RankSummary& rank, TimeNs t)
{
    const auto it = std::upper_bound(rank.steps.begin(), rank.steps.end(), t,
                                     [](TimeNs v, const RankStep& s) { return v < s.startNs; });
    if (it == rank.steps.begin())
        return -1;
    const RankStep& s = *std::prev(it);
    return t < s.endNs ? s.stepId : -1;
}

// Collectives keyed by (group, ordinal after the window start), each rank adding itself as a member.
std::vector<MatchedCollective> matchCollectives(const std::vector<RankSummary>& ranks,
                                                const std::vector<TimeNs>& starts, size_t& mismatches)
{
    std::vector<MatchedCollective> out;
    std::unordered_map<std::string, std::vector<size_t>> byGroup; // ordinal → index into out
    mismatches = 0;
    for (size_t r = 0; r < ranks.size(); ++r) {
        std::unordered_map<std::string, size_t> ordinal;
        const std::vector<CollectiveTiming>& colls = ranks[r].collectives;
        for (size_t c = 0; c < colls.size(); ++c) {
            const CollectiveTiming& t = colls[c];
            if (t.issueNs < starts[r])
                continue;
            const size_t k = ordinal[t.group]++;
            std::vector<size_t>& slots = byGroup[t.group];
            if (k >= slots.size()) {
                slots.push_back(out.size());
                MatchedCollective m;
                m.group = t.group;
                m.kind = t.kind;
                m.ordinal = k;
                m.stepId = stepAt(ranks[r], t.issueNs);
                out.push_back(std::move(m));
            }
            MatchedCollective& m = out[slots[k]];
            if (!m.members.empty()) {
                const CollectiveTiming& first = ranks[m.members.front()].collectives[m.timing.front()];
                if (!m.mismatch && (first.kind != t.kind || first.count != t.count)) {
                    m.mismatch = true;
                    ++mismatches;
                }
            }
            m.members.push_back(r);
            m.timing.push_back(c);
        }
    }
    return out;
}

struct Spread {
    TimeNs median = 0, spread = 0, mad = 0;
};
Spread spreadOf(std::vector<TimeNs> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    const auto median = [](const std::vector<TimeNs>& s) {
        const size_t m = s.size();
        return m % 2 ? s[m / 2] : static_cast<TimeNs>(std::llround((static_cast<double>(s[m / 2 - 1]) + s[m / 2]) / 2));
    };
    Spread out;
    out.median = median(v);
    out.spread = v.back() - v.front();
    std::vector<TimeNs> dev(n);
    for (size_t i = 0; i < n; ++i)
        dev[i] = std::abs(v[i] - out.median);
    std::sort(dev.begin(), dev.end());
    out.mad = median(dev);
    return out;
}

// Each rank against a rank already placed (the reference first): the median of the end differences of
// the collectives they share, matched and checked. Ranks that share none with a placed rank stay at 0.
std::vector<RankClock> estimateClocks(const std::vector<RankSummary>& ranks,
                                      const std::vector<MatchedCollective>& colls, size_t reference)
{
    std::vector<RankClock> clocks(ranks.size());
    std::vector<bool> placed(ranks.size(), false);
    placed[reference] = true;
    clocks[reference].estimated = true;
    for (bool progress = true; progress;) {
        progress = false;
        std::vector<std::vector<TimeNs>> diffs(ranks.size());
        std::vector<size_t> via(ranks.size(), SIZE_MAX);
        for (const MatchedCollective& m : colls) {
            if (m.mismatch)
                continue;
            size_t anchor = SIZE_MAX;
            for (size_t i = 0; i < m.members.size() && anchor == SIZE_MAX; ++i)
                if (placed[m.members[i]])
                    anchor = i;
            if (anchor == SIZE_MAX)
                continue;
            const size_t a = m.members[anchor];
            const TimeNs anchorEnd = ranks[a].collectives[m.timing[anchor]].endNs + clocks[a].offsetNs;
            for (size_t i = 0; i < m.members.size(); ++i) {
                const size_t r = m.members[i];
                if (placed[r])
                    continue;
                diffs[r].push_back(anchorEnd - ranks[r].collectives[m.timing[i]].endNs);
                if (via[r] == SIZE_MAX)
                    via[r] = a;
            }
        }
        for (size_t r = 0; r < ranks.size(); ++r)
            if (!placed[r] && !diffs[r].empty()) {
                const size_t count = diffs[r].size();
                const Spread s = spreadOf(std::move(diffs[r]));
                clocks[r] = {s.median, s.spread, s.mad, count, via[r], true, false};
                placed[r] = progress = true;
            }
    }
    return clocks;
}

// Dixon's Q test at 95 % (r10, n = 3…10), else the 3σ rule: is the shortest time an outlier?
bool shortestIsOutlier(std::vector<TimeNs> d)
{
    static constexpr double kQ95[] = {0, 0, 0, 0.970, 0.829, 0.710, 0.625, 0.568, 0.526, 0.493, 0.466};
    const size_t n = d.size();
    if (n < 3)
        return false;
    std::sort(d.begin(), d.end());
    const double range = static_cast<double>(d.back() - d.front());
    if (range <= 0)
        return false;
    if (n <= 10)
        return static_cast<double>(d[1] - d[0]) / range > kQ95[n];
    double mean = 0, sq = 0;
    for (TimeNs v : d)
        mean += static_cast<double>(v);
    mean /= static_cast<double>(n);
    for (TimeNs v : d)
        sq += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
    return static_cast<double>(d[0]) < mean - 3 * std::sqrt(sq / static_cast<double>(n));
}

void placeOnClock(const std::vector<RankSummary>& ranks, const std::vector<RankClock>& clocks, MatchedCollective& m)
{
    const size_t n = m.members.size();
    std::vector<TimeNs> issue(n), duration(n);
    for (size_t i = 0; i < n; ++i) {
        const CollectiveTiming& t = ranks[m.members[i]].collectives[m.timing[i]];
        issue[i] = t.issueNs + clocks[m.members[i]].offsetNs;
        duration[i] = std::max<TimeNs>(0, t.endNs - t.issueNs);
    }
    m.lastMember = static_cast<size_t>(std::max_element(issue.begin(), issue.end()) - issue.begin());
    m.lastIssueNs = issue[m.lastMember];
    TimeNs before = INT64_MIN;
    for (size_t i = 0; i < n; ++i)
        if (i != m.lastMember)
            before = std::max(before, issue[i]);
    m.lateByNs = n > 1 ? m.lastIssueNs - before : 0;
    m.waitNs.resize(n);
    m.transferNs.resize(n);
    for (size_t i = 0; i < n; ++i) {
        m.waitNs[i] = std::clamp<TimeNs>(m.lastIssueNs - issue[i], 0, duration[i]);
        m.transferNs[i] = duration[i] - m.waitNs[i];
    }
    if (shortestIsOutlier(duration))
        m.votedSlow = static_cast<size_t>(std::min_element(duration.begin(), duration.end()) - duration.begin());
}

QString explain(const RankSummary& rank, const RankVerdict& v, size_t collectives)
{
    return QCoreApplication::translate("ClusterAnalysis",
                                       "rank %1: the slow outlier of %2 of %3 collectives, last to arrive at %4 "
                                       "(%5 µs late in all); waited %6 µs for late peers, %7 µs in transfer")
        .arg(rank.rankNumber)
        .arg(v.votes)
        .arg(collectives)
        .arg(v.lastArrivals)
        .arg(static_cast<double>(v.latenessNs) / 1e3, 0, 'f', 1)
        .arg(static_cast<double>(v.waitNs) / 1e3, 0, 'f', 1)
        .arg(static_cast<double>(v.transferNs) / 1e3, 0, 'f', 1);
}

std::vector<RankVerdict> rankSlowRanks(const std::vector<RankSummary>& ranks,
                                       const std::vector<MatchedCollective>& colls)
{
    std::vector<RankVerdict> out(ranks.size());
    std::vector<size_t> memberOf(ranks.size(), 0);
    for (size_t r = 0; r < ranks.size(); ++r)
        out[r].rank = r;
    for (const MatchedCollective& m : colls) {
        if (m.members.size() < 2)
            continue;
        for (size_t i = 0; i < m.members.size(); ++i) {
            RankVerdict& v = out[m.members[i]];
            ++memberOf[m.members[i]];
            v.waitNs += m.waitNs[i];
            v.transferNs += m.transferNs[i];
        }
        RankVerdict& last = out[m.members[m.lastMember]];
        ++last.lastArrivals;
        last.latenessNs += m.lateByNs;
        if (m.votedSlow != SIZE_MAX)
            ++out[m.members[m.votedSlow]].votes;
    }
    for (RankVerdict& v : out)
        v.explanation = explain(ranks[v.rank], v, memberOf[v.rank]);
    std::stable_sort(out.begin(), out.end(), [](const RankVerdict& a, const RankVerdict& b) {
        return std::tie(b.votes, b.latenessNs) < std::tie(a.votes, a.latenessNs);
    });
    return out;
}

} // namespace

ClusterAnalysis analyzeCluster(const std::vector<RankSummary>& ranks, const ClusterOptions& options)
{
    ClusterAnalysis out;
    if (ranks.empty())
        return out;
    for (size_t r = 1; r < ranks.size(); ++r)
        if (ranks[r].rankNumber < ranks[out.referenceRank].rankNumber)
            out.referenceRank = r;
    std::vector<TimeNs> starts;
    out.firstStepId = windowStarts(ranks, starts);
    size_t mismatches = 0;
    out.collectives = matchCollectives(ranks, starts, mismatches);
    if (mismatches > 0)
        out.warnings << QCoreApplication::translate("ClusterAnalysis",
                                                    "%1 of %2 matched collectives disagree in name or size between "
                                                    "ranks; they are not used for the clock offsets")
                            .arg(mismatches)
                            .arg(out.collectives.size());
    out.clocks = estimateClocks(ranks, out.collectives, out.referenceRank);
    for (size_t r = 0; r < ranks.size(); ++r) {
        if (r < options.offsetOverrides.size() && options.offsetOverrides[r]) {
            out.clocks[r].offsetNs = *options.offsetOverrides[r];
            out.clocks[r].overridden = true;
        } else if (!out.clocks[r].estimated)
            out.warnings << QCoreApplication::translate("ClusterAnalysis",
                                                        "rank %1 shares no collective with the other ranks; its clock "
                                                        "is left unaligned")
                                .arg(ranks[r].rankNumber);
    }
    for (MatchedCollective& m : out.collectives)
        placeOnClock(ranks, out.clocks, m);
    out.ranking = rankSlowRanks(ranks, out.collectives);
    return out;
}

} // namespace dspark
