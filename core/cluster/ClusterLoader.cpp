#include "cluster/ClusterLoader.h"

#include "analysis/AnalysisRules.h"
#include "io/ProfileLoader.h"

#include <QCoreApplication>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include <unistd.h>

namespace dspark {

uint64_t defaultClusterMemoryBudget()
{
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize) / 2
                                     : uint64_t(4) << 30;
}

size_t clusterConcurrency(size_t ranks, uint64_t largestRankBytes, int cores, uint64_t budgetBytes)
{
    constexpr uint64_t kPeakPerFileByte = 3; // a load's peak memory, from bench_db_load / bench_json_load
    const uint64_t peak = std::max<uint64_t>(1, largestRankBytes * kPeakPerFileByte);
    const size_t byMemory = static_cast<size_t>(std::max<uint64_t>(1, budgetBytes / peak));
    return std::max<size_t>(1, std::min({ranks, static_cast<size_t>(std::max(1, cores)), byMemory}));
}

std::vector<RankSummary> ClusterLoad::summaries() const
{
    std::vector<RankSummary> out;
    for (const LoadedRank& r : ranks)
        if (r.ok())
            out.push_back(r.summary);
    return out;
}

namespace {

// One progress for all ranks: bytes of the finished ranks plus each running rank's fraction of its own.
class ClusterProgress {
public:
    ClusterProgress(const LoadProgress& progress, const std::vector<ClusterRank>& ranks)
        : m_progress(progress), m_fraction(ranks.size(), 0.0)
    {
        for (const ClusterRank& r : ranks) {
            m_bytes.push_back(std::max<uint64_t>(r.bytes, 1));
            m_total += m_bytes.back();
        }
    }
    void update(size_t rank, double fraction)
    {
        std::lock_guard lock(m_mutex);
        m_fraction[rank] = fraction;
        report();
    }
    void finish(size_t rank)
    {
        std::lock_guard lock(m_mutex);
        m_fraction[rank] = 1.0;
        ++m_done;
        report();
    }

private:
    void report()
    {
        double read = 0;
        for (size_t i = 0; i < m_bytes.size(); ++i)
            read += static_cast<double>(m_bytes[i]) * m_fraction[i];
        m_progress.update(read / static_cast<double>(m_total),
                          QCoreApplication::translate("ClusterLoader", "Loading ranks: %1 of %2 done, %3 of %4 MB")
                              .arg(m_done)
                              .arg(m_bytes.size())
                              .arg(read / 1e6, 0, 'f', 0)
                              .arg(static_cast<double>(m_total) / 1e6, 0, 'f', 0));
    }
    LoadProgress m_progress;
    std::mutex m_mutex;
    std::vector<uint64_t> m_bytes;
    std::vector<double> m_fraction;
    uint64_t m_total = 0;
    size_t m_done = 0;
};

void loadRank(LoadedRank& out, const ClusterLoadOptions& options, const LoadOptions& load, const LoadProgress& progress)
{
    if (out.where.path.empty() || (options.summariesFirst && !out.where.summaryPath.empty())) {
        if (readRankSummary(out.where.summaryPath, out.summary, out.error) && !out.where.path.empty())
            out.summary.source = out.where.path; // where its profile is here (the summary was made elsewhere)
        return;
    }
    LoadOutcome outcome = loadProfile(out.where.path, progress, load);
    if (!outcome.profile) {
        out.error = outcome.cancelled ? QCoreApplication::translate("ClusterLoader", "cancelled") : outcome.error;
        return;
    }
    const Profile& profile = *outcome.profile;
    int rankIndex = 0; // the profile's rank with this number (a rank folder holds one)
    for (size_t i = 0; i < profile.ranks.size(); ++i)
        if (profile.ranks[i].rankNumber == out.where.rankNumber)
            rankIndex = static_cast<int>(i);
    if (profile.ranks.empty()) {
        out.error = QCoreApplication::translate("ClusterLoader", "%1: no rank in the profile")
                        .arg(QString::fromStdString(out.where.path));
        return;
    }
    const AnalysisRules rules = options.load.rules ? *options.load.rules : AnalysisRules::defaults();
    out.summary = summarizeRank(profile, rankIndex, rules, out.where.path);
    out.summary.rankNumber = out.where.rankNumber;
    if (options.keepProfiles)
        out.profile = std::move(outcome.profile);
}

} // namespace

ClusterLoad loadCluster(const ClusterLayout& layout, const LoadProgress::Callback& onProgress,
                        const std::atomic<bool>* cancel, const ClusterLoadOptions& options)
{
    const LoadProgress progress(onProgress, cancel);
    ClusterLoad result;
    result.layout = layout;
    for (const ClusterRank& r : layout.ranks)
        result.ranks.push_back({r, nullptr, {}, {}});
    uint64_t largest = 0;
    for (const ClusterRank& r : layout.ranks)
        largest = std::max(largest, r.bytes);
    const int cores = options.maxConcurrent > 0 ? options.maxConcurrent
                                                : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const uint64_t budget = options.memoryBudgetBytes ? options.memoryBudgetBytes : defaultClusterMemoryBudget();
    const size_t workers = clusterConcurrency(layout.ranks.size(), largest, cores, budget);
    result.concurrentLoads = workers;
    LoadOptions load = options.load;
    if (workers > 1)
        load.threads = 1; // the cores go to the ranks, not inside each load

    // Largest rank first, so that the last one to finish is a small one.
    std::vector<size_t> order(layout.ranks.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return layout.ranks[a].bytes > layout.ranks[b].bytes; });
    ClusterProgress total(progress, layout.ranks);
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t k = next++; k < order.size(); k = next++) {
            const size_t i = order[k];
            if (progress.cancelled()) {
                result.ranks[i].error = QCoreApplication::translate("ClusterLoader", "cancelled");
                continue;
            }
            // The rank's own fractions go to the cluster's bar; the cancel flag is the caller's.
            loadRank(result.ranks[i], options, load,
                     LoadProgress([&total, i](double f, const QString&) { total.update(i, f); }, cancel));
            total.finish(i);
        }
    };
    std::vector<std::thread> threads;
    for (size_t w = 1; w < workers; ++w)
        threads.emplace_back(work);
    work();
    for (std::thread& t : threads)
        t.join();

    result.cancelled = progress.cancelled();
    const bool any = std::any_of(result.ranks.begin(), result.ranks.end(), [](const LoadedRank& r) { return r.ok(); });
    if (!any && !result.cancelled)
        result.error = layout.ranks.empty() ? QCoreApplication::translate("ClusterLoader", "%1: no rank found")
                                                  .arg(QString::fromStdString(layout.root))
                                            : result.ranks.front().error;
    return result;
}

} // namespace dspark
