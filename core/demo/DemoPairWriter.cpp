#include "demo/DemoPairWriter.h"

#include "compare/MedianInterval.h"
#include "compare/StepSamples.h"
#include "util/BoundedJson.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace dspark::demo {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

DemoVariant baselineVariant()
{
    DemoVariant v;
    v.serverArgs = true;
    return v;
}

DemoVariant changedVariant()
{
    DemoVariant v = baselineVariant();
    v.verifyLen = 8;
    v.verifyCommFactor = 1.5;
    v.swapKernels = true;
    v.maxRunningRequests = 160;
    return v;
}

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

bool readJson(const fs::path& path, json& out)
{
    std::ifstream in(path, std::ios::binary);
    return in && parseBoundedJson(in, out) == JsonParse::Ok;
}

double nsToMs(const json& v)
{
    return double(v.get<int64_t>()) * 1e-6;
}

double lengthMs(const json& interval)
{
    return double(interval["end_ns"].get<int64_t>() - interval["start_ns"].get<int64_t>()) * 1e-6;
}

// One step of a run as the simulation knows it: its class, and every compared quantity (NaN where the
// step is not in the trace). Record quantities come from the record the demo wrote; timeline ones from
// the simulation's own ground truth (docs/demo.md §7), never from the analyses.
struct TruthStep {
    int64_t forwardCt = 0;
    std::string mode;
    int64_t bs = -1, verifyTokens = -1;
    std::array<double, kQuantityCount> values;
    TruthStep() { values.fill(std::nan("")); }
    void set(Quantity q, double v) { values[size_t(q)] = v; }
};

void fromRecord(const json& r, TruthStep& s)
{
    s.forwardCt = r["forward_ct"].get<int64_t>();
    s.mode = r.value("mode", std::string());
    s.bs = r.value("bs", int64_t(-1));
    s.verifyTokens = r.value("num_verify_tokens", int64_t(-1));
    const auto ms = [&](const char* key) {
        return r.contains(key) && r[key].is_number() ? r[key].get<double>() : std::nan("");
    };
    const double step = ms("step_gpu_ms"), draft = ms("draft_gpu_ms"), verify = ms("target_verify_gpu_ms");
    s.set(Quantity::StepGpuMs, step);
    s.set(Quantity::DraftGpuMs, draft);
    s.set(Quantity::TargetVerifyGpuMs, verify);
    s.set(Quantity::UnattributedMs, step - draft - verify);
    double commit = 0;
    size_t n = 0;
    for (const json& q : r.value("reqs", json::array())) {
        commit += q["acc_len"].get<double>();
        ++n;
    }
    if (n > 0) {
        s.set(Quantity::MeanCommitLen, commit / double(n));
        s.set(Quantity::EffectiveTpotMs, step / (commit / double(n)));
        s.set(Quantity::CommittedTokensPerS, commit / step * 1000.0);
    }
}

void fromGroundTruth(const json& t, TruthStep& s)
{
    const json& stages = t["stages"];
    const json& extent = t["task_extent"];
    s.set(Quantity::StepWallMs, nsToMs(t["window"]["wall_ns"]));
    s.set(Quantity::BandDraftMs, lengthMs(stages["draft"]) + 20e-6); // + the DRAFT:end record's 20 ns
    s.set(Quantity::BandPlannerMs, lengthMs(extent["planner"]));
    s.set(Quantity::BandVerifyMs, lengthMs(extent["verify"]));
    s.set(Quantity::BandAcceptMs, lengthMs(extent["accept"]));
    s.set(Quantity::BandCommitMs, lengthMs(stages["commit"]));
    s.set(Quantity::PlannerGapMs,
          double(extent["verify"]["start_ns"].get<int64_t>() - extent["draft"]["end_ns"].get<int64_t>()) * 1e-6);
    s.set(Quantity::HostGapMs, lengthMs(stages["host_tail"]));
    s.set(Quantity::PreReplayGapMs, nsToMs(t["pre_replay"]["device_gap_ns"]));
    const json& deepep = t["deepep"];
    const json& tp = t["spec_tp_sync"];
    const int64_t tpIn = tp["inflight_ns"].get<int64_t>(), tpExposed = tp["exposed_ns"].get<int64_t>();
    s.set(Quantity::CommTotalMs, double(deepep["inflight_ns"].get<int64_t>() + tpIn) * 1e-6);
    s.set(Quantity::CommExposedMs, double(deepep["exposed_ns"].get<int64_t>() + tpExposed) * 1e-6);
    s.set(Quantity::CommHiddenMs,
          double(deepep["hidden_ns"].get<int64_t>() + std::max<int64_t>(0, tpIn - tpExposed)) * 1e-6);
    static const char* kPath[] = {"draft",  "verify_compute", "exposed_comm", "accept_tp_sync",
                                  "commit", "host_gap",       "idle"};
    for (size_t c = 0; c < std::size(kPath); ++c)
        s.values[size_t(Quantity::PathDraftMs) + c] = nsToMs(t["critical_path_ns"][kPath[c]]);
}

