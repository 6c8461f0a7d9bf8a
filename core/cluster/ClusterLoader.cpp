#include "cluster/ClusterLoader.h"

#include "analysis/AnalysisRules.h"
#include "io/ProfileLoader.h"
#include "io/ProfileScanner.h"
#include "io/db/SqliteDatabase.h"

#include <sqlite3.h>

#include <QCoreApplication>

#include <algorithm>
#include <atomic>
#include <filesystem>
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

size_t clusterConcurrency(size_t ranks, uint64_t largestPeakBytes, int cores, uint64_t budgetBytes)
{
    const size_t byMemory =
        static_cast<size_t>(std::max<uint64_t>(1, budgetBytes / std::max<uint64_t>(1, largestPeakBytes)));
    return std::max<size_t>(1, std::min({ranks, static_cast<size_t>(std::max(1, cores)), byMemory}));
}

namespace {

// Measured on the model (docs/performance.md "Many ranks", bench_cluster --sizes): Profile::bytesUsed()
// per database event row, per summary lane event and per JSON trace byte; and a load's peak over what
// it keeps (the loader's temporary columns and the SQLite page cache).
constexpr double kBytesPerDbRow = 100;
constexpr double kBytesPerEvent = 80;
constexpr double kBytesPerJsonByte = 0.3;
constexpr uint64_t kPeakOverLoaded = 2;
// The tables whose rows become events (formats.md §2; an HCCL sub-task is a TASK row, its
// COMMUNICATION_TASK_INFO row only its details); counters and string tables are small beside them.
constexpr const char* kEventTables[] = {"TASK",        "PYTORCH_API", "CANN_API", "COMMUNICATION_OP",
                                        "MSTX_EVENTS", "STEP_TIME"};

// The event rows of one database: max(rowid) of each event table, a look at the b-tree's last page, so
// that a 250 MB rank costs a few page reads; 0 when the file does not open.
uint64_t databaseEventRows(const std::string& path)
{
    db::SqliteDatabase database;
    if (!database.open(path) || !database.readSchema())
        return 0;
    uint64_t rows = 0;
    for (const char* table : kEventTables) {
        if (!database.hasTable(table))
            continue;
        db::SqliteStatement st(database.handle(), "SELECT max(rowid) FROM " + db::SqliteDatabase::quote(table));
        if (st.ok() && st.step() == SQLITE_ROW && !st.isNull(0))
            rows += static_cast<uint64_t>(std::max<int64_t>(0, st.int64(0)));
    }
    return rows;
}

// The profiler databases of a rank's run folder (or the file itself).
std::vector<std::string> databasesOf(const std::string& path)
{
    std::vector<std::string> out;
    const auto consider = [&out](const std::filesystem::path& p) {
        const FileFormat f = detectFileFormat(p.string());
        if (f == FileFormat::TorchNpuDb || f == FileFormat::MsprofDb)
            out.push_back(p.string());
    };
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
        consider(path);
        return out;
    }
    for (std::filesystem::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
        if (it.depth() <= 4 && it->is_regular_file(ec) && it->path().extension() == ".db")
            consider(it->path());
    return out;
}

} // namespace

RankSizeEstimate estimateLoadedBytes(const ClusterRank& rank)
{
    RankSizeEstimate e;
    if (rank.path.empty()) // a summary alone: no events to load (and reading it here would read it twice)
        return e;
    for (const std::string& db : databasesOf(rank.path))
        e.events += databaseEventRows(db);
    if (e.events > 0) {
        e.basis = RankSizeEstimate::Basis::DatabaseRows;
        e.loadedBytes = static_cast<uint64_t>(static_cast<double>(e.events) * kBytesPerDbRow);
        return e;
    }
    RankSummary summary;
    QString error;
    if (!rank.summaryPath.empty() && readRankSummary(rank.summaryPath, summary, error)) {
        for (const RankLaneSummary& l : summary.lanes)
            e.events += l.events;
        e.basis = RankSizeEstimate::Basis::SummaryEvents;
        e.loadedBytes = static_cast<uint64_t>(static_cast<double>(e.events) * kBytesPerEvent);
        return e;
    }
    e.loadedBytes = static_cast<uint64_t>(static_cast<double>(rank.bytes) * kBytesPerJsonByte);
    return e;
}

ClusterLoadPlan planClusterLoad(const ClusterLayout& layout, uint64_t budgetBytes, int cores)
{
    ClusterLoadPlan plan;
    uint64_t kept = 0, largest = 0;
    for (const ClusterRank& r : layout.ranks) {
        plan.estimates.push_back(estimateLoadedBytes(r));
        const uint64_t bytes = plan.estimates.back().loadedBytes;
        const bool fits = !r.path.empty() && kept + bytes <= budgetBytes; // a summary alone has no events to keep
        plan.keep.push_back(fits);
        kept += fits ? bytes : 0;
        largest = std::max(largest, bytes);
    }
    plan.concurrent = clusterConcurrency(layout.ranks.size(), largest * kPeakOverLoaded, cores, budgetBytes);
    return plan;
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

void loadRank(LoadedRank& out, const ClusterLoadOptions& options, size_t index, const LoadOptions& load,
              const LoadProgress& progress)
{
    const bool keep = index < options.keep.size() ? bool(options.keep[index]) : options.keepProfiles;
    const bool summaryFirst = index < options.keep.size() ? !keep : options.summariesFirst;
    if (out.where.path.empty() || (summaryFirst && !out.where.summaryPath.empty())) {
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
    if (keep)
        out.profile = std::move(outcome.profile);
}

} // namespace

ClusterLoad loadCluster(const ClusterLayout& layout, const LoadProgress::Callback& onProgress,
                        const std::atomic<bool>* cancel, const ClusterLoadOptions& options)
{
    const LoadProgress progress(onProgress, cancel);
    ClusterLoad result;
    result.layout = layout;
    result.loadedBytesEstimate = options.loadedBytes;
    for (const ClusterRank& r : layout.ranks)
        result.ranks.push_back({r, nullptr, {}, {}});
    uint64_t largestPeak = 0; // a load's peak: twice the estimated loaded size, else 3 × its files
    for (size_t i = 0; i < layout.ranks.size(); ++i)
        largestPeak = std::max(largestPeak, i < options.loadedBytes.size() ? options.loadedBytes[i] * kPeakOverLoaded
                                                                           : layout.ranks[i].bytes * 3);
    const int cores = options.maxConcurrent > 0 ? options.maxConcurrent
                                                : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const uint64_t budget = options.memoryBudgetBytes ? options.memoryBudgetBytes : defaultClusterMemoryBudget();
    const size_t workers = clusterConcurrency(layout.ranks.size(), largestPeak, cores, budget);
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
            if (options.beforeRank)
                options.beforeRank(i);
            if (progress.cancelled()) {
                result.ranks[i].error = QCoreApplication::translate("ClusterLoader", "cancelled");
                continue;
            }
            // The rank's own fractions go to the cluster's bar; the cancel flag is the caller's.
            loadRank(result.ranks[i], options, i, load,
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
