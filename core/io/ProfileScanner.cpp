#include "io/ProfileScanner.h"

#include "io/FileRecognition.h"

#include <QCoreApplication>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <tuple>

namespace fs = std::filesystem;

namespace dspark {

static bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
static bool startsWith(const std::string& s, const std::string& prefix)
{
    return s.rfind(prefix, 0) == 0;
}

FileFormat detectFileFormat(const std::string& path)
{
    return recognizeFile(path).format;
}

static int timelinePreference(FileFormat f)
{
    switch (f) {
    case FileFormat::TorchNpuDb: return 0;
    case FileFormat::TraceViewJson: return 1;
    case FileFormat::MsprofDb: return 2;
    case FileFormat::MsprofJson: return 3;
    default: return 9;
    }
}

constexpr const char* kOutputFolder = "ASCEND_PROFILER_OUTPUT";

static bool isProfilerInfoName(const std::string& name)
{
    return startsWith(name, "profiler_info") && endsWith(name, ".json");
}

// The run folder a file shows by where it lies (the parent of ASCEND_PROFILER_OUTPUT) or by what it is
// (the folder of a profiler_info*.json), else "": a rank folder whatever its name (a link named
// anything to a *_ascend_pt folder).
static std::string runFolderShownBy(const fs::path& file)
{
    if (file.parent_path().filename() == kOutputFolder)
        return file.parent_path().parent_path().string();
    return isProfilerInfoName(file.filename().string()) ? file.parent_path().string() : std::string();
}

// The same by a look into `dir` (during the walk, before its files are listed).
static bool holdsRunContent(const fs::path& dir)
{
    std::error_code ec;
    if (fs::is_directory(dir / kOutputFolder, ec))
        return true;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (isProfilerInfoName(it->path().filename().string()))
            return true;
    return false;
}

// The outermost *_ascend_pt folder, else the innermost run folder by content (`runFolders`, from
// runFolderShownBy), else the outermost PROF_* folder, else "".
static std::string runRootOf(const fs::path& file, const fs::path& scanRoot, const std::set<std::string>& runFolders)
{
    std::string ascendPt, content, prof;
    for (fs::path p = file.parent_path(); !p.empty(); p = p.parent_path()) {
        const std::string name = p.filename().string();
        if (endsWith(name, "_ascend_pt"))
            ascendPt = p.string();
        else if (startsWith(name, "PROF_"))
            prof = p.string();
        if (content.empty() && runFolders.count(p.string()))
            content = p.string();
        if (p == scanRoot.parent_path() || p == p.root_path())
            break;
    }
    return !ascendPt.empty() ? ascendPt : !content.empty() ? content : prof;
}

static int rankFromName(const std::string& name)
{
    static const std::regex pattern(R"((?:profiler_info|ascend_pytorch_profiler)_(\d+)\.(?:json|db)$)");
    std::smatch m;
    int rank = -1;
    if (std::regex_search(name, m, pattern)) {
        const std::string digits = m[1];
        if (std::from_chars(digits.data(), digits.data() + digits.size(), rank).ec != std::errc())
            rank = -1; // too large for a rank: the file is still read, its rank unknown
    }
    return rank;
}

// Folders of raw profiler data (not for the viewer), not entered: they may hold thousands of files.
static bool isRawDataFolder(const fs::path& dir)
{
    const std::string name = dir.filename().string();
    const std::string parent = dir.parent_path().filename().string();
    const std::string grand = dir.parent_path().parent_path().filename().string();
    if (name == "data" && (parent == "host" || startsWith(parent, "device_")) && startsWith(grand, "PROF_"))
        return true;
    return (name == "FRAMEWORK" || name == "logs") &&
           (endsWith(parent, "_ascend_pt") || holdsRunContent(dir.parent_path()));
}

static bool within(const fs::path& p, const fs::path& dir)
{
    const auto [d, _] = std::mismatch(dir.begin(), dir.end(), p.begin(), p.end());
    return d == dir.end();
}

// Whether to enter a folder linked into the scanned one (ranks gathered from several nodes by symlinks)
// whose canonical path is `target` (empty: unresolved): once, unless it is scanned anyway (it lies under
// the root or a folder already entered) or holds one of them (the root: a loop; a folder entered in an
// earlier round: left out rather than scanned twice).
static bool enterLinkedFolder(const fs::path& target, std::vector<fs::path>& entered)
{
    if (target.empty())
        return false;
    for (const fs::path& e : entered)
        if (within(target, e) || within(e, target))
            return false;
    entered.push_back(target);
    return true;
}

struct LinkedFolder {
    fs::path path;
    int depth = 0;   // of its files below the root
    fs::path target; // canonical, resolved when its round starts (empty: unresolved)
};

// Whether a folder can be read; skip_permission_denied would skip it without a word: say so.
static bool readable(const fs::path& dir, ScanResult& result)
{
    std::error_code ec;
    fs::directory_iterator probe(dir, ec);
    if (ec)
        result.warnings.push_back(
            QCoreApplication::translate("ProfileScanner", "%1: cannot read the folder (%2); skipped")
                .arg(QString::fromStdString(dir.string()), QString::fromStdString(ec.message())));
    return !ec;
}

// The files under `dir` (its own files `depth` below the root), depth first, within ScanLimits; the
// folders linked into it are left in `links`. False once the file count is reached.
static bool walkFolder(const fs::path& dir, int depth, ScanResult& result, std::vector<fs::path>& candidates,
                       std::vector<LinkedFolder>& links)
{
    std::error_code ec;
    fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_directory(ec)) {
            const int below = depth + it.depth() + 1;
            if (it->is_symlink(ec)) {
                links.push_back({it->path(), below, {}}); // (not followed by the iterator)
            } else if (!readable(it->path(), result)) {
                it.disable_recursion_pending();
            } else if (isRawDataFolder(it->path())) {
                result.rawFolders.push_back(it->path().string());
                it.disable_recursion_pending();
            } else if (below >= ScanLimits::kMaxDepth) {
                result.stoppedAtDepth = true;
                it.disable_recursion_pending();
            }
            continue;
        }
        if (!it->is_regular_file(ec))
            continue;
        if (candidates.size() >= ScanLimits::kMaxFiles) {
            result.stoppedAtCount = true;
            return false;
        }
        candidates.push_back(it->path());
    }
    return true;
}

