#include "cluster/ClusterLayout.h"

#include "cluster/RankSummary.h"
#include "io/ProfileScanner.h"

#include <QCoreApplication>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

namespace fs = std::filesystem;

namespace dspark {

int rankFromSglangTraceName(const std::string& fileName)
{
    static const std::regex pattern(
        R"(-TP-(\d{1,6})(?:-DP-\d+)?(?:-PP-\d+)?(?:-EP-\d+)?(?:-[A-Za-z_]+)?\.trace\.json(?:\.gz)?$)");
    std::smatch m;
    return std::regex_search(fileName, m, pattern) ? std::stoi(m[1]) : -1;
}

namespace {

// A run's age: torch_npu's `{worker}_{%Y%m%d%H%M%S}{ms}_ascend_pt`, msprof's `PROF_{n}_{%Y%m%d%H%M%S}…`,
// else the modification time. Larger is newer.
std::string runAge(const std::string& unit)
{
    static const std::regex torchNpu(R"(_(\d{17})_ascend_pt$)");
    static const std::regex msprof(R"(^PROF_\d+_(\d{14}))");
    const std::string name = fs::path(unit).filename().string();
    std::smatch m;
    if (std::regex_search(name, m, torchNpu) || std::regex_search(name, m, msprof))
        return m[1];
    std::error_code ec;
    const auto t = fs::last_write_time(unit, ec);
    return ec ? std::string() : "mtime:" + std::to_string(t.time_since_epoch().count());
}

// The rank number of a summary from its first bytes: the writer puts "rank" before any list.
int summaryRank(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    char head[256] = {};
    in.read(head, sizeof head - 1);
    static const std::regex pattern(R"re("rank"\s*:\s*(\d{1,6})[,}\s])re");
    std::cmatch m;
    return std::regex_search(head, m, pattern) ? std::stoi(m[1]) : -1;
}

struct Unit {
    std::string path; // run folder or file
    int rank = -1;
    uint64_t bytes = 0;
};

std::vector<Unit> timelineUnits(const ScanResult& scan, std::vector<ClusterSkipped>& summaries)
{
    std::map<std::string, Unit> units;
    for (const ScannedFile& f : scan.files) {
        if (f.format == FileFormat::Unknown && looksLikeRankSummary(f.path)) {
            summaries.push_back({f.path, std::to_string(summaryRank(f.path))});
            continue;
        }
        if (!f.selected || !isTimelineFormat(f.format))
            continue;
        Unit& u = units[f.runRoot.empty() ? f.path : f.runRoot];
        u.path = f.runRoot.empty() ? f.path : f.runRoot;
        int rank = f.rankNumber;
        if (rank < 0)
            rank = rankFromSglangTraceName(fs::path(f.path).filename().string());
        if (u.rank < 0)
            u.rank = rank;
        std::error_code ec;
        u.bytes += fs::file_size(f.path, ec);
    }
    std::vector<Unit> out;
    for (auto& [path, u] : units)
        out.push_back(std::move(u));
    return out;
}

QString rankWarning(int rank, const std::string& opened, const std::string& other, bool newer)
{
    return newer ? QCoreApplication::translate("ClusterLayout",
                                               "rank %1 has several runs: the newest, %2, is opened; %3 is not loaded")
                       .arg(rank)
                       .arg(QString::fromStdString(opened), QString::fromStdString(other))
                 : QCoreApplication::translate(
                       "ClusterLayout", "%2 and %3 both claim rank %1; only %2 is opened (they are never merged)")
                       .arg(rank)
                       .arg(QString::fromStdString(opened), QString::fromStdString(other));
}

} // namespace

ClusterLayout findClusterRanks(const std::string& path)
{
    ClusterLayout layout;
    const ScanResult scan = scanProfilePath(path);
    layout.root = scan.root;
    std::vector<ClusterSkipped> summaries; // reason holds the rank number here
    const std::vector<Unit> units = timelineUnits(scan, summaries);
    if (!scan.error.isEmpty() && summaries.empty()) {
        layout.error = scan.error;
        return layout;
    }
    std::map<int, std::vector<const Unit*>> byRank;
    for (const Unit& u : units) {
        if (u.rank < 0) {
            layout.skipped.push_back(
                {u.path, QCoreApplication::translate("ClusterLayout", "its rank is not known").toStdString()});
            continue;
        }
        byRank[u.rank].push_back(&u);
    }
    for (auto& [rank, list] : byRank) {
        std::stable_sort(list.begin(), list.end(),
                         [](const Unit* a, const Unit* b) { return runAge(a->path) > runAge(b->path); });
        layout.ranks.push_back({rank, list.front()->path, {}, list.front()->bytes});
        for (size_t i = 1; i < list.size(); ++i) {
            const bool newer = runAge(list.front()->path) != runAge(list[i]->path);
            const QString warning = rankWarning(rank, list.front()->path, list[i]->path, newer);
            layout.warnings << warning;
            layout.skipped.push_back({list[i]->path, warning.toStdString()});
        }
    }
    for (const ClusterSkipped& s : summaries) {
        const int rank = std::stoi(s.reason);
        auto it = std::find_if(layout.ranks.begin(), layout.ranks.end(),
                               [&](const ClusterRank& r) { return r.rankNumber == rank; });
        if (rank < 0) {
            layout.skipped.push_back(
                {s.path, QCoreApplication::translate("ClusterLayout", "not a readable rank summary").toStdString()});
        } else if (it == layout.ranks.end()) {
            layout.ranks.push_back({rank, {}, s.path, 0});
        } else if (it->summaryPath.empty()) {
            it->summaryPath = s.path;
        } else {
            const QString warning = rankWarning(rank, it->summaryPath, s.path, false);
            layout.warnings << warning;
            layout.skipped.push_back({s.path, warning.toStdString()});
        }
    }
    std::sort(layout.ranks.begin(), layout.ranks.end(),
              [](const ClusterRank& a, const ClusterRank& b) { return a.rankNumber < b.rankNumber; });
    return layout;
}

} // namespace dspark
