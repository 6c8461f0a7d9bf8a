#include "report/AnalyzeJson.h"

#include "analysis/PlainSteps.h"
#include "analysis/StepAnomalies.h"
#include "steps/StepRecords.h"

#include <QCoreApplication>

#include <cstdio>
#include <sstream>

namespace dspark {

using ojson = nlohmann::ordered_json;

namespace {

ojson pair(TimeNs a, TimeNs b)
{
    return ojson::array({a, b});
}

ojson bandJson(const std::optional<StageBand>& band)
{
    return band ? pair(band->extent.startNs, band->extent.endNs) : ojson(nullptr);
}

int rankNumber(const Profile& profile, int rankIndex)
{
    return rankIndex >= 0 && rankIndex < static_cast<int>(profile.ranks.size()) ? profile.ranks[rankIndex].rankNumber
                                                                                : rankIndex;
}

// "rank N", or the rank's label when another rank has the same number (another run: ensureRunRank).
std::string rankTitle(const Profile& profile, int rankIndex)
{
    return sharesRankNumber(profile, rankIndex) ? profile.ranks[static_cast<size_t>(rankIndex)].label
                                                : "rank " + std::to_string(rankNumber(profile, rankIndex));
}

std::string ms(TimeNs ns)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1e6);
    return buf;
}

} // namespace

ojson criticalPathJson(const CriticalPath& path)
{
    ojson j = ojson::object();
    for (size_t c = 0; c < kPathCategoryCount; ++c)
        j[pathCategoryKey(static_cast<PathCategory>(c))] = path.byCategory[c];
    return j;
}

ojson stepAnalysisJson(const Profile& profile, const StepAnalysis& step)
{
    ojson s;
    s["rank"] = rankNumber(profile, step.window.rankIndex);
    s["forward_ct"] = step.window.forwardCt >= 0 ? ojson(step.window.forwardCt) : ojson(nullptr);
    s["window_ns"] = pair(step.window.startNs, step.window.endNs);
    const StepBands& b = step.bands;
    s["bands"] = {{"draft", bandJson(b.draft)},   {"verify", bandJson(b.verify)},     {"accept", bandJson(b.accept)},
                  {"commit", bandJson(b.commit)}, {"planner_gap_ns", b.plannerGapNs}, {"host_gap_ns", b.hostGapNs}};
    ojson comm = ojson::array();
    for (const CommOperation& op : step.comm.operations) {
        ojson o;
        o["name"] = op.name;
        o["stream"] = op.streamId;
        o["issue_ns"] = op.issueNs;
        o["inflight_ns"] = pair(op.inflight.startNs, op.inflight.endNs);
        o["wait_ns"] = op.wait.valid() ? pair(op.waitInterval.startNs, op.waitInterval.endNs) : ojson(nullptr);
        o["wait_stream"] = op.waitStreamId >= 0 ? ojson(op.waitStreamId) : ojson(nullptr);
        o["exposed_ns"] = op.exposedNs;
        o["hidden_ns"] = op.hiddenNs;
        o["inferred"] = op.inferred;
        comm.push_back(std::move(o));
    }
    s["comm"] = std::move(comm);
    s["comm_total_ns"] = step.comm.totalNs;
    s["comm_exposed_ns"] = step.comm.exposedNs;
    s["pre_replay_gap_ns"] = step.replay.preReplayGapNs;
    s["critical_path_ns"] = criticalPathJson(step.criticalPath);
    return s;
}

