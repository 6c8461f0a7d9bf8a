#include "cluster/CommMatrix.h"

#include <map>
#include <tuple>

namespace dspark {

namespace {

// The group's in-group → global ranks: a member list (global_ranks) from any rank that has one, then each
// captured member's own place (its group_rank, its rank number) for the ranks the list does not give.
std::map<int64_t, int> globalRanksOf(const std::vector<RankSummary>& ranks, const std::string& group)
{
    std::map<int64_t, int> out;
    for (const RankSummary& r : ranks)
        for (const GroupMembership& g : r.groups)
            if (g.group == group && out.empty())
                for (size_t i = 0; i < g.globalRanks.size(); ++i)
                    if (g.globalRanks[i] >= 0)
                        out[static_cast<int64_t>(i)] = g.globalRanks[i];
    for (const RankSummary& r : ranks)
        for (const GroupMembership& g : r.groups)
            if (g.group == group && g.groupRank >= 0)
                out.emplace(g.groupRank, r.rankNumber);
    return out;
}

} // namespace

std::vector<GroupCommMatrix> commMatrices(const std::vector<RankSummary>& ranks, const ClusterAnalysis& analysis)
{
    std::map<std::string, GroupCommMatrix> groups;
    // Each rank's rows carry its own sub-tasks (source = itself, as a rank of the group: HCCL numbers
    // ranks within the group), so the ranks' links add up without overlap.
    std::map<std::string, std::map<std::tuple<int64_t, int64_t, std::string>, CommMatrixCell>> cells;
    for (const RankSummary& r : ranks)
        for (const CommLinkTotal& l : r.links) {
            CommMatrixCell& c = cells[l.group][{l.srcRank, l.dstRank, l.transport}];
            c.srcRank = l.srcRank;
            c.dstRank = l.dstRank;
            c.transport = l.transport;
            c.tasks += l.tasks;
            c.bytes += l.bytes;
            c.timeNs += l.timeNs;
        }
    for (auto& [group, byLink] : cells) {
        GroupCommMatrix& g = groups[group];
        g.group = group;
        g.globalOf = globalRanksOf(ranks, group);
        for (auto& [key, c] : byLink) {
            c.srcGlobal = g.globalRank(c.srcRank);
            c.dstGlobal = g.globalRank(c.dstRank);
            g.cells.push_back(std::move(c));
        }
    }
    std::map<std::string, std::map<size_t, CommMatrixMember>> members;
    for (const MatchedCollective& m : analysis.collectives) {
        if (m.waitNs.size() != m.members.size())
            continue;
        for (size_t i = 0; i < m.members.size(); ++i) {
            CommMatrixMember& mm = members[m.group][m.members[i]];
            mm.rank = m.members[i];
            ++mm.collectives;
            mm.waitNs += m.waitNs[i];
            mm.transferNs += m.transferNs[i];
            mm.timeNs += m.waitNs[i] + m.transferNs[i];
        }
    }
    for (auto& [group, byRank] : members) {
        GroupCommMatrix& g = groups[group];
        g.group = group;
        for (auto& [rank, mm] : byRank)
            g.members.push_back(mm);
    }
    std::vector<GroupCommMatrix> out;
    for (auto& [group, g] : groups)
        out.push_back(std::move(g));
    return out;
}

} // namespace dspark
