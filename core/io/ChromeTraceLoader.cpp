#include "io/ChromeTraceLoader.h"

#include "io/trace/JsonText.h"
#include "io/trace/TraceArgsSource.h"
#include "io/trace/TraceBuilder.h"
#include "io/trace/TraceIngest.h"
#include "io/trace/TraceLoadTuning.h"
#include "util/Gzip.h"
#include "util/MappedFile.h"
#include "util/Parallel.h"
#include "util/StepTimer.h"

#include <QCoreApplication>
#include <QScopeGuard>

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <mutex>
#include <optional>
#include <regex>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

namespace dspark {

using trace::TraceIngest;

namespace {

// What the top level of the file says besides the events.
struct TopLevel {
    bool isObject = false;
    size_t eventsBegin = 0; // just after the events array's '['
    std::optional<int> distributedRank;
    std::optional<std::string> displayTimeUnit; // how a viewer should label times; never their unit
};

enum class MembersEnd { FoundEvents, ObjectEnd, Error };

// Reads "key": value members of the top-level object from `pos`. In the header (`first` = true, pos
// after '{') it stops at "traceEvents"; after the events array (`first` = false) it reads to '}'.
// Values are validated and skipped by the scalar scanner; only small known ones are parsed.
MembersEnd readMembers(const char* data, size_t size, size_t& pos, bool first, TopLevel& top, size_t& errorOffset,
                       std::string& error)
{
    std::string key;
    while (true) {
        pos = trace::skipJsonSpace(data, pos, size);
        if (pos >= size) {
            errorOffset = size;
            error = "unexpected end of data inside the top-level object (truncated file?)";
            return MembersEnd::Error;
        }
        if (data[pos] == '}') {
            ++pos;
            return MembersEnd::ObjectEnd;
        }
        if (!first) {
            if (data[pos] != ',') {
                errorOffset = pos;
                error = "expected ',' or '}' in the top-level object";
                return MembersEnd::Error;
            }
            pos = trace::skipJsonSpace(data, pos + 1, size);
        }
        first = false;
        if (pos >= size || data[pos] != '"') {
            errorOffset = pos;
            error = "expected a quoted key in the top-level object";
            return MembersEnd::Error;
        }
        const trace::ScanResult k = trace::scanJsonValue(data, pos, size);
        if (!k.ok) {
            errorOffset = k.end;
            error = k.message;
            return MembersEnd::Error;
        }
        if (!trace::unescapeJsonString(std::string_view(data + pos + 1, k.end - pos - 2), key))
            key.clear();
        pos = trace::skipJsonSpace(data, k.end, size);
        if (pos >= size || data[pos] != ':') {
            errorOffset = pos;
            error = "expected ':' after a key";
            return MembersEnd::Error;
        }
        pos = trace::skipJsonSpace(data, pos + 1, size);
        if (key == "traceEvents" && top.eventsBegin == 0) {
            if (pos >= size || data[pos] != '[') {
                errorOffset = pos;
                error = "\"traceEvents\" is not an array";
                return MembersEnd::Error;
            }
            top.eventsBegin = pos + 1;
            return MembersEnd::FoundEvents;
        }
        const trace::ScanResult v = trace::scanJsonValue(data, pos, size);
        if (!v.ok) {
            errorOffset = v.end;
            error = v.message;
            return MembersEnd::Error;
        }
        if (key == "distributedInfo" || key == "displayTimeUnit") {
            const nlohmann::json j = nlohmann::json::parse(data + pos, data + v.end, nullptr, false);
            if (j.is_object() && j.contains("rank") && j["rank"].is_number_integer())
                top.distributedRank = j["rank"].get<int>();
            if (j.is_string())
                top.displayTimeUnit = j.get<std::string>();
        }
        pos = v.end;
    }
}

struct IngestOutcome {
    std::vector<std::unique_ptr<TraceIngest>> parts; // in file order
    size_t arrayEnd = 0;
    bool failed = false;
    bool cancelled = false;
    size_t errorOffset = 0;
    std::string errorMessage;
};

// Parses the events array. A large array is cut into parts at likely element boundaries, claimed
// in file order by two threads (each takes the next part as it finishes one, so a core that runs
// slower does less): the first third of what is left, down to LoadTuning::minPartBytes, so that few
// parts are made and the last ones are short. Each part parses up to the start of the next, and so
// verifies that boundary; if it was not one (a "},{" inside a string), that part runs on to the end
// of the array and the later parts are dropped. Results are read in file order: the first part that
// did not reach its planned end decides (end of the array, error or cancel).
IngestOutcome ingestEvents(const char* data, size_t size, size_t begin, int scaleDigits, const MappedFile* mapping,
                           int fd, const LoadProgress& progress, const LoadOptions& loadOptions)
{
    const trace::LoadTuning& tuning = loadOptions.trace;
    const TraceIngest::Options options{scaleDigits, std::max<size_t>(tuning.chunkBytes, 16), mapping, fd};
    const size_t span = size > begin ? size - begin : 1;
    const bool parallel = tuning.twoThreads && span >= tuning.splitThreshold && loadOptions.threads > 1;
    const size_t minPart = std::max<size_t>(std::min(tuning.minPartBytes, span / 2), 1);
    const size_t maxParts = parallel ? std::max<size_t>(tuning.maxParts, 2) : 1;
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = StepTimer::cpuMilliseconds();

    struct Part {
        std::unique_ptr<TraceIngest> ingest;
        TraceIngest::Result result;
        size_t begin = 0, stopAt = SIZE_MAX;
        double seconds = 0;
    };
    std::vector<Part> parts(maxParts);
    std::mutex claimMutex;
    size_t claimed = 0, frontier = begin;
    bool frontierAtEnd = false;
    std::atomic<size_t> needed{maxParts}; // parts from this index on are not needed
    std::atomic<uint64_t> done{0};
    // The next part in file order, or SIZE_MAX when there is none left.
    const auto claim = [&]() -> size_t {
        std::lock_guard<std::mutex> lock(claimMutex);
        if (frontierAtEnd || claimed >= needed.load())
            return SIZE_MAX;
        const size_t i = claimed++;
        Part& part = parts[i];
        part.begin = frontier;
        const size_t left = size > frontier ? size - frontier : 0;
        const size_t want = std::max(minPart, left / 3);
        size_t closeEnd = 0, next = 0;
        if (i + 1 < maxParts && want + minPart / 2 < left &&
            trace::findElementBoundary(data, frontier + want, size, closeEnd, next)) {
            part.stopAt = frontier = next;
        } else {
            part.stopAt = SIZE_MAX;
            frontierAtEnd = true;
        }
        return i;
    };
    const auto work = [&](bool reportsProgress, size_t first) {
        TraceIngest* previous = nullptr;
        // Out of memory on one thread: the other stops within a chunk instead of parsing on to the end.
        const auto stopOthers = qScopeGuard([&, uncaught = std::uncaught_exceptions()] {
            if (std::uncaught_exceptions() > uncaught)
                needed = 0;
        });
        for (size_t i = first; i != SIZE_MAX; i = claim()) {
            Part& part = parts[i];
            part.ingest = std::make_unique<TraceIngest>(data, size, options);
            if (previous) // one parser and chunk buffer per thread; record blocks shared at part ends
                part.ingest->continueFrom(*previous);
            previous = part.ingest.get();
            part.result = part.ingest->run(part.begin, part.stopAt, [&](size_t bytes) {
                done += bytes;
                if (reportsProgress)
                    progress.update(0.85 * double(std::min<uint64_t>(done, span)) / double(span),
                                    QCoreApplication::translate("ChromeTraceLoader", "Reading events"));
                return i < needed.load() && !progress.cancelled();
            });
            part.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (part.result.stop != TraceIngest::Stop::ReachedStop) {
                size_t n = needed.load();
                while (i + 1 < n && !needed.compare_exchange_weak(n, i + 1)) {
                }
            }
        }
        if (previous)
            previous->releaseParseBuffers();
    };
    // The thread that reports progress takes the first part before the other starts: on a loaded machine
    // the other could otherwise take every part, and "Reading events" would never be reported.
    const size_t first = claim();
    if (parallel)
        runBoth(
            true, [&] { work(false, claim()); }, [&] { work(true, first); });
    else
        work(true, first);

    if (std::getenv("DSPARK_TRACE_TIMING")) {
        std::fprintf(stderr, "  parse: %zu parts, ended at", claimed);
        for (size_t i = 0; i < claimed; ++i)
            std::fprintf(stderr, " %.3f", parts[i].seconds);
        size_t records = 0, slices = 0, flows = 0;
        for (size_t i = 0; i < claimed; ++i)
            if (parts[i].ingest) {
                records += parts[i].ingest->recordBytes();
                slices += parts[i].ingest->slices.bytesUsed();
                flows += parts[i].ingest->flows.bytesUsed();
            }
        std::fprintf(stderr, " s; cpu %.1f ms; records %.1f MB (slices %.1f MB, flows %.1f MB)\n",
                     StepTimer::cpuMilliseconds() - cpu0, double(records) / 1e6, double(slices) / 1e6,
                     double(flows) / 1e6);
    }
    IngestOutcome out;
    for (size_t i = 0; i < claimed; ++i) {
        Part& part = parts[i];
        if (part.result.stop == TraceIngest::Stop::ReachedStop && i + 1 < claimed) {
            out.parts.push_back(std::move(part.ingest));
            continue;
        }
        if (part.result.stop == TraceIngest::Stop::ArrayEnd) {
            out.arrayEnd = part.result.arrayEnd;
            out.parts.push_back(std::move(part.ingest));
            return out;
        }
        // An error or a cancel.
        out.parts.clear();
        out.failed = part.result.stop != TraceIngest::Stop::Cancelled;
        out.cancelled = !out.failed;
        out.errorOffset = part.result.errorOffset;
        out.errorMessage = part.result.errorMessage;
        if (part.result.stop == TraceIngest::Stop::ReachedStop) // (the last part claimed: cannot happen)
            out.errorMessage = "the events array was not read to its end";
        return out;
    }
    out.cancelled = true; // (the first claim always succeeds)
    return out;
}

// Rank of a Kineto trace that does not say it: SGLang names files [prefix-]{id}-TP-{tp}[-DP-..].trace.json.gz;
// other tools write rank<N>.
std::optional<int> rankFromFileName(const std::string& path)
{
    const std::string name = std::filesystem::path(path).filename().string();
    static const std::regex tp(R"(-TP-(\d+))");
    static const std::regex rank(R"(rank[_-]?(\d+))", std::regex::icase);
    std::smatch m;
    if (std::regex_search(name, m, tp) || std::regex_search(name, m, rank)) {
        try {
            return std::stoi(m[1]);
        } catch (...) {
        }
    }
    return std::nullopt;
}

void warnTally(Profile& profile, const QString& path, const char* what, const trace::IssueTally& tally)
{
    if (tally.count == 0)
        return;
    QStringList examples;
    for (const std::string& e : tally.examples)
        examples.push_back(QString::fromStdString(e));
    profile.warn(QCoreApplication::translate("ChromeTraceLoader", what)
                     .arg(path)
                     .arg(tally.count)
                     .arg(examples.join(QStringLiteral("; "))));
}

// The file's bytes: the mapped file itself, or the inflated .gz (kept: args are read from it later).
struct TraceBytes {
    std::shared_ptr<const void> owner;  // keeps `data` alive
    const MappedFile* mapped = nullptr; // when reading the file itself (not an inflated .gz)
    const char* data = nullptr;
    size_t size = 0;
    int fd = -1; // chunks are read with pread() from it; -1: copied from the mapping
    TraceBytes() = default;
    TraceBytes(const TraceBytes&) = delete;
    TraceBytes& operator=(const TraceBytes&) = delete;
    ~TraceBytes()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

// Empty on success, else the file's error.
QString readBytes(const ScannedFile& file, const LoadProgress& progress, TraceBytes& out)
{
    const QString path = QString::fromStdString(file.path);
    std::string error;
    MappedFile mapped = MappedFile::open(file.path, error);
    if (!mapped.isOpen())
        return QCoreApplication::translate("ChromeTraceLoader", "%1: cannot be read (%2)")
            .arg(path, QString::fromStdString(error));
    if (looksGzipped(mapped.data(), mapped.size())) {
        progress.update(0.0, QCoreApplication::translate("ChromeTraceLoader", "Decompressing"));
        auto bytes = std::make_shared<HeapBytes>();
        const GunzipResult inflated = gunzip(mapped.data(), mapped.size(), simdjson::SIMDJSON_PADDING, *bytes, error);
        if (inflated == GunzipResult::TooLarge)
            return QCoreApplication::translate("ChromeTraceLoader", "%1: not loaded: %2")
                .arg(path, QString::fromStdString(error));
        if (inflated != GunzipResult::Ok)
            return QCoreApplication::translate("ChromeTraceLoader",
                                               "%1: the compressed file is damaged (%2); nothing was loaded")
                .arg(path, QString::fromStdString(error));
        out.data = bytes->data();
        out.size = bytes->size();
        out.owner = std::move(bytes);
        return {};
    }
    out.fd = ::open(file.path.c_str(), O_RDONLY | O_CLOEXEC);
    auto mappedFile = std::make_shared<MappedFile>(std::move(mapped));
    mappedFile->adviseSequential();
    out.mapped = mappedFile.get();
    out.data = mappedFile->data();
    out.size = mappedFile->size();
    out.owner = std::move(mappedFile);
    return {};
}

// The top level up to the events array: an array of events (Ascend) or {"traceEvents": [...], ...}
// (Kineto). Empty on success, else the file's error.
QString readHeader(const QString& path, const char* data, size_t size, TopLevel& top)
{
    size_t pos = size >= 3 && std::memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    pos = trace::skipJsonSpace(data, pos, size);
    if (pos >= size)
        return QCoreApplication::translate("ChromeTraceLoader", "%1: the file is empty").arg(path);
    if (data[pos] == '[') {
        top.eventsBegin = pos + 1;
        return {};
    }
    if (data[pos] != '{')
        return QCoreApplication::translate("ChromeTraceLoader",
                                           "%1: not JSON: byte %2 is neither '[' nor '{' (not a Chrome trace)")
            .arg(path)
            .arg(pos);
    top.isObject = true;
    ++pos;
    size_t errorOffset = 0;
    std::string error;
    const MembersEnd end = readMembers(data, size, pos, true, top, errorOffset, error);
    if (end == MembersEnd::Error)
        return QCoreApplication::translate("ChromeTraceLoader", "%1: malformed JSON at byte %2: %3")
            .arg(path)
            .arg(errorOffset)
            .arg(QString::fromStdString(error));
    if (end == MembersEnd::ObjectEnd)
        return QCoreApplication::translate(
                   "ChromeTraceLoader",
                   "%1: JSON, but not a Chrome trace (the top-level object has no \"traceEvents\" array)")
            .arg(path);
    return {};
}

// After the events array: the rest of the top-level object (Kineto puts distributedInfo there), or
// nothing but whitespace. What is wrong there is a warning: the events are loaded.
void readTrailer(const QString& path, const char* data, size_t size, size_t arrayEnd, TopLevel& top, Profile& profile)
{
    if (top.isObject) {
        size_t pos = arrayEnd + 1, errorOffset = 0;
        std::string error;
        if (readMembers(data, size, pos, false, top, errorOffset, error) == MembersEnd::Error)
            profile.warn(QCoreApplication::translate(
                             "ChromeTraceLoader",
                             "%1: the file is malformed after the events array, at byte %2 (%3); the events were "
                             "loaded")
                             .arg(path)
                             .arg(errorOffset)
                             .arg(QString::fromStdString(error)));
        return;
    }
    const size_t pos = trace::skipJsonSpace(data, arrayEnd + 1, size);
    if (pos < size)
        profile.warn(QCoreApplication::translate("ChromeTraceLoader",
                                                 "%1: data after the end of the events array (byte %2) was ignored")
                         .arg(path)
                         .arg(pos));
}

// What the parts skipped or repaired, over the whole file.
struct IngestIssues {
    uint64_t elements = 0, traceEvents = 0;
    trace::IssueTally missingTs, missingPh, unknownPh, notObject, negativeDuration, badNumber, badFlow, invalidUtf8;

