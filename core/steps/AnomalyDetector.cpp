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

} // namespace

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

namespace {

// The workload of a step: (bs, verify tokens, graph key), INT64_MIN where not recorded. The graph key
// (the verify graph replayed, from the DP-synced token count) sets the verify cost as much as the
// step's own tokens do.
struct WorkloadKey {
    int64_t bs, tokens, graphKey;
    auto operator<=>(const WorkloadKey&) const = default;
};

WorkloadKey workloadOf(const StepRecord& r)
{
    const std::optional<int64_t> bs = r.bs ? r.bs : r.numRunningReqs;
    std::optional<int64_t> tokens = r.numVerifyTokens;
    if (!tokens)
        tokens = r.verifyTokensLocal ? r.verifyTokensLocal : r.verifyTokensGraphKey;
    return {bs.value_or(INT64_MIN), tokens.value_or(INT64_MIN), r.verifyTokensGraphKey.value_or(INT64_MIN)};
}

QString workloadText(const WorkloadKey& key)
{
    const QString bs = key.bs == INT64_MIN ? QCoreApplication::translate("AnomalyDetector", "bs not recorded")
                                           : QStringLiteral("bs=%1").arg(key.bs);
    const QString tokens = key.tokens == INT64_MIN
                               ? QCoreApplication::translate("AnomalyDetector", "verify tokens not recorded")
                               : QCoreApplication::translate("AnomalyDetector", "verify tokens=%1").arg(key.tokens);
    QString text = bs + QStringLiteral(", ") + tokens;
    if (key.graphKey != INT64_MIN)
        text += QCoreApplication::translate("AnomalyDetector", ", graph key %1").arg(key.graphKey);
    return text;
}

void append(StepFindings& findings, AnomalyCause cause, const QString& text)
{
    findings.push_back({cause, text});
}

// Longer acceptance, worse TPOT: against the medians of the rank's steps, across workload classes
// (a wider verify window is a class of its own, so a within-class median cannot see it).
void flagLongAcceptWorseTpot(const StepRecordSet& set, const AnomalyOptions& options, std::vector<StepFindings>& out)
{
    std::map<int, std::vector<size_t>> byRank;
    for (size_t i = 0; i < set.rows.size(); ++i)
        if (set.rows[i].derived.effectiveTpotMs && set.rows[i].derived.meanCommitLen)
            byRank[set.rows[i].dpRank].push_back(i);
    for (const auto& [rank, members] : byRank) {
        if (members.size() < options.minGroupSize)
            continue;
        std::vector<double> tpot, commit;
        for (size_t i : members) {
            tpot.push_back(*set.rows[i].derived.effectiveTpotMs);
            commit.push_back(*set.rows[i].derived.meanCommitLen);
        }
        const double tpotMedian = median(tpot), commitMedian = median(commit);
        for (size_t k = 0; k < members.size(); ++k) {
            if (tpot[k] < tpotMedian * (1.0 - options.tpotSlack) || commit[k] < commitMedian + options.commitLonger)
                continue;
            append(out[members[k]], AnomalyCause::LongAcceptWorseTpot,
                   QCoreApplication::translate("AnomalyDetector",
                                               "longer acceptance, worse TPOT: mean commit length %1 vs median %2 "
                                               "of %3 steps, yet effective TPOT %4 ms vs median %5 ms (%6 ms at the "
                                               "median step time)")
                       .arg(commit[k], 0, 'f', 2)
                       .arg(commitMedian, 0, 'f', 2)
                       .arg(members.size())
                       .arg(tpot[k], 0, 'f', 3)
                       .arg(tpotMedian, 0, 'f', 3)
                       .arg(tpotMedian * commitMedian / commit[k], 0, 'f', 3));
        }
    }
}

} // namespace

const char* anomalyCauseKey(AnomalyCause cause)
{
    switch (cause) {
    case AnomalyCause::StepTime: return "step_time";
    case AnomalyCause::UnattributedShare: return "unattributed_share";
    case AnomalyCause::LongAcceptWorseTpot: return "long_accept_worse_tpot";
    case AnomalyCause::TailGrowth: return "tail_growth";
    case AnomalyCause::PreReplayGap: return "pre_replay_gap";
    case AnomalyCause::ExposedComm: return "exposed_comm";
    case AnomalyCause::Count: break;
    }
    return "";
}

QString findingsText(const StepFindings& findings)
{
    // Causes the timeline named first, then what the records show.
    QString text;
    for (bool timeline : {true, false})
        for (const StepFinding& f : findings) {
            const bool named = f.cause == AnomalyCause::TailGrowth || f.cause == AnomalyCause::PreReplayGap ||
                               f.cause == AnomalyCause::ExposedComm;
            if (named != timeline)
                continue;
            if (!text.isEmpty())
                text += QStringLiteral("; ");
            text += f.text;
        }
    return text;
}

std::vector<QString> detectStepAnomalies(const StepRecordSet& set, const AnomalyOptions& options)
{
    const std::vector<StepFindings> findings = detectStepFindings(set, options);
    std::vector<QString> out;
    out.reserve(findings.size());
    for (const StepFindings& f : findings)
        out.push_back(findingsText(f));
    return out;
}

std::vector<StepFindings> detectStepFindings(const StepRecordSet& set, const AnomalyOptions& options)
{
    std::vector<StepFindings> reasons(set.rows.size());
    bool useGpu = false;
    for (const StepRow& row : set.rows)
        if (set.record(row).stepGpuMs)
            useGpu = true;
    const char* metricName = useGpu ? "step_gpu_ms" : "step_cpu_ms";

    // Step times by (bs, tokens, graph key); the unattributed share, which the graph does not move, by
    // (bs, tokens) alone.
    std::map<WorkloadKey, std::vector<size_t>> groups, shareGroups;
    for (size_t i = 0; i < set.rows.size(); ++i) {
        const WorkloadKey key = workloadOf(set.record(i));
        groups[key].push_back(i);
        shareGroups[{key.bs, key.tokens, INT64_MIN}].push_back(i);
    }

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
                    reasons[timed[k]], AnomalyCause::StepTime,
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
    }
    for (const auto& [key, members] : shareGroups) {
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
                    reasons[shared[k]], AnomalyCause::UnattributedShare,
                    QCoreApplication::translate(
                        "AnomalyDetector", "unattributed share %1 % of step_gpu_ms vs median %2 % of %3 steps with %4")
                        .arg(shares[k] * 100.0, 0, 'f', 1)
                        .arg(s.median * 100.0, 0, 'f', 1)
                        .arg(s.count)
                        .arg(workloadText(key)));
            }
        }
    }
    flagLongAcceptWorseTpot(set, options, reasons);
    return reasons;
}

} // namespace dspark
