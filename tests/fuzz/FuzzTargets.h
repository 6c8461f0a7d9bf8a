#pragma once
// The fuzz targets: each libFuzzer harness (tests/fuzz/fuzz_*.cpp, built when DSPARK_FUZZ=ON, run with
// tools/fuzz.sh) is one of these, and tests/io/tst_fuzz_regressions runs the inputs they found through
// them in the ordinary suite. A JSON input becomes a file in a private scratch folder that the real
// loaders then read, as the viewer would; a database is recognised and loaded where it is, in memory
// (ScannedFile::image through loadScannedProfile: no file, no folder scan; docs/reliability.md,
// "Throughput towards 10 M").
#include "analysis/AnalysisRules.h"
#include "analysis/StepAnalysis.h"
#include "io/FileRecognition.h"
#include "io/ProfileLoader.h"
#include "io/ProfileScanner.h"
#include "model/Profile.h"
#include "report/AnalyzeJson.h"
#include "report/StepsJson.h"
#include "util/BoundedJson.h"
#ifndef DSPARK_REAL_TESTDATA
#include "TestSupport.h"
#endif

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace dspark::fuzz {

// The real fixture folder: the harnesses get it as a define (tests/fuzz/CMakeLists.txt), the suite from
// its one generated paths file (tests/common/TestSupport.h).
#ifdef DSPARK_REAL_TESTDATA
inline std::string realTestData()
{
    return DSPARK_REAL_TESTDATA;
}
#else
inline std::string realTestData()
{
    return test::realTestDataDir().toStdString();
}
#endif

// A folder of this process's own under TMPDIR (tools/fuzz.sh points it at tmpfs), emptied for each input.
inline const std::filesystem::path& scratch()
{
    static const std::filesystem::path dir = [] {
        const char* tmp = std::getenv("TMPDIR");
        std::filesystem::path d =
            std::filesystem::path(tmp && *tmp ? tmp : "/tmp") / ("dspark-fuzz-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        return d;
    }();
    return dir;
}

inline void clearScratch()
{
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(scratch(), ec))
        std::filesystem::remove_all(e.path(), ec);
}

inline std::string writeScratch(const std::string& name, const uint8_t* data, size_t size)
{
    const std::filesystem::path p = scratch() / name;
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return p.string();
}

// One thread (inputs are small: a worker started per input would cost more than the load) and the
// built-in rules read once.
inline const LoadOptions& loadOptions()
{
    static const LoadOptions options = [] {
        LoadOptions o;
        o.threads = 1;
        o.rules = std::make_shared<const AnalysisRules>(AnalysisRules::load({}, nullptr));
        return o;
    }();
    return options;
}

// Runs what the CLI's reports run over what loaded (so that the alignment, the analyses and the JSON
// output see whatever the loaders let through).
inline void report(const LoadOutcome& o)
{
    if (!o.profile)
        return;
    (void)dumpJson(analyzeJson(*o.profile, analyzeProfile(*o.profile, *loadOptions().rules)), 2);
    if (o.profile->stepRecords)
        (void)dumpJson(stepsJson(*o.profile), 2);
}

// Loads `path` as the viewer would (scan, recognition, loaders) and reports on it. This is loadProfile
// without its malloc_trim at the end of a load: per input, that trim's madvise calls took a quarter of
// step_records' CPU (docs/reliability.md, "Session 23").
inline void loadAndReport(const std::string& path)
{
    const ScanResult scan = scanProfilePath(path);
    if (scan.error.isEmpty())
        report(loadScannedProfile(scan, path, {}, loadOptions()));
}

// The outcome of loading one database held in memory as the file `name` (a .db), as loadProfile loads it:
// recognised by its content, its rank taken from the name, then loaded if the scan would select it.
inline LoadOutcome loadDatabaseImage(const std::string& name, std::string_view image)
{
    ScanResult scan;
    scan.root = "/fuzz";
    scan.examined = 1;
    ScannedFile file;
    file.path = scan.root + "/" + name;
    const Recognition r = recognizeDatabaseImage(file.path, image);
    file.format = r.format;
    file.rankNumber = name.starts_with("ascend_pytorch_profiler_0") ? 0 : -1; // (as rankFromName says)
    file.image = image;
    if (file.format != FileFormat::TorchNpuDb && file.format != FileFormat::MsprofDb)
        return {nullptr, QString::fromStdString(r.reason), false}; // (not selected: nothing to load)
    scan.files.push_back(file);
    return loadScannedProfile(scan, file.path, {}, loadOptions());
}

// The Chrome-trace loader (torch_npu trace_view.json, Kineto, msprof JSON) on raw bytes. The
// first byte picks the file name, and so the format the scanner gives it.
inline int chromeTrace(const uint8_t* data, size_t size)
{
    if (size < 1)
        return 0;
    static const char* const names[] = {"trace_view.json", "rank0.pt.trace.json", "msprof_0.json"};
    clearScratch();
    const std::string path = writeScratch(names[data[0] % 3], data + 1, size - 1);
    loadAndReport(path);
    return 0;
}

// The step-record loader (server_info.json, a dspark_info_record, JSON Lines, sps records),
// alone or beside a small trace with step[...] spans so that the alignment runs on what it reads. The
// first byte picks the file name (bits 0-1) and whether the trace is there (bit 2).
namespace stepRecords_detail {

// Eight decode steps of bs 4 on one host thread, each with one kernel on a device stream.
inline std::string stepTrace()
{
    std::string t = "[";
    for (int i = 0; i < 8; ++i) {
        const std::string ts = std::to_string(1000 + i * 100) + ".000";
        t += std::string(i ? "," : "") + R"({"name":"step[DECODE bs=4]","ph":"X","ts":")" + ts +
             R"(","dur":80,"pid":1,"tid":1},{"name":"MatMul","ph":"X","ts":")" + ts +
             R"(","dur":40,"pid":2,"tid":7,"args":{"Task Type":"AI_CORE"}})";
    }
    return t + R"(,{"name":"process_name","ph":"M","pid":2,"args":{"name":"Ascend Hardware"}}])";
}

} // namespace stepRecords_detail
using namespace stepRecords_detail;

