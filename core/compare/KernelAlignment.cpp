#include "compare/KernelAlignment.h"

#include "analysis/StepAnalysis.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <unordered_map>

namespace dspark {

namespace {

// Myers (1986), "An O(ND) Difference Algorithm and Its Variations", the greedy forward search with the
// furthest-reaching x of each diagonal kept per edit count for the walk back. Diagonal k = x − y has the
// parity of d, so round d stores only its d + 1 diagonals.
struct Myers {
    std::span<const uint32_t> a, b;
    std::vector<std::vector<int32_t>> trace; // trace[d][(k + d) / 2] = furthest x on diagonal k after d edits

    // Edit distance, or -1 when more than maxD edits are needed.
    long search(size_t maxD)
    {
        const long n = long(a.size()), m = long(b.size());
        const long limit = std::min<long>(long(maxD), n + m);
        std::vector<int32_t> v(size_t(2 * limit + 3), 0);
        const long off = limit + 1;
        for (long d = 0; d <= limit; ++d) {
            std::vector<int32_t>& row = trace.emplace_back(size_t(d + 1));
            for (long k = -d; k <= d; k += 2) {
                long x = (k == -d || (k != d && v[size_t(off + k - 1)] < v[size_t(off + k + 1)]))
                             ? v[size_t(off + k + 1)]      // down: an element of b inserted
                             : v[size_t(off + k - 1)] + 1; // right: an element of a removed
                long y = x - k;
                while (x < n && y < m && a[size_t(x)] == b[size_t(y)])
                    ++x, ++y;
                v[size_t(off + k)] = int32_t(x);
                row[size_t((k + d) / 2)] = int32_t(x);
                if (x >= n && y >= m)
                    return d;
            }
        }
        return -1;
    }

    int32_t at(long d, long k) const { return trace[size_t(d)][size_t((k + d) / 2)]; }

    // The matched pairs of the shortest edit script of length `d`, in order.
    std::vector<std::pair<uint32_t, uint32_t>> walkBack(long d) const
    {
        std::vector<std::pair<uint32_t, uint32_t>> out;
        long x = long(a.size()), y = long(b.size());
        for (; d > 0; --d) {
            const long k = x - y;
            const bool down = k == -d || (k != d && at(d - 1, k - 1) < at(d - 1, k + 1));
            const long prevK = down ? k + 1 : k - 1;
            const long prevX = at(d - 1, prevK), prevY = prevX - prevK;
            const long snakeX = down ? prevX : prevX + 1;
            for (long sx = x - 1; sx >= snakeX; --sx)
                out.push_back({uint32_t(sx), uint32_t(sx - k)});
            x = prevX;
            y = prevY;
        }
        for (long sx = x - 1; sx >= 0; --sx) // the first snake, from (0, 0)
            out.push_back({uint32_t(sx), uint32_t(sx)});
        std::reverse(out.begin(), out.end());
        return out;
    }
};

// Past the bound: pair the k-th occurrence of each name in a with its k-th in b, then keep the longest
// run of pairs increasing in both (patience sorting), so the result stays an order-preserving alignment.
std::vector<std::pair<uint32_t, uint32_t>> pairByOccurrence(std::span<const uint32_t> a, std::span<const uint32_t> b)
{
    std::unordered_map<uint32_t, std::vector<uint32_t>> positions;
    for (uint32_t j = 0; j < b.size(); ++j)
        positions[b[j]].push_back(j);
    std::unordered_map<uint32_t, size_t> used;
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t i = 0; i < a.size(); ++i) {
        auto it = positions.find(a[i]);
        if (it == positions.end())
            continue;
        size_t& k = used[a[i]];
        if (k < it->second.size())
            pairs.push_back({i, it->second[k++]});
    }
    // Longest increasing subsequence of the j's (pairs are already increasing in i).
    std::vector<size_t> tails, parent(pairs.size(), SIZE_MAX);
    for (size_t p = 0; p < pairs.size(); ++p) {
        auto pos = std::lower_bound(tails.begin(), tails.end(), pairs[p].second,
                                    [&](size_t t, uint32_t j) { return pairs[t].second < j; });
        if (pos != tails.begin())
            parent[p] = *(pos - 1);
        if (pos == tails.end())
            tails.push_back(p);
        else
            *pos = p;
    }
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (size_t p = tails.empty() ? SIZE_MAX : tails.back(); p != SIZE_MAX; p = parent[p])
        out.push_back(pairs[p]);
    std::reverse(out.begin(), out.end());
    return out;
}

} // namespace

