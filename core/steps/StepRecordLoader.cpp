#include "steps/StepRecordLoader.h"

#include "steps/StepRecords.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using nlohmann::json;

// Shapes (formats.md §4, sglang dspark_observability.py / dspark_sps_profiler):
//  1. GET /server_info: {"internal_states": [{"dspark_info_record": {mode, gamma, verify_num_draft_tokens,
//     components, records: [...]}}, ...]}, one entry per DP rank → rank = index.
//  2. a dspark_info_record object on its own ({"records": [...], ...}).
//  3. JSON Lines: one DecodeStepRecord per line, optionally an envelope line; dspark_sps_profiler
//     rows {forward_ct, num_running_reqs, num_verify_tokens, step_time (seconds)}.

namespace dspark {

namespace {

// Collects the problems of one file; the first few are reported one by one, the rest counted.
class FileProblems {
public:
    FileProblems(const std::string& path, Profile& profile) : m_path(QString::fromStdString(path)), m_profile(profile)
    {
    }
    ~FileProblems()
    {
        if (m_suppressed > 0)
            m_profile.warn(QCoreApplication::translate("StepRecordLoader", "%1: %n more problem(s) not listed", nullptr,
                                                       m_suppressed)
                               .arg(m_path));
    }
    void add(const QString& where, const QString& what)
    {
        if (m_capture) {
            m_capture->push_back({where, what});
            return;
        }
        if (m_first.isEmpty())
            m_first = where.isEmpty() ? what : where + QStringLiteral(": ") + what;
        if (m_reported < kMaxListed) {
            m_profile.warn(m_path + (where.isEmpty() ? QString() : QStringLiteral(": ") + where) +
                           QStringLiteral(": ") + what);
            ++m_reported;
        } else {
            ++m_suppressed;
        }
    }
    const QString& first() const { return m_first; } // the first problem, "" when none
    // While set, problems are only appended to `capture` (to be added later, in document order).
    void capture(std::vector<std::pair<QString, QString>>* capture) { m_capture = capture; }

private:
    static constexpr int kMaxListed = 20;
    QString m_path;
    Profile& m_profile;
    QString m_first;
    int m_reported = 0;
    int m_suppressed = 0;
    std::vector<std::pair<QString, QString>>* m_capture = nullptr;
};

// Where a record sits, for messages: "line 12" or "internal_states[0].records[3]".
struct Place {
    QString text;
};

// Integer field: absent, null and (for msgspec int defaults) -1 are "not recorded".
std::optional<int64_t> intField(const json& obj, const char* key, bool minusOneIsUnset, FileProblems& problems,
                                const Place& where)
{
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        return std::nullopt;
    std::optional<int64_t> v;
    if (it->is_number_integer())
        v = it->get<int64_t>();
    else if (it->is_number_float()) {
        const double d = it->get<double>();
        if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 9.0e15)
            v = static_cast<int64_t>(d);
    }
    if (!v) {
        problems.add(where.text,
                     QCoreApplication::translate("StepRecordLoader", "%1 is not an integer (%2); taken as not recorded")
                         .arg(QLatin1String(key), QString::fromStdString(it->dump()).left(40)));
        return std::nullopt;
    }
    if (minusOneIsUnset && *v == -1)
        return std::nullopt;
    return v;
}

std::optional<double> realField(const json& obj, const char* key, FileProblems& problems, const Place& where)
{
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        return std::nullopt;
    if (!it->is_number()) {
        problems.add(where.text,
                     QCoreApplication::translate("StepRecordLoader", "%1 is not a number (%2); taken as not recorded")
                         .arg(QLatin1String(key), QString::fromStdString(it->dump()).left(40)));
        return std::nullopt;
    }
    return it->get<double>();
}

std::string stringField(const json& obj, const char* key)
{
    const auto it = obj.find(key);
    return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool looksLikeEnvelope(const json& obj)
{
    return obj.contains("gamma") || obj.contains("verify_num_draft_tokens") || obj.contains("components") ||
           obj.contains("records") || obj.contains("simulate_acc_len");
}

void readEnvelope(const json& obj, StepRecordEnvelope& env, FileProblems& problems, const Place& where)
{
    env.present = true;
    if (const std::string mode = stringField(obj, "mode"); !mode.empty())
        env.mode = mode;
    if (auto g = intField(obj, "gamma", false, problems, where))
        env.gamma = g;
    if (auto v = intField(obj, "verify_num_draft_tokens", false, problems, where))
        env.verifyNumDraftTokens = v;
    if (const auto it = obj.find("components"); it != obj.end() && it->is_array()) {
        env.components.clear();
        for (const json& c : *it)
            if (c.is_string())
                env.components.push_back(c.get<std::string>());
    }
    if (const auto it = obj.find("simulate_acc_len"); it != obj.end() && !it->is_null())
        env.simulateAccLen = it->dump();
}

void readRequests(const json& arr, StepRecord& record, FileProblems& problems, const Place& where)
{
    if (arr.is_null())
        return;
    if (!arr.is_array()) {
        problems.add(where.text,
                     QCoreApplication::translate("StepRecordLoader", "reqs is not a list; taken as not recorded"));
        return;
    }
    std::vector<StepRequest> reqs;
    reqs.reserve(arr.size());
    for (size_t i = 0; i < arr.size(); ++i) {
        const json& q = arr[i];
        const Place at{where.text + QStringLiteral(" reqs[%1]").arg(i)};
        if (!q.is_object()) {
            problems.add(at.text, QCoreApplication::translate("StepRecordLoader", "not an object; skipped"));
            continue;
        }
        StepRequest r;
        r.reqPoolIndex = intField(q, "req_pool_index", false, problems, at);
        r.prefixLen = intField(q, "prefix_len", false, problems, at);
        r.verifyLen = intField(q, "verify_len", false, problems, at);
        r.accLen = intField(q, "acc_len", false, problems, at);
        r.correctDrafts = intField(q, "correct_drafts", false, problems, at);
        r.capTrim = intField(q, "cap_trim", false, problems, at);
        r.bonusToken = intField(q, "bonus_token", false, problems, at);
        if (const auto it = q.find("draft_tokens"); it != q.end() && it->is_array())
            r.draftTokenCount = static_cast<int64_t>(it->size());
        r.rid = stringField(q, "rid");
        reqs.push_back(std::move(r));
    }
    record.reqs = std::move(reqs);
}

// One DecodeStepRecord (or dspark_sps_profiler row). Returns false when it cannot be used.
bool readRecord(const json& obj, StepRecord& r, FileProblems& problems, const Place& where)
{
    if (!obj.is_object()) {
        problems.add(where.text, QCoreApplication::translate("StepRecordLoader", "not a JSON object; skipped"));
        return false;
    }
    const auto fct = obj.find("forward_ct");
    if (fct == obj.end() || !fct->is_number_integer()) {
        problems.add(where.text,
                     fct == obj.end()
                         ? QCoreApplication::translate("StepRecordLoader", "no forward_ct; skipped")
                         : QCoreApplication::translate("StepRecordLoader", "forward_ct is not an integer; skipped"));
        return false;
    }
    r.forwardCt = fct->get<int64_t>();
    r.bs = intField(obj, "bs", true, problems, where);
    r.mode = stringField(obj, "mode");
    r.budget = intField(obj, "budget", false, problems, where);
    r.lagSteps = intField(obj, "lag_steps", false, problems, where);
    r.numRunningReqs = intField(obj, "num_running_reqs", true, problems, where);
    r.numVerifyTokens = intField(obj, "num_verify_tokens", true, problems, where);
    r.verifyTokensLocal = intField(obj, "verify_tokens_local", true, problems, where);
    r.verifyTokensDpSynced = intField(obj, "verify_tokens_dp_synced", true, problems, where);
    r.verifyTokensGraphKey = intField(obj, "verify_tokens_graph_key", true, problems, where);
    r.predictedStepMs = realField(obj, "predicted_step_ms", problems, where);
    r.predictedTheta = realField(obj, "predicted_theta", problems, where);
    r.stepCpuMs = realField(obj, "step_cpu_ms", problems, where);
    r.stepGpuMs = realField(obj, "step_gpu_ms", problems, where);
    r.draftGpuMs = realField(obj, "draft_gpu_ms", problems, where);
    r.targetVerifyGpuMs = realField(obj, "target_verify_gpu_ms", problems, where);
    if (!r.stepCpuMs && obj.contains("step_time")) {
        // dspark_sps_profiler: step_time is the host monotonic interval in seconds, the same clock as
        // step_cpu_ms. Kept to the nanosecond. Note the profiler files the interval under the earlier
        // forward_ct of the pair, DecodeStepRecord under the later one; values are kept as written.
        if (const auto s = realField(obj, "step_time", problems, where)) {
            r.stepCpuMs = std::round(*s * 1e9) / 1e6;
            r.stepCpuFromSps = true;
        }
    }
    if (const auto it = obj.find("reqs"); it != obj.end())
        readRequests(*it, r, problems, where);
    return true;
}

// The rank of a records file that does not say it: "..._dp1.jsonl", "rank2.json", else the scanner's.
int rankFromFileName(const ScannedFile& file)
{
    static const std::regex pattern(R"((?:^|[^a-z0-9])(?:dp_rank|dp|rank)[_-]?(\d{1,4})(?:[^0-9]|$))",
                                    std::regex::icase);
    const std::string name = fs::path(file.path).filename().string();
    std::smatch m;
    if (std::regex_search(name, m, pattern))
        return std::stoi(m[1]);
    return file.rank >= 0 ? file.rank : 0;
}

// Adds records to a rank, skipping forward_ct values that rank already holds.
class RankSink {
public:
    RankSink(StepRecordSet& set, const ScannedFile& file, FileProblems& problems)
        : m_set(set), m_file(file), m_problems(problems)
    {
    }
    ~RankSink()
    {
        for (const auto& [rank, count] : m_duplicates)
            m_problems.add(QString(), QCoreApplication::translate(
                                          "StepRecordLoader",
                                          "%n record(s) of rank %1 repeat a forward_ct already loaded; skipped (the "
                                          "first is kept)",
                                          nullptr, count)
                                          .arg(rank));
    }
    RankStepRecords& rank(int r)
    {
        RankStepRecords& rr = m_set.rankRecords(r);
        if (m_seen.find(r) == m_seen.end()) {
            auto& seen = m_seen[r];
            for (const StepRecord& rec : rr.records)
                seen.insert(rec.forwardCt);
            if (std::find(rr.sources.begin(), rr.sources.end(), m_file.path) == rr.sources.end())
                rr.sources.push_back(m_file.path);
        }
        return rr;
    }
    void add(int r, StepRecord&& record)
    {
        RankStepRecords& rr = rank(r);
        if (!m_seen[r].insert(record.forwardCt).second) {
            ++m_duplicates[r];
            return;
        }
        rr.records.push_back(std::move(record));
        ++m_added;
    }
    size_t added() const { return m_added; }

private:
    StepRecordSet& m_set;
    const ScannedFile& m_file;
    FileProblems& m_problems;
    std::map<int, std::set<int64_t>> m_seen;
    std::map<int, int> m_duplicates;
    size_t m_added = 0;
};

// Records read while the document was parsed (RecordStreamer), with the problems they had.
struct StreamedRecords {
    std::vector<StepRecord> records;
    std::vector<uint8_t> ok;                           // readRecord's answer per record
    std::vector<size_t> problemEnd;                    // per record: end of its problems in `problems`
    std::vector<std::pair<QString, QString>> problems; // (where, what)
};
using StreamKey = std::pair<int, std::string>; // (internal_states index, payload key), or (-1, "records")
using Streams = std::map<StreamKey, StreamedRecords>;

// Parser callback that reads the records of internal_states[i].<payload>.records[k] (or the bare list
// internal_states[i].<payload>[k]) and of a top-level records[k] as soon as each is parsed, and drops
// it from the DOM: the document's DOM never holds all records (it used to take 6–7× the file). Whether
// they are used is still decided by readDocument on the rest of the DOM, which holds their emptied
// arrays; their problems are reported then, in document order.
class RecordStreamer {
public:
    RecordStreamer(FileProblems& problems, Streams& streams) : m_problems(problems), m_streams(streams) {}

    bool operator()(int depth, json::parse_event_t event, json& parsed)
    {
        if (depth < 0)
            return true;
        const size_t d = static_cast<size_t>(depth);
        switch (event) {
        case json::parse_event_t::object_start:
        case json::parse_event_t::array_start:
            m_frames.resize(d);
            m_frames.push_back({event == json::parse_event_t::array_start, {}, 0});
            return true;
        case json::parse_event_t::key:
            if (d >= 1 && d <= m_frames.size() && parsed.is_string())
                m_frames[d - 1].key = parsed.get_ref<const std::string&>();
            return true;
        case json::parse_event_t::object_end:
        case json::parse_event_t::array_end: m_frames.resize(std::min(d, m_frames.size())); return element(d, parsed);
        case json::parse_event_t::value: return element(d, parsed);
        }
        return true;
    }

private:
    struct Frame {
        bool array = false;
        std::string key;  // objects: the key of the value being parsed
        size_t index = 0; // arrays: the index of the value being parsed
    };

    static bool isPayload(const std::string& key)
    {
        return key == "dspark_info_record" || key == "speculative_adaptation_info_record";
    }

    // The value at `depth` is complete. Returns false to drop it from the DOM.
    bool element(size_t depth, const json& value)
    {
        if (depth == 0 || depth > m_frames.size())
            return true;
        Frame& parent = m_frames[depth - 1];
        const size_t index = parent.index;
        if (parent.array)
            ++parent.index;
        if (!parent.array || m_frames[0].array)
            return true;
        StreamKey key;
        QString where;
        if (depth == 2 && m_frames[0].key == "records") {
            key = {-1, "records"};
            where = QStringLiteral("records");
        } else if ((depth == 4 || depth == 5) && m_frames[0].key == "internal_states" && m_frames[1].array &&
                   !m_frames[2].array && isPayload(m_frames[2].key) &&
                   (depth == 4 || (!m_frames[3].array && m_frames[3].key == "records"))) {
            key = {static_cast<int>(m_frames[1].index), m_frames[2].key};
            where = QStringLiteral("internal_states[%1].").arg(m_frames[1].index) + QLatin1String(m_frames[2].key);
        } else {
            return true;
        }
        StreamedRecords& s = m_streams[key];
        StepRecord r;
        m_problems.capture(&s.problems);
        const bool ok = readRecord(value, r, m_problems, Place{where + QStringLiteral(".records[%1]").arg(index)});
        m_problems.capture(nullptr);
        s.records.push_back(std::move(r));
        s.ok.push_back(ok ? 1 : 0);
        s.problemEnd.push_back(s.problems.size());
        return false;
    }

    FileProblems& m_problems;
    Streams& m_streams;
    std::vector<Frame> m_frames; // the containers around the value being parsed, outermost first
};

// A dspark_info_record: envelope + records (or a bare list of records); `streamed`: its records already
// read by RecordStreamer (its array in the DOM is then empty).
void readInfoRecord(const json& info, int rank, const QString& where, RankSink& sink, FileProblems& problems,
                    StreamedRecords* streamed = nullptr)
{
    const json* records = nullptr;
    if (info.is_array()) {
        records = &info;
    } else if (info.is_object()) {
        readEnvelope(info, sink.rank(rank).envelope, problems, Place{where});
        if (const auto it = info.find("records"); it != info.end()) {
            if (it->is_array())
                records = &*it;
            else if (!it->is_null())
                problems.add(where, QCoreApplication::translate("StepRecordLoader", "records is not a list; skipped"));
        }
    }
    if (!records)
        return;
    if (streamed) {
        size_t p = 0;
        for (size_t k = 0; k < streamed->records.size(); ++k) {
            for (; p < streamed->problemEnd[k]; ++p)
                problems.add(streamed->problems[p].first, streamed->problems[p].second);
            if (streamed->ok[k])
                sink.add(rank, std::move(streamed->records[k]));
        }
    }
    for (size_t i = 0; i < records->size(); ++i) {
        StepRecord r;
        if (readRecord((*records)[i], r, problems, Place{where + QStringLiteral(".records[%1]").arg(i)}))
            sink.add(rank, std::move(r));
    }
}

// Loads one JSON value that is a whole document (server_info, info record or a list of records).
// Returns false when the value is none of those.
bool readDocument(const json& doc, const ScannedFile& file, RankSink& sink, FileProblems& problems,
                  Streams* streams = nullptr)
{
    auto streamedFor = [&](int index, const std::string& key) -> StreamedRecords* {
        if (!streams)
            return nullptr;
        const auto it = streams->find({index, key});
        return it == streams->end() ? nullptr : &it->second;
    };
    if (doc.is_object() && doc.contains("internal_states")) {
        const json& states = doc["internal_states"];
        if (!states.is_array()) {
            problems.add(QStringLiteral("internal_states"),
                         QCoreApplication::translate("StepRecordLoader", "not a list"));
            return true;
        }
        for (size_t i = 0; i < states.size(); ++i) {
            const json& state = states[i];
            if (!state.is_object())
                continue;
            const QString where = QStringLiteral("internal_states[%1]").arg(i);
            // Newer SGLang names the payload speculative_adaptation_info_record.
            for (const char* key : {"dspark_info_record", "speculative_adaptation_info_record"}) {
                const auto it = state.find(key);
                if (it != state.end() && (it->is_array() || (it->is_object() && it->contains("records")))) {
                    readInfoRecord(*it, static_cast<int>(i), where + QStringLiteral(".") + QLatin1String(key), sink,
                                   problems, streamedFor(static_cast<int>(i), key));
                    break;
                }
            }
        }
        return true;
    }
    const int rank = rankFromFileName(file);
    if (doc.is_object() && (doc.contains("records") || looksLikeEnvelope(doc)) && !doc.contains("forward_ct")) {
        readInfoRecord(doc, rank, QStringLiteral("records"), sink, problems, streamedFor(-1, "records"));
        return true;
    }
    if (doc.is_array() && !doc.empty() && doc.front().is_object() && doc.front().contains("forward_ct")) {
        readInfoRecord(doc, rank, QString(), sink, problems);
        return true;
    }
    return false;
}

// JSON Lines: a record per line; an envelope line; or (tolerated) a whole document on one line.
void readJsonLines(const std::string& text, const ScannedFile& file, RankSink& sink, FileProblems& problems,
                   const LoadProgress& progress)
{
    const int rank = rankFromFileName(file);
    size_t pos = 0;
    uint32_t line = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        ++line;
        std::string_view row(text.data() + pos, end - pos);
        pos = end + 1;
        while (!row.empty() && (row.back() == '\r' || row.back() == ' ' || row.back() == '\t'))
            row.remove_suffix(1);
        while (!row.empty() && (row.front() == ' ' || row.front() == '\t'))
            row.remove_prefix(1);
        if (line == 1 && row.substr(0, 3) == "\xEF\xBB\xBF")
            row.remove_prefix(3);
        if (row.empty())
            continue;
        if ((line & 4095) == 0) {
            progress.update(static_cast<double>(pos) / static_cast<double>(text.size()));
            if (progress.cancelled())
                return;
        }
        const Place where{QCoreApplication::translate("StepRecordLoader", "line %1").arg(line)};
        json obj = json::parse(row.begin(), row.end(), nullptr, /*allow_exceptions=*/false);
        if (obj.is_discarded()) {
            problems.add(where.text, QCoreApplication::translate("StepRecordLoader", "not valid JSON; line skipped"));
            continue;
        }
        if (obj.is_object() && !obj.contains("forward_ct")) {
            if (obj.contains("internal_states") || obj.contains("records")) {
                readDocument(obj, file, sink, problems);
                continue;
            }
            if (looksLikeEnvelope(obj) || obj.contains("mode")) {
                readEnvelope(obj, sink.rank(rank).envelope, problems, where);
                continue;
            }
        }
        StepRecord r;
        r.line = line;
        if (readRecord(obj, r, problems, where))
            sink.add(rank, std::move(r));
    }
}

} // namespace

