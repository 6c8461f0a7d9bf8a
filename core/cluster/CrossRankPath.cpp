#include "cluster/CrossRankPath.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace dspark {

namespace {

struct MemberOf {
    size_t matched = SIZE_MAX; // index into ClusterAnalysis::collectives
    size_t member = 0;
};

// What the walk needs of the ranks, indexed once for all steps.
struct PathIndex {
    std::vector<std::unordered_map<int64_t, size_t>> stepOf; // per rank: step id → index into steps
    std::vector<std::vector<MemberOf>> memberOf;             // per rank, per collective timing
    std::vector<TimeNs> longestCollectiveNs;                 // per rank: bounds the backwards scans

    PathIndex(const std::vector<RankSummary>& ranks, const ClusterAnalysis& a)
        : stepOf(ranks.size()), memberOf(ranks.size()), longestCollectiveNs(ranks.size(), 0)
    {
        for (size_t r = 0; r < ranks.size(); ++r) {
            for (size_t i = 0; i < ranks[r].steps.size(); ++i)
                stepOf[r].emplace(ranks[r].steps[i].stepId, i);
            memberOf[r].resize(ranks[r].collectives.size());
            for (const CollectiveTiming& c : ranks[r].collectives)
                longestCollectiveNs[r] = std::max(longestCollectiveNs[r], c.endNs - c.issueNs);
        }
        for (size_t m = 0; m < a.collectives.size(); ++m) {
            const MatchedCollective& mc = a.collectives[m];
            if (mc.mismatch || mc.members.size() < 2 || mc.lastMember >= mc.members.size())
                continue;
            for (size_t i = 0; i < mc.members.size(); ++i)
                memberOf[mc.members[i]][mc.timing[i]] = {m, i};
        }
    }
    const RankStep* step(const std::vector<RankSummary>& ranks, size_t r, int64_t id) const
    {
        const auto it = stepOf[r].find(id);
        return it == stepOf[r].end() ? nullptr : &ranks[r].steps[it->second];
    }
};

bool waiting(PathCategory c)
{
    return c == PathCategory::ExposedComm || c == PathCategory::Idle;
}

// The backwards walk of one step; times on the cluster clock (rank time + the rank's offset).
class CrossWalk {
public:
    CrossWalk(const std::vector<RankSummary>& ranks, const ClusterAnalysis& a, const PathIndex& index, int64_t stepId)
        : m_ranks(ranks), m_a(a), m_index(index), m_stepId(stepId)
    {
    }

    CrossRankStepPath run()
    {
        CrossRankStepPath out;
        out.stepId = m_stepId;
        if (!startRank(out.endRank, out.endNs))
            return out;
        size_t r = out.endRank;
        TimeNs t = out.endNs;
        // Each turn charges time or moves to another rank at an earlier or equal time; a jump needs
        // charged time first, so the walk ends. The guard only bounds a corrupt summary.
        size_t guard = 64;
        for (size_t rr = 0; rr < m_ranks.size(); ++rr)
            if (const RankStep* s = m_index.step(m_ranks, rr, m_stepId))
                guard += 4 * (s->path.size() + 1);
        const RankStep* st = m_index.step(m_ranks, r, m_stepId);
        while (guard-- > 0) {
            const TimeNs t0 = st->startNs + off(r);
            if (t <= t0)
                break;
            if (st->path.empty())
                m_out.complete = false;
            const RankPathHop* hop = hopAt(*st, r, t);
            const PathCategory cat = hop ? hop->category : PathCategory::Idle;
            if (waiting(cat)) {
                const Through through = throughCollective(r, t, t0);
                if (through.late != SIZE_MAX) {
                    const RankStep* next = through.late != r ? m_index.step(m_ranks, through.late, m_stepId) : nullptr;
                    if (next && t > through.issueNs && t > next->startNs + off(through.late)) {
                        r = through.late;
                        st = next;
                        ++m_out.jumps;
                    } else { // the late peer has no such step here: the wait stays on this rank
                        const TimeNs s = std::max(through.issueNs, t0);
                        charge(r, PathCategory::ExposedComm, s, t, through.what, false);
                        t = s;
                    }
                    continue;
                }
            }
            TimeNs s = hop ? std::max(hop->startNs + off(r), t0) : t0;
            if (waiting(cat))
                s = std::max(s, collectiveEndIn(r, s, t));
            charge(r, cat, s, t, hop ? hop->what : std::string(), false);
            t = s;
        }
        out.startNs = t;
        out.jumps = m_out.jumps;
        out.complete = m_out.complete;
        out.segments.assign(m_reversed.rbegin(), m_reversed.rend());
        out.totals = totalsOf(out.segments);
        return out;
    }

    static std::vector<CrossRankTotal> totalsOf(const std::vector<CrossRankSegment>& segments)
    {
        std::map<std::pair<size_t, PathCategory>, TimeNs> sums;
        for (const CrossRankSegment& s : segments)
            sums[{s.rank, s.category}] += s.endNs - s.startNs;
        std::vector<CrossRankTotal> out;
        for (const auto& [key, ns] : sums)
            out.push_back({key.first, key.second, ns});
        std::stable_sort(out.begin(), out.end(),
                         [](const CrossRankTotal& x, const CrossRankTotal& y) { return x.ns > y.ns; });
        return out;
    }

private:
    TimeNs off(size_t r) const { return m_a.clocks[r].offsetNs; }