SequenceAlignment alignSequences(std::span<const uint32_t> a, std::span<const uint32_t> b, size_t maxEditDistance)
{
    SequenceAlignment out;
    size_t prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
        ++prefix;
    size_t suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
           a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    const std::span<const uint32_t> midA = a.subspan(prefix, a.size() - prefix - suffix);
    const std::span<const uint32_t> midB = b.subspan(prefix, b.size() - prefix - suffix);

    for (size_t i = 0; i < prefix; ++i)
        out.matches.push_back({uint32_t(i), uint32_t(i)});
    std::vector<std::pair<uint32_t, uint32_t>> middle;
    if (!midA.empty() && !midB.empty()) {
        Myers myers{midA, midB, {}};
        const long d = myers.search(maxEditDistance);
        if (d >= 0) {
            middle = myers.walkBack(d);
        } else {
            myers.trace.clear();
            middle = pairByOccurrence(midA, midB);
            out.fellBack = true;
        }
    }
    for (const auto& [i, j] : middle)
        out.matches.push_back({uint32_t(prefix + i), uint32_t(prefix + j)});
    for (size_t s = suffix; s > 0; --s)
        out.matches.push_back({uint32_t(a.size() - s), uint32_t(b.size() - s)});
    out.editDistance = a.size() + b.size() - 2 * out.matches.size();
    return out;
}

const char* alignedKindKey(AlignedKind k)
{
    switch (k) {
    case AlignedKind::Matched: return "matched";
    case AlignedKind::BaselineOnly: return "baseline_only";
    case AlignedKind::ChangedOnly: break;
    }
    return "changed_only";
}

namespace {

// Names of both profiles as ids of one table: the ids of two StringTables are unrelated.
class CommonNames {
public:
    uint32_t id(const Profile& profile, EventRef e)
    {
        const std::string_view name = profile.name(e);
        auto [it, added] = m_ids.try_emplace(name, uint32_t(m_ids.size()));
        return it->second;
    }

private:
    std::unordered_map<std::string_view, uint32_t> m_ids;
};

struct StreamTasks {
    int64_t streamId = -1;
    std::vector<EventRef> tasks; // in start order
};

std::vector<StreamTasks> byStream(const Profile& profile, std::span<const EventRef> tasks)
{
    std::map<int64_t, std::vector<EventRef>> groups;
    for (EventRef e : tasks) {
        const LaneInfo& info = profile.lanes[e.lane].info;
        // A lane without a stream id keeps apart from the others by its lane index.
        groups[info.streamId >= 0 ? info.streamId : -1 - int64_t(e.lane)].push_back(e);
    }
    std::vector<StreamTasks> out;
    for (auto& [id, list] : groups) {
        std::sort(list.begin(), list.end(), [&](EventRef x, EventRef y) {
            const TimeNs sx = profile.startNs(x), sy = profile.startNs(y);
            return sx != sy ? sx < sy : x < y;
        });
        out.push_back({id, std::move(list)});
    }
    return out;
}

// Streams of the same id pair up; the others pair by task count (most with most).
std::vector<std::pair<const StreamTasks*, const StreamTasks*>> pairStreams(const std::vector<StreamTasks>& a,
                                                                           const std::vector<StreamTasks>& b)
{
    std::vector<std::pair<const StreamTasks*, const StreamTasks*>> out;
    std::vector<const StreamTasks*> restA, restB;
    for (const StreamTasks& s : a) {
        auto it = std::find_if(b.begin(), b.end(), [&](const StreamTasks& t) { return t.streamId == s.streamId; });
        if (it != b.end())
            out.push_back({&s, &*it});
        else
            restA.push_back(&s);
    }
    for (const StreamTasks& t : b)
        if (std::none_of(a.begin(), a.end(), [&](const StreamTasks& s) { return s.streamId == t.streamId; }))
            restB.push_back(&t);
    const auto bySize = [](const StreamTasks* x, const StreamTasks* y) { return x->tasks.size() > y->tasks.size(); };
    std::stable_sort(restA.begin(), restA.end(), bySize);
    std::stable_sort(restB.begin(), restB.end(), bySize);
    for (size_t i = 0; i < std::max(restA.size(), restB.size()); ++i)
        out.push_back({i < restA.size() ? restA[i] : nullptr, i < restB.size() ? restB[i] : nullptr});
    return out;
}

AlignedTask taskEntry(AlignedKind kind, const Profile& pa, EventRef a, const Profile& pb, EventRef b)
{
    AlignedTask t;
    t.kind = kind;
    t.baseline = a;
    t.changed = b;
    t.name = std::string(a.valid() ? pa.name(a) : pb.name(b));
    if (a.valid())
        t.baselineNs = pa.endNs(a) - pa.startNs(a);
    if (b.valid())
        t.changedNs = pb.endNs(b) - pb.startNs(b);
    return t;
}

StreamAlignment alignStream(const Profile& pa, const StreamTasks* sa, const Profile& pb, const StreamTasks* sb,
                            CommonNames& names, const KernelAlignOptions& options)
{
    static const std::vector<EventRef> none;
    const std::vector<EventRef>& ta = sa ? sa->tasks : none;
    const std::vector<EventRef>& tb = sb ? sb->tasks : none;
    StreamAlignment s;
    s.baselineStreamId = sa ? sa->streamId : -1;
    s.changedStreamId = sb ? sb->streamId : -1;
    std::vector<uint32_t> ida(ta.size()), idb(tb.size());
    for (size_t i = 0; i < ta.size(); ++i)
        ida[i] = names.id(pa, ta[i]);
    for (size_t j = 0; j < tb.size(); ++j)
        idb[j] = names.id(pb, tb[j]);
    const SequenceAlignment al = alignSequences(ida, idb, options.maxEditDistance);
    s.fellBack = al.fellBack;
    size_t i = 0, j = 0;
    const auto flushTo = [&](size_t ei, size_t ej) {
        for (; i < ei; ++i)
            s.tasks.push_back(taskEntry(AlignedKind::BaselineOnly, pa, ta[i], pb, {}));
        for (; j < ej; ++j)
            s.tasks.push_back(taskEntry(AlignedKind::ChangedOnly, pa, {}, pb, tb[j]));
    };
    for (const auto& [mi, mj] : al.matches) {
        flushTo(mi, mj);
        s.tasks.push_back(taskEntry(AlignedKind::Matched, pa, ta[mi], pb, tb[mj]));
        ++i, ++j;
    }
    flushTo(ta.size(), tb.size());
    for (const AlignedTask& t : s.tasks)
        (t.kind == AlignedKind::Matched        ? s.matched
         : t.kind == AlignedKind::BaselineOnly ? s.baselineOnly
                                               : s.changedOnly)++;
    return s;
}

} // namespace