struct TruthRun {
    std::vector<TruthStep> steps; // by forward_ct
    size_t firstStable = 0, lastStable = 0;
};

// The stable window as the simulation knows it: the longest run of decode steps with consecutive
// forward_ct and the bs of its first step (the first of equally long runs).
void findStableWindow(TruthRun& run)
{
    size_t bestFirst = 0, bestLen = 0;
    for (size_t i = 0; i < run.steps.size();) {
        size_t j = i + 1;
        while (j < run.steps.size() && run.steps[j].forwardCt == run.steps[j - 1].forwardCt + 1 &&
               run.steps[j].bs == run.steps[i].bs)
            ++j;
        if (j - i > bestLen) {
            bestFirst = i;
            bestLen = j - i;
        }
        i = j;
    }
    run.firstStable = bestFirst;
    run.lastStable = bestFirst + bestLen - 1;
}

QString readRun(const fs::path& folder, TruthRun& run)
{
    json server, truth;
    if (!readJson(folder / "server_info.json", server) || !readJson(folder / "ground_truth.json", truth))
        return QCoreApplication::translate("DemoWriter", "%1: cannot read back the demo's own files")
            .arg(qs(folder.string()));
    std::map<int64_t, const json*> stepsByCt;
    for (const json& t : truth["steps"])
        stepsByCt[t["forward_ct"].get<int64_t>()] = &t;
    for (const json& r : server["internal_states"][0]["dspark_info_record"]["records"]) {
        TruthStep s;
        fromRecord(r, s);
        if (auto it = stepsByCt.find(s.forwardCt); it != stepsByCt.end())
            fromGroundTruth(*it->second, s);
        run.steps.push_back(std::move(s));
    }
    findStableWindow(run);
    return {};
}

ojson distributionJson(const Distribution& d)
{
    const auto num = [](double v) { return std::isnan(v) ? ojson(nullptr) : ojson(v); };
    return {{"n", d.n}, {"median", num(d.median)}, {"p10", num(d.p10)}, {"p90", num(d.p90)}};
}

// The expected figures of one group of steps, computed with the comparison's own statistics on the
// simulation's values (so only the values, not the statistics, are under test).
ojson expectedQuantities(const TruthRun& a, const std::vector<size_t>& sa, const TruthRun& b,
                         const std::vector<size_t>& sb)
{
    ojson out = ojson::object();
    for (size_t q = 0; q < kQuantityCount; ++q) {
        const auto values = [&](const TruthRun& run, const std::vector<size_t>& steps) {
            std::vector<double> v;
            for (size_t i : steps)
                if (!std::isnan(run.steps[i].values[q]))
                    v.push_back(run.steps[i].values[q]);
            std::sort(v.begin(), v.end());
            return v;
        };
        const std::vector<double> va = values(a, sa), vb = values(b, sb);
        if (va.empty() && vb.empty())
            continue;
        const MedianChange c = medianChange(va, vb);
        ojson e;
        e["baseline"] = distributionJson(describeSorted(va));
        e["changed"] = distributionJson(describeSorted(vb));
        e["delta"] = c.delta;
        e["ci"] = {c.low, c.high};
        out[quantityInfo(Quantity(q)).key] = std::move(e);
    }
    return out;
}

std::string classLabel(const TruthStep& s, bool anyVerifyTokens)
{
    return StepClass{s.mode, s.bs, anyVerifyTokens ? -1 : s.verifyTokens}.label();
}