inline int stepRecords(const uint8_t* data, size_t size)
{
    if (size < 1)
        return 0;
    static const char* const names[] = {"server_info.json", "records_dp0.jsonl", "dspark.records.jsonl",
                                        "dspark_info_record.json"};
    static const std::string trace = stepTrace();
    clearScratch();
    writeScratch(names[data[0] & 3], data + 1, size - 1);
    if (data[0] & 4)
        writeScratch("trace_view.json", reinterpret_cast<const uint8_t*>(trace.data()), trace.size());
    loadAndReport(scratch().string());
    return 0;
}

// The database loader on raw bytes (a torch_npu or msprof .db, by the first byte), so that
// mutations reach SQLite's page format and the loader's reaction to a damaged file. The bytes are read
// in place (sqlite3_deserialize), never written to a file.
inline const char* dbName(uint8_t selector)
{
    return (selector & 1) ? "msprof_0.db" : "ascend_pytorch_profiler_0.db";
}

inline int dbBytes(const uint8_t* data, size_t size)
{
    if (size < 1)
        return 0;
    report(loadDatabaseImage(dbName(data[0]), {reinterpret_cast<const char*>(data + 1), size - 1}));
    return 0;
}

// The database loader on real databases edited by SQL, so that mutations reach the semantics
// (ids that point nowhere, extreme times, wrong types, missing and repeated rows), not only the page
// format. The input is a list of edits applied to a copy of a real fixture (torch_npu or msprof by bit 0
// of the first byte, a time window of it or cut small by bit 1); DSPARK_FUZZ_TORCH_DB / DSPARK_FUZZ_MSPROF_DB
// override where the fixtures are.
namespace dbSql_detail {

struct Table {
    std::string name;
    std::vector<std::string> columns;
};

struct Template {
    std::string bytes;
    std::vector<Table> tables;
};

inline std::string sqlName(const std::string& name)
{
    std::string q = "\"";
    for (char c : name)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

inline void exec(sqlite3* db, const std::string& sql)
{
    sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
}

// The first column of the first row of `sql`, 0 when there is none.
inline int64_t queryInt(sqlite3* db, const std::string& sql)
{
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr);
    const int64_t v = st && sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return v;
}

// The real fixture, cut to its first kTemplateRows rows a table or to a time window (1 KB pages, no WAL): each
// input edits and loads a copy, so a small template is what makes the harness fast; the cut keeps every
// table, column and kind of row, the window the links between tables that a cut by row breaks.
constexpr int kTemplateRows = 60;
enum class Cut { Rows, Window };

// The window: the rows of the second quarter of the device tasks, from 1 ms before the first (their
// launches), and the task details of the tasks kept; tables of at most kTemplateRows rows whole. (The first quarter
// holds 70 % of the real torch_npu fixture's host calls: its whole cost 4 times the cut's load a run;
// docs/reliability.md.)
inline void cutToWindow(sqlite3* db, const std::vector<Table>& tables)
{
    const auto has = [](const Table& t, const char* column) {
        return std::find(t.columns.begin(), t.columns.end(), column) != t.columns.end();
    };
    const auto task = std::find_if(tables.begin(), tables.end(), [](const Table& t) { return t.name == "TASK"; });
    if (task == tables.end() || !has(*task, "startNs"))
        return;
    // (Read once: the deletes below change TASK.)
    const auto taskStart = [db](const char* at) {
        return queryInt(db, "SELECT startNs FROM TASK ORDER BY startNs LIMIT 1 OFFSET (SELECT count(*) " +
                                std::string(at) + " FROM TASK)");
    };
    const std::string from = std::to_string(taskStart("/ 4") - 1'000'000), to = std::to_string(taskStart("/ 2"));
    for (const Table& table : tables) {
        if (table.name != "TASK" && queryInt(db, "SELECT count(*) FROM " + sqlName(table.name)) <= kTemplateRows)
            continue; // (small tables whole: the few collectives, markers and steps of the fixture)
        for (const char* time : {"startNs", "timestampNs", "timestamp", "allocationTime"})
            if (has(table, time)) {
                exec(db,
                     "DELETE FROM " + sqlName(table.name) + " WHERE " + time + " NOT BETWEEN " + from + " AND " + to);
                break;
            }
    }
    for (const Table& table : tables)
        if (table.name != "TASK" && has(table, "globalTaskId") && !has(table, "startNs"))
            exec(db,
                 "DELETE FROM " + sqlName(table.name) + " WHERE globalTaskId NOT IN (SELECT globalTaskId FROM TASK)");
}

// The tables of samples that no other table refers to (counters, call stacks, PMU records): past their
// first kTemplateRows rows they take the same paths again, so the window cuts them too (most of
// its rows; no edge lost over the saved corpus, 8 % less CPU: docs/reliability.md).
inline bool isBulkTable(const std::string& name)
{
    static const char* const bulk[] = {
        "TASK_PMU_INFO", "PYTORCH_CALLCHAINS", "NPU_MODULE_MEM", "MEMORY_RECORD", "ACC_PMU",
        "OP_MEMORY",     "NPU_OP_MEM",         "NPU_MEM",        "HBM",           "DDR",
        "LLC",           "AICORE_FREQ"};
    return std::find(std::begin(bulk), std::end(bulk), name) != std::end(bulk);
}

inline Template readTemplate(const char* env, const std::string& fallback, Cut cut)
{
    Template t;
    const char* given = std::getenv(env);
    const std::string source = given && *given ? given : fallback;
    const std::string path = (scratch() / "template.db").string();
    std::filesystem::remove(path);
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(("file:" + source + "?immutable=1").c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                        nullptr) == SQLITE_OK)
        exec(db, "VACUUM INTO '" + path + "'");
    sqlite3_close(db);
    db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", -1, &st, nullptr);
        while (st && sqlite3_step(st) == SQLITE_ROW)
            t.tables.push_back({reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), {}});
        sqlite3_finalize(st);
        for (Table& table : t.tables) {
            const std::string name = sqlName(table.name);
            sqlite3_prepare_v2(db, ("PRAGMA table_info(" + name + ")").c_str(), -1, &st, nullptr);
            while (st && sqlite3_step(st) == SQLITE_ROW)
                table.columns.push_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 1)));
            sqlite3_finalize(st);
            if (cut == Cut::Rows || isBulkTable(table.name))
                exec(db, "DELETE FROM " + name + " WHERE rowid NOT IN (SELECT rowid FROM " + name +
                             " ORDER BY rowid LIMIT " + std::to_string(kTemplateRows) + ")");
        }
        if (cut == Cut::Window)
            cutToWindow(db, t.tables);
        exec(db, "PRAGMA journal_mode = DELETE; PRAGMA page_size = 1024; VACUUM");
    }
    sqlite3_close(db);
    std::ifstream in(path, std::ios::binary);
    t.bytes.assign(std::istreambuf_iterator<char>(in), {});
    std::filesystem::remove(path);
    std::erase_if(t.tables, [](const Table& table) { return table.columns.empty(); });
    return t;
}