KernelAlignment alignTasks(const Profile& baseline, std::span<const EventRef> baselineTasks, const Profile& changed,
                           std::span<const EventRef> changedTasks, const KernelAlignOptions& options)
{
    KernelAlignment out;
    const std::vector<StreamTasks> a = byStream(baseline, baselineTasks), b = byStream(changed, changedTasks);
    CommonNames names;
    for (const auto& [sa, sb] : pairStreams(a, b)) {
        StreamAlignment s = alignStream(baseline, sa, changed, sb, names, options);
        out.fellBack = out.fellBack || s.fellBack;
        for (const AlignedTask& t : s.tasks) {
            if (t.kind == AlignedKind::Matched) {
                out.regressions.push_back(t);
                out.matchedDeltaNs += t.deltaNs();
            } else {
                (t.kind == AlignedKind::BaselineOnly ? out.onlyBaseline : out.onlyChanged).push_back(t);
            }
        }
        out.streams.push_back(std::move(s));
    }
    std::stable_sort(out.regressions.begin(), out.regressions.end(),
                     [](const AlignedTask& x, const AlignedTask& y) { return x.deltaNs() > y.deltaNs(); });
    return out;
}

KernelAlignment alignKernels(const Profile& baseline, const StepAnalysis& baselineStep, const Profile& changed,
                             const StepAnalysis& changedStep, const KernelAlignOptions& options)
{
    if (!options.stage)
        return alignTasks(baseline, baselineStep.bands.tasks(), changed, changedStep.bands.tasks(), options);
    const auto ofStage = [&](const StepBands& bands) {
        std::vector<EventRef> out;
        for (EventRef e : bands.tasks())
            if (bands.stageOf(e) == *options.stage)
                out.push_back(e);
        return out;
    };
    return alignTasks(baseline, ofStage(baselineStep.bands), changed, ofStage(changedStep.bands), options);
}

std::vector<EventRef> deviceTasksIn(const Profile& profile, TimeNs fromNs, TimeNs toNs)
{
    std::vector<EventRef> out;
    for (uint32_t l = 0; l < profile.lanes.size(); ++l) {
        const Lane& lane = profile.lanes[l];
        if (!isDeviceLane(lane.info.kind))
            continue;
        for (size_t i = lane.firstStartingAtOrAfter(fromNs); i < lane.size() && lane.startNs[i] < toNs; ++i)
            out.push_back({l, uint32_t(i)});
    }
    return out;
}

} // namespace dspark