// The files under `root` and the folders linked into it, within ScanLimits. Each round of links goes in
// the order of their targets, then names: of two links to one folder the first by name is entered, and
// a link to a folder holding another link's target comes first (the other is then inside it), so that
// no folder is left out for what the links are named.
static QString listFolder(const fs::path& root, ScanResult& result, std::vector<fs::path>& candidates)
{
    // skip_permission_denied would turn an unreadable top folder into an empty one: open it plainly
    // first so that the user hears "Permission denied", not "no profiler output".
    std::error_code ec;
    fs::directory_iterator probe(root, ec);
    if (ec)
        return QCoreApplication::translate("ProfileScanner", "%1: cannot read the folder (%2)")
            .arg(QString::fromStdString(root.string()), QString::fromStdString(ec.message()));
    std::vector<LinkedFolder> links;
    if (!walkFolder(root, 0, result, candidates, links))
        return {};
    std::vector<fs::path> entered{root};
    for (size_t next = 0; next < links.size();) {
        const size_t end = links.size();
        for (size_t i = next; i < end; ++i) {
            links[i].target = fs::canonical(links[i].path, ec);
            if (ec)
                links[i].target.clear();
        }
        std::sort(links.begin() + ptrdiff_t(next), links.end(), [](const LinkedFolder& a, const LinkedFolder& b) {
            return std::tie(a.target, a.path) < std::tie(b.target, b.path);
        });
        for (; next < end; ++next) {
            const LinkedFolder link = links[next]; // (a copy: walkFolder appends)
            if (link.depth >= ScanLimits::kMaxDepth) {
                result.stoppedAtDepth = true;
            } else if (enterLinkedFolder(link.target, entered) && readable(link.path, result)) {
                if (isRawDataFolder(link.path))
                    result.rawFolders.push_back(link.path.string());
                else if (!walkFolder(link.path, link.depth, result, candidates, links))
                    return {};
            }
        }
    }
    return {};
}

static void recognizeCandidates(const std::vector<fs::path>& candidates, const fs::path& root, bool singleFile,
                                ScanResult& result)
{
    std::set<std::string> runFolders;
    for (const fs::path& p : candidates)
        if (std::string run = runFolderShownBy(p); !run.empty())
            runFolders.insert(std::move(run));
    for (const fs::path& p : candidates) {
        ScannedFile f;
        f.path = p.string();
        const Recognition r = recognizeFile(f.path);
        f.format = r.format;
        f.runRoot = runRootOf(p, root, runFolders);
        f.rankNumber = r.rank ? *r.rank : rankFromName(p.filename().string());
        if (f.format == FileFormat::Unknown || isCompanionFormat(f.format)) {
            f.selected = false;
            f.note = r.reason;
            if (singleFile)
                result.error = f.format != FileFormat::Unknown || r.nearMiss
                                   ? QString::fromStdString(r.reason)
                                   : QCoreApplication::translate("ProfileScanner",
                                                                 "%1: not a recognised profiler file (expected a "
                                                                 "msprof / torch_npu .db, a trace JSON or DSpark step "
                                                                 "records)")
                                         .arg(QString::fromStdString(f.path));
        }
        f.nearMiss = r.nearMiss;
        result.files.push_back(std::move(f));
    }
}

