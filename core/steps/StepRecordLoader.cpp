#include "steps/StepRecordLoader.h"

#include "steps/StepRecords.h"
#include "util/BoundedJson.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string_view>
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
    const QString& first() const { return m_first; }           // the first problem, "" when none
    using Captured = std::vector<std::pair<QString, QString>>; // (where, what)
    // While set, problems are only appended to `capture` (to be added later, in document order).
    // Returns the capture it replaces.
    Captured* capture(Captured* capture) { return std::exchange(m_capture, capture); }

private:
    static constexpr int kMaxListed = 20;
    QString m_path;
    Profile& m_profile;
    QString m_first;
    int m_reported = 0;
    int m_suppressed = 0;
    Captured* m_capture = nullptr;
};

// Captures the problems added while it lives.
class ProblemCapture {
public:
    ProblemCapture(FileProblems& problems, FileProblems::Captured* into)
        : m_problems(problems), m_previous(problems.capture(into))
    {
    }
    ~ProblemCapture() { m_problems.capture(m_previous); }
    ProblemCapture(const ProblemCapture&) = delete;
    ProblemCapture& operator=(const ProblemCapture&) = delete;

private:
    FileProblems& m_problems;
    FileProblems::Captured* m_previous;
};

// Where a value sits, for messages: "line 12", "internal_states[0].dspark_info_record.records[3]", then
// " reqs[1]" for a request of that record. The text is only made for a problem.
struct Place {
    QString base;
    qsizetype record = -1;  // ".records[record]" after base, when >= 0
    qsizetype request = -1; // " reqs[request]" after that, when >= 0
    uint32_t line = 0;      // JSON Lines: "line N" instead of base, when > 0

    Place atRequest(qsizetype index) const
    {
        Place p = *this;
        p.request = index;
        return p;
    }
    QString text() const
    {
        QString t = line > 0 ? QCoreApplication::translate("StepRecordLoader", "line %1").arg(line) : base;
        if (record >= 0)
            t += QStringLiteral(".records[%1]").arg(record);
        if (request >= 0)
            t += QStringLiteral(" reqs[%1]").arg(request);
        return t;
    }
};

// The keys a DecodeStepRecord and its ReqDetail are read from, in the order readRecord reads them.
enum RecordKey {
    kForwardCt,
    kBs,
    kMode,
    kBudget,
    kLagSteps,
    kNumRunningReqs,
    kNumVerifyTokens,
    kVerifyTokensLocal,
    kVerifyTokensDpSynced,
    kVerifyTokensGraphKey,
    kPredictedStepMs,
    kPredictedTheta,
    kStepCpuMs,
    kStepGpuMs,
    kDraftGpuMs,
    kTargetVerifyGpuMs,
    kStepTime,
    kReqs,
    kRecordKeyCount
};
constexpr std::array<std::string_view, kRecordKeyCount> kRecordKeys = { // by RecordKey
    "forward_ct",
    "bs",
    "mode",
    "budget",
    "lag_steps",
    "num_running_reqs",
    "num_verify_tokens",
    "verify_tokens_local",
    "verify_tokens_dp_synced",
    "verify_tokens_graph_key",
    "predicted_step_ms",
    "predicted_theta",
    "step_cpu_ms",
    "step_gpu_ms",
    "draft_gpu_ms",
    "target_verify_gpu_ms",
    "step_time",
    "reqs"};
enum RequestKey {
    kReqPoolIndex,
    kPrefixLen,
    kVerifyLen,
    kAccLen,
    kCorrectDrafts,
    kCapTrim,
    kBonusToken,
    kDraftTokens,
    kRid,
    kRequestKeyCount
};
constexpr std::array<std::string_view, kRequestKeyCount> kRequestKeys = { // by RequestKey
    "req_pool_index", "prefix_len",  "verify_len",   "acc_len", "correct_drafts",
    "cap_trim",       "bonus_token", "draft_tokens", "rid"};
// The value of each key of a record or request, nullptr when absent.
using RecordFields = std::array<const json*, kRecordKeyCount>;
using RequestFields = std::array<const json*, kRequestKeyCount>;

