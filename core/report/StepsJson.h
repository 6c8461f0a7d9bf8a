#pragma once

#include "model/Profile.h"
#include "steps/AnomalyDetector.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dspark {

struct StepsReportOptions {
    std::optional<int> rank;                 // only this DP rank
    std::optional<AnomalyOptions> anomalies; // other thresholds than the load-time defaults
};

// The `steps --json` document, a contract scripts rely on:
// {"steps": [{rank, forward_ct, bs, mode, num_verify_tokens, verify_tokens_local, verify_tokens_dp_synced,
//   verify_tokens_graph_key, step_cpu_ms, step_gpu_ms, draft_gpu_ms, target_verify_gpu_ms, unattributed_ms,
//   mean_commit_len, total_commit_len, mean_correct_drafts, acceptance_rate, effective_tpot_ms,
//   effective_tpot_cpu_ms, anomaly, anomaly_causes [keys of AnomalyCause: "step_time", "unattributed_share",
//   "long_accept_worse_tpot", "tail_growth", "pre_replay_gap", "exposed_comm"], in_stable_window, [window_start_ns,
//   window_end_ns, host_start_ns, host_end_ns, device_start_ns, device_end_ns, alignment, alignment_note,
//   comm_total_ns, comm_exposed_ns, pre_replay_gap_ns, critical_path_ns {draft, verify_compute, exposed_comm,
//   accept_tp_sync, commit, host_gap, idle} when a trace is aligned (the analyses' figures, as in `analyze --json`;
//   null for a step not on the timeline)]}],
//  "ranks": [...], "stable_windows": [...], "anomaly_options": {...}, ["alignment": {...}], "warnings": [...]}
// Numbers are JSON numbers; a value that is not recorded is null; `anomaly` is null or the reason.
// Requires profile.stepRecords.
nlohmann::ordered_json stepsJson(const Profile& profile, const StepsReportOptions& options = {});
// stepsJson(...).dump(2) + "\n", written piece by piece through `write`: a long run's steps are never a
// DOM all at once (that took ~11 bytes of memory per byte written).
void writeStepsJson(const Profile& profile, const StepsReportOptions& options,
                    const std::function<void(const std::string&)>& write);
// The anomaly text of every row as the JSON has it (the timeline's causes when a trace is aligned).
std::vector<QString> stepAnomalyTexts(const Profile& profile, const StepsReportOptions& options = {});
// stepsJson without its steps ("steps" an empty array); each step's object is handed to `step` instead.
nlohmann::ordered_json stepsJsonEach(const Profile& profile, const StepsReportOptions& options,
                                     const std::function<void(nlohmann::ordered_json&&)>& step);

// The same rows as CSV (header = the step keys; empty cell = not recorded), RFC 4180 quoting; the critical
// path's object is spread over the columns critical_path_<category>_ns.
std::string stepsCsv(const Profile& profile, const StepsReportOptions& options = {});

// One CSV cell of a JSON value: empty for null, RFC 4180 quoting for strings, shortest round-trip doubles.
std::string csvField(const nlohmann::ordered_json& v);

} // namespace dspark
