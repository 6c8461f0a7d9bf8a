#include "io/FileRecognition.h"

#include "io/db/SqliteDatabase.h"

#include <QCoreApplication>
#include <QStringList>

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

namespace fs = std::filesystem;

namespace dspark {

namespace {

constexpr size_t kPlainHeadBytes = 16384; // of an uncompressed file
constexpr size_t kGzipReadBytes = 16384;  // compressed bytes read of a .gz to inflate its head
constexpr size_t kFingerprintBytes = 1024;

std::string readBytes(const std::string& path, size_t bytes)
{
    std::ifstream in(path, std::ios::binary);
    std::string buf(bytes, '\0');
    in.read(buf.data(), static_cast<std::streamsize>(bytes));
    buf.resize(static_cast<size_t>(std::max<std::streamsize>(in.gcount(), 0)));
    return buf;
}

bool isGzip(const std::string& head)
{
    return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
           static_cast<unsigned char>(head[1]) == 0x8b;
}

// Inflates `compressed` (the start of a gzip stream) up to `maxOut` bytes; a cut stream is fine.
std::string inflateHead(const std::string& compressed, size_t maxOut)
{
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 32) != Z_OK)
        return {};
    std::string out(maxOut, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
    zs.avail_in = static_cast<uInt>(compressed.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    while (zs.avail_out > 0) {
        const int rc = inflate(&zs, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) { // a next member may follow (concatenated .gz)
            if (zs.avail_in == 0 || inflateReset(&zs) != Z_OK)
                break;
            continue;
        }
        if (rc != Z_OK)
            break;
        if (zs.avail_in == 0)
            break;
    }
    out.resize(out.size() - zs.avail_out);
    inflateEnd(&zs);
    return out;
}

// ---- a bounded look at a JSON document --------------------------------------------------------

size_t skipSpace(const std::string& t, size_t pos)
{
    while (pos < t.size() && (t[pos] == ' ' || t[pos] == '\t' || t[pos] == '\r' || t[pos] == '\n'))
        ++pos;
    return pos;
}

// End of the string starting at `pos` (a '"'), past its closing quote; npos when cut.
size_t skipString(const std::string& t, size_t pos)
{
    for (size_t i = pos + 1; i < t.size(); ++i) {
        if (t[i] == '\\')
            ++i;
        else if (t[i] == '"')
            return i + 1;
    }
    return std::string::npos;
}

// End of the value starting at `pos`; npos when the head ends inside it (or it is malformed).
size_t skipValue(const std::string& t, size_t pos)
{
    if (pos >= t.size())
        return std::string::npos;
    if (t[pos] == '"')
        return skipString(t, pos);
    if (t[pos] == '{' || t[pos] == '[') {
        int depth = 0;
        for (size_t i = pos; i < t.size(); ++i) {
            const char c = t[i];
            if (c == '"') {
                i = skipString(t, i);
                if (i == std::string::npos)
                    return i;
                --i;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (--depth == 0)
                    return i + 1;
            }
        }
        return std::string::npos;
    }
    size_t i = pos;
    while (i < t.size() && std::strchr(",}] \t\r\n", t[i]) == nullptr)
        ++i;
    return i < t.size() ? i : std::string::npos;
}

struct ObjectPeek {
    std::vector<std::string> keys;            // in order, as far as the head goes
    std::map<std::string, std::string> value; // raw text of the values read whole
    size_t end = std::string::npos;           // past the closing '}', npos when cut
    bool has(const char* key) const { return std::find(keys.begin(), keys.end(), key) != keys.end(); }
};

// The members of the object at `pos` (a '{'). Keys are taken as written (no unescaping needed here).
ObjectPeek peekObject(const std::string& t, size_t pos)
{
    ObjectPeek out;
    pos = skipSpace(t, pos + 1);
    while (pos < t.size()) {
        if (t[pos] == '}') {
            out.end = pos + 1;
            return out;
        }
        if (t[pos] == ',')
            pos = skipSpace(t, pos + 1);
        if (pos >= t.size() || t[pos] != '"')
            return out;
        const size_t keyEnd = skipString(t, pos);
        if (keyEnd == std::string::npos)
            return out;
        std::string key = t.substr(pos + 1, keyEnd - pos - 2);
        pos = skipSpace(t, keyEnd);
        if (pos >= t.size() || t[pos] != ':')
            return out;
        pos = skipSpace(t, pos + 1);
        out.keys.push_back(key);
        const size_t valueEnd = skipValue(t, pos);
        if (valueEnd == std::string::npos)
            return out;
        if (valueEnd - pos <= 4096)
            out.value[key] = t.substr(pos, valueEnd - pos);
        pos = skipSpace(t, valueEnd);
    }
    return out;
}

std::optional<int> smallInt(const ObjectPeek& o, const char* key)
{
    const auto it = o.value.find(key);
    if (it == o.value.end() || it->second.empty() || it->second.size() > 9)
        return std::nullopt;
    int v = 0;
    for (char c : it->second) {
        if (c < '0' || c > '9')
            return std::nullopt;
        v = v * 10 + (c - '0');
    }
    return v;
}

// "rank": N inside the raw text of a small object value (distributedInfo).
std::optional<int> rankInside(const ObjectPeek& o, const char* key)
{
    const auto it = o.value.find(key);
    if (it == o.value.end() || it->second.empty() || it->second[0] != '{')
        return std::nullopt;
    return smallInt(peekObject(it->second, 0), "rank");
}

bool isStepKey(const std::string& key)
{
    return key.size() > 4 && key.compare(0, 4, "step") == 0 &&
           std::all_of(key.begin() + 4, key.end(), [](char c) { return c >= '0' && c <= '9'; });
}

const char* const kEnvelopeKeys[] = {"mode", "gamma", "verify_num_draft_tokens", "components", "simulate_acc_len"};

bool hasEnvelopeKey(const ObjectPeek& o)
{
    return std::any_of(std::begin(kEnvelopeKeys), std::end(kEnvelopeKeys), [&](const char* k) { return o.has(k); });
}

QString keyList(const std::vector<std::string>& keys)
{
    QStringList out;
    for (size_t i = 0; i < keys.size() && i < 5; ++i)
        out << QString::fromStdString(keys[i]);
    if (keys.size() > 5)
        out << QStringLiteral("…");
    return out.join(QStringLiteral(", "));
}

Recognition recognizeObject(const std::string& t, size_t pos, const std::string& name, const QString& path)
{
    Recognition r;
    const ObjectPeek o = peekObject(t, pos);
    const size_t next = o.end == std::string::npos ? std::string::npos : skipSpace(t, o.end);
    const bool jsonLines = next != std::string::npos && next < t.size() && t[next] == '{';
    if (jsonLines) {
        const ObjectPeek second = peekObject(t, next);
        if (o.has("forward_ct") || second.has("forward_ct") || hasEnvelopeKey(o) || o.has("internal_states")) {
            const bool sps = o.has("step_time") && !o.has("bs") && !o.has("mode");
            r.format =
                sps || name.ends_with(".records.jsonl") ? FileFormat::SpsRecordsJsonl : FileFormat::StepRecordsJsonl;
            return r;
        }
    } else if (o.has("traceEvents")) {
        r.format = FileFormat::KinetoJson;
        r.rank = rankInside(o, "distributedInfo");
        return r;
    } else if (o.has("internal_states")) {
        r.format = FileFormat::ServerInfoJson;
        return r;
    } else if (o.has("records") && (hasEnvelopeKey(o) || t.find("\"forward_ct\"") != std::string::npos)) {
        r.format = FileFormat::DsparkRecordJson;
        return r;
    } else if (o.has("forward_ct")) {
        r.format = FileFormat::StepRecordsJsonl; // one record on its own
        return r;
    } else if (o.has("config") && (o.has("start_info") || o.has("end_info") || o.has("rank_id"))) {
        r.format = FileFormat::ProfilerInfoJson;
        r.rank = smallInt(o, "rank_id");
        return r;
    } else if (o.has("ENV_VARIABLES") || name == "profiler_metadata.json") {
        r.format = FileFormat::ProfilerMetadataJson;
        return r;
    } else if (!o.keys.empty() && isStepKey(o.keys.front()) &&
               (t.find("\"Communication Time Info\"") != std::string::npos ||
                t.find("\"Communication Bandwidth Info\"") != std::string::npos)) {
        r.format = FileFormat::CommunicationJson;
        r.reason =
            QCoreApplication::translate("FileRecognition",
                                        "%1: a communication summary (communication.json), not a timeline; not loaded")
                .arg(path)
                .toStdString();
        return r;
    } else if (o.end == std::string::npos && (o.has("model_path") || o.has("tp_size"))) {
        // /server_info puts the server arguments first: internal_states may lie beyond the look.
        r.format = FileFormat::ServerInfoJson;
        return r;
    } else if (o.end == std::string::npos && (o.has("schemaVersion") || o.has("deviceProperties"))) {
        // A Kineto header longer than the look (traceEvents further on): the loader checks the rest.
        r.format = FileFormat::KinetoJson;
        r.rank = rankInside(o, "distributedInfo");
        return r;
    }
    r.nearMiss = true;
    r.reason = QCoreApplication::translate(
                   "FileRecognition",
                   "%1: JSON, but not profiler output (no traceEvents, internal_states or DSpark records; top-level "
                   "keys: %2)")
                   .arg(path, keyList(o.keys))
                   .toStdString();
    return r;
}

Recognition recognizeJson(const std::string& t, const std::string& name, const QString& path)
{
    Recognition r;
    size_t pos = t.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    pos = skipSpace(t, pos);
    if (pos < t.size() && t[pos] == '{')
        return recognizeObject(t, pos, name, path);
    // A top-level array: trace events (Ascend) or a list of step records.
    pos = skipSpace(t, pos + 1);
    if (pos < t.size() && t[pos] == '{') {
        const ObjectPeek first = peekObject(t, pos);
        if (first.has("ph")) {
            r.format = name.starts_with("msprof_") ? FileFormat::MsprofJson : FileFormat::TraceViewJson;
            return r;
        }
        if (first.has("forward_ct")) {
            r.format = FileFormat::DsparkRecordJson;
            return r;
        }
    }
    if (pos < t.size() && t[pos] == ']' && name == "trace_view.json") {
        r.format = FileFormat::TraceViewJson; // an empty export: the loader says so
        return r;
    }
    r.nearMiss = true;
    r.reason = QCoreApplication::translate("FileRecognition",
                                           "%1: a JSON array, but not trace events (its first element has no \"ph\")")
                   .arg(path)
                   .toStdString();
    return r;
}

// A CSV export of a profiler (kernel_details.csv, op_summary_*.csv, step_trace_time.csv, ...): a header
// of several columns among which a time in µs or a step column.
bool isProfilerCsvHeader(const std::string& t)
{
    const size_t eol = t.find('\n');
    if (eol == std::string::npos)
        return false;
    std::string line = t.substr(t.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0, eol);
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
    std::vector<std::string> fields;
    size_t start = 0;
    for (size_t i = 0; i <= line.size(); ++i)
        if (i == line.size() || line[i] == ',') {
            fields.push_back(line.substr(start, i - start));
            start = i + 1;
        }
    if (fields.size() < 3)
        return false;
    return std::any_of(fields.begin(), fields.end(), [](const std::string& f) {
        return f.ends_with("(us)") || f.ends_with("(ns)") || f == "Step" || f == "Step Id";
    });
}

FileFormat dbFormatByName(const std::string& name)
{
    return name.starts_with("ascend_pytorch_profiler") ? FileFormat::TorchNpuDb : FileFormat::MsprofDb;
}

// `image`: the file's bytes when they are held in memory (ScannedFile::image), else null.
Recognition recognizeSqlite(const std::string& path, const std::string& name, std::string_view image = {})
{
    Recognition r;
    db::SqliteDatabase database;
    if (!(image.data() ? database.openImage(image) : database.open(path)) || !database.readSchema()) {
        r.format = dbFormatByName(name); // the database loader says what is wrong with it
        return r;
    }
    static const char* const timelineTables[] = {"TASK",        "CANN_API",  "PYTORCH_API",      "COMMUNICATION_OP",
                                                 "MSTX_EVENTS", "STEP_TIME", "OVERLAP_ANALYSIS", "GC_RECORD"};
    if (std::any_of(std::begin(timelineTables), std::end(timelineTables),
                    [&](const char* t) { return database.hasTable(t); })) {
        r.format = database.hasTable("PYTORCH_API") ? FileFormat::TorchNpuDb : FileFormat::MsprofDb;
        return r;
    }
    const QString qpath = QString::fromStdString(path);
    if (database.hasTable("StepTraceTime") || database.hasTable("CommAnalyzerTime") ||
        database.hasTable("CommAnalyzerBandwidth")) {
        r.format = FileFormat::AnalysisDb;
        r.reason = QCoreApplication::translate(
                       "FileRecognition",
                       "%1: a torch_npu analysis database (step and communication summaries), not a timeline; not "
                       "loaded")
                       .arg(qpath)
                       .toStdString();
        return r;
    }
    const int tables = static_cast<int>(database.tableCount()); // a plain name: lupdate skips casts in the count
    r.nearMiss = true;
    r.reason = QCoreApplication::translate("FileRecognition",
                                           "%1: an SQLite database, but not profiler output (no profiler tables: none "
                                           "of TASK, CANN_API, PYTORCH_API, COMMUNICATION_OP, MSTX_EVENTS; the "
                                           "database has %n table(s))",
                                           nullptr, tables)
                   .arg(qpath)
                   .toStdString();
    return r;
}

constexpr uint64_t kFnvBasis = 1469598103934665603ull;

uint64_t fnv1a(const char* data, size_t size, uint64_t h = kFnvBasis)
{
    for (size_t i = 0; i < size; ++i)
        h = (h ^ static_cast<unsigned char>(data[i])) * 1099511628211ull;
    return h;
}

// A name that promises a trace: when the content does not decide (a cut head, a damaged or huge .gz),
// the trace loader reads the file and says what is wrong with it.
FileFormat traceFormatByName(const std::string& name)
{
    if (name == "trace_view.json")
        return FileFormat::TraceViewJson;
    if (name.starts_with("msprof_") && name.ends_with(".json"))
        return FileFormat::MsprofJson;
    if (name.ends_with(".trace.json") || name.ends_with(".trace.json.gz"))
        return FileFormat::KinetoJson;
    if (name.ends_with(".records.jsonl")) // dspark_sps_profiler's output: the records loader says what is wrong
        return FileFormat::SpsRecordsJsonl;
    return FileFormat::Unknown;
}

Recognition recognizeContent(const std::string& path, const std::string& name);

} // namespace

Recognition recognizeDatabaseImage(const std::string& path, std::string_view image)
{
    const std::string name = fs::path(path).filename().string();
    if (image.size() >= 16 && std::memcmp(image.data(), "SQLite format 3", 16) == 0)
        return recognizeSqlite(path, name, image);
    return {dbFormatByName(name), std::nullopt, {}, false}; // the loader says what is wrong with it
}

Recognition recognizeFile(const std::string& path)
{
    const std::string name = fs::path(path).filename().string();
    Recognition r = recognizeContent(path, name);
    if (r.format == FileFormat::Unknown && traceFormatByName(name) != FileFormat::Unknown)
        r = {traceFormatByName(name), std::nullopt, {}, false};
    return r;
}

namespace {

Recognition recognizeContent(const std::string& path, const std::string& name)
{
    const QString qpath = QString::fromStdString(path);
    std::string head = readBytes(path, kPlainHeadBytes);
    Recognition r;
    if (head.size() >= 16 && std::memcmp(head.data(), "SQLite format 3", 16) == 0)
        return recognizeSqlite(path, name);
    if (name.ends_with(".db")) {
        r.format = dbFormatByName(name); // empty, cut or not SQLite at all: the loader says which
        return r;
    }
    const bool gzip = isGzip(head);
    if (gzip)
        head = inflateHead(head.substr(0, kGzipReadBytes), kRecognitionInflateBytes);
    size_t pos = skipSpace(head, head.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0);
    if (pos < head.size() && (head[pos] == '{' || head[pos] == '[')) {
        r = recognizeJson(head, name, qpath);
        if (gzip && r.format != FileFormat::KinetoJson && r.format != FileFormat::TraceViewJson &&
            r.format != FileFormat::MsprofJson && r.format != FileFormat::Unknown) {
            r = {}; // only traces are read compressed
            r.nearMiss = true;
            r.reason = QCoreApplication::translate(
                           "FileRecognition",
                           "%1: gzip-compressed DSpark or profiler JSON other than a trace is not read; decompress "
                           "it first")
                           .arg(qpath)
                           .toStdString();
        }
        return r;
    }
    if (gzip) {
        r.nearMiss = true;
        r.reason = QCoreApplication::translate("FileRecognition", "%1: gzip-compressed, but not a JSON trace")
                       .arg(qpath)
                       .toStdString();
        return r;
    }
    if (isProfilerCsvHeader(head)) {
        r.format = FileFormat::ProfilerCsv;
        r.reason = QCoreApplication::translate("FileRecognition",
                                               "%1: a profiler summary table (CSV), not a timeline; not loaded")
                       .arg(qpath)
                       .toStdString();
        return r;
    }
    r.reason = QCoreApplication::translate("FileRecognition", "%1: not a profiler file").arg(qpath).toStdString();
    return r;
}

} // namespace

ContentFingerprint contentFingerprint(const std::string& path, bool withTail)
{
    ContentFingerprint fp;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fp;
    std::error_code ec;
    const uint64_t fileSize = fs::file_size(path, ec);
    if (ec)
        return fp;
    const std::string head = readBytes(path, kGzipReadBytes);
    if (!isGzip(head)) {
        fp.size = withTail ? fileSize : fileSize & 0xffffffffu; // as a .gz's ISIZE in the cheap round
        fp.headHash = fnv1a(head.data(), std::min(head.size(), kFingerprintBytes));
        if (withTail) { // every byte: two files alike at both ends may differ inside
            std::vector<char> buf(1 << 16);
            uint64_t h = kFnvBasis;
            while (in) {
                in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
                h = fnv1a(buf.data(), static_cast<size_t>(in.gcount()), h);
            }
            fp.bodyHash = h;
        }
        fp.valid = true;
        return fp;
    }
    const std::string inflated = inflateHead(head, kFingerprintBytes);
    fp.headHash = fnv1a(inflated.data(), inflated.size());
    if (!withTail) { // ISIZE: the length mod 2^32, compared as such in the cheap round
        if (fileSize < 4)
            return fp;
        in.seekg(static_cast<std::streamoff>(fileSize - 4));
        unsigned char isize[4] = {};
        in.read(reinterpret_cast<char*>(isize), 4);
        fp.size = uint64_t(isize[0]) | uint64_t(isize[1]) << 8 | uint64_t(isize[2]) << 16 | uint64_t(isize[3]) << 24;
        fp.valid = true;
        return fp;
    }
    // The whole stream, hashed: only for files whose cheap fingerprints already agree.
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 32) != Z_OK)
        return fp;
    in.clear();
    in.seekg(0);
    std::vector<char> input(1 << 16), output(1 << 16);
    uint64_t hash = kFnvBasis;
    uint64_t total = 0;
    int rc = Z_OK;
    while (rc != Z_STREAM_END && in) {
        in.read(input.data(), static_cast<std::streamsize>(input.size()));
        zs.next_in = reinterpret_cast<Bytef*>(input.data());
        zs.avail_in = static_cast<uInt>(in.gcount());
        if (zs.avail_in == 0)
            break;
        while (zs.avail_in > 0) {
            zs.next_out = reinterpret_cast<Bytef*>(output.data());
            zs.avail_out = static_cast<uInt>(output.size());
            rc = inflate(&zs, Z_NO_FLUSH);
            if (rc != Z_OK && rc != Z_STREAM_END) {
                inflateEnd(&zs);
                return fp;
            }
            const size_t got = output.size() - zs.avail_out;
            total += got;
            hash = fnv1a(output.data(), got, hash);
            if (rc == Z_STREAM_END)
                break;
        }
    }
    inflateEnd(&zs);
    fp.size = total;
    fp.bodyHash = hash;
    fp.valid = true;
    return fp;
}

} // namespace dspark