const json* find(const json& obj, std::string_view key)
{
    const auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

// The fields of `obj` (an object) at `keys`.
template <size_t N> std::array<const json*, N> findFields(const json& obj, const std::array<std::string_view, N>& keys)
{
    std::array<const json*, N> fields;
    for (size_t i = 0; i < N; ++i)
        fields[i] = find(obj, keys[i]);
    return fields;
}

// Integer value: absent (nullptr), null and (for msgspec int defaults) -1 are "not recorded".
std::optional<int64_t> intValue(const json* value, std::string_view key, bool minusOneIsUnset, FileProblems& problems,
                                const Place& where)
{
    if (!value || value->is_null())
        return std::nullopt;
    std::optional<int64_t> v;
    if (value->is_number_integer())
        v = value->get<int64_t>();
    else if (value->is_number_float()) {
        const double d = value->get<double>();
        if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 9.0e15)
            v = static_cast<int64_t>(d);
    }
    if (!v) {
        problems.add(where.text(),
                     QCoreApplication::translate("StepRecordLoader", "%1 is not an integer (%2); taken as not recorded")
                         .arg(QLatin1String(key), QString::fromStdString(value->dump()).left(40)));
        return std::nullopt;
    }
    if (minusOneIsUnset && *v == -1)
        return std::nullopt;
    return v;
}

std::optional<double> realValue(const json* value, std::string_view key, FileProblems& problems, const Place& where)
{
    if (!value || value->is_null())
        return std::nullopt;
    if (!value->is_number()) {
        problems.add(where.text(),
                     QCoreApplication::translate("StepRecordLoader", "%1 is not a number (%2); taken as not recorded")
                         .arg(QLatin1String(key), QString::fromStdString(value->dump()).left(40)));
        return std::nullopt;
    }
    return value->get<double>();
}

std::string stringValue(const json* value)
{
    return value && value->is_string() ? value->get<std::string>() : std::string();
}

bool looksLikeEnvelope(const json& obj)
{
    return obj.contains("gamma") || obj.contains("verify_num_draft_tokens") || obj.contains("components") ||
           obj.contains("records") || obj.contains("simulate_acc_len");
}

