#include "steps/AnomalyDetector.h"

#include "steps/StepRecords.h"

#include <QCoreApplication>

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>

namespace dspark {

namespace {

// 1.4826 × MAD estimates the standard deviation of normally distributed data.
constexpr double kMadToSigma = 1.4826;

double median(std::vector<double> v)
{
    const size_t n = v.size();
    std::sort(v.begin(), v.end());
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

struct RobustStats {
    double median = 0;
    double sigma = 0; // 1.4826 × MAD, floored
    size_t count = 0;
};

// madFloor: the smallest MAD used, so that identical values do not make every difference infinite.
RobustStats robustStats(const std::vector<double>& values, double madFloor)
{
    RobustStats s;
    s.count = values.size();
    s.median = median(values);
    std::vector<double> dev;
    dev.reserve(values.size());
    for (double v : values)
        dev.push_back(std::abs(v - s.median));
    s.sigma = kMadToSigma * std::max(median(std::move(dev)), madFloor);
    return s;
}

// The workload of a step: (bs, verify tokens), INT64_MIN where not recorded.
using WorkloadKey = std::pair<int64_t, int64_t>;

WorkloadKey workloadOf(const StepRecord& r)
{
    const std::optional<int64_t> bs = r.bs ? r.bs : r.numRunningReqs;
    std::optional<int64_t> tokens = r.numVerifyTokens;
    if (!tokens)
        tokens = r.verifyTokensLocal ? r.verifyTokensLocal : r.verifyTokensGraphKey;
    return {bs.value_or(INT64_MIN), tokens.value_or(INT64_MIN)};
}

QString workloadText(const WorkloadKey& key)
{
    const QString bs = key.first == INT64_MIN ? QCoreApplication::translate("AnomalyDetector", "bs not recorded")
                                              : QStringLiteral("bs=%1").arg(key.first);
    const QString tokens = key.second == INT64_MIN
                               ? QCoreApplication::translate("AnomalyDetector", "verify tokens not recorded")
                               : QCoreApplication::translate("AnomalyDetector", "verify tokens=%1").arg(key.second);
    return bs + QStringLiteral(", ") + tokens;
}

void append(QString& reason, const QString& text)
{
    if (!reason.isEmpty())
        reason += QStringLiteral("; ");
    reason += text;
}

} // namespace

std::vector<QString> detectStepAnomalies(const StepRecordSet& set, const AnomalyOptions& options)
{
    std::vector<QString> reasons(set.rows.size());
    bool useGpu = false;
    for (const StepRow& row : set.rows)
        if (set.record(row).stepGpuMs)
            useGpu = true;
    const char* metricName = useGpu ? "step_gpu_ms" : "step_cpu_ms";

    std::map<WorkloadKey, std::vector<size_t>> groups;
    for (size_t i = 0; i < set.rows.size(); ++i)
        groups[workloadOf(set.record(i))].push_back(i);

    for (const auto& [key, members] : groups) {
        // Step time far from the group's median.
        std::vector<double> times;
        std::vector<size_t> timed;
        for (size_t i : members) {
            const StepRecord& r = set.record(i);
            const std::optional<double>& t = useGpu ? r.stepGpuMs : r.stepCpuMs;
            if (t) {
                times.push_back(*t);
                timed.push_back(i);
            }
        }
        if (times.size() >= options.minGroupSize) {
            const RobustStats s =
                robustStats(times, std::max(options.madFloorFraction * std::abs(median(times)), 1e-9));
            for (size_t k = 0; k < timed.size(); ++k) {
                const double z = (times[k] - s.median) / s.sigma;
                if (std::abs(z) <= options.robustZ)
                    continue;
                append(
                    reasons[timed[k]],
                    (z > 0
                         ? QCoreApplication::translate(
                               "AnomalyDetector", "%1 %2 ms is %3 robust σ above the median %4 ms of %5 steps with %6")
                         : QCoreApplication::translate(
                               "AnomalyDetector", "%1 %2 ms is %3 robust σ below the median %4 ms of %5 steps with %6"))
                        .arg(QLatin1String(metricName))
                        .arg(times[k], 0, 'f', 3)
                        .arg(std::abs(z), 0, 'f', 1)
                        .arg(s.median, 0, 'f', 3)
                        .arg(s.count)
                        .arg(workloadText(key)));
            }
        }

        // Unattributed share (time outside draft and verify) jumps above the group's usual share.
        std::vector<double> shares;
        std::vector<size_t> shared;
        for (size_t i : members) {
            const StepRecord& r = set.record(i);
            const std::optional<double>& u = set.rows[i].derived.unattributedMs;
            if (u && r.stepGpuMs && *r.stepGpuMs > 0) {
                shares.push_back(*u / *r.stepGpuMs);
                shared.push_back(i);
            }
        }
        if (shares.size() >= options.minGroupSize) {
            const RobustStats s = robustStats(shares, options.shareMadFloor);
            for (size_t k = 0; k < shared.size(); ++k) {
                const double jump = shares[k] - s.median;
                if (jump < options.shareJump || jump / s.sigma <= options.robustZ)
                    continue;
                append(
                    reasons[shared[k]],
                    QCoreApplication::translate(
                        "AnomalyDetector", "unattributed share %1 % of step_gpu_ms vs median %2 % of %3 steps with %4")
                        .arg(shares[k] * 100.0, 0, 'f', 1)
                        .arg(s.median * 100.0, 0, 'f', 1)
                        .arg(s.count)
                        .arg(workloadText(key)));
            }
        }
    }
    return reasons;
}

} // namespace dspark
