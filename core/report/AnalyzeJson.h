#pragma once

#include "analysis/StepAnalysis.h"

#include <nlohmann/json.hpp>

#include <string>

namespace dspark {

// The `analyze --json` document, a contract scripts rely on (issue 7; docs/analysis.md). All times are
// integer ns on the profile's clock.
// {"steps": [{"rank", "forward_ct", "window_ns": [s, e],
//    "bands": {"draft": [s, e] | null, "verify": [s, e] | null, "accept": [s, e] | null,
//              "commit": [s, e] | null, "planner_gap_ns", "host_gap_ns"},
//    "comm": [{"name", "stream", "issue_ns", "inflight_ns": [s, e], "wait_ns": [s, e] | null,
//              "wait_stream": n | null, "exposed_ns", "hidden_ns", "inferred"}],
//    "comm_total_ns", "comm_exposed_ns", "pre_replay_gap_ns",
//    "critical_path_ns": {"draft", "verify_compute", "exposed_comm", "accept_tp_sync", "commit",
//                         "host_gap", "idle"}}],
//  "overlap": [{"rank", "device", "computing_ns", "communication_ns", "communication_not_overlapped_ns",
//               "free_ns"}]}
// `rank` is the profile's rank number; `stream` is -1 when the transfer's stream is unknown.
nlohmann::ordered_json analyzeJson(const Profile& profile, const ProfileAnalysis& analysis);

// One step's object of that document (also used for the `steps --json` columns).
nlohmann::ordered_json stepAnalysisJson(const Profile& profile, const StepAnalysis& step);
nlohmann::ordered_json criticalPathJson(const CriticalPath& path);

// A readable report of the same (the `analyze` command without --json).
std::string analyzeText(const Profile& profile, const ProfileAnalysis& analysis);

} // namespace dspark