void readEnvelope(const json& obj, StepRecordEnvelope& env, FileProblems& problems, const Place& where)
{
    env.present = true;
    if (const std::string mode = stringValue(find(obj, "mode")); !mode.empty())
        env.mode = mode;
    if (auto g = intValue(find(obj, "gamma"), "gamma", false, problems, where))
        env.gamma = g;
    if (auto v = intValue(find(obj, "verify_num_draft_tokens"), "verify_num_draft_tokens", false, problems, where))
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

void reportRecordNotAnObject(FileProblems& problems, const Place& where)
{
    problems.add(where.text(), QCoreApplication::translate("StepRecordLoader", "not a JSON object; skipped"));
}

void reportRequestNotAnObject(FileProblems& problems, const Place& where)
{
    problems.add(where.text(), QCoreApplication::translate("StepRecordLoader", "not an object; skipped"));
}

// The value of reqs: null = not recorded, a list = the requests, anything else is reported.
bool isRequestList(const json& reqs, FileProblems& problems, const Place& where)
{
    if (reqs.is_null())
        return false;
    if (!reqs.is_array()) {
        problems.add(where.text(),
                     QCoreApplication::translate("StepRecordLoader", "reqs is not a list; taken as not recorded"));
        return false;
    }
    return true;
}

// One ReqDetail, from the values of its keys.
void readRequest(const RequestFields& f, StepRequest& r, FileProblems& problems, const Place& where)
{
    const auto integer = [&](RequestKey k) { return intValue(f[k], kRequestKeys[k], false, problems, where); };
    r.reqPoolIndex = integer(kReqPoolIndex);
    r.prefixLen = integer(kPrefixLen);
    r.verifyLen = integer(kVerifyLen);
    r.accLen = integer(kAccLen);
    r.correctDrafts = integer(kCorrectDrafts);
    r.capTrim = integer(kCapTrim);
    r.bonusToken = integer(kBonusToken);
    if (f[kDraftTokens] && f[kDraftTokens]->is_array())
        r.draftTokenCount = static_cast<int64_t>(f[kDraftTokens]->size());
    r.rid = stringValue(f[kRid]);
}

void readRequests(const json& arr, StepRecord& record, FileProblems& problems, const Place& where)
{
    if (!isRequestList(arr, problems, where))
        return;
    std::vector<StepRequest> reqs;
    reqs.reserve(arr.size());
    for (size_t i = 0; i < arr.size(); ++i) {
        const json& q = arr[i];
        const Place at = where.atRequest(static_cast<qsizetype>(i));
        if (!q.is_object())
            reportRequestNotAnObject(problems, at);
        else
            readRequest(findFields(q, kRequestKeys), reqs.emplace_back(), problems, at);
    }
    record.reqs = std::move(reqs);
}

// One DecodeStepRecord (or dspark_sps_profiler row) but its requests, from the values of its keys.
// Returns false when it cannot be used.
bool readRecordFields(const RecordFields& f, StepRecord& r, FileProblems& problems, const Place& where)
{
    const json* fct = f[kForwardCt];
    if (!fct || !fct->is_number_integer()) {
        problems.add(where.text(),
                     !fct ? QCoreApplication::translate("StepRecordLoader", "no forward_ct; skipped")
                          : QCoreApplication::translate("StepRecordLoader", "forward_ct is not an integer; skipped"));
        return false;
    }
    const auto integer = [&](RecordKey k, bool minusOneIsUnset) {
        return intValue(f[k], kRecordKeys[k], minusOneIsUnset, problems, where);
    };
    const auto real = [&](RecordKey k) { return realValue(f[k], kRecordKeys[k], problems, where); };
    r.forwardCt = fct->get<int64_t>();
    r.bs = integer(kBs, true);
    r.mode = stringValue(f[kMode]);
    r.budget = integer(kBudget, false);
    r.lagSteps = integer(kLagSteps, false);
    r.numRunningReqs = integer(kNumRunningReqs, true);
    r.numVerifyTokens = integer(kNumVerifyTokens, true);
    r.verifyTokensLocal = integer(kVerifyTokensLocal, true);
    r.verifyTokensDpSynced = integer(kVerifyTokensDpSynced, true);
    r.verifyTokensGraphKey = integer(kVerifyTokensGraphKey, true);
    r.predictedStepMs = real(kPredictedStepMs);
    r.predictedTheta = real(kPredictedTheta);
    r.stepCpuMs = real(kStepCpuMs);
    r.stepGpuMs = real(kStepGpuMs);
    r.draftGpuMs = real(kDraftGpuMs);
    r.targetVerifyGpuMs = real(kTargetVerifyGpuMs);
    if (!r.stepCpuMs && f[kStepTime]) {
        // dspark_sps_profiler: step_time is the host monotonic interval in seconds, the same clock as
        // step_cpu_ms. Kept to the nanosecond. Note the profiler files the interval under the earlier
        // forward_ct of the pair, DecodeStepRecord under the later one; values are kept as written.
        if (const auto s = real(kStepTime)) {
            r.stepCpuMs = std::round(*s * 1e9) / 1e6;
            r.stepCpuFromSps = true;
        }
    }
    return true;
}

// One DecodeStepRecord (or dspark_sps_profiler row) of a DOM. Returns false when it cannot be used.
bool readRecord(const json& obj, StepRecord& r, FileProblems& problems, const Place& where)
{
    if (!obj.is_object()) {
        reportRecordNotAnObject(problems, where);
        return false;
    }
    const RecordFields f = findFields(obj, kRecordKeys);
    if (!readRecordFields(f, r, problems, where))
        return false;
    if (f[kReqs])
        readRequests(*f[kReqs], r, problems, where);
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
        return std::stoi(m[1]); // (at most 4 digits)
    return file.rankNumber >= 0 ? file.rankNumber : 0;
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
            ForwardCts& seen = m_seen[r];
            for (const StepRecord& rec : rr.records)
                seen.insert(rec.forwardCt);
            if (std::find(rr.sources.begin(), rr.sources.end(), m_file.path) == rr.sources.end())
                rr.sources.push_back(m_file.path);
        }
        return rr;
    }
    // `more`: an estimate of the records still to come (a JSON Lines file's). When rank r's records fill
    // their vector, it gets room for that many more, at least as many as it holds (grown by doubling,
    // every record was moved into fresh memory at each step: 10-15 % of loading a long run).
    void add(int r, StepRecord&& record, size_t more = 0)
    {
        RankStepRecords& rr = rank(r);
        if (!m_seen[r].insert(record.forwardCt)) {
            ++m_duplicates[r];
            return;
        }
        if (more > 0 && rr.records.size() == rr.records.capacity())
            rr.records.reserve(rr.records.size() + std::max(more, rr.records.size()) + 16);
        rr.records.push_back(std::move(record));
        ++m_added;
    }
    // Adds `records` in order: moves the whole list in when the rank holds no records yet.
    void add(int r, std::vector<StepRecord>&& records)
    {
        if (records.empty())
            return;
        RankStepRecords& rr = rank(r);
        if (!rr.records.empty()) {
            rr.records.reserve(rr.records.size() + records.size());
            for (StepRecord& record : records)
                add(r, std::move(record));
            return;
        }
        rr.records = std::move(records);
        ForwardCts& seen = m_seen[r];
        size_t kept = 0;
        for (StepRecord& record : rr.records) {
            if (!seen.insert(record.forwardCt)) {
                ++m_duplicates[r];
                continue;
            }
            if (&record != &rr.records[kept])
                rr.records[kept] = std::move(record);
            ++kept;
        }
        rr.records.erase(rr.records.begin() + static_cast<std::ptrdiff_t>(kept), rr.records.end());
        m_added += kept;
    }
    size_t added() const { return m_added; }

