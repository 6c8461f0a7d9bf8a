#include "io/ProfileLoader.h"

#include "util/BoundedJson.h"
#include "util/Memory.h"

#include "io/ChromeTraceLoader.h"
#include "io/MsprofDbLoader.h"
#include "io/ProfileScanner.h"
#include "session/ProfileAnalyses.h"
#include "steps/StepRecordLoader.h"

#include <QCoreApplication>

#include <algorithm>
#include <atomic>
#include <new>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace dspark {

static void flattenJson(const nlohmann::json& j, const std::string& prefix, std::map<std::string, std::string>& out,
                        int depth = 0)
{
    if (j.is_object() && depth < 4) {
        for (auto it = j.begin(); it != j.end(); ++it)
            flattenJson(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out, depth + 1);
    } else if (j.is_string()) {
        out[prefix] = j.get<std::string>();
    } else {
        out[prefix] = j.dump();
    }
}

// profiler_info_<rank>.json and profiler_metadata.json: run metadata, flattened to dotted keys.
static QString loadMetadataJson(const ScannedFile& file, Profile& profile)
{
    std::ifstream in(file.path, std::ios::binary);
    if (!in)
        return QCoreApplication::translate("ProfileLoader", "%1: cannot be read")
            .arg(QString::fromStdString(file.path));
    nlohmann::json j;
    if (parseBoundedJson(in, j) == JsonParse::TooDeep)
        return QCoreApplication::translate("ProfileLoader", "%1: JSON nested deeper than %2 levels; not loaded")
            .arg(QString::fromStdString(file.path))
            .arg(kMaxJsonDepth);
    if (j.is_discarded() || !j.is_object())
        return QCoreApplication::translate("ProfileLoader", "%1: not a JSON object")
            .arg(QString::fromStdString(file.path));
    const std::string prefix = file.format == FileFormat::ProfilerInfoJson ? "profiler_info" : "profiler_metadata";
    flattenJson(j, prefix, profile.metadata);
    return {};
}

static QString loadOneUnguarded(const ScannedFile& file, Profile& profile, const LoadProgress& progress,
                                const LoadOptions& options)
{
    switch (file.format) {
    case FileFormat::TorchNpuDb:
    case FileFormat::MsprofDb: return loadMsprofDb(file, profile, progress, options);
    case FileFormat::TraceViewJson:
    case FileFormat::MsprofJson:
    case FileFormat::KinetoJson: return loadChromeTrace(file, profile, progress, options);
    case FileFormat::ServerInfoJson:
    case FileFormat::DsparkRecordJson:
    case FileFormat::StepRecordsJsonl:
    case FileFormat::SpsRecordsJsonl: return loadStepRecords(file, profile, progress);
    case FileFormat::ProfilerInfoJson:
    case FileFormat::ProfilerMetadataJson: return loadMetadataJson(file, profile);
    case FileFormat::AnalysisDb:
    case FileFormat::ProfilerCsv:
    case FileFormat::CommunicationJson: // companions: listed, never selected
    case FileFormat::Unknown: break;
    }
    return {};
}

// No exception may leave a loader (docs/architecture.md): a file that runs out of memory half way is an
// error naming it, and what it added is taken back, so that the other files still load.
static QString loadOne(const ScannedFile& file, Profile& profile, const LoadProgress& progress,
                       const LoadOptions& options)
{
    const Profile::Contents before = profile.contents();
    try {
        return loadOneUnguarded(file, profile, progress, options);
    } catch (const std::bad_alloc&) {
        profile.restore(before);
        return QCoreApplication::translate("ProfileLoader", "%1: not enough memory to load this file; nothing of it "
                                                            "was loaded")
            .arg(QString::fromStdString(file.path));
    } catch (const std::exception& e) {
        profile.restore(before);
        return QCoreApplication::translate("ProfileLoader", "%1: cannot be loaded (%2); nothing of it was loaded")
            .arg(QString::fromStdString(file.path), QString::fromLocal8Bit(e.what()));
    }
}

static int loadOrder(FileFormat f)
{
    if (f == FileFormat::ProfilerInfoJson || f == FileFormat::ProfilerMetadataJson)
        return 0;
    if (isTimelineFormat(f))
        return 1;
    return 2;
}

LoadOutcome loadProfile(const std::string& path, const LoadProgress& progress, const LoadOptions& options)
{
    // Memory freed during the load (parsed records, sort buffers) is reused by what it builds next
    // (keepFreedMemoryForReuse(), set in main), and returned to the system when the load is over: by the
    // last of the loads running side by side (a comparison, ranks), since a trim empties every thread's
    // free lists, which a load still running would take back from the system page by page.
    static std::atomic<int> loadsRunning{0};
    struct MemoryScope {
        MemoryScope() { ++loadsRunning; }
        ~MemoryScope()
        {
            if (--loadsRunning == 0)
                returnFreedMemory();
        }
    } memoryScope;
    progress.update(0.0, QCoreApplication::translate("ProfileLoader", "Scanning %1").arg(QString::fromStdString(path)));
    const ScanResult scan = scanProfilePath(path);
    if (!scan.error.isEmpty())
        return {nullptr, scan.error, false};
    return loadScannedProfile(scan, path, progress, options);
}