    explicit IngestIssues(const std::vector<std::unique_ptr<TraceIngest>>& parts)
    {
        for (const auto& part : parts) {
            elements += part->elements;
            traceEvents += part->traceEvents;
            missingTs.merge(part->missingTs);
            missingPh.merge(part->missingPh);
            unknownPh.merge(part->unknownPh);
            notObject.merge(part->notObject);
            negativeDuration.merge(part->negativeDuration);
            badNumber.merge(part->badNumber);
            badFlow.merge(part->badFlow);
            invalidUtf8.merge(part->invalidUtf8);
        }
    }
    void warn(Profile& profile, const QString& path) const
    {
        warnTally(profile, path,
                  QT_TRANSLATE_NOOP("ChromeTraceLoader", "%1: %2 events without \"ts\" were skipped (%3)"), missingTs);
        warnTally(profile, path,
                  QT_TRANSLATE_NOOP("ChromeTraceLoader", "%1: %2 events without \"ph\" were skipped (%3)"), missingPh);
        warnTally(profile, path,
                  QT_TRANSLATE_NOOP("ChromeTraceLoader", "%1: %2 events with an unsupported phase were skipped (%3)"),
                  unknownPh);
        warnTally(profile, path,
                  QT_TRANSLATE_NOOP("ChromeTraceLoader",
                                    "%1: %2 elements of the events array are not objects and were skipped (%3)"),
                  notObject);
        warnTally(
            profile, path,
            QT_TRANSLATE_NOOP("ChromeTraceLoader", "%1: %2 slices with a negative duration were clamped to 0 (%3)"),
            negativeDuration);
        warnTally(profile, path,
                  QT_TRANSLATE_NOOP("ChromeTraceLoader", "%1: %2 unreadable timestamps or durations (%3)"), badNumber);
        warnTally(profile, path,
                  QT_TRANSLATE_NOOP("ChromeTraceLoader", "%1: %2 flow events without an id were skipped (%3)"),
                  badFlow);
        warnTally(profile, path,
                  QT_TRANSLATE_NOOP("ChromeTraceLoader",
                                    "%1: invalid UTF-8 was replaced by '?' in %2 parts of the file (%3)"),
                  invalidUtf8);
    }
};

// Rank: Kineto says it in distributedInfo (else the file name tells); Ascend files belong to the
// rank of their profiler_info_<rank>.json (the scanner found it).
int rankOf(const ScannedFile& file, const TopLevel& top)
{
    int rank = file.rankNumber >= 0 ? file.rankNumber : 0;
    if (top.isObject) {
        if (top.distributedRank)
            rank = *top.distributedRank;
        else if (const std::optional<int> fromName = rankFromFileName(file.path))
            rank = *fromName;
    }
    return rank;
}

} // namespace

QString loadChromeTrace(const ScannedFile& file, Profile& profile, const LoadProgress& progress,
                        const LoadOptions& options)
{
    const QString path = QString::fromStdString(file.path);
    TraceBytes bytes;
    if (const QString e = readBytes(file, progress, bytes); !e.isEmpty())
        return e;
    TopLevel top;
    if (const QString e = readHeader(path, bytes.data, bytes.size, top); !e.isEmpty())
        return e;

    // ts / dur are µs whatever displayTimeUnit says (it only sets how a viewer labels times: formats.md §3).
    const int scaleDigits = 3;
    IngestOutcome ingest =
        ingestEvents(bytes.data, bytes.size, top.eventsBegin, scaleDigits, bytes.mapped, bytes.fd, progress, options);
    if (ingest.cancelled)
        return QCoreApplication::translate("ChromeTraceLoader", "Loading cancelled");
    if (ingest.failed)
        return QCoreApplication::translate("ChromeTraceLoader", "%1: malformed JSON at byte %2: %3; nothing was loaded")
            .arg(path)
            .arg(ingest.errorOffset)
            .arg(QString::fromStdString(ingest.errorMessage));
    readTrailer(path, bytes.data, bytes.size, ingest.arrayEnd, top, profile);

    const IngestIssues issues(ingest.parts);
    if (issues.elements > 0 && issues.traceEvents == 0)
        return QCoreApplication::translate(
                   "ChromeTraceLoader",
                   "%1: JSON, but not a Chrome trace: none of its %2 array elements is a trace event (an object "
                   "with \"ph\" and \"ts\")")
            .arg(path)
            .arg(issues.elements);

    if (top.displayTimeUnit == "ns" || top.displayTimeUnit == "ms") // the Trace Event Format's two values
        profile.metadata["trace.displayTimeUnit"] = *top.displayTimeUnit;

    progress.update(0.87, QCoreApplication::translate("ChromeTraceLoader", "Building lanes"));
    const ArgsSourceId source =
        profile.addArgsSource(std::make_unique<trace::TraceArgsSource>(bytes.owner, bytes.data, bytes.size));
    if (source == 0)
        profile.warn(QCoreApplication::translate("ChromeTraceLoader",
                                                 "%1: event arguments not kept (more than %2 files in one profile)")
                         .arg(QString::fromStdString(file.path))
                         .arg(kMaxArgsSources));
    std::vector<TraceIngest*> parts;
    for (const auto& part : ingest.parts)
        parts.push_back(part.get());
    trace::TraceBuilder builder(profile,
                                {rankOf(file, top), source, file.path, options.threads, options.trace, top.isObject});
    const trace::TraceBuilder::Summary summary = builder.build(parts);
    ingest.parts.clear();

    issues.warn(profile, path);
    for (const QString& w : summary.warnings)
        profile.warn(w);
    progress.update(1.0);
    return {};
}

} // namespace dspark