ojson expectedComparison(const TruthRun& a, const TruthRun& b)
{
    std::vector<size_t> wa, wb;
    for (size_t i = a.firstStable; i <= a.lastStable; ++i)
        wa.push_back(i);
    for (size_t i = b.firstStable; i <= b.lastStable; ++i)
        wb.push_back(i);
    std::set<std::string> classesA;
    for (size_t i : wa)
        classesA.insert(classLabel(a.steps[i], false));
    bool anyVt = true;
    for (size_t i : wb)
        anyVt = anyVt && !classesA.count(classLabel(b.steps[i], false));
    std::map<std::string, std::pair<std::vector<size_t>, std::vector<size_t>>> classes;
    for (size_t i : wa)
        classes[classLabel(a.steps[i], anyVt)].first.push_back(i);
    for (size_t i : wb)
        classes[classLabel(b.steps[i], anyVt)].second.push_back(i);
    ojson out;
    out["baseline_window"] = {a.steps[a.firstStable].forwardCt, a.steps[a.lastStable].forwardCt};
    out["changed_window"] = {b.steps[b.firstStable].forwardCt, b.steps[b.lastStable].forwardCt};
    out["classes_ignore_verify_tokens"] = anyVt;
    out["whole"] = {
        {"baseline_steps", wa.size()}, {"changed_steps", wb.size()}, {"quantities", expectedQuantities(a, wa, b, wb)}};
    ojson list = ojson::array();
    for (const auto& [label, sides] : classes)
        list.push_back({{"class", label},
                        {"baseline_steps", sides.first.size()},
                        {"changed_steps", sides.second.size()},
                        {"quantities", expectedQuantities(a, sides.first, b, sides.second)}});
    out["classes"] = list;
    return out;
}

QString writeText(const fs::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (out)
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    return out ? QString()
               : QCoreApplication::translate("DemoWriter", "%1: cannot write the file").arg(qs(path.string()));
}

} // namespace

DemoPairResult writeDemoPair(const DemoOptions& options, const std::string& outDirIn, const LoadProgress& progress)
{
    DemoPairResult result;
    std::error_code ec;
    const fs::path outDir = fs::absolute(fs::path(outDirIn), ec);
    result.outDir = outDir.string();
    if (outDirIn.empty()) {
        result.error = QCoreApplication::translate("DemoWriter", "no output folder given");
        return result;
    }
    if (fs::exists(outDir, ec) && (!fs::is_directory(outDir, ec) || !fs::is_empty(outDir, ec))) {
        result.error = QCoreApplication::translate(
                           "DemoWriter", "%1: the folder is not empty (the demo is written into a new or empty folder)")
                           .arg(qs(outDir.string()));
        return result;
    }
    DemoOptions base = options, changed = options;
    base.variant = baselineVariant();
    changed.variant = changedVariant();
    result.baseline = writeDemo(base, (outDir / "baseline").string(), progress.scope(0.0, 0.5));
    if (result.baseline.error.isEmpty())
        result.changed = writeDemo(changed, (outDir / "changed").string(), progress.scope(0.5, 1.0));
    result.error = !result.baseline.error.isEmpty() ? result.baseline.error : result.changed.error;
    if (!result.error.isEmpty())
        return result;

    TruthRun a, b;
    result.error = readRun(outDir / "baseline", a);
    if (result.error.isEmpty())
        result.error = readRun(outDir / "changed", b);
    if (!result.error.isEmpty())
        return result;
    const DemoVariant vb = baselineVariant(), vc = changedVariant();
    ojson truth;
    truth["schema"] = "dspark-demo-compare-truth/1";
    truth["baseline"] = "baseline";
    truth["changed"] = "changed";
    truth["changes"] = {
        {"intended",
         {{"field", "speculative_num_draft_tokens"}, {"baseline", vb.verifyLen}, {"changed", vc.verifyLen}}},
        {"extra",
         {{"field", "max_running_requests"}, {"baseline", vb.maxRunningRequests}, {"changed", vc.maxRunningRequests}}},
        {"verify_comm_factor", vc.verifyCommFactor}};
    // Where the two changes show in the configuration diff (core/compare/ConfigDiff), by group.
    truth["config_diff"] = {
        {"dspark_config",
         {"server.speculative_num_draft_tokens", "profiler_metadata.server_args.speculative_num_draft_tokens",
          "profiler_metadata.dspark.gamma", "profiler_metadata.dspark.verify_num_draft_tokens",
          "profiler_metadata.dspark.max_verify_len", "records.envelope.gamma",
          "records.envelope.verify_num_draft_tokens", "records.verify_tokens_seen"}},
        {"concurrency", {"server.max_running_requests", "profiler_metadata.server_args.max_running_requests"}}};
    truth["kernels"] = {{"stream", 2},
                        {"stage", "verify"},
                        {"inserted", "DsparkTreeMask"},
                        {"removed", "ArgMaxWithValue"},
                        {"per_verify_step", 1}};
    const BootstrapOptions bootstrap;
    truth["bootstrap"] = {{"method", "percentile bootstrap of the median difference"},
                          {"resamples", bootstrap.resamples},
                          {"confidence", bootstrap.confidence},
                          {"seed", bootstrap.seed}};
    truth["expected"] = expectedComparison(a, b);
    result.error = writeText(outDir / "ground_truth_compare.json", truth.dump(1) + "\n");
    return result;
}

} // namespace dspark::demo