// A file's size, for the progress fractions.
static double fileBytes(const ScannedFile& f)
{
    std::error_code ec;
    const auto size = f.inMemory() ? f.image.size() : fs::file_size(f.path, ec);
    return ec ? 1.0 : static_cast<double>(size) + 1.0;
}

LoadOutcome loadScannedProfile(const ScanResult& scan, const std::string& path, const LoadProgress& progress,
                               const LoadOptions& options)
{
    LoadOutcome outcome;
    auto profile = std::make_shared<Profile>();
    profile->rootPath = scan.root;
    for (const QString& w : scan.warnings)
        profile->warn(w);

    std::vector<const ScannedFile*> work;
    double totalBytes = 0;
    profile->scan = {scan.examined,       ScanLimits::kMaxDepth, ScanLimits::kMaxFiles,
                     scan.stoppedAtDepth, scan.stoppedAtCount,   scan.rawFolders};
    if (scan.stoppedAtDepth)
        profile->warn(QCoreApplication::translate("ProfileLoader", "%1: folders deeper than %2 levels were not scanned")
                          .arg(QString::fromStdString(scan.root))
                          .arg(ScanLimits::kMaxDepth));
    if (scan.stoppedAtCount)
        profile->warn(QCoreApplication::translate("ProfileLoader",
                                                  "%1: the scan stopped after %2 files; the rest were not looked at")
                          .arg(QString::fromStdString(scan.root))
                          .arg(ScanLimits::kMaxFiles));
    for (const ScannedFile& f : scan.files) {
        profile->files.push_back({f.path, fileFormatName(f.format), false, f.note, f.duplicateOf});
        if (!f.duplicateOf.empty())
            profile->warn(QCoreApplication::translate("ProfileLoader", "%1: the same trace as %2 (same rank and "
                                                                       "content); loaded once")
                              .arg(QString::fromStdString(f.path), QString::fromStdString(f.duplicateOf)));
        if (f.selected) {
            work.push_back(&f);
            totalBytes += fileBytes(f);
        }
    }
    std::stable_sort(work.begin(), work.end(), [](const ScannedFile* a, const ScannedFile* b) {
        return loadOrder(a->format) < loadOrder(b->format);
    });

    QStringList errors;
    int loadedData = 0;
    double doneBytes = 0;
    const double loadShare = 0.9; // the rest is finalize()
    for (const ScannedFile* f : work) {
        if (progress.cancelled()) {
            outcome.cancelled = true;
            outcome.error = QCoreApplication::translate("ProfileLoader", "Loading cancelled");
            return outcome;
        }
        const double bytes = fileBytes(*f);
        const LoadProgress sub =
            progress.scope(loadShare * doneBytes / totalBytes, loadShare * (doneBytes + bytes) / totalBytes);
        sub.update(0.0, QCoreApplication::translate("ProfileLoader", "Loading %1")
                            .arg(QString::fromStdString(fs::path(f->path).filename().string())));
        const QString error = loadOne(*f, *profile, sub, options);
        doneBytes += bytes;
        if (progress.cancelled()) {
            outcome.cancelled = true;
            outcome.error = QCoreApplication::translate("ProfileLoader", "Loading cancelled");
            return outcome;
        }
        for (SourceFile& s : profile->files)
            if (s.path == f->path) {
                s.loaded = error.isEmpty();
                if (!error.isEmpty())
                    s.note = error.toStdString();
            }
        if (!error.isEmpty()) {
            errors.push_back(error);
            continue;
        }
        if (loadOrder(f->format) > 0)
            ++loadedData;
    }

    if (loadedData == 0) {
        outcome.error = errors.isEmpty()
                            ? QCoreApplication::translate("ProfileLoader", "%1: no profiler data could be loaded")
                                  .arg(QString::fromStdString(path))
                            : errors.join(QStringLiteral("; "));
        return outcome;
    }
    for (const QString& e : errors)
        profile->warn(e);

    progress.update(loadShare, QCoreApplication::translate("ProfileLoader", "Indexing events"));
    try {
        profile->finalize();
    } catch (const std::bad_alloc&) {
        outcome.error = QCoreApplication::translate("ProfileLoader", "%1: not enough memory to index the profile")
                            .arg(QString::fromStdString(path));
        return outcome;
    }
    const bool anyEvent =
        std::any_of(profile->lanes.begin(), profile->lanes.end(), [](const Lane& lane) { return !lane.empty(); });
    if (!anyEvent && !profile->stepRecords) { // (stats() would count every event: ~10 ms on 3 M events)
        outcome.error =
            QCoreApplication::translate("ProfileLoader", "%1: the profile holds no timed events (only metadata)")
                .arg(QString::fromStdString(path));
        if (!errors.isEmpty())
            outcome.error += QStringLiteral("; ") + errors.join(QStringLiteral("; "));
        return outcome;
    }
    deriveProfileAnalyses(*profile, options.rules ? *options.rules : AnalysisRules::builtin());
    progress.update(1.0, QCoreApplication::translate("ProfileLoader", "Done"));
    outcome.profile = std::move(profile);
    return outcome;
}

} // namespace dspark
