#pragma once

#include "analysis/StepAnalysis.h"
#include "steps/AnomalyDetector.h"

#include <vector>

namespace dspark {

struct StepRecordSet;

// The anomaly findings of the step table once the timeline is analysed: the records' findings
// (detectStepFindings) plus the cause each analysed step's figures name, against the median of the
// rank's analysed steps (robust z as in AnomalyOptions, and a floor on the rise):
// - tail growth: (accept_tp_sync + commit on the critical path) / wall up by ≥ tailShareJump;
// - pre-replay gap: the verify stream's idle before the graph replay up by ≥ preReplayJumpNs;
// - exposed communication: exposed DeepEP / HCCL time outside the accept tail (SpecTpSync is tail)
//   ≥ (1 + exposedRise) × the median.
// A tail growth explains the records' "unattributed share" finding, which is then dropped; any of the
// three explains a worse TPOT better than a longer acceptance does ("longer acceptance, worse TPOT" dropped).
// `analysisOfRow[i]` is the analysis of set.rows[i] (null: not on the timeline).
std::vector<StepFindings> explainStepAnomalies(const StepRecordSet& set,
                                               const std::vector<const StepAnalysis*>& analysisOfRow,
                                               const AnomalyOptions& options);

// analysisOfRow for a ProfileAnalysis (by StepAnalysis::recordRow).
std::vector<const StepAnalysis*> analysisByRow(const StepRecordSet& set, const std::vector<StepAnalysis>& steps);

} // namespace dspark