ojson analyzeJson(const Profile& profile, const ProfileAnalysis& analysis)
{
    ojson doc;
    ojson steps = ojson::array();
    // The anomaly findings of the aligned steps, with the causes these analyses measured.
    std::vector<StepFindings> findings;
    if (profile.stepRecords)
        findings = explainStepAnomalies(*profile.stepRecords, analysisByRow(*profile.stepRecords, analysis.steps),
                                        profile.stepRecords->anomalyOptions);
    for (const StepAnalysis& step : analysis.steps) {
        ojson s = stepAnalysisJson(profile, step);
        const StepFindings* f = step.recordRow >= 0 && static_cast<size_t>(step.recordRow) < findings.size()
                                    ? &findings[step.recordRow]
                                    : nullptr;
        s["anomaly"] = f && !f->empty() ? ojson(findingsText(*f).toStdString()) : ojson(nullptr);
        ojson causes = ojson::array();
        if (f)
            for (const StepFinding& x : *f)
                causes.push_back(anomalyCauseKey(x.cause));
        s["anomaly_causes"] = std::move(causes);
        steps.push_back(std::move(s));
    }
    doc["steps"] = std::move(steps);
    if (profile.stepRecords && profile.stepRecords->alignment.aligned()) { // whether the steps above could be made
        const StepAlignment& a = profile.stepRecords->alignment;
        doc["step_records"] = {{"aligned", a.attached},
                               {"agreement", a.agreement ? ojson(*a.agreement) : ojson(nullptr)},
                               {"agreement_threshold", StepAlignment::kAgreementThreshold},
                               {"attached_by_hand", a.attachedByHand}};
        if (!a.attached)
            doc["step_records"]["refusal"] = a.refusal.toStdString();
    }
    ojson overlap = ojson::array();
    for (const DeviceOverlap& o : analysis.overlap)
        overlap.push_back({{"rank", rankNumber(profile, o.rankIndex)},
                           {"rank_label", rankTitle(profile, o.rankIndex)},
                           {"device", o.deviceId},
                           {"computing_ns", o.computingNs()},
                           {"communication_ns", o.communicationNs()},
                           {"communication_not_overlapped_ns", o.communicationNotOverlappedNs()},
                           {"free_ns", o.freeNs()}});
    doc["overlap"] = std::move(overlap);
    return doc;
}

std::string analyzeText(const Profile& profile, const ProfileAnalysis& analysis)
{
    std::ostringstream out;
    out << QCoreApplication::translate("AnalyzeReport", "Overlap analysis (ms)").toStdString() << "\n";
    for (const DeviceOverlap& o : analysis.overlap)
        out << "  " << rankTitle(profile, o.rankIndex) << " device " << o.deviceId << ": "
            << QCoreApplication::translate("AnalyzeReport", "computing").toStdString() << " " << ms(o.computingNs())
            << ", " << QCoreApplication::translate("AnalyzeReport", "communication").toStdString() << " "
            << ms(o.communicationNs()) << ", "
            << QCoreApplication::translate("AnalyzeReport", "not overlapped").toStdString() << " "
            << ms(o.communicationNotOverlappedNs()) << ", "
            << QCoreApplication::translate("AnalyzeReport", "free").toStdString() << " " << ms(o.freeNs()) << "\n";
    if (analysis.steps.empty()) {
        out << QCoreApplication::translate("AnalyzeReport", "No aligned DSpark step records: no per-step analysis.")
                   .toStdString()
            << "\n";
        return out.str();
    }
    out << QCoreApplication::translate("AnalyzeReport", "Steps (ms)").toStdString() << "\n";
    for (const StepAnalysis& s : analysis.steps) {
        const StepBands& b = s.bands;
        out << "  rank " << rankNumber(profile, s.window.rankIndex) << " forward_ct " << s.window.forwardCt << "  "
            << QCoreApplication::translate("AnalyzeReport", "wall").toStdString() << " " << ms(s.window.wallNs());
        const auto band = [&](const char* name, const std::optional<StageBand>& band,
                              const std::optional<TimeNs>& vsRecord) {
            if (!band)
                return;
            out << "  " << name << " " << ms(band->extent.lengthNs());
            if (vsRecord)
                out << " (" << (*vsRecord >= 0 ? "+" : "") << ms(*vsRecord) << " "
                    << QCoreApplication::translate("AnalyzeReport", "vs record").toStdString() << ")";
        };
        band("draft", b.draft, b.draftVsRecordNs);
        band("verify", b.verify, b.verifyVsRecordNs);
        band("accept", b.accept, std::nullopt);
        band("commit", b.commit, std::nullopt);
        out << "  planner_gap " << ms(b.plannerGapNs) << "  host_gap " << ms(b.hostGapNs);
        if (b.tailVsRecordNs)
            out << "  "
                << QCoreApplication::translate("AnalyzeReport", "out-of-segment vs unattributed_ms").toStdString()
                << " " << (*b.tailVsRecordNs >= 0 ? "+" : "") << ms(*b.tailVsRecordNs);
        out << "\n    comm_total " << ms(s.comm.totalNs) << "  comm_exposed " << ms(s.comm.exposedNs)
            << "  pre_replay_gap " << ms(s.replay.preReplayGapNs) << "\n    "
            << QCoreApplication::translate("AnalyzeReport", "critical path").toStdString() << ":";
        for (size_t c = 0; c < kPathCategoryCount; ++c)
            out << " " << pathCategoryKey(static_cast<PathCategory>(c)) << " " << ms(s.criticalPath.byCategory[c]);
        out << "\n";
    }
    return out.str();
}

} // namespace dspark
