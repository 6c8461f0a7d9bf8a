#include "cluster/ClusterReport.h"

#include "cluster/CommMatrix.h"
#include "cluster/CrossRankPath.h"

#include <QCoreApplication>

#include <map>
#include <sstream>

namespace dspark {

namespace {

using J = nlohmann::ordered_json;

J clockJson(const std::vector<RankSummary>& ranks, const RankClock& c)
{
    return {{"offset_ns", c.offsetNs},
            {"spread_ns", c.spreadNs},
            {"mad_ns", c.madNs},
            {"collectives", c.collectives},
            {"via_rank", c.viaRank < ranks.size() ? J(ranks[c.viaRank].rankNumber) : J(nullptr)},
            {"estimated", c.estimated},
            {"overridden", c.overridden}};
}

J collectiveJson(const std::vector<RankSummary>& ranks, const MatchedCollective& m)
{
    J members = J::array();
    for (size_t i = 0; i < m.members.size(); ++i) {
        const RankSummary& r = ranks[m.members[i]];
        const CollectiveTiming& t = r.collectives[m.timing[i]];
        members.push_back({{"rank", r.rankNumber},
                           {"name", t.name},
                           {"issue_ns", t.issueNs},
                           {"end_ns", t.endNs},
                           {"wait_ns", m.waitNs[i]},
                           {"transfer_ns", m.transferNs[i]}});
    }
    return {{"group", m.group},
            {"kind", m.kind},
            {"ordinal", m.ordinal},
            {"step", m.stepId >= 0 ? J(m.stepId) : J(nullptr)},
            {"mismatch", m.mismatch},
            {"last_rank", ranks[m.members[m.lastMember]].rankNumber},
            {"last_issue_ns", m.lastIssueNs},
            {"late_by_ns", m.lateByNs},
            {"slow_vote", m.votedSlow != SIZE_MAX ? J(ranks[m.members[m.votedSlow]].rankNumber) : J(nullptr)},
            {"members", std::move(members)}};
}

// Per step: each rank's wait and transfer in the step's collectives, and the rank that was late most.
J crossStepsJson(const std::vector<RankSummary>& ranks, const ClusterAnalysis& a)
{
    struct PerRank {
        TimeNs wait = 0, transfer = 0, late = 0;
    };
    std::map<int64_t, std::map<size_t, PerRank>> bySteps;
    for (const MatchedCollective& m : a.collectives) {
        if (m.stepId < 0)
            continue;
        auto& step = bySteps[m.stepId];
        for (size_t i = 0; i < m.members.size(); ++i) {
            step[m.members[i]].wait += m.waitNs[i];
            step[m.members[i]].transfer += m.transferNs[i];
        }
        step[m.members[m.lastMember]].late += m.lateByNs;
    }
    J out = J::array();
    for (const auto& [stepId, perRank] : bySteps) {
        J rows = J::array();
        size_t lateRank = SIZE_MAX;
        for (const auto& [r, f] : perRank) {
            if (f.late > 0 && (lateRank == SIZE_MAX || f.late > perRank.at(lateRank).late))
                lateRank = r;
            rows.push_back(
                {{"rank", ranks[r].rankNumber}, {"wait_ns", f.wait}, {"transfer_ns", f.transfer}, {"late_ns", f.late}});
        }
        out.push_back({{"step", stepId},
                       {"late_rank", lateRank != SIZE_MAX ? J(ranks[lateRank].rankNumber) : J(nullptr)},
                       {"late_ns", lateRank != SIZE_MAX ? perRank.at(lateRank).late : 0},
                       {"ranks", std::move(rows)}});
    }
    return out;
}

J totalsJson(const std::vector<RankSummary>& ranks, const std::vector<CrossRankTotal>& totals, TimeNs lengthNs)
{
    J out = J::array();
    for (const CrossRankTotal& t : totals)
        out.push_back({{"rank", ranks[t.rank].rankNumber},
                       {"category", pathCategoryKey(t.category)},
                       {"ns", t.ns},
                       {"share", lengthNs > 0 ? static_cast<double>(t.ns) / static_cast<double>(lengthNs) : 0.0}});
    return out;
}

// Per step: the cross-rank critical path's segments and its totals per (rank, category).
J criticalPathJson(const std::vector<RankSummary>& ranks, const std::vector<CrossRankStepPath>& paths)
{
    J out = J::array();
    for (const CrossRankStepPath& p : paths) {
        J segments = J::array();
        for (const CrossRankSegment& s : p.segments)
            segments.push_back({{"rank", ranks[s.rank].rankNumber},
                                {"category", pathCategoryKey(s.category)},
                                {"start_ns", s.startNs},
                                {"end_ns", s.endNs},
                                {"what", s.what},
                                {"collective", s.collective}});
        out.push_back({{"step", p.stepId},
                       {"start_ns", p.startNs},
                       {"end_ns", p.endNs},
                       {"end_rank", ranks[p.endRank].rankNumber},
                       {"jumps", p.jumps},
                       {"complete", p.complete},
                       {"segments", std::move(segments)},
                       {"totals", totalsJson(ranks, p.totals, p.lengthNs())}});
    }
    return out;
}

// Per group: source → destination links from the HCCL sub-tasks, and each member's collective time.
J commMatrixJson(const std::vector<RankSummary>& ranks, const ClusterAnalysis& a)
{
    J out = J::array();
    for (const GroupCommMatrix& g : commMatrices(ranks, a)) {
        J links = J::array();
        for (const CommMatrixCell& c : g.cells)
            links.push_back({{"src", c.srcRank},
                             {"dst", c.dstRank},
                             {"src_global", c.srcGlobal >= 0 ? J(c.srcGlobal) : J(nullptr)},
                             {"dst_global", c.dstGlobal >= 0 ? J(c.dstGlobal) : J(nullptr)},
                             {"transport", c.transport},
                             {"tasks", c.tasks},
                             {"bytes", c.bytes},
                             {"time_ns", c.timeNs},
                             {"bandwidth_gbps", c.bandwidthGBps()}});
        J members = J::array();
        for (const CommMatrixMember& m : g.members)
            members.push_back({{"rank", ranks[m.rank].rankNumber},
                               {"collectives", m.collectives},
                               {"time_ns", m.timeNs},
                               {"wait_ns", m.waitNs},
                               {"transfer_ns", m.transferNs}});
        out.push_back({{"group", g.group},
                       {"source", g.fromTasks() ? "tasks" : "collectives"},
                       {"links", std::move(links)},
                       {"members", std::move(members)}});
    }
    return out;
}

// The (rank, category) pairs that set the steps' wall time, over all steps: the five largest.
std::string crossPathText(const std::vector<RankSummary>& ranks, const std::vector<CrossRankStepPath>& paths)
{
    TimeNs length = 0;
    for (const CrossRankStepPath& p : paths)
        length += p.lengthNs();
    const std::vector<CrossRankTotal> totals = addTotals(paths);
    if (totals.empty() || length <= 0)
        return {};
    std::ostringstream out;
    out.setf(std::ios::fixed);
    out.precision(1);
    out << "\n"
        << QCoreApplication::translate("ClusterReport",
                                       "Cross-rank critical path (%1 steps; where their wall time went, largest first)")
               .arg(paths.size())
               .toStdString()
        << "\n";
    for (size_t i = 0; i < std::min<size_t>(totals.size(), 5); ++i)
        out << "  "
            << QCoreApplication::translate("ClusterReport", "rank %1 %2: %3 %")
                   .arg(ranks[totals[i].rank].rankNumber)
                   .arg(pathCategoryLabel(totals[i].category))
                   .arg(100.0 * static_cast<double>(totals[i].ns) / static_cast<double>(length), 0, 'f', 1)
                   .toStdString()
            << "\n";
    return out.str();
}

} // namespace

nlohmann::ordered_json clusterJson(const ClusterLoad& load, const ClusterAnalysis& a)
{
    const std::vector<RankSummary> ranks = load.summaries();
    J skipped = J::array();
    for (const ClusterSkipped& s : load.layout.skipped)
        skipped.push_back({{"path", s.path}, {"reason", s.reason}});
    J warnings = J::array();
    for (const QString& w : load.layout.warnings + a.warnings)
        warnings.push_back(w.toStdString());
    J doc;
    doc["cluster"] = {{"root", load.layout.root},
                      {"ranks", load.ranks.size()},
                      {"opened", ranks.size()},
                      {"reference_rank", ranks.empty() ? J(nullptr) : J(ranks[a.referenceRank].rankNumber)},
                      {"first_step", a.firstStepId >= 0 ? J(a.firstStepId) : J(nullptr)},
                      {"not_loaded", std::move(skipped)},
                      {"warnings", std::move(warnings)}};
    J perRank = J::array();
    size_t opened = 0;
    for (const LoadedRank& r : load.ranks) {
        J row = {{"rank", r.where.rankNumber}};
        if (!r.ok()) {
            row["status"] = "failed";
            row["error"] = r.error.toStdString();
            perRank.push_back(std::move(row));
            continue;
        }
        const RankSummary& s = ranks[opened];
        row["status"] = "opened";
        row["clock"] = clockJson(ranks, a.clocks[opened]);
        row["step_source"] = s.stepSource;
        row["collectives"] = s.collectives.size();
        row["lanes"] = s.lanes.size();
        row["steps"] = rankStepsJson(s);
        perRank.push_back(std::move(row));
        ++opened;
    }
    doc["ranks"] = std::move(perRank);
    J colls = J::array();
    for (const MatchedCollective& m : a.collectives)
        colls.push_back(collectiveJson(ranks, m));
    J ranking = J::array();
    for (const RankVerdict& v : a.ranking)
        ranking.push_back({{"rank", ranks[v.rank].rankNumber},
                           {"votes", v.votes},
                           {"last_arrivals", v.lastArrivals},
                           {"lateness_ns", v.latenessNs},
                           {"wait_ns", v.waitNs},
                           {"transfer_ns", v.transferNs},
                           {"explanation", v.explanation.toStdString()}});
    doc["cross_rank"] = {{"collectives", std::move(colls)},
                         {"slow_ranks", std::move(ranking)},
                         {"steps", crossStepsJson(ranks, a)},
                         {"critical_path", criticalPathJson(ranks, crossRankCriticalPaths(ranks, a))},
                         {"comm_matrix", commMatrixJson(ranks, a)}};
    return doc;
}

std::string clusterText(const ClusterLoad& load, const ClusterAnalysis& a)
{
    const std::vector<RankSummary> ranks = load.summaries();
    std::ostringstream out;
    out.setf(std::ios::fixed);
    out.precision(1);
    out << QCoreApplication::translate("ClusterReport", "Cluster").toStdString() << " " << load.layout.root << ": "
        << ranks.size() << " / " << load.ranks.size() << " "
        << QCoreApplication::translate("ClusterReport", "ranks opened").toStdString() << "\n";
    for (const QString& w : load.layout.warnings + a.warnings)
        out << "  " << QCoreApplication::translate("ClusterReport", "warning").toStdString() << ": " << w.toStdString()
            << "\n";
    out << "\n"
        << QCoreApplication::translate(
               "ClusterReport", "Clock offsets (µs, to the reference rank; spread = max − min of the end differences)")
               .toStdString()
        << "\n";
    size_t opened = 0;
    for (const LoadedRank& r : load.ranks) {
        if (!r.ok()) {
            out << "  " << QCoreApplication::translate("ClusterReport", "rank").toStdString() << " "
                << r.where.rankNumber << ": " << r.error.toStdString() << "\n";
            continue;
        }
        const bool reference = opened == a.referenceRank;
        const RankClock& c = a.clocks[opened++];
        out << "  " << QCoreApplication::translate("ClusterReport", "rank").toStdString() << " " << r.where.rankNumber
            << ": ";
        if (reference)
            out << QCoreApplication::translate("ClusterReport", "reference").toStdString() << "  "
                << QCoreApplication::translate("ClusterReport", "collectives").toStdString() << " " << c.collectives
                << "\n";
        else
            out << static_cast<double>(c.offsetNs) / 1e3 << "  "
                << QCoreApplication::translate("ClusterReport", "spread").toStdString() << " "
                << static_cast<double>(c.spreadNs) / 1e3 << "  "
                << QCoreApplication::translate("ClusterReport", "collectives").toStdString() << " " << c.collectives
                << "\n";
    }
    out << "\n"
        << QCoreApplication::translate("ClusterReport",
                                       "Slow ranks (votes per collective as msprof-analyze slow_rank; lateness totals)")
               .toStdString()
        << "\n";
    for (const RankVerdict& v : a.ranking)
        out << "  " << v.explanation.toStdString() << "\n";
    out << crossPathText(ranks, crossRankCriticalPaths(ranks, a));
    return out.str();
}

} // namespace dspark