private:
    StepRecordSet& m_set;
    const ScannedFile& m_file;
    FileProblems& m_problems;
    // The forward_cts a rank holds. Records come in step order, so nearly every one is appended to
    // `ascending` (a std::set for all allocated a node per record); the rest go to `others` (each is
    // below ascending's last when it comes, so a later append is never among them).
    struct ForwardCts {
        std::vector<int64_t> ascending;
        std::set<int64_t> others;
        bool insert(int64_t v) // false when already held
        {
            if (ascending.empty() || v > ascending.back()) {
                ascending.push_back(v);
                return true;
            }
            if (std::binary_search(ascending.begin(), ascending.end(), v))
                return false;
            return others.insert(v).second;
        }
    };
    std::map<int, ForwardCts> m_seen;
    std::map<int, int> m_duplicates;
    size_t m_added = 0;
};

// Records read while the document was parsed (RecordParser), with the problems they had.
struct StreamedRecords {
    std::vector<StepRecord> records; // those readRecord could use
    FileProblems::Captured problems; // (where, what)
};
using StreamKey = std::pair<int, std::string>; // (internal_states index, payload key), or (-1, "records")
using Streams = std::map<StreamKey, StreamedRecords>;

// nlohmann SAX handler. For a whole document (`streams` set) it reads the records of
// internal_states[i].<payload>.records[k] (or of the bare list internal_states[i].<payload>[k]) and of a
// top-level records[k] straight into StepRecords, exactly as readRecord reads a record's DOM, and builds
// a DOM of the rest of the document, where their arrays stay empty: no record is ever a DOM (building and
// freeing one per record was most of the load). readDocument still decides on that DOM whether they are
// used; their problems are reported then, in document order. For a line of JSON Lines (`streams` null)
// the value is read as one record. Of a record or request it keeps the last value of each key it reads
// (as a DOM would); a list or object value of such a key is kept as a small DOM (draft_tokens, or a bad
// value a problem quotes); other values are skipped.
class RecordParser {
public:
    RecordParser(FileProblems& problems, Streams* streams) : m_problems(problems), m_streams(streams) {}

    json& document() { return m_root; }
    // Line mode: starts a line at `where`.
    void startLine(const Place& where)
    {
        m_frames.clear();
        m_tooDeep = false;
        m_recordPlace = where;
        m_lineRecord = false;
    }
    // Line mode, after a successful parse: whether the line is an object with a forward_ct key; then
    // readLineRecord() is readRecord on it.
    bool lineRecord() const { return m_lineRecord && m_record.has[kForwardCt]; }
    bool readLineRecord(StepRecord& r) { return finishRecord(r); }
    // Whether the parse stopped at a container nested deeper than kMaxJsonDepth.
    bool tooDeep() const { return m_tooDeep; }

    // The SAX interface (nlohmann::json_sax).
    bool null() { return scalar(nullptr); }
    bool boolean(bool v) { return scalar(v); }
    bool number_integer(json::number_integer_t v) { return scalar(v); }
    bool number_unsigned(json::number_unsigned_t v) { return scalar(v); }
    bool number_float(json::number_float_t v, const std::string& /*text*/) { return scalar(v); }
    bool string(std::string& v)
    {
        if (json* slot = begin(Shape::Scalar)) {
            if (slot->is_string())
                slot->get_ref<std::string&>() = v; // a field reused from record to record keeps its buffer
            else
                *slot = v;
        }
        return true;
    }
    bool binary(json::binary_t& /*v*/) { return false; } // never in JSON text
    bool start_object(std::size_t /*size*/) { return startContainer(Shape::Object); }
    bool start_array(std::size_t /*size*/) { return startContainer(Shape::Array); }
    bool key(std::string& key)
    {
        Frame& top = m_frames.back();
        if (top.kind == Kind::Dom) {
            const auto it = top.node->get_ref<json::object_t&>().try_emplace(key).first;
            top.key = &it->first;
            top.next = &it->second;
        } else if (top.kind == Kind::Record) {
            m_record.find(kRecordKeys, key);
        } else if (top.kind == Kind::Request) {
            m_request.find(kRequestKeys, key);
        }
        return true;
    }
    bool end_object() { return end(); }
    bool end_array() { return end(); }
    bool parse_error(std::size_t /*position*/, const std::string& /*token*/, const nlohmann::detail::exception& /*e*/)
    {
        return false;
    }

private:
    enum class Shape : uint8_t { Scalar, Object, Array };
    enum class Kind : uint8_t {
        Dom,      // an object or array kept as DOM
        Skip,     // a list or object that is not kept
        Records,  // a list of records
        Record,   // a record object
        Requests, // the reqs list of a record
        Request,  // an object in reqs
    };
    struct Frame {
        Kind kind;
        json* node = nullptr;             // Dom: the object or array
        json* next = nullptr;             // Dom objects: the value of the last key
        const std::string* key = nullptr; // Dom objects: the last key
        qsizetype count = 0;              // Records, Requests: the elements so far
    };

