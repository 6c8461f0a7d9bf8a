#pragma once

#include "analysis/KernelSummary.h"
#include "analysis/PlainSteps.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace dspark {

// `kernels --json` (contract, docs/analysis.md §10): times integer ns, share a fraction of device time.
nlohmann::ordered_json kernelsJson(const KernelSummary& summary, const KernelQuery& query);
// `kernels --csv`: one line per kernel (name,core,count,total_ns,mean_ns,p50_ns,p90_ns,max_ns,share).
std::string kernelsCsv(const KernelSummary& summary);
// The tables for people (header row first, translated; ms and µs with three decimals), and the line
// that says which source the figures came from.
std::vector<std::vector<QString>> kernelRowsText(const std::vector<KernelRow>& rows);
std::vector<std::vector<QString>> kernelGroupRowsText(const std::vector<KernelGroupRow>& rows,
                                                      const QString& keyHeader);
QString kernelSourceText(const KernelSummary& summary);

// The steps of a profile without DSpark records: `steps --json` / `analyze --json` key "profiler_steps".
nlohmann::ordered_json plainStepsJson(const Profile& profile, const PlainSteps& steps);
std::string plainStepsCsv(const Profile& profile, const PlainSteps& steps);
// Header row first; the last column is the anomaly text.
std::vector<std::vector<QString>> plainStepsRowsText(const Profile& profile, const PlainSteps& steps);

} // namespace dspark
