#include "demo/DemoWriter.h"

#include "demo/DemoNames.h"
#include "demo/DemoTraceWriter.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace dspark::demo {

namespace n = names;
using ojson = nlohmann::ordered_json;

static QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

static QString writeText(const fs::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (out)
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out)
        return QCoreApplication::translate("DemoWriter", "%1: cannot write the file").arg(qs(path.string()));
    return {};
}

static ojson profilerInfo(TimeNs sessionStart, TimeNs sessionEnd)
{
    // The monotonic clock of the simulated host started 9 days before the session (any fixed offset).
    const int64_t monotonicOffset = sessionStart - 777'600'000'000'000LL;
    ojson common;
    common["activities"] = {"ProfilerActivity.CPU", "ProfilerActivity.NPU"};
    common["schedule"] = {{"wait", 0}, {"active", 1}, {"warmup", 0}, {"repeat", 1}, {"skip_first", 0}};
    common["record_shapes"] = true;
    common["profile_memory"] = false;
    common["with_stack"] = false;
    common["with_flops"] = false;
    common["with_modules"] = false;
    ojson experimental;
    experimental["_profiler_level"] = "Level1";
    experimental["_aic_metrics"] = "ACL_AICORE_PIPE_UTILIZATION";
    experimental["_l2_cache"] = false;
    experimental["_msprof_tx"] = false;
    experimental["_data_simplification"] = true;
    experimental["record_op_args"] = false;
    experimental["_export_type"] = "db";
    experimental["_op_attr"] = false;
    experimental["_gc_detect_threshold"] = nullptr;
    ojson info;
    info["config"] = {{"common_config", common}, {"experimental_config", experimental}};
    info["start_info"] = {{"syscnt_enable", true},
                          {"freq", 100},
                          {"start_cnt", (sessionStart - monotonicOffset) / 10},
                          {"start_monotonic", sessionStart - monotonicOffset}};
    info["end_info"] = {{"collectionTimeEnd", sessionEnd}, {"MonotonicTimeEnd", sessionEnd - monotonicOffset}};
    info["rank_id"] = 0;
    return info;
}

