#include "report/StepsJson.h"

#include "analysis/StepAnalysis.h"
#include "analysis/StepAnomalies.h"
#include "report/AnalyzeJson.h"
#include "steps/StepRecords.h"
#include "steps/StepTable.h"
#include "util/BoundedJson.h"

#include <charconv>
#include <string_view>

namespace dspark {

using ojson = nlohmann::ordered_json;

namespace {

ojson causesJson(const StepFindings& findings)
{
    ojson causes = ojson::array();
    for (const StepFinding& f : findings)
        causes.push_back(anomalyCauseKey(f.cause));
    return causes;
}

std::vector<bool> stableRows(const StepRecordSet& set)
{
    std::vector<bool> in(set.rows.size(), false);
    for (const StableWindow& w : set.stableWindows)
        for (size_t r = w.firstRow; r <= w.lastRow && r < in.size(); ++r)
            in[r] = true;
    return in;
}

ojson timeOrNull(TimeNs t)
{
    return t >= 0 ? ojson(t) : ojson(nullptr);
}

template <typename T> ojson optionalJson(const std::optional<T>& v)
{
    return v ? ojson(*v) : ojson(nullptr);
}

ojson cellJson(const StepRecordSet& set, size_t row, StepColumn column, const std::vector<QString>& anomalies)
{
    const StepColumnInfo& info = stepColumnInfo(column);
    if (info.type == StepColumnType::Text) {
        const std::optional<std::string> text = stepColumnText(set, row, column, anomalies);
        return text ? ojson(*text) : ojson(nullptr);
    }
    if (info.type == StepColumnType::Integer) {
        const std::optional<int64_t> v = stepColumnInteger(set, row, column);
        return v ? ojson(*v) : ojson(nullptr);
    }
    const std::optional<double> v = stepColumnNumber(set, row, column);
    return v ? ojson(*v) : ojson(nullptr);
}

bool wanted(const StepsReportOptions& options, int rank)
{
    return !options.rank || *options.rank == rank;
}

ojson alignmentJson(const Profile& profile, const StepRecordSet& set, const StepsReportOptions& options)
{
    const StepAlignment& a = set.alignment;
    ojson j;
    j["aligned"] = a.attached; // the records are placed on the timeline (docs/steps.md §5)
    j["attached_by_hand"] = a.attachedByHand;
    j["agreement_threshold"] = StepAlignment::kAgreementThreshold;
    if (!a.attached)
        j["refusal"] = a.refusal.toStdString();
    j["method"] = stepAlignMethodName(a.method);
    j["anchor"] = a.anchor;
    j["start_step"] = optionalJson(a.startStep);
    j["agreement"] = optionalJson(a.agreement);
    j["compared"] = a.compared;
    j["agreeing"] = a.agreeing;
    j["mismatched"] = a.mismatched;
    j["no_trace_step"] = a.noTraceStep;
    j["unverified"] = a.unverified;
    j["outside_trace"] = a.outside;
    ojson ranks = ojson::array();
    for (const RankAlignment& r : a.ranks) {
        if (!wanted(options, r.dpRank))
            continue;
        ranks.push_back({{"rank", r.dpRank},
                         {"trace_rank", r.traceRankNumber},
                         {"trace_steps", r.traceSteps},
                         {"first_forward_ct", r.firstForwardCt},
                         {"last_forward_ct", r.lastForwardCt},
                         {"compared", r.compared},
                         {"agreeing", r.agreeing},
                         {"agreement", optionalJson(r.agreement)}});
    }
    j["ranks"] = std::move(ranks);
    ojson mismatches = ojson::array();
    for (size_t i = 0; i < a.rows.size() && i < set.rows.size(); ++i) {
        const StepAlignmentRow& row = a.rows[i];
        if ((row.status != StepMatch::Mismatch && row.status != StepMatch::NoTraceStep) ||
            !wanted(options, set.rows[i].dpRank))
            continue;
        mismatches.push_back({{"rank", set.rows[i].dpRank},
                              {"forward_ct", set.record(i).forwardCt},
                              {"status", stepMatchName(row.status)},
                              {"note", row.note.toStdString()}});
    }
    j["mismatches"] = std::move(mismatches);
    ojson unmatched = ojson::array();
    for (const UnmatchedTraceStep& u : a.unmatchedTraceSteps) {
        if (!wanted(options, u.dpRank))
            continue;
        unmatched.push_back({{"rank", u.dpRank},
                             {"trace_rank", profile.ranks[u.traceRankIndex].rankNumber},
                             {"forward_ct", u.forwardCt},
                             {"name", u.name},
                             {"host_start_ns", u.hostStartNs},
                             {"host_end_ns", u.hostEndNs}});
    }
    j["trace_steps_without_record"] = std::move(unmatched);
    ojson notes = ojson::array();
    for (const QString& n : a.notes)
        notes.push_back(n.toStdString());
    j["notes"] = std::move(notes);
    return j;
}

// Whether the steps carry their alignment (and analyses) columns.
bool stepsAligned(const StepRecordSet& set)
{
    return set.alignment.aligned() && set.alignment.rows.size() == set.rows.size();
}

} // namespace

ojson stepsJsonEach(const Profile& profile, const StepsReportOptions& options, const std::function<void(ojson&&)>& step)
{
    ojson doc;
    doc["steps"] = ojson::array(); // (the first key: writeStepsJson relies on it)
    const StepRecordSet& set = *profile.stepRecords;
    const std::vector<bool> stable = stableRows(set);
    const bool aligned = stepsAligned(set);
    // The analyses of the aligned steps (core/analysis): communication, pre-replay gap, critical path,
    // and the causes of the anomalies they measured.
    ProfileAnalysis analysis;
    if (aligned)
        analysis = analyzeProfile(profile, AnalysisRules::load({}, nullptr));
    const std::vector<const StepAnalysis*> analysisOfRow = analysisByRow(set, analysis.steps);
    const std::vector<StepFindings> findings =
        explainStepAnomalies(set, analysisOfRow, options.anomalies.value_or(set.anomalyOptions));
    std::vector<QString> anomalies;
    for (const StepFindings& f : findings)
        anomalies.push_back(findingsText(f));

    for (size_t i = 0; i < set.rows.size(); ++i) {
        if (!wanted(options, set.rows[i].dpRank))
            continue;
        ojson s;
        for (int c = 0; c < kStepColumnCount; ++c) {
            const auto column = static_cast<StepColumn>(c);
            s[stepColumnInfo(column).key] = cellJson(set, i, column, anomalies);
        }
        s["anomaly_causes"] = causesJson(findings[i]);
        s["in_stable_window"] = static_cast<bool>(stable[i]);
        if (aligned) {
            const StepAlignmentRow& a = set.alignment.rows[i];
            s["window_start_ns"] = timeOrNull(a.windowStartNs());
            s["window_end_ns"] = timeOrNull(a.windowEndNs());
            s["host_start_ns"] = timeOrNull(a.hostStartNs);
            s["host_end_ns"] = timeOrNull(a.hostEndNs);
            s["device_start_ns"] = timeOrNull(a.deviceStartNs);
            s["device_end_ns"] = timeOrNull(a.deviceEndNs);
            s["alignment"] = stepMatchName(a.status);
            s["alignment_note"] = a.note.isEmpty() ? ojson(nullptr) : ojson(a.note.toStdString());
            const StepAnalysis* an = analysisOfRow[i];
            s["comm_total_ns"] = an ? ojson(an->comm.totalNs) : ojson(nullptr);
            s["comm_exposed_ns"] = an ? ojson(an->comm.exposedNs) : ojson(nullptr);
            s["pre_replay_gap_ns"] = an ? ojson(an->replay.preReplayGapNs) : ojson(nullptr);
            s["critical_path_ns"] = an ? criticalPathJson(an->criticalPath) : ojson(nullptr);
        }
        step(std::move(s));
    }

    ojson ranks = ojson::array();
    for (const RankStepRecords& r : set.ranks) {
        if (!wanted(options, r.dpRank))
            continue;
        ojson jr;
        jr["rank"] = r.dpRank;
        jr["records"] = r.records.size();
        jr["sources"] = r.sources;
        jr["mode"] = r.envelope.mode.empty() ? ojson(nullptr) : ojson(r.envelope.mode);
        jr["gamma"] = optionalJson(r.envelope.gamma);
        jr["verify_num_draft_tokens"] = optionalJson(r.envelope.verifyNumDraftTokens);
        jr["components"] = r.envelope.components;
        jr["simulate_acc_len"] = r.envelope.simulateAccLen.empty()
                                     ? ojson(nullptr)
                                     : ojson::parse(r.envelope.simulateAccLen, nullptr, false);
        ranks.push_back(std::move(jr));
    }
    doc["ranks"] = std::move(ranks);

    ojson windows = ojson::array();
    for (const StableWindow& w : set.stableWindows) {
        if (!wanted(options, w.dpRank))
            continue;
        windows.push_back({{"rank", w.dpRank},
                           {"first_forward_ct", w.firstForwardCt},
                           {"last_forward_ct", w.lastForwardCt},
                           {"steps", w.steps},
                           {"bs", optionalJson(w.bs)}});
    }
    doc["stable_windows"] = std::move(windows);
    const AnomalyOptions ao = options.anomalies.value_or(set.anomalyOptions);
    doc["anomaly_options"] = {
        {"robust_z", ao.robustZ}, {"min_group_size", ao.minGroupSize}, {"unattributed_share_jump", ao.shareJump}};
    if (aligned)
        doc["alignment"] = alignmentJson(profile, set, options);
    ojson warnings = ojson::array();
    for (const QString& w : profile.warnings)
        warnings.push_back(w.toStdString());
    doc["warnings"] = std::move(warnings);
    return doc;
}

std::vector<QString> stepAnomalyTexts(const Profile& profile, const StepsReportOptions& options)
{
    const StepRecordSet& set = *profile.stepRecords;
    ProfileAnalysis analysis;
    if (stepsAligned(set))
        analysis = analyzeProfile(profile, AnalysisRules::load({}, nullptr));
    std::vector<QString> out;
    for (const StepFindings& f :
         explainStepAnomalies(set, analysisByRow(set, analysis.steps), options.anomalies.value_or(set.anomalyOptions)))
        out.push_back(findingsText(f));
    return out;
}

ojson stepsJson(const Profile& profile, const StepsReportOptions& options)
{
    ojson steps = ojson::array();
    ojson doc = stepsJsonEach(profile, options, [&](ojson&& s) { steps.push_back(std::move(s)); });
    doc["steps"] = std::move(steps);
    return doc;
}

void writeStepsJson(const Profile& profile, const StepsReportOptions& options,
                    const std::function<void(const std::string&)>& write)
{
    // Byte for byte stepsJson(...).dump(2): "steps" is the document's first key, so the text starts
    // with it; each step is dumped on its own and indented to its place in the array.
    write("{\n  \"steps\": [");
    bool first = true;
    std::string text;
    const ojson rest = stepsJsonEach(profile, options, [&](ojson&& s) {
        text = first ? "\n    " : ",\n    ";
        first = false;
        const std::string dumped = dumpJson(s, 2);
        for (const char c : dumped) {
            text += c;
            if (c == '\n')
                text += "    ";
        }
        write(text);
    });
    if (!first)
        write("\n  ");
    const std::string tail = dumpJson(rest, 2); // {"steps": [], ...}: what follows its "[]"
    const std::string_view opening = "{\n  \"steps\": [";
    write(tail.substr(opening.size()) + "\n");
}

std::string csvField(const ojson& v)
{
    if (v.is_null())
        return {};
    if (v.is_number_float()) {
        char buf[64];
        const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v.get<double>());
        return ec == std::errc() ? std::string(buf, ptr) : dumpJson(v);
    }
    if (v.is_string()) {
        const std::string s = v.get<std::string>();
        if (s.find_first_of(",\"\r\n") == std::string::npos)
            return s;
        std::string q = "\"";
        for (char c : s) {
            if (c == '"')
                q += '"';
            q += c;
        }
        return q + "\"";
    }
    return dumpJson(v);
}

