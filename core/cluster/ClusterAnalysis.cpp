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
    // The reference rests on no difference of its own: it counts the collectives the others' offsets
    // may rest on (those it shares, matched and checked), not 0 beside the others' counts.
    for (const MatchedCollective& m : colls)
        if (!m.mismatch && m.members.size() > 1 &&
            std::find(m.members.begin(), m.members.end(), reference) != m.members.end())
            ++clocks[reference].collectives;
    return clocks;
}

// One-sided Dixon critical values at 99.5 % for n = 3…100 members (the table msprof-analyze slow_rank
// uses; its ratio changes with n: see slowVotes()).
constexpr double kDixon995[101] = {
    0,     0,     0,     0.994, 0.920, 0.823, 0.744, 0.680, 0.723, 0.676, 0.638, 0.707, 0.675, 0.649, 0.672,
    0.649, 0.629, 0.611, 0.595, 0.580, 0.568, 0.556, 0.545, 0.536, 0.526, 0.519, 0.510, 0.503, 0.496, 0.489,
    0.484, 0.478, 0.473, 0.468, 0.463, 0.458, 0.454, 0.450, 0.446, 0.442, 0.439, 0.435, 0.432, 0.429, 0.425,
    0.423, 0.420, 0.417, 0.414, 0.412, 0.409, 0.407, 0.405, 0.402, 0.400, 0.398, 0.396, 0.394, 0.392, 0.391,
    0.388, 0.387, 0.385, 0.383, 0.382, 0.380, 0.379, 0.377, 0.376, 0.374, 0.372, 0.371, 0.370, 0.368, 0.368,
    0.366, 0.365, 0.364, 0.363, 0.361, 0.360, 0.359, 0.358, 0.356, 0.356, 0.355, 0.353, 0.352, 0.352, 0.351,
    0.350, 0.349, 0.348, 0.347, 0.346, 0.345, 0.344, 0.344, 0.343, 0.341, 0.341};

// The members voted slow for one collective by their times in it, msprof-analyze slow_rank's rule
// (docs/cluster.md "Slow-rank votes"): up to 100 members Dixon's test on the shortest time (r10 up to 7,
// r11 up to 10, r21 up to 13, r22 above; no vote with ≤ 3 distinct times); above 100 the 3σ rule (every
// time below mean − 3σ, and the shortest when the longest is above mean + 3σ; σ of the population).
std::vector<size_t> slowVotes(const std::vector<TimeNs>& d)
{
    const size_t n = d.size();
    if (n < 3)
        return {};
    const size_t shortest = static_cast<size_t>(std::min_element(d.begin(), d.end()) - d.begin());
    if (n <= 100) {
        std::vector<TimeNs> s = d;
        std::sort(s.begin(), s.end());
        if (std::unique(s.begin(), s.end()) - s.begin() <= 3)
            return {};
        std::sort(s.begin(), s.end());                               // unique() left the tail unspecified
        const size_t gap = n <= 10 ? 1 : 2;                          // the neighbour the shortest is compared with
        const size_t top = n <= 7 ? n - 1 : n <= 13 ? n - 2 : n - 3; // the range's other end
        const double range = static_cast<double>(s[top] - s[0]);
        const double ratio = range > 0 ? static_cast<double>(s[gap] - s[0]) / range : 0;
        return ratio > kDixon995[n] ? std::vector<size_t>{shortest} : std::vector<size_t>{};
    }
    double mean = 0, sq = 0;
    for (TimeNs v : d)
        mean += static_cast<double>(v);
    mean /= static_cast<double>(n);
    for (TimeNs v : d)
        sq += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
    const double sigma = std::sqrt(sq / static_cast<double>(n));
    std::vector<size_t> out;
    for (size_t i = 0; i < n; ++i)
        if (static_cast<double>(d[i]) < mean - 3 * sigma)
            out.push_back(i);
    if (static_cast<double>(*std::max_element(d.begin(), d.end())) > mean + 3 * sigma &&
        std::find(out.begin(), out.end(), shortest) == out.end())
        out.push_back(shortest);
    return out;
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
    m.slowVotes = slowVotes(duration);
    if (!m.slowVotes.empty()) {
        const size_t shortest =
            static_cast<size_t>(std::min_element(duration.begin(), duration.end()) - duration.begin());
        const bool hasShortest = std::find(m.slowVotes.begin(), m.slowVotes.end(), shortest) != m.slowVotes.end();
        m.votedSlow = hasShortest ? shortest : m.slowVotes.front();
    }
}

// `shared`: the matched collectives of this rank that other ranks took part in (what its votes, last
// arrivals, waits and transfers are counted over).
QString explain(const RankSummary& rank, const RankVerdict& v, size_t shared)
{
    if (shared == 0)
        return QCoreApplication::translate("ClusterAnalysis", "rank %1: shares no collective with the other ranks")
            .arg(rank.rankNumber);
    return QCoreApplication::translate("ClusterAnalysis",
                                       "rank %1: slow outlier in %2 and last to arrive in %3 of the %4 collectives "
                                       "it shares (%5 µs late in all); waited %6 µs for late peers, %7 µs in transfer")
        .arg(rank.rankNumber)
        .arg(v.votes)
        .arg(v.lastArrivals)
        .arg(shared)
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
        for (size_t v : m.slowVotes)
            ++out[m.members[v]].votes;
    }
    for (RankVerdict& v : out)
        v.explanation = explain(ranks[v.rank], v, memberOf[v.rank]);
    std::stable_sort(out.begin(), out.end(), [](const RankVerdict& a, const RankVerdict& b) {
        return std::tie(b.votes, b.latenessNs) < std::tie(a.votes, a.latenessNs);
    });
    return out;
}

} // namespace

size_t ClusterAnalysis::acrossRanks() const
{
    return size_t(std::count_if(collectives.begin(), collectives.end(),
                                [](const MatchedCollective& m) { return m.members.size() > 1; }));
}

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
                            .arg(out.acrossRanks());
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
