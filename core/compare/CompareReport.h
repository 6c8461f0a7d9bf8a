#pragma once

// The `compare` command's outputs (docs/compare.md holds the JSON schema): JSON, the cost-and-output
// table as CSV / Markdown, and a readable text report.

#include "compare/KernelAlignment.h"
#include "compare/RunComparison.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace dspark {

// The kernel alignment of one matched pair, for the report.
constexpr size_t kWholeProfiles = SIZE_MAX; // PairKernels::pair of two profiles aligned whole (no steps)
struct PairKernels {
    size_t pair = 0; // RunComparison::pairs index, or kWholeProfiles
    KernelAlignment alignment;
};

nlohmann::ordered_json comparisonJson(const RunComparison& comparison, const std::vector<PairKernels>& kernels,
                                      const Profile* baseline = nullptr, const Profile* changed = nullptr,
                                      size_t topKernels = 20);
// The cost-and-output table: one row per matched pair, both runs' columns and the deltas.
std::string pairTableCsv(const RunComparison& comparison);
std::string pairTableMarkdown(const RunComparison& comparison);
std::string comparisonText(const RunComparison& comparison, const std::vector<PairKernels>& kernels,
                           size_t topKernels = 10);

} // namespace dspark