    // The last value of each key of the record or request being read.
    template <size_t N> struct LastValues {
        std::array<json, N> values; // kept from object to object: a string or list keeps its buffer
        std::array<bool, N> has{};
        int key = -1; // of the value being parsed; -1: a key not read

        void start()
        {
            has.fill(false);
            key = -1;
        }
        void find(const std::array<std::string_view, N>& keys, std::string_view name)
        {
            key = static_cast<int>(std::find(keys.begin(), keys.end(), name) - keys.begin());
            if (key == static_cast<int>(N))
                key = -1;
        }
        json* slot() // where the value of `key` goes
        {
            if (key < 0)
                return nullptr;
            has[static_cast<size_t>(key)] = true;
            return &values[static_cast<size_t>(key)];
        }
        std::array<const json*, N> fields() const
        {
            std::array<const json*, N> f;
            for (size_t i = 0; i < N; ++i)
                f[i] = has[i] ? &values[i] : nullptr;
            return f;
        }
    };

    // A container starts; past kMaxJsonDepth the parse ends (the DOM kept must stay shallow).
    bool startContainer(Shape shape)
    {
        if (m_frames.size() >= kMaxJsonDepth) {
            m_tooDeep = true;
            return false;
        }
        begin(shape);
        return true;
    }

    bool scalar(json v)
    {
        if (json* slot = begin(Shape::Scalar))
            *slot = std::move(v);
        return true;
    }

    // A value starts. Returns where a scalar is stored (nullptr: not kept); pushes a container's frame.
    json* begin(Shape shape)
    {
        if (m_frames.empty()) {
            if (m_streams)
                return open(&m_root, shape);
            m_lineRecord = shape == Shape::Object; // line mode: the line is a record
            return m_lineRecord ? startRecord(m_recordPlace) : open(nullptr, shape);
        }
        Frame& top = m_frames.back();
        switch (top.kind) {
        case Kind::Dom: {
            json* slot = top.node->is_array() ? &top.node->get_ref<json::array_t&>().emplace_back() : top.next;
            if (shape == Shape::Array && startRecords()) {
                *slot = json::array(); // stays empty in the DOM
                return nullptr;
            }
            return open(slot, shape);
        }
        case Kind::Skip: return open(nullptr, shape);
        case Kind::Records: {
            const Place where{m_recordsBase, top.count++};
            if (shape == Shape::Object)
                return startRecord(where);
            ProblemCapture capture(m_problems, &m_stream->problems);
            reportRecordNotAnObject(m_problems, where);
            return open(nullptr, shape);
        }
        case Kind::Record:
            if (m_record.key == kReqs) { // a reqs value (again: the last one counts)
                m_requests.clear();
                m_requestProblems.clear();
                if (shape == Shape::Array) {
                    *m_record.slot() = json::array(); // its requests are read one by one
                    m_frames.push_back({Kind::Requests});
                    return nullptr;
                }
            }
            return open(m_record.slot(), shape);
        case Kind::Requests: {
            const Place where = m_recordPlace.atRequest(top.count++);
            if (shape == Shape::Object) {
                m_request.start();
                m_requestPlace = where;
                m_frames.push_back({Kind::Request});
                return nullptr;
            }
            ProblemCapture capture(m_problems, &m_requestProblems);
            reportRequestNotAnObject(m_problems, where);
            return open(nullptr, shape);
        }
        case Kind::Request: return open(m_request.slot(), shape);
        }
        return nullptr;
    }

    // A value that goes to `slot` (nullptr: not kept): returns it for a scalar, pushes a container's frame.
    json* open(json* slot, Shape shape)
    {
        if (shape == Shape::Scalar)
            return slot;
        if (!slot) {
            m_frames.push_back({Kind::Skip});
        } else {
            if (shape == Shape::Object)
                *slot = json::object();
            else if (slot->is_array())
                slot->clear(); // a field reused from record to record keeps its buffer
            else
                *slot = json::array();
            m_frames.push_back({Kind::Dom, slot});
        }
        return nullptr;
    }

