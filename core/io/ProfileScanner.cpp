#include "io/ProfileScanner.h"

#include <QCoreApplication>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

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

static std::string head(const std::string& path, size_t bytes)
{
    std::ifstream in(path, std::ios::binary);
    std::string buf(bytes, '\0');
    in.read(buf.data(), static_cast<std::streamsize>(bytes));
    buf.resize(static_cast<size_t>(in.gcount()));
    return buf;
}

FileFormat detectFileFormat(const std::string& path)
{
    const std::string name = fs::path(path).filename().string();
    if (endsWith(name, ".db")) {
        if (startsWith(name, "ascend_pytorch_profiler"))
            return FileFormat::TorchNpuDb;
        if (startsWith(name, "msprof_"))
            return FileFormat::MsprofDb;
        return FileFormat::Unknown;
    }
    if (name == "trace_view.json")
        return FileFormat::TraceViewJson;
    if (startsWith(name, "msprof_") && endsWith(name, ".json"))
        return FileFormat::MsprofJson;
    if (endsWith(name, ".trace.json") || endsWith(name, ".trace.json.gz") || endsWith(name, ".pt.trace.json.gz"))
        return FileFormat::KinetoJson;
    if (startsWith(name, "profiler_info") && endsWith(name, ".json"))
        return FileFormat::ProfilerInfoJson;
    if (name == "profiler_metadata.json")
        return FileFormat::ProfilerMetadataJson;
    if (endsWith(name, ".records.jsonl"))
        return FileFormat::SpsRecordsJsonl;
    if (endsWith(name, ".jsonl")) {
        const std::string h = head(path, 4096);
        if (h.find("\"forward_ct\"") != std::string::npos || h.find("\"records\"") != std::string::npos ||
            h.find("\"gamma\"") != std::string::npos)
            return FileFormat::StepRecordsJsonl;
        return FileFormat::Unknown;
    }
    if (endsWith(name, ".json") || endsWith(name, ".json.gz")) {
        if (endsWith(name, ".gz"))
            return FileFormat::Unknown;
        const std::string h = head(path, 65536);
        if (h.find("\"internal_states\"") != std::string::npos)
            return FileFormat::ServerInfoJson;
        if (h.find("\"records\"") != std::string::npos &&
            (h.find("\"forward_ct\"") != std::string::npos || h.find("\"gamma\"") != std::string::npos ||
             h.find("\"verify_num_draft_tokens\"") != std::string::npos))
            return FileFormat::DsparkRecordJson;
        const size_t first = h.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
        if (first != std::string::npos && h[first] == '{' && h.find("\"traceEvents\"") != std::string::npos)
            return FileFormat::KinetoJson;
        if (first != std::string::npos && h[first] == '[' && h.find("\"ph\"") != std::string::npos)
            return FileFormat::TraceViewJson;
    }
    return FileFormat::Unknown;
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

// The outermost *_ascend_pt folder, else the outermost PROF_* folder, else "".
static std::string runRootOf(const fs::path& file, const fs::path& scanRoot)
{
    std::string ascendPt, prof;
    for (fs::path p = file.parent_path(); !p.empty(); p = p.parent_path()) {
        const std::string name = p.filename().string();
        if (endsWith(name, "_ascend_pt"))
            ascendPt = p.string();
        else if (startsWith(name, "PROF_"))
            prof = p.string();
        if (p == scanRoot.parent_path() || p == p.root_path())
            break;
    }
    return !ascendPt.empty() ? ascendPt : prof;
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
    if (fs::is_directory(root, ec)) {
        // skip_permission_denied would turn an unreadable top folder into an empty one: open it plainly
        // first so that the user hears "Permission denied", not "no profiler output".
        fs::directory_iterator probe(root, ec);
        fs::recursive_directory_iterator it;
        if (!ec)
            it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
        if (ec) {
            result.error = QCoreApplication::translate("ProfileScanner", "%1: cannot read the folder (%2)")
                               .arg(QString::fromStdString(root.string()), QString::fromStdString(ec.message()));
            return result;
        }
        for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (ec)
                break;
            if (it->is_directory(ec) && !it->is_symlink(ec)) {
                // skip_permission_denied skips it without a word: say so.
                std::error_code subError;
                fs::directory_iterator sub(it->path(), subError);
                if (subError) {
                    result.warnings.push_back(
                        QCoreApplication::translate("ProfileScanner", "%1: cannot read the folder (%2); skipped")
                            .arg(QString::fromStdString(it->path().string()),
                                 QString::fromStdString(subError.message())));
                    it.disable_recursion_pending();
                }
            } else if (it->is_regular_file(ec)) {
                candidates.push_back(it->path());
            }
        }
    } else {
        candidates.push_back(root);
    }
    std::sort(candidates.begin(), candidates.end());

    const bool singleFile = !fs::is_directory(root, ec);
    for (const fs::path& p : candidates) {
        ScannedFile f;
        f.path = p.string();
        f.format = detectFileFormat(f.path);
        // A .db the user opened by itself is read whatever its name (renamed exports); the database
        // loader then says what is wrong with it, if anything. In folders unknown .db files are skipped.
        if (f.format == FileFormat::Unknown && singleFile && endsWith(f.path, ".db"))
            f.format = FileFormat::MsprofDb;
        if (f.format == FileFormat::Unknown) {
            if (singleFile)
                result.error = QCoreApplication::translate("ProfileScanner",
                                                           "%1: not a recognised profiler file (expected a msprof / "
                                                           "torch_npu .db, a trace JSON or DSpark step records)")
                                   .arg(QString::fromStdString(f.path));
            continue;
        }
        f.runRoot = runRootOf(p, root);
        f.rank = rankFromName(p.filename().string());
        result.files.push_back(std::move(f));
    }
    if (result.files.empty()) {
        if (result.error.isEmpty())
            result.error = QCoreApplication::translate("ProfileScanner",
                                                       "%1: no profiler output found (no msprof / torch_npu database, "
                                                       "trace JSON or DSpark step records)")
                               .arg(QString::fromStdString(root.string()));
        return result;
    }

    // Rank of a run folder: from its profiler_info_<rank>.json.
    std::map<std::string, int> runRank;
    for (const ScannedFile& f : result.files)
        if (f.format == FileFormat::ProfilerInfoJson && !f.runRoot.empty() && f.rank >= 0)
            runRank[f.runRoot] = f.rank;
    // One timeline export per run folder.
    std::map<std::string, size_t> best;
    for (size_t i = 0; i < result.files.size(); ++i) {
        ScannedFile& f = result.files[i];
        if (f.rank < 0 && runRank.count(f.runRoot))
            f.rank = runRank[f.runRoot];
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
    return result;
}

} // namespace dspark