// One timeline export per run folder, and a rank for every file of a run from its profiler_info.
static void preferOneExportPerRun(ScanResult& result, bool singleFile)
{
    std::map<std::string, int> runRank;
    for (const ScannedFile& f : result.files)
        if (f.format == FileFormat::ProfilerInfoJson && !f.runRoot.empty() && f.rankNumber >= 0)
            runRank[f.runRoot] = f.rankNumber;
    std::map<std::string, size_t> best;
    for (size_t i = 0; i < result.files.size(); ++i) {
        ScannedFile& f = result.files[i];
        if (f.rankNumber < 0 && runRank.count(f.runRoot))
            f.rankNumber = runRank[f.runRoot];
        if (!isTimelineFormat(f.format) || f.runRoot.empty() || singleFile)
            continue;
        // Several msprof_*.json slices of one run are parts of the same timeline: keep them all.
        auto it = best.find(f.runRoot);
        if (it == best.end() || timelinePreference(f.format) < timelinePreference(result.files[it->second].format))
            best[f.runRoot] = i;
    }
    for (ScannedFile& f : result.files) {
        if (!isTimelineFormat(f.format) || f.runRoot.empty() || singleFile)
            continue;
        const ScannedFile& chosen = result.files[best[f.runRoot]];
        if (chosen.format != f.format) {
            f.selected = false;
            f.note = QCoreApplication::translate("ProfileScanner", "same run as %1; not loaded")
                         .arg(QString::fromStdString(fs::path(chosen.path).filename().string()))
                         .toStdString();
        }
    }
}

// The same trace saved twice (x.json and x.json.gz, or a copy): same rank, uncompressed size and hash of
// every byte. The cheap fingerprint (a .gz's ISIZE, its first KB) is taken of every timeline file; only
// files that agree on it are read whole.
static void markDuplicates(ScanResult& result)
{
    std::vector<size_t> timeline;
    std::vector<ContentFingerprint> cheap, full;
    for (size_t i = 0; i < result.files.size(); ++i)
        if (result.files[i].selected && isTimelineFormat(result.files[i].format)) {
            timeline.push_back(i);
            cheap.push_back(contentFingerprint(result.files[i].path, false));
        }
    full.resize(timeline.size());
    for (size_t b = 1; b < timeline.size(); ++b) {
        ScannedFile& later = result.files[timeline[b]];
        for (size_t a = 0; a < b; ++a) {
            const ScannedFile& first = result.files[timeline[a]];
            if (!first.selected || first.rankNumber != later.rankNumber || !cheap[a].valid || !(cheap[a] == cheap[b]))
                continue;
            if (!full[a].valid)
                full[a] = contentFingerprint(first.path, true);
            if (!full[b].valid)
                full[b] = contentFingerprint(later.path, true);
            if (!full[a].valid || !(full[a] == full[b]))
                continue;
            later.selected = false;
            later.duplicateOf = first.path;
            later.note = QCoreApplication::translate("ProfileScanner", "same content as %1; loaded once")
                             .arg(QString::fromStdString(first.path))
                             .toStdString();
            break;
        }
    }
}

ScanResult scanProfilePath(const std::string& path)
{
    ScanResult result;
    std::error_code ec;
    const fs::path root = fs::weakly_canonical(fs::absolute(fs::path(path), ec), ec);
    if (path.empty() || !fs::exists(root, ec)) {
        result.error = QCoreApplication::translate("ProfileScanner", "%1: no such file or folder")
                           .arg(QString::fromStdString(path));
        return result;
    }
    result.root = root.string();
    std::vector<fs::path> candidates;
    const bool singleFile = !fs::is_directory(root, ec);
    if (singleFile) {
        candidates.push_back(root);
    } else if (const QString error = listFolder(root, result, candidates); !error.isEmpty()) {
        result.error = error;
        return result;
    }
    std::sort(candidates.begin(), candidates.end());
    result.examined = candidates.size();
    recognizeCandidates(candidates, root, singleFile, result);
    if (singleFile && !result.error.isEmpty())
        return result;

    const bool anyData = std::any_of(result.files.begin(), result.files.end(), [](const ScannedFile& f) {
        return f.format != FileFormat::Unknown && !isCompanionFormat(f.format);
    });
    if (!anyData) {
        result.error = QCoreApplication::translate("ProfileScanner",
                                                   "%1: no profiler output found (no msprof / torch_npu database, "
                                                   "trace JSON or DSpark step records)")
                           .arg(QString::fromStdString(root.string()));
        // The profile may lie beyond where the scan stopped: say so.
        if (result.stoppedAtCount)
            result.error += QCoreApplication::translate("ProfileScanner", "; the scan stopped after %1 files")
                                .arg(ScanLimits::kMaxFiles);
        if (result.stoppedAtDepth)
            result.error +=
                QCoreApplication::translate("ProfileScanner", "; folders deeper than %1 levels were not scanned")
                    .arg(ScanLimits::kMaxDepth);
        // Files that came close say why they are not profiler output.
        int quoted = 0;
        for (const ScannedFile& f : result.files)
            if (f.format == FileFormat::Unknown && f.nearMiss && quoted < 5) {
                result.error += QStringLiteral("; ") + QString::fromStdString(f.note);
                ++quoted;
            }
        return result;
    }
    preferOneExportPerRun(result, singleFile);
    markDuplicates(result);
    return result;
}

} // namespace dspark