static DemoResult writeDemoInto(const DemoOptions& options, const std::string& outDirIn, const LoadProgress& progress,
                                bool& createdOutDir)
{
    DemoResult result;
    std::error_code ec;
    if (outDirIn.empty()) {
        result.error = QCoreApplication::translate("DemoWriter", "no output folder given");
        return result;
    }
    const fs::path outDir = fs::absolute(fs::path(outDirIn), ec);
    result.outDir = outDir.string();
    if (fs::exists(outDir, ec)) {
        if (!fs::is_directory(outDir, ec)) {
            result.error =
                QCoreApplication::translate("DemoWriter", "%1: exists and is not a folder").arg(qs(outDir.string()));
            return result;
        }
        if (!fs::is_empty(outDir, ec) || ec) {
            result.error =
                ec ? QCoreApplication::translate("DemoWriter", "%1: cannot read the folder (%2)")
                         .arg(qs(outDir.string()), qs(ec.message()))
                   : QCoreApplication::translate(
                         "DemoWriter", "%1: the folder is not empty (the demo is written into a new or empty folder)")
                         .arg(qs(outDir.string()));
            return result;
        }
    }
    const fs::path runFolder = outDir / n::RunFolder;
    const fs::path output = runFolder / "ASCEND_PROFILER_OUTPUT";
    createdOutDir = !fs::exists(outDir, ec);
    fs::create_directories(output, ec);
    if (ec) {
        result.error = QCoreApplication::translate("DemoWriter", "%1: cannot create the folder (%2)")
                           .arg(qs(output.string()), qs(ec.message()));
        return result;
    }
    result.runFolder = runFolder.string();

    DemoSimulator sim(options);
    DemoDbWriter db(sim);
    QString error = db.open((output / "ascend_pytorch_profiler_0.db").string());
    DemoTraceWriter trace(sim);
    if (error.isEmpty() && options.traceJson)
        error = trace.open((output / "trace_view.json").string());
    if (!error.isEmpty()) {
        result.error = error;
        return result;
    }

    ojson records = ojson::array();
    std::string steps;
    std::vector<int64_t> recordCts, outside;
    ojson anomalies = ojson::array();
    DemoIteration it;
    const int64_t total = sim.tracedIterations() + DemoSimulator::PreRecords + DemoSimulator::PostRecords;
    int64_t done = 0;
    while (sim.next(it)) {
        if (progress.cancelled()) {
            result.error = QCoreApplication::translate("DemoWriter", "%1: cancelled").arg(qs(outDir.string()));
            return result;
        }
        if (it.inTrace) {
            error = db.write(it);
            if (error.isEmpty() && options.traceJson)
                error = trace.write(it);
            if (!error.isEmpty()) {
                result.error = error;
                return result;
            }
            steps += steps.empty() ? "  " : ",\n  ";
            steps += it.groundTruth.dump();
            for (size_t a = 0; a < it.anomalies.size(); ++a) {
                ojson entry;
                entry["kind"] = it.anomalies[a];
                entry["forward_ct"] = it.forwardCt;
                entry["index"] = it.index;
                entry["detail"] = it.anomalyDetails[a];
                anomalies.push_back(std::move(entry));
            }
            ++result.iterations;
        }
        if (it.decode) {
            records.push_back(it.record);
            recordCts.push_back(it.forwardCt);
            if (!it.inTrace)
                outside.push_back(it.forwardCt);
        }
        progress.update(static_cast<double>(++done) / static_cast<double>(total));
    }
    error = db.finish(sim.sessionStartNs(), sim.sessionEndNs());
    if (error.isEmpty() && options.traceJson)
        error = trace.finish();
    if (!error.isEmpty()) {
        result.error = error;
        return result;
    }
    result.counts = db.counts();
    result.records = static_cast<int64_t>(records.size());
    result.traceEvents = options.traceJson ? trace.events() : 0;

    // server_info.json: the GET /server_info shape, internal_states first (the scanner reads the head).
    ojson envelope = sim.recordEnvelope();
    envelope["records"] = std::move(records);
    ojson state;
    state["dspark_info_record"] = std::move(envelope);
    ojson server;
    server["internal_states"] = ojson::array({state});
    server["version"] = "0.5.6.post1";
    server["model_path"] = "/models/DeepSeek-V4-w8a8";
    server["tp_size"] = 16;
    server["dp_size"] = 16;
    server["ep_size"] = 16;
    server["speculative_algorithm"] = "DSPARK";
    if (options.variant.serverArgs) { // the comparison pair's runs say what they changed
        server["speculative_num_draft_tokens"] = options.variant.verifyLen;
        server["max_running_requests"] = options.variant.maxRunningRequests;
    }

    ojson meta = sim.profilerMetadata();
    const ojson info = profilerInfo(sim.sessionStartNs(), sim.sessionEndNs());

    ojson head;
    head["schema"] = "dspark-demo-ground-truth/1";
    head["generator"] = {
        {"version", DemoSimulatorVersion}, {"seed", options.seed}, {"steps", options.steps}, {"scale", options.scale}};
    if (options.variant.serverArgs)
        head["generator"]["variant"] = {{"verify_len", options.variant.verifyLen},
                                        {"verify_comm_factor", options.variant.verifyCommFactor},
                                        {"swap_kernels", options.variant.swapKernels},
                                        {"max_running_requests", options.variant.maxRunningRequests}};
    ojson run;
    run["run_folder"] = n::RunFolder;
    run["db"] = std::string(n::RunFolder) + "/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db";
    run["trace_json"] = options.traceJson ? ojson(std::string(n::RunFolder) + "/ASCEND_PROFILER_OUTPUT/trace_view.json")
                                          : ojson(nullptr);
    run["server_info"] = "server_info.json";
    run["start_step"] = DemoSimulator::StartStep;
    run["num_steps"] = sim.tracedIterations();
    run["pid"] = n::Pid;
    run["tid"] = n::Pid;
    run["device_id"] = 0;
    run["rank"] = 0;
    run["streams"] = {{"profiler", n::StreamProfiler},
                      {"compute", n::StreamCompute},
                      {"shared_expert", n::StreamSharedExpert},
                      {"deepep", n::StreamDeepEp},
                      {"hccl", n::StreamHccl}};
    run["session_start_ns"] = sim.sessionStartNs();
    run["session_end_ns"] = sim.sessionEndNs();
    run["records_forward_ct"] = recordCts;
    run["records_outside_trace"] = outside;
    head["run"] = run;
    const DemoCounts& c = result.counts;
    ojson counts;
    ojson byStream = ojson::object();
    for (const auto& [stream, count] : c.tasksByStream)
        byStream[std::to_string(stream)] = count;
    counts["tasks_by_stream"] = byStream;
    counts["tasks"] = c.tasks;
    counts["compute_tasks"] = c.computeTasks;
    counts["event_records"] = c.eventRecords;
    counts["event_waits"] = c.eventWaits;
    counts["memcpy"] = c.memcpy;
    counts["hccl_tasks"] = c.hcclTasks;
    counts["comm_ops"] = c.commOps;
    counts["cann_api"] = c.cannApi;
    counts["pytorch_api"] = c.pytorchApi;
    counts["connection_ids"] = c.connectionIds;
    counts["host_to_device_links"] = c.hostToDeviceLinks;
    counts["op_to_device_links"] = c.opToDeviceLinks;
    counts["overlap_rows"] = c.overlapRows;
    counts["trace_events"] = result.traceEvents;
    counts["kernels_by_name"] = c.kernelsByName;
    head["counts"] = counts;
    head["anomalies"] = std::move(anomalies);
    std::string headText = head.dump(1);
    headText.pop_back(); // the closing brace; the steps follow
    while (!headText.empty() && headText.back() == '\n')
        headText.pop_back();
    const std::string gt = headText + ",\n \"steps\": [\n" + steps + "\n ]\n}\n";

    for (const auto& [path, text] :
         std::vector<std::pair<fs::path, std::string>>{{runFolder / "profiler_info_0.json", info.dump(4) + "\n"},
                                                       {runFolder / "profiler_metadata.json", meta.dump(4) + "\n"},
                                                       {outDir / "server_info.json", server.dump(1) + "\n"},
                                                       {outDir / "ground_truth.json", gt}}) {
        error = writeText(path, text);
        if (!error.isEmpty()) {
            result.error = error;
            return result;
        }
    }
    return result;
}

DemoResult writeDemo(const DemoOptions& options, const std::string& outDir, const LoadProgress& progress)
{
    bool createdOutDir = false;
    DemoResult result = writeDemoInto(options, outDir, progress, createdOutDir);
    if (!result.error.isEmpty() && !result.runFolder.empty()) {
        // Take back what this run wrote (only our own names), so that a retry finds the folder empty.
        std::error_code ec;
        const fs::path out(result.outDir);
        fs::remove_all(result.runFolder, ec);
        fs::remove(out / "server_info.json", ec);
        fs::remove(out / "ground_truth.json", ec);
        if (createdOutDir)
            fs::remove(out, ec); // only when empty
    }
    return result;
}

} // namespace dspark::demo