class Input {
public:
    Input(const uint8_t* data, size_t size) : m_data(data), m_size(size) {}
    bool empty() const { return m_pos >= m_size; }
    uint8_t byte() { return m_pos < m_size ? m_data[m_pos++] : 0; }
    uint64_t u64()
    {
        uint64_t v = 0;
        for (int i = 0; i < 8; ++i)
            v = (v << 8) | byte();
        return v;
    }
    std::string text(size_t length)
    {
        std::string s;
        while (s.size() < length && !empty())
            s += static_cast<char>(byte());
        return s;
    }

private:
    const uint8_t* m_data;
    size_t m_size;
    size_t m_pos = 0;
};

// Binds the value the next bytes describe: an extreme or arbitrary integer, a real, text, a blob, NULL.
inline void bindValue(sqlite3_stmt* st, int index, Input& in)
{
    static const int64_t specials[] = {0,
                                       -1,
                                       1,
                                       4294967295LL,
                                       std::numeric_limits<int64_t>::max(),
                                       std::numeric_limits<int64_t>::min(),
                                       int64_t(1) << 62,
                                       -(int64_t(1) << 62),
                                       int64_t(1) << 53};
    switch (in.byte() % 7) {
    case 0: sqlite3_bind_int64(st, index, specials[in.byte() % std::size(specials)]); break;
    case 1: sqlite3_bind_int64(st, index, static_cast<int64_t>(in.u64())); break;
    case 2: sqlite3_bind_int64(st, index, in.byte()); break;
    case 3: {
        const uint64_t bits = in.u64();
        double d;
        std::memcpy(&d, &bits, sizeof d);
        sqlite3_bind_double(st, index, d);
        break;
    }
    case 4: {
        const std::string s = in.text(in.byte() % 24);
        sqlite3_bind_text(st, index, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
        break;
    }
    case 5: {
        const std::string s = in.text(in.byte() % 16);
        sqlite3_bind_blob(st, index, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
        break;
    }
    default: sqlite3_bind_null(st, index); break;
    }
}

inline void run(sqlite3* db, const std::string& sql, Input* in, int values)
{
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK) {
        for (int i = 1; i <= values; ++i)
            bindValue(st, i, *in);
        sqlite3_step(st);
    }
    sqlite3_finalize(st);
}

// One edit: a column of one row, of every n-th row or of all rows set to a value; rows deleted; a row
// copied (the same ids twice); or a table dropped.
inline void applyEdit(sqlite3* db, const Template& t, Input& in)
{
    const Table& table = t.tables[in.byte() % t.tables.size()];
    const std::string name = sqlName(table.name);
    const std::string column = sqlName(table.columns[in.byte() % table.columns.size()]);
    const uint8_t op = in.byte() % 16;
    const std::string every = std::to_string(1 + in.byte() % 8), at = std::to_string(in.byte() % 8);
    if (op < 6)
        run(db, "UPDATE " + name + " SET " + column + " = ? WHERE rowid = " + std::to_string(1 + in.byte()), &in, 1);
    else if (op < 9)
        run(db, "UPDATE " + name + " SET " + column + " = ? WHERE rowid % " + every + " = " + at, &in, 1);
    else if (op < 11)
        run(db, "UPDATE " + name + " SET " + column + " = ?", &in, 1);
    else if (op < 13)
        run(db, "DELETE FROM " + name + " WHERE rowid % " + every + " = " + at, &in, 0);
    else if (op < 15)
        run(db, "INSERT INTO " + name + " SELECT * FROM " + name + " WHERE rowid % " + every + " = " + at, &in, 0);
    else
        run(db, "DROP TABLE " + name, &in, 0);
}

// The templates, read once: torch_npu / msprof (bit 0 of the selector), cut by row / by time (bit 1).
inline const Template& dbSqlTemplate(uint8_t selector)
{
    const std::string torch =
        realTestData() + "/ascend/torch_npu_db_rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db";
    const std::string msprofDb = realTestData() + "/ascend/msprof_edited_db/msprof_0.db";
    static const Template templates[] = {readTemplate("DSPARK_FUZZ_TORCH_DB", torch, Cut::Rows),
                                         readTemplate("DSPARK_FUZZ_MSPROF_DB", msprofDb, Cut::Rows),
                                         readTemplate("DSPARK_FUZZ_TORCH_DB", torch, Cut::Window),
                                         readTemplate("DSPARK_FUZZ_MSPROF_DB", msprofDb, Cut::Window)};
    return templates[selector & 3];
}

// An in-memory copy of the input's template with its edits applied (no file, no journal), handed to
// `use(name, image)` while the copy is open.
template <typename Use> void withEditedTemplate(const uint8_t* data, size_t size, Use&& use)
{
    if (size < 1)
        return;
    const Template& t = dbSqlTemplate(data[0]);
    if (t.tables.empty())
        return;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return;
    }
    // SQLite owns (and may grow) the copy: FREEONCLOSE | RESIZEABLE.
    auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(t.bytes.size()));
    std::memcpy(copy, t.bytes.data(), t.bytes.size());
    const auto bytes = static_cast<sqlite3_int64>(t.bytes.size());
    if (sqlite3_deserialize(db, "main", copy, bytes, bytes,
                            SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) == SQLITE_OK) {
        exec(db, "PRAGMA journal_mode = OFF; BEGIN");
        Input in(data + 1, size - 1);
        for (int edits = 0; !in.empty() && edits < 16; ++edits)
            applyEdit(db, t, in);
        exec(db, "COMMIT");
        sqlite3_int64 imageSize = 0;
        const unsigned char* image = sqlite3_serialize(db, "main", &imageSize, SQLITE_SERIALIZE_NOCOPY);
        if (image)
            use(dbName(data[0]),
                std::string_view(reinterpret_cast<const char*>(image), static_cast<size_t>(imageSize)));
    }
    sqlite3_close(db);
}

} // namespace dbSql_detail
using namespace dbSql_detail;

inline int dbSql(const uint8_t* data, size_t size)
{
    withEditedTemplate(data, size,
                       [](const std::string& name, std::string_view image) { report(loadDatabaseImage(name, image)); });
    return 0;
}

} // namespace dspark::fuzz