std::string stepsCsv(const Profile& profile, const StepsReportOptions& options)
{
    const bool aligned = stepsAligned(*profile.stepRecords);
    std::vector<std::string> keys;
    for (int c = 0; c < kStepColumnCount; ++c)
        keys.push_back(stepColumnInfo(static_cast<StepColumn>(c)).key);
    keys.push_back("in_stable_window");
    if (aligned)
        for (const char* k :
             {"window_start_ns", "window_end_ns", "host_start_ns", "host_end_ns", "device_start_ns", "device_end_ns",
              "alignment", "alignment_note", "comm_total_ns", "comm_exposed_ns", "pre_replay_gap_ns"})
            keys.push_back(k);
    // The critical path's object becomes one column per category: critical_path_<category>_ns.
    const size_t pathColumns = keys.size();
    if (aligned)
        for (size_t c = 0; c < kPathCategoryCount; ++c)
            keys.push_back(std::string("critical_path_") + pathCategoryKey(static_cast<PathCategory>(c)) + "_ns");
    std::string out;
    for (size_t k = 0; k < keys.size(); ++k)
        out += (k ? "," : "") + keys[k];
    out += "\n";
    stepsJsonEach(profile, options, [&](ojson&& s) { // one step at a time: the rows are never a DOM
        for (size_t k = 0; k < keys.size(); ++k) {
            if (k)
                out += ',';
            if (k >= pathColumns) {
                const ojson& path = s["critical_path_ns"];
                out += path.is_object() ? csvField(path[pathCategoryKey(static_cast<PathCategory>(k - pathColumns))])
                                        : std::string();
                continue;
            }
            out += csvField(s[keys[k]]);
        }
        out += "\n";
    });
    return out;
}

} // namespace dspark
