#pragma once

#include <QString>

#include <cstddef>
#include <vector>

namespace dspark {

struct StepRecordSet;

// Thresholds of the step anomaly detector (primer §6: find the slow or anomalous steps).
struct AnomalyOptions {
    // A step is flagged when its step time is this many robust standard deviations from the median of
    // the steps with the same (bs, verify tokens) workload. The robust deviation is 1.4826 × MAD
    // (the modified z-score of Iglewicz and Hoaglin; 3.5 is their usual cut-off).
    double robustZ = 3.5;
    // Workload groups with fewer steps (that have the time) are not judged: too few peers.
    size_t minGroupSize = 5;
    // MAD floor as a fraction of the median, so that a group of identical times does not flag a
    // difference in the last rounding digit.
    double madFloorFraction = 0.002;
    // unattributed_ms / step_gpu_ms (time outside draft and verify) is flagged when it exceeds the group's
    // median share by at least shareJump (absolute: 0.02 = two percentage points) and by robustZ robust
    // deviations, the MAD of the shares floored at shareMadFloor. Only rises count: the eager
    // accept/commit tail growing is what the share is watched for.
    double shareJump = 0.02;
    double shareMadFloor = 0.005;
};

// Per row of set.rows: empty when the step is ordinary, else one line saying why it is anomalous.
// The step time judged is step_gpu_ms when the set has any GPU step time, else step_cpu_ms.
std::vector<QString> detectStepAnomalies(const StepRecordSet& set, const AnomalyOptions& options = {});

} // namespace dspark
