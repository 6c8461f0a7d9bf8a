#pragma once

#include <QString>

#include <cstddef>
#include <cstdint>
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
    // MAD floor as a fraction of the median: a step time within the run's usual jitter (~1–3 %) is no
    // anomaly, however tight the group's other steps are.
    double madFloorFraction = 0.015;
    // unattributed_ms / step_gpu_ms (time outside draft and verify) is flagged when it exceeds the group's
    // median share by at least shareJump (absolute: 0.02 = two percentage points) and by robustZ robust
    // deviations, the MAD of the shares floored at shareMadFloor. Only rises count: the eager
    // accept/commit tail growing is what the share is watched for.
    double shareJump = 0.02;
    double shareMadFloor = 0.005;
    // "Longer acceptance, worse TPOT" (primer §5), across workload classes of a rank: the mean commit
    // length is at least commitLonger tokens above the rank's median, and the effective TPOT did not fall
    // with it: at least (1 − tpotSlack) × the median (a commit length 15 % longer at the median step
    // time would give a TPOT 13 % lower).
    double commitLonger = 0.4;
    double tpotSlack = 0.06;
    // The causes the timeline names (StepAnomalies.h), against the rank's analysed steps: the tail's
    // share of the step up by at least tailShareJump (absolute; MAD floored at tailShareMadFloor), the
    // pre-replay gap up by at least preReplayJumpNs, exposed communication at least (1 + exposedRise) ×
    // the median; each also robustZ robust deviations above the median.
    double tailShareJump = 0.01;
    double tailShareMadFloor = 0.001;
    int64_t preReplayJumpNs = 200'000;
    double exposedRise = 1.0;
    friend bool operator==(const AnomalyOptions&, const AnomalyOptions&) = default;
};

// Median and 1.4826 × MAD (floored at 1.4826 × madFloor) of some values.
struct RobustStats {
    double median = 0;
    double sigma = 0;
    size_t count = 0;
};
RobustStats robustStats(const std::vector<double>& values, double madFloor);

// Why a step is flagged: from the records alone (step time, unattributed share, longer acceptance with
// worse TPOT) or, once the timeline is analysed, the cause the analyses measured (StepAnomalies.h).
enum class AnomalyCause : uint8_t {
    StepTime,            // step time far from its workload class's median
    UnattributedShare,   // time outside draft and verify rising (records only; the timeline names it)
    LongAcceptWorseTpot, // mean commit length up, effective TPOT worse
    TailGrowth,          // the eager accept / commit / SpecTpSync tail's share of the step rising
    PreReplayGap,        // the verify stream idle before the graph replay (host preparation)
    ExposedComm,         // the consumer blocked on communication
    Count
};
const char* anomalyCauseKey(AnomalyCause cause); // the JSON key, e.g. "tail_growth"

struct StepFinding {
    AnomalyCause cause = AnomalyCause::StepTime;
    QString text; // one translated line with the figures
};
using StepFindings = std::vector<StepFinding>;
QString findingsText(const StepFindings& findings); // the lines joined by "; ", causes first

// Per row of set.rows: the findings from the records alone (empty when the step is ordinary).
// The step time judged is step_gpu_ms when the set has any GPU step time, else step_cpu_ms.
std::vector<StepFindings> detectStepFindings(const StepRecordSet& set, const AnomalyOptions& options = {});
// The same as one line per row ("" = ordinary).
std::vector<QString> detectStepAnomalies(const StepRecordSet& set, const AnomalyOptions& options = {});

} // namespace dspark