QString loadStepRecords(const ScannedFile& file, Profile& profile, const LoadProgress& progress)
{
    const QString path = QString::fromStdString(file.path);
    std::ifstream in(file.path, std::ios::binary);
    if (!in)
        return QCoreApplication::translate("StepRecordLoader", "%1: cannot be read").arg(path);
    std::string text;
    std::error_code ec;
    text.resize(static_cast<size_t>(fs::file_size(file.path, ec)));
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<size_t>(in.gcount()));

    auto set = profile.stepRecords ? profile.stepRecords : std::make_shared<StepRecordSet>();
    size_t added = 0;
    QString firstProblem;
    {
        FileProblems problems(file.path, profile);
        RankSink sink(*set, file, problems);
        const bool lines = file.format == FileFormat::StepRecordsJsonl || file.format == FileFormat::SpsRecordsJsonl;
        bool done = false;
        if (!lines) {
            Streams streams;
            const json doc = json::parse(text, RecordStreamer(problems, streams), /*allow_exceptions=*/false);
            if (!doc.is_discarded()) {
                if (!readDocument(doc, file, sink, problems, &streams))
                    return QCoreApplication::translate(
                               "StepRecordLoader",
                               "%1: a JSON document without DSpark step records (expected a server_info response, "
                               "a dspark_info_record or a list of records)")
                        .arg(path);
                done = true;
            }
        }
        if (!done) // JSON Lines, or a .json file that turns out to hold JSON Lines
            readJsonLines(text, file, sink, problems, progress);
        added = sink.added();
        firstProblem = problems.first();
    }
    if (progress.cancelled())
        return QCoreApplication::translate("StepRecordLoader", "Loading cancelled");
    if (added == 0) {
        // Drop ranks the failed file created without records.
        std::erase_if(set->ranks, [](const RankStepRecords& r) { return r.records.empty(); });
        if (firstProblem.isEmpty())
            return QCoreApplication::translate(
                       "StepRecordLoader",
                       "%1: holds no DSpark step records (was SGLANG_DSPARK_DEBUG_DUMP set when it was saved?)")
                .arg(path);
        return QCoreApplication::translate("StepRecordLoader",
                                           "%1: no DSpark step records could be read (first problem: %2)")
            .arg(path, firstProblem);
    }
    set->rebuild();
    profile.stepRecords = std::move(set);
    progress.update(1.0);
    return {};
}

void alignStepRecords(Profile& profile)
{
    if (!profile.stepRecords)
        return;
    profile.stepRecords->alignment = alignSteps(profile, *profile.stepRecords);
}

} // namespace dspark