    // Document mode, an array starts in the DOM: when it is at records, internal_states[i].<payload> or
    // internal_states[i].<payload>.records, its elements are records: pushes their frame, returns true.
    bool startRecords()
    {
        const size_t n = m_frames.size();
        if (!m_streams || (n != 1 && n != 3 && n != 4))
            return false;
        const auto object = [this](size_t depth) {
            return m_frames[depth].kind == Kind::Dom && m_frames[depth].node->is_object();
        };
        if (!object(0))
            return false;
        StreamKey key;
        if (n == 1 && *m_frames[0].key == "records") {
            key = {-1, "records"};
            m_recordsBase = QStringLiteral("records");
        } else if (n > 1 && *m_frames[0].key == "internal_states" && m_frames[1].kind == Kind::Dom &&
                   m_frames[1].node->is_array() && object(2) &&
                   (*m_frames[2].key == "dspark_info_record" ||
                    *m_frames[2].key == "speculative_adaptation_info_record") &&
                   (n == 3 || (object(3) && *m_frames[3].key == "records"))) {
            const size_t index = m_frames[1].node->size() - 1;
            key = {static_cast<int>(index), *m_frames[2].key};
            m_recordsBase = QStringLiteral("internal_states[%1].").arg(index) + QLatin1String(*m_frames[2].key);
        } else {
            return false;
        }
        m_stream = &(*m_streams)[key];
        m_frames.push_back({Kind::Records});
        return true;
    }

    json* startRecord(const Place& where)
    {
        m_record.start();
        m_requests.clear();
        m_requestProblems.clear();
        m_recordPlace = where;
        m_frames.push_back({Kind::Record});
        return nullptr;
    }

    bool end()
    {
        const Kind kind = m_frames.back().kind;
        m_frames.pop_back();
        if (kind == Kind::Request) {
            ProblemCapture capture(m_problems, &m_requestProblems);
            readRequest(m_request.fields(), m_requests.emplace_back(), m_problems, m_requestPlace);
        } else if (kind == Kind::Record && m_streams) {
            ProblemCapture capture(m_problems, &m_stream->problems);
            if (StepRecord r; finishRecord(r))
                m_stream->records.push_back(std::move(r));
        }
        return true;
    }

    // readRecord on the record just parsed (its requests were read as they came).
    bool finishRecord(StepRecord& r)
    {
        const RecordFields f = m_record.fields();
        if (!readRecordFields(f, r, m_problems, m_recordPlace))
            return false;
        if (f[kReqs] && isRequestList(*f[kReqs], m_problems, m_recordPlace)) {
            r.reqs.emplace(std::make_move_iterator(m_requests.begin()), std::make_move_iterator(m_requests.end()));
            for (const auto& [where, what] : m_requestProblems)
                m_problems.add(where, what);
        }
        return true;
    }

    FileProblems& m_problems;
    Streams* m_streams;
    json m_root;
    std::vector<Frame> m_frames; // the containers around the value being parsed, outermost first
    bool m_lineRecord = false;
    bool m_tooDeep = false;
    // The list of records being read.
    StreamedRecords* m_stream = nullptr;
    QString m_recordsBase;
    // The record being read, its requests so far and their problems.
    Place m_recordPlace;
    LastValues<kRecordKeyCount> m_record;
    std::vector<StepRequest> m_requests;
    FileProblems::Captured m_requestProblems;
    // The request being read.
    Place m_requestPlace;
    LastValues<kRequestKeyCount> m_request;
};