    // The rank whose step ends last on the cluster clock.
    bool startRank(size_t& rank, TimeNs& endNs) const
    {
        bool found = false;
        for (size_t r = 0; r < m_ranks.size(); ++r)
            if (const RankStep* s = m_index.step(m_ranks, r, m_stepId))
                if (!found || s->endNs + off(r) > endNs) {
                    rank = r;
                    endNs = s->endNs + off(r);
                    found = true;
                }
        return found;
    }

    // The piece of the rank's path with start < t ≤ end (the pieces tile the window in order).
    const RankPathHop* hopAt(const RankStep& st, size_t r, TimeNs t) const
    {
        const TimeNs local = t - off(r);
        const auto it = std::lower_bound(st.path.begin(), st.path.end(), local,
                                         [](const RankPathHop& h, TimeNs v) { return h.endNs < v; });
        return it != st.path.end() && it->startNs < local ? &*it : nullptr;
    }

    // Rank r's matched collective open at t (issue < t ≤ end), the latest issued: charges its time after
    // the last member's issue and moves t back to that issue (or its own issue when it came last).
    // Returns the last member's rank (SIZE_MAX when no matched collective is open at t) and r's issue.
    struct Through {
        size_t late = SIZE_MAX;
        TimeNs issueNs = 0;
        std::string what;
    };
    Through throughCollective(size_t r, TimeNs& t, TimeNs t0)
    {
        const std::vector<CollectiveTiming>& colls = m_ranks[r].collectives;
        const TimeNs local = t - off(r);
        auto it = std::lower_bound(colls.begin(), colls.end(), local,
                                   [](const CollectiveTiming& c, TimeNs v) { return c.issueNs < v; });
        while (it != colls.begin()) {
            --it;
            if (it->issueNs + m_index.longestCollectiveNs[r] < local)
                break;
            const MemberOf mo = m_index.memberOf[r][static_cast<size_t>(it - colls.begin())];
            if (it->endNs < local || mo.matched == SIZE_MAX)
                continue;
            const MatchedCollective& m = m_a.collectives[mo.matched];
            const TimeNs issue = it->issueNs + off(r);
            const TimeNs s = std::max({issue, std::min(m.lastIssueNs, t), t0});
            charge(r, PathCategory::ExposedComm, s, t, it->name, true);
            t = s;
            return {m.members[m.lastMember], issue, it->name};
        }
        return {};
    }

    // The latest end of rank r's collectives inside (a, b), else a: a wait piece is split there so that
    // the walk meets the collective at its end.
    TimeNs collectiveEndIn(size_t r, TimeNs a, TimeNs b) const
    {
        const std::vector<CollectiveTiming>& colls = m_ranks[r].collectives;
        const TimeNs la = a - off(r), lb = b - off(r);
        TimeNs best = la;
        auto it = std::lower_bound(colls.begin(), colls.end(), lb,
                                   [](const CollectiveTiming& c, TimeNs v) { return c.issueNs < v; });
        while (it != colls.begin()) {
            --it;
            if (it->issueNs + m_index.longestCollectiveNs[r] <= la)
                break;
            if (it->endNs > best && it->endNs < lb &&
                m_index.memberOf[r][static_cast<size_t>(it - colls.begin())].matched != SIZE_MAX)
                best = it->endNs;
        }
        return best + off(r);
    }

    void charge(size_t r, PathCategory c, TimeNs a, TimeNs b, const std::string& what, bool collective)
    {
        if (b <= a)
            return;
        CrossRankSegment* last = m_reversed.empty() ? nullptr : &m_reversed.back();
        if (last && last->rank == r && last->category == c && last->startNs == b && last->what == what &&
            last->collective == collective)
            last->startNs = a;
        else
            m_reversed.push_back({r, c, a, b, what, collective});
    }

    const std::vector<RankSummary>& m_ranks;
    const ClusterAnalysis& m_a;
    const PathIndex& m_index;
    const int64_t m_stepId;
    std::vector<CrossRankSegment> m_reversed;
    CrossRankStepPath m_out; // jumps and completeness while walking
};

} // namespace

CrossRankStepPath crossRankCriticalPath(const std::vector<RankSummary>& ranks, const ClusterAnalysis& analysis,
                                        int64_t stepId)
{
    const PathIndex index(ranks, analysis);
    return CrossWalk(ranks, analysis, index, stepId).run();
}

std::vector<CrossRankStepPath> crossRankCriticalPaths(const std::vector<RankSummary>& ranks,
                                                      const ClusterAnalysis& analysis)
{
    std::set<int64_t> ids;
    for (const RankSummary& r : ranks)
        for (const RankStep& s : r.steps)
            if (s.stepId >= analysis.firstStepId)
                ids.insert(s.stepId);
    const PathIndex index(ranks, analysis);
    std::vector<CrossRankStepPath> out;
    out.reserve(ids.size());
    for (int64_t id : ids)
        out.push_back(CrossWalk(ranks, analysis, index, id).run());
    return out;
}

std::vector<CrossRankTotal> addTotals(const std::vector<CrossRankStepPath>& paths)
{
    std::vector<CrossRankSegment> all;
    for (const CrossRankStepPath& p : paths)
        all.insert(all.end(), p.segments.begin(), p.segments.end());
    return CrossWalk::totalsOf(all);
}

} // namespace dspark