// A dspark_info_record: envelope + records (or a bare list of records); `streamed`: its records already
// read by RecordParser (its array in the DOM is then empty).
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
    if (streamed) { // (adding records reports nothing: their problems can come first)
        for (const auto& [place, what] : streamed->problems)
            problems.add(place, what);
        sink.add(rank, std::move(streamed->records));
    }
    for (size_t i = 0; i < records->size(); ++i) {
        StepRecord r;
        if (readRecord((*records)[i], r, problems, Place{where, static_cast<qsizetype>(i)}))
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

// The longest line of JSON Lines kept (a record is a few KB; a whole document on one line may be large).
constexpr size_t kMaxLineBytes = size_t(64) << 20;

// The lines of a stream, as std::getline reads them, but a line longer than kMaxLineBytes is not kept:
// it is read through and comes back empty, with tooLong() set.
class LineReader {
public:
    explicit LineReader(std::istream& in) : m_in(in), m_buffer(size_t(1) << 16) {}
    bool next(std::string& line)
    {
        line.clear();
        m_tooLong = false;
        bool any = false;
        while (true) {
            if (m_pos == m_end) {
                m_in.read(m_buffer.data(), static_cast<std::streamsize>(m_buffer.size()));
                m_pos = 0;
                m_end = static_cast<size_t>(m_in.gcount());
                if (m_end == 0)
                    return any;
            }
            any = true;
            const char* from = m_buffer.data() + m_pos;
            const auto* newline = static_cast<const char*>(std::memchr(from, '\n', m_end - m_pos));
            const size_t n = newline ? static_cast<size_t>(newline - from) : m_end - m_pos;
            if (!m_tooLong && line.size() + n > kMaxLineBytes) {
                m_tooLong = true;
                std::string().swap(line);
            }
            if (!m_tooLong)
                line.append(from, n);
            m_pos += n + (newline ? 1 : 0);
            m_read += n + (newline ? 1 : 0);
            if (newline)
                return true;
        }
    }
    bool tooLong() const { return m_tooLong; }
    uint64_t bytesRead() const { return m_read; } // through the end of the last line

private:
    std::istream& m_in;
    std::vector<char> m_buffer;
    size_t m_pos = 0, m_end = 0;
    uint64_t m_read = 0;
    bool m_tooLong = false;
};

// JSON Lines: a record per line; an envelope line; or (tolerated) a whole document on one line.
void readJsonLines(std::istream& in, const ScannedFile& file, RankSink& sink, FileProblems& problems,
                   const LoadProgress& progress)
{
    const int rank = rankFromFileName(file);
    std::error_code ec;
    const double size = static_cast<double>(fs::file_size(file.path, ec));
    RecordParser parser(problems, nullptr);
    LineReader lines(in);
    uint32_t line = 0;
    for (std::string text; lines.next(text);) {
        ++line;
        std::string_view row(text);
        const size_t pos = lines.bytesRead();
        if (lines.tooLong()) {
            problems.add(Place{QString(), -1, -1, line}.text(),
                         QCoreApplication::translate("StepRecordLoader", "longer than %1 MB; line skipped")
                             .arg(kMaxLineBytes >> 20));
            continue;
        }
        while (!row.empty() && (row.back() == '\r' || row.back() == ' ' || row.back() == '\t'))
            row.remove_suffix(1);
        while (!row.empty() && (row.front() == ' ' || row.front() == '\t'))
            row.remove_prefix(1);
        if (line == 1 && row.substr(0, 3) == "\xEF\xBB\xBF")
            row.remove_prefix(3);
        if (row.empty())
            continue;
        if ((line & 4095) == 0) {
            progress.update(size > 0 ? static_cast<double>(pos) / size : 0.0);
            if (progress.cancelled())
                return;
        }
        Place where; // (its text is made only for a problem)
        where.line = line;
        StepRecord r;
        r.line = line;
        parser.startLine(where);
        const bool parsed = json::sax_parse(row.begin(), row.end(), &parser);
        if (parsed && parser.lineRecord()) { // the usual line
            if (parser.readLineRecord(r)) {
                // The lines still to come, at the mean line length of the first megabyte on (and never
                // more than a line of 16 bytes, the shortest record, each).
                size_t more = 0;
                if (pos >= (size_t(1) << 20)) {
                    const double left = std::max(0.0, size - double(pos));
                    more = size_t(std::min(left * double(line) / double(pos) * 1.05, left / 16));
                }
                sink.add(rank, std::move(r), more);
            }
            continue;
        }
        // The record parser stops only at a syntax error or past kMaxJsonDepth: a DOM of a line it
        // rejected would fail the same way (same grammar), so only the lines it read are parsed again.
        if (!parsed && !parser.tooDeep()) {
            problems.add(where.text(), QCoreApplication::translate("StepRecordLoader", "not valid JSON; line skipped"));
            continue;
        }
        json obj;
        if (parser.tooDeep() || parseBoundedJson(row.begin(), row.end(), obj) == JsonParse::TooDeep) {
            problems.add(where.text(),
                         QCoreApplication::translate("StepRecordLoader", "nested deeper than %1 levels; line skipped")
                             .arg(kMaxJsonDepth));
            continue;
        }
        if (obj.is_discarded()) {
            problems.add(where.text(), QCoreApplication::translate("StepRecordLoader", "not valid JSON; line skipped"));
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
        if (readRecord(obj, r, problems, where))
            sink.add(rank, std::move(r));
    }
}

// The bytes of a document for the parser, read in 64 KB blocks, with progress every 4 MB. Once the
// load is cancelled it reports the end of the input, which ends the parse (with an error).
class ProgressReader : public std::streambuf {
public:
    ProgressReader(std::istream& in, const std::string& path, const LoadProgress& progress)
        : m_in(in), m_progress(progress)
    {
        std::error_code ec;
        m_size = static_cast<double>(fs::file_size(path, ec));
    }
    bool cancelled() const { return m_cancelled; }

protected:
    int_type underflow() override
    {
        if (m_cancelled)
            return traits_type::eof();
        m_in.read(m_buffer, sizeof m_buffer);
        const std::streamsize n = m_in.gcount();
        if (n <= 0)
            return traits_type::eof();
        m_read += static_cast<uint64_t>(n);
        if (m_read - m_reported >= kReportEvery) {
            m_reported = m_read;
            m_progress.update(m_size > 0 ? static_cast<double>(m_read) / m_size : 0.0);
            if (m_progress.cancelled()) {
                m_cancelled = true;
                return traits_type::eof();
            }
        }
        setg(m_buffer, m_buffer, m_buffer + n);
        return traits_type::to_int_type(m_buffer[0]);
    }

private:
    static constexpr uint64_t kReportEvery = uint64_t(4) << 20;
    std::istream& m_in;
    const LoadProgress& m_progress;
    double m_size = 0;
    uint64_t m_read = 0, m_reported = 0;
    bool m_cancelled = false;
    char m_buffer[1 << 16];
};

// The server arguments of a GET /server_info document, for the configuration diff (core/compare
// ConfigDiff: "server.<key>[.<member>]" in Profile::metadata): top-level scalars, the scalar members of
// top-level objects, and top-level arrays while flat and short (lists of buckets are data, not settings).
// Taken from the document's DOM, whose record arrays the parser left empty: the file is read once.
void keepServerArgs(const json& doc, std::map<std::string, std::string>& metadata)
{
    constexpr size_t kMaxArrayChars = 512;
    const auto text = [](const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
    for (const auto& [key, value] : doc.items()) {
        const std::string name = "server." + key;
        if (value.is_primitive()) {
            metadata.emplace(name, text(value));
        } else if (value.is_object()) {
            for (const auto& [member, v] : value.items())
                if (v.is_primitive())
                    metadata.emplace(name + "." + member, text(v));
        } else if (value.is_array() && key != "internal_states") {
            std::string list = "[";
            bool flat = true;
            for (const json& v : value) {
                flat = flat && v.is_primitive() && list.size() <= kMaxArrayChars;
                if (!flat)
                    break;
                list += (list.size() > 1 ? "," : "") + v.dump();
            }
            if (flat)
                metadata.emplace(name, list + "]");
        }
    }
}

} // namespace

QString loadStepRecords(const ScannedFile& file, Profile& profile, const LoadProgress& progress)
{
    const QString path = QString::fromStdString(file.path);
    std::ifstream in(file.path, std::ios::binary);
    if (!in)
        return QCoreApplication::translate("StepRecordLoader", "%1: cannot be read").arg(path);

    auto set = profile.stepRecords ? profile.stepRecords : std::make_shared<StepRecordSet>();
    size_t added = 0;
    QString firstProblem;
    {
        FileProblems problems(file.path, profile);
        RankSink sink(*set, file, problems);
        const bool lines = file.format == FileFormat::StepRecordsJsonl || file.format == FileFormat::SpsRecordsJsonl;
        bool done = false;
        if (!lines) {
            // Parsed as it is read (as JSON Lines are): the text of a long run is never held whole.
            Streams streams;
            RecordParser parser(problems, &streams);
            ProgressReader reader(in, file.path, progress);
            std::istream document(&reader);
            if (!json::sax_parse(document, &parser)) { // perhaps JSON Lines: read again from the start
                if (parser.tooDeep())
                    return QCoreApplication::translate("StepRecordLoader",
                                                       "%1: JSON nested deeper than %2 levels; not loaded")
                        .arg(path)
                        .arg(kMaxJsonDepth);
                done = reader.cancelled();
                in.clear();
                in.seekg(0);
            } else if (!readDocument(parser.document(), file, sink, problems, &streams)) {
                return QCoreApplication::translate(
                           "StepRecordLoader",
                           "%1: a JSON document without DSpark step records (expected a server_info response, "
                           "a dspark_info_record or a list of records)")
                    .arg(path);
            } else {
                if (file.format == FileFormat::ServerInfoJson && parser.document().is_object())
                    keepServerArgs(parser.document(), profile.metadata);
                done = true;
            }
        }
        if (!done) // JSON Lines, or a .json file that turns out to hold JSON Lines
            readJsonLines(in, file, sink, problems, progress);
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

void alignStepRecords(Profile& profile, const NameRule& stepSpan)
{
    if (!profile.stepRecords)
        return;
    profile.stepRecords->alignment = alignSteps(profile, *profile.stepRecords, stepSpan);
}

} // namespace dspark
