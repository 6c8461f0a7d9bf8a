#include "io/db/MsprofDbReader.h"

#include "io/db/Varint.h"
#include "util/StepTimer.h"

#include "util/Parallel.h"
#include "util/StepTimer.h"

#include <QCoreApplication>

#include <sqlite3.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <strings.h>
#include <tuple>

namespace fs = std::filesystem;

namespace dspark::db {

namespace {

using Arg = RowArgs::Type;
constexpr int64_t kNone = 4294967295; // msprof's "no value" for ids
constexpr size_t kSampleRows = 65536;

bool isNoneId(int64_t v)
{
    return v == kNone || v == -1;
}

// Sorted-vector look-up that first tries the neighbour of the previous hit: TASK rows come in time
// order and so do their connection / global task ids, which makes most look-ups O(1).
template <typename T, typename Key>
const T* findSorted(const std::vector<T>& rows, int64_t key, size_t& hint, Key keyOf)
{
    if (rows.empty())
        return nullptr;
    for (size_t probe : {hint, hint + 1}) {
        if (probe < rows.size() && keyOf(rows[probe]) == key) {
            hint = probe;
            return &rows[probe];
        }
    }
    auto it = std::lower_bound(rows.begin(), rows.end(), key, [&](const T& row, int64_t k) { return keyOf(row) < k; });
    if (it == rows.end() || keyOf(*it) != key)
        return nullptr;
    hint = static_cast<size_t>(it - rows.begin());
    return &*it;
}

// First element of the run of `key` found by findSorted (several rows may share a key).
template <typename T, typename Key> const T* firstOfRun(const std::vector<T>& rows, const T* found, Key keyOf)
{
    while (found && found != rows.data() && keyOf(*(found - 1)) == keyOf(*found))
        --found;
    return found;
}

template <typename T, typename Key> void sortByKey(std::vector<T>& rows, Key keyOf)
{
    auto less = [&](const T& a, const T& b) { return keyOf(a) < keyOf(b); };
    if (!std::is_sorted(rows.begin(), rows.end(), less))
        std::stable_sort(rows.begin(), rows.end(), less);
}

// "read" → "Read", "app" → "APP" (msprof's own counter track names, trace_view.json).
std::string counterLabel(std::string_view s)
{
    if (s == "app")
        return "APP";
    std::string out(s);
    if (!out.empty())
        out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
    return out;
}

// Rows a worker stepped for the loading thread, kept compact: per row the NULL flags of its columns,
// then each non-NULL value as a zig-zag varint of its difference to the column's previous value (task
// rows come in time order with ids that mostly count up, so most take a byte or two).
class TaskStage {
public:
    static constexpr int kMaxColumns = 16;
    // A staged row, read like the statement it came from.
    struct Row {
        int64_t value[kMaxColumns] = {};
        uint32_t nulls = 0;
        int64_t int64(int column) const { return column < 0 ? 0 : value[column]; }
        bool isNull(int column) const { return column < 0 || (nulls >> column & 1); }
    };

    explicit TaskStage(int columns) : m_columns(std::min(columns, kMaxColumns)) {}
    uint64_t rows() const { return m_rows; }

    void append(const SqliteStatement& st)
    {
        if (m_blocks.empty() || m_sizes.back() + kMaxRowBytes > kBlockBytes) {
            m_blocks.emplace_back(new uint8_t[kBlockBytes]);
            m_sizes.push_back(0);
        }
        uint8_t* p = m_blocks.back().get() + m_sizes.back();
        uint8_t* const start = p;
        uint32_t nulls = 0;
        for (int c = 0; c < m_columns; ++c)
            nulls |= st.isNull(c) ? 1u << c : 0;
        p = putVarint(p, nulls);
        for (int c = 0; c < m_columns; ++c) {
            if (nulls >> c & 1)
                continue;
            const int64_t v = st.int64(c);
            p = putVarint(p, zigzag(static_cast<int64_t>(static_cast<uint64_t>(v) - static_cast<uint64_t>(m_last[c]))));
            m_last[c] = v;
        }
        m_sizes.back() += static_cast<size_t>(p - start);
        ++m_rows;
    }

    // Calls f(row) for every staged row in order; false when the load was cancelled on the way.
    template <typename F> bool forEach(F&& f, const LoadProgress& progress) const
    {
        Row row;
        int64_t last[kMaxColumns] = {};
        uint64_t n = 0;
        for (size_t b = 0; b < m_blocks.size(); ++b) {
            const uint8_t* p = m_blocks[b].get();
            const uint8_t* const end = p + m_sizes[b];
            while (p < end) {
                uint64_t v = 0;
                p = getVarint(p, end, v);
                row.nulls = static_cast<uint32_t>(v);
                for (int c = 0; c < m_columns; ++c) {
                    if (row.nulls >> c & 1) {
                        row.value[c] = 0;
                        continue;
                    }
                    p = getVarint(p, end, v);
                    last[c] = static_cast<int64_t>(static_cast<uint64_t>(last[c]) + static_cast<uint64_t>(unzigzag(v)));
                    row.value[c] = last[c];
                }
                f(row);
                if ((++n & 4095) == 0 && progress.cancelled())
                    return false;
            }
        }
        return true;
    }

private:
    static constexpr size_t kBlockBytes = size_t(1) << 20;
    static constexpr size_t kMaxRowBytes = 5 + kMaxColumns * 10;

    int m_columns;
    int64_t m_last[kMaxColumns] = {};
    std::vector<std::unique_ptr<uint8_t[]>> m_blocks;
    std::vector<size_t> m_sizes; // bytes used in each block
    uint64_t m_rows = 0;
};

} // namespace

// ---------------------------------------------------------------------------------------------
// A SELECT over the columns a table really has. add() returns the result column or -1 when the
// table lacks every alternative ("blockNum|blockDim").
class MsprofDbReader::TableQuery {
public:
    TableQuery(const SqliteDatabase& db, const char* table) : m_db(db), m_table(table), m_columns(db.columns(table)) {}
    bool exists() const { return !m_columns.empty(); }
    int add(const char* alternatives, bool castInteger = false)
    {
        std::string_view all(alternatives);
        while (!all.empty()) {
            const size_t bar = all.find('|');
            if (const std::string* c = column(all.substr(0, bar))) {
                const std::string q = SqliteDatabase::quote(*c);
                m_select.push_back(castInteger ? "CAST(" + q + " AS INTEGER)" : q);
                m_names.push_back(*c);
                return static_cast<int>(m_select.size() - 1);
            }
            all = bar == std::string_view::npos ? std::string_view() : all.substr(bar + 1);
        }
        return -1;
    }
    int columnCount() const { return static_cast<int>(m_select.size()); }
    // Whether the table has a column of this name (any case).
    bool hasColumn(std::string_view name) const { return column(name) != nullptr; }
    // Actual column name of a result column ("blockDim" or "blockNum").
    const std::string& name(int column) const { return m_names[column]; }
    std::string sql(const std::string& suffix = {}) const
    {
        std::string text = "SELECT ";
        for (size_t i = 0; i < m_select.size(); ++i)
            text += (i ? ", " : "") + m_select[i];
        if (m_select.empty())
            text += "1";
        return text + " FROM " + SqliteDatabase::quote(m_table) + suffix;
    }
    SqliteStatement prepare(const std::string& suffix = {}) const
    {
        return SqliteStatement(m_db.handle(), sql(suffix));
    }
    // The columns as stored (no CAST), of the first `rows` rows.
    SqliteStatement prepareStored(int rows) const
    {
        std::string text = "SELECT ";
        for (size_t i = 0; i < m_names.size(); ++i)
            text += (i ? ", " : "") + SqliteDatabase::quote(m_names[i]);
        return SqliteStatement(m_db.handle(), text + (m_names.empty() ? "1" : "") + " FROM " +
                                                  SqliteDatabase::quote(m_table) + " LIMIT " + std::to_string(rows));
    }

private:
    // The table's column of this name (any case), or null.
    const std::string* column(std::string_view name) const
    {
        for (const std::string& c : m_columns)
            if (c.size() == name.size() && strncasecmp(c.data(), name.data(), c.size()) == 0)
                return &c;
        return nullptr;
    }

    const SqliteDatabase& m_db;
    std::string m_table;
    std::vector<std::string> m_columns;
    std::vector<std::string> m_select;
    std::vector<std::string> m_names;
};

MsprofDbReader::MsprofDbReader(const ScannedFile& file, Profile& profile, const LoadProgress& progress,
                               const LoadOptions& options)
    : m_file(file), m_profile(profile), m_progress(progress), m_threads(options.threads),
      m_parallelRows(options.dbParallelRows), m_fileName(QString::fromStdString(file.path))
{
    takeSnapshot();
}

QString MsprofDbReader::read()
{
    if (QString e = checkFile(); !e.isEmpty())
        return e;
    if (!openDatabase(m_db))
        return QCoreApplication::translate("MsprofDbLoader", "%1: cannot be opened as a database (%2)")
            .arg(m_fileName, QString::fromStdString(m_db.errorText()));
    if (QString e = checkSchema(); !e.isEmpty())
        return e;

    m_args = &rowArgs();
    StepTimer timer("db"); // DSPARK_TRACE_TIMING: the phases below on stderr
    // Row counts first: progress fractions (every table read below, the strings too) and buffer sizes.
    beginPhase(QCoreApplication::translate("MsprofDbLoader", "Counting rows"));
    for (const char* t : {"STRING_IDS", "CANN_API", "PYTORCH_API", "CONNECTION_IDS", "MSTX_EVENTS", "TASK",
                          "COMPUTE_TASK_INFO", "COMMUNICATION_TASK_INFO", "COMMUNICATION_OP"})
        m_rowsTotal += static_cast<double>(rowCount(t));
    timer.lap("counting");
    beginPhase(QCoreApplication::translate("MsprofDbLoader", "Reading strings"));
    QString error = readStrings();
    if (error.isEmpty()) {
        readEnum("ENUM_API_TYPE", m_apiTypes);
        readEnum("ENUM_MSTX_EVENT_TYPE", m_mstxTypes);
        readEnum("ENUM_HCCL_DATA_TYPE", m_hcclDataTypes);
        readEnum("ENUM_HCCL_LINK_TYPE", m_hcclLinkTypes);
        readEnum("ENUM_HCCL_TRANSPORT_TYPE", m_hcclTransportTypes);
        readEnum("ENUM_HCCL_RDMA_TYPE", m_hcclRdmaTypes);
        readEnum("ENUM_MEMCPY_OPERATION", m_memcpyOps);
        readMetadata();
        resolveRanks();
    }
    timer.lap("strings");

    if (error.isEmpty())
        error = readHostAndDetailTables();
    timer.lap("host+details");
    if (error.isEmpty())
        error = readTasks();
    timer.lap("tasks");
    if (error.isEmpty())
        linkTorchFlows();
    timer.lap("flows");
    using Step = QString (MsprofDbReader::*)();
    for (Step step : {&MsprofDbReader::readStepTime, &MsprofDbReader::readOverlap, &MsprofDbReader::readCounters}) {
        if (!error.isEmpty())
            break;
        error = (this->*step)();
    }
    timer.lap("steps+rest");
    if (!error.isEmpty()) {
        rollback();
        return error;
    }
    reportWarnings();
    m_progress.update(1.0);
    return {};
}

// ---------------------------------------------------------------------------------------------
// Checks that do not need SQLite: readable, an SQLite header, not truncated. They turn the usual
// "file is not a database" into a message that says what is wrong.
QString MsprofDbReader::checkFile()
{
    unsigned char header[100] = {};
    size_t got = 0;
    std::error_code ec;
    uint64_t size = 0;
    if (m_file.inMemory()) {
        got = std::min(sizeof header, m_file.image.size());
        std::memcpy(header, m_file.image.data(), got);
        size = m_file.image.size();
    } else {
        std::FILE* f = std::fopen(m_file.path.c_str(), "rb");
        if (!f)
            return QCoreApplication::translate("MsprofDbLoader", "%1: cannot be read (%2)")
                .arg(m_fileName, QString::fromLocal8Bit(std::strerror(errno)));
        got = std::fread(header, 1, sizeof header, f);
        std::fclose(f);
        size = static_cast<uint64_t>(fs::file_size(m_file.path, ec));
    }
    if (got == 0)
        return QCoreApplication::translate("MsprofDbLoader", "%1: the file is empty, not an SQLite database")
            .arg(m_fileName);
    if (got < 16 || std::memcmp(header, "SQLite format 3", 16) != 0)
        return QCoreApplication::translate(
                   "MsprofDbLoader", "%1: not an SQLite database (the file does not start with the SQLite header)")
            .arg(m_fileName);
    if (got < sizeof header)
        return QCoreApplication::translate("MsprofDbLoader",
                                           "%1: truncated SQLite database (%2 bytes, shorter than its 100-byte header)")
            .arg(m_fileName)
            .arg(got);
    // Header fields (sqlite.org/fileformat.html §1.3): page size at 16, change counter at 24,
    // page count at 28, valid when "version-valid-for" at 92 equals the change counter.
    auto be32 = [&](int at) {
        return (uint32_t(header[at]) << 24) | (uint32_t(header[at + 1]) << 16) | (uint32_t(header[at + 2]) << 8) |
               uint32_t(header[at + 3]);
    };
    uint64_t pageSize = (uint32_t(header[16]) << 8) | header[17];
    if (pageSize == 1)
        pageSize = 65536;
    const uint64_t pages = be32(28);
    if (be32(24) == be32(92) && pages > 0 && pageSize >= 512 && size < pages * pageSize)
        return QCoreApplication::translate("MsprofDbLoader",
                                           "%1: truncated SQLite database (%2 bytes of the %3 its header declares)")
            .arg(m_fileName)
            .arg(size)
            .arg(pages * pageSize);
    const std::string wal = m_file.path + "-wal";
    if (!m_file.inMemory() && fs::exists(wal, ec) && fs::file_size(wal, ec) > 0)
        m_warnings << QCoreApplication::translate(
                          "MsprofDbLoader",
                          "%1: a write-ahead log (%2) lies next to the database; changes not yet checkpointed into "
                          "the database are not shown (the profile is opened read-only)")
                          .arg(m_fileName, QString::fromStdString(fs::path(wal).filename().string()));
    return {};
}

bool MsprofDbReader::openDatabase(SqliteDatabase& db) const
{
    return m_file.inMemory() ? db.openImage(m_file.image) : db.open(m_file.path);
}

QString MsprofDbReader::checkSchema()
{
    if (!m_db.readSchema()) {
        const int code = m_db.errorCode() & 0xff;
        const QString what = code == SQLITE_NOTADB || code == SQLITE_CORRUPT
                                 ? QCoreApplication::translate("MsprofDbLoader", "the database is corrupt")
                                 : QCoreApplication::translate("MsprofDbLoader", "the database cannot be read");
        return QCoreApplication::translate("MsprofDbLoader", "%1: %2 (%3)")
            .arg(m_fileName, what, QString::fromStdString(m_db.errorText()));
    }
    static const char* const timelineTables[] = {"TASK",        "CANN_API",  "PYTORCH_API",      "COMMUNICATION_OP",
                                                 "MSTX_EVENTS", "STEP_TIME", "OVERLAP_ANALYSIS", "GC_RECORD"};
    for (const char* t : timelineTables)
        if (m_db.hasTable(t))
            return {};
    const int tables = static_cast<int>(m_db.tableCount()); // a plain name: lupdate skips casts in the count
    return QCoreApplication::translate(
               "MsprofDbLoader",
               "%1: no profiler tables (none of TASK, CANN_API, PYTORCH_API, COMMUNICATION_OP, MSTX_EVENTS; the "
               "database has %n table(s)) — not msprof / torch_npu profiler output",
               nullptr, tables)
        .arg(m_fileName);
}

void MsprofDbReader::takeSnapshot()
{
    m_snapshot = m_profile.contents();
}

void MsprofDbReader::rollback()
{
    m_profile.restore(m_snapshot);
}

int64_t MsprofDbReader::rowCount(const char* table)
{
    auto it = m_rowCounts.find(table);
    if (it == m_rowCounts.end())
        it = m_rowCounts.emplace(table, m_db.hasTable(table) ? std::max<int64_t>(0, m_db.count(table)) : 0).first;
    return it->second;
}

bool MsprofDbReader::hasTimes(int startColumn, int endColumn, const char* table)
{
    if (startColumn >= 0 && endColumn >= 0)
        return true;
    m_warnings << QCoreApplication::translate("MsprofDbLoader", "%1: table %2 lacks its startNs/endNs columns; skipped")
                      .arg(m_fileName, table);
    return false;
}

uint16_t MsprofDbReader::addSchema(std::initializer_list<std::pair<const char*, RowArgs::Type>> fields)
{
    std::vector<RowArgs::Field> out;
    for (const auto& [key, type] : fields)
        out.push_back({m_profile.strings.intern(key), type});
    return m_args->addSchema(std::move(out));
}

RowArgs& MsprofDbReader::rowArgs()
{
    for (size_t id = 1; id < m_profile.argsSourceCount(); ++id)
        if (auto* existing = dynamic_cast<RowArgs*>(m_profile.argsSource(static_cast<ArgsSourceId>(id)))) {
            m_argsSourceId = static_cast<ArgsSourceId>(id);
            return *existing;
        }
    auto source = std::make_unique<RowArgs>(&m_profile.strings);
    RowArgs* raw = source.get();
    m_argsSourceId = m_profile.addArgsSource(std::move(source));
    return *raw;
}

// ---------------------------------------------------------------------------------------------
QString MsprofDbReader::forEachRow(SqliteStatement& st, const char* table, const std::function<void()>& perRow,
                                   const SqliteDatabase* worker, const bool* stop)
{
    const SqliteDatabase& db = worker ? *worker : m_db;
    if (!st.ok())
        return readError(db, table);
    if (m_progress.cancelled()) // also between tables, however small they are
        return cancelError();
    int rc;
    uint64_t n = 0;
    while ((rc = st.step()) == SQLITE_ROW) {
        perRow();
        if ((++n & 4095) == 0) {
            if (m_progress.cancelled())
                return cancelError();
            if (worker) {
                m_workerRows.fetch_add(4096, std::memory_order_relaxed);
                if (stop && *stop)
                    return {};
            } else if ((n & 65535) == 0) {
                const uint64_t workerRows = m_workerRows.load(std::memory_order_relaxed);
                m_progress.update((m_rowsDone + static_cast<double>(n + workerRows)) / m_rowsTotal);
            }
        }
    }
    if (!worker)
        m_rowsDone += static_cast<double>(n);
    if (rc != SQLITE_DONE)
        return readError(db, table);
    return {};
}

QString MsprofDbReader::readError(const SqliteDatabase& db, const char* table) const
{
    const int code = db.errorCode() & 0xff;
    const QString detail = QString::fromStdString(db.errorText());
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB || code == SQLITE_IOERR)
        return QCoreApplication::translate("MsprofDbLoader",
                                           "%1: the database is truncated or corrupt (reading table %2: %3)")
            .arg(m_fileName, table, detail);
    return QCoreApplication::translate("MsprofDbLoader", "%1: cannot read table %2 (%3)")
        .arg(m_fileName, table, detail);
}

QString MsprofDbReader::cancelError() const
{
    return QCoreApplication::translate("ProfileLoader", "Loading cancelled");
}

void MsprofDbReader::beginPhase(const QString& phase) const
{
    m_progress.update(m_rowsDone / m_rowsTotal, phase + QStringLiteral(" — ") +
                                                    QString::fromStdString(fs::path(m_file.path).filename().string()));
}

uint32_t MsprofDbReader::enumName(const std::unordered_map<int64_t, uint32_t>& table, int64_t id, const char* where)
{
    // Before msprof 2024/5 the HCCL enum columns were STRING_IDS references (profile_data_file_references).
    if (table.empty())
        return str(id, where);
    auto it = table.find(id);
    if (it != table.end())
        return it->second;
    return m_profile.strings.intern(std::to_string(id));
}

void MsprofDbReader::checkIntegerColumns(const TableQuery& q, const char* table)
{
    SqliteStatement st = q.prepareStored(64); // (the first rows: a whole pass would cost a second read)
    std::vector<bool> bad(static_cast<size_t>(q.columnCount()), false);
    QString example;
    while (st.ok() && st.step() == SQLITE_ROW)
        for (int c = 0; c < q.columnCount(); ++c)
            if (!bad[static_cast<size_t>(c)] && !st.isNumeric(c)) {
                bad[static_cast<size_t>(c)] = true;
                if (example.isEmpty())
                    example = QString::fromUtf8(st.text(c).data(), static_cast<qsizetype>(st.text(c).size())).left(40);
            }
    QStringList columns;
    for (int c = 0; c < q.columnCount(); ++c)
        if (bad[static_cast<size_t>(c)])
            columns << QString::fromStdString(q.name(c));
    if (!columns.isEmpty())
        m_warnings << QCoreApplication::translate("MsprofDbLoader",
                                                  "%1: %2 holds text where numbers belong (%3, e.g. \"%4\"); "
                                                  "those values are read as 0")
                          .arg(m_fileName, QLatin1String(table), columns.join(QStringLiteral(", ")), example);
}

void MsprofDbReader::droppedFanOut(int64_t connectionId)
{
    if (m_fanOutDropped++ == 0)
        m_fanOutExample = connectionId;
}

TimeNs MsprofDbReader::duration(TimeNs start, TimeNs end, const char* table)
{
    TimeNs d = 0;
    if (end >= start && !__builtin_sub_overflow(end, start, &d))
        return d;
    if (end >= start) { // longer than 292 years: times near the int64 limits (a damaged row)
        ++m_durationOverflow;
        if (m_durationOverflowExample.empty())
            m_durationOverflowExample =
                std::string(table) + " start " + std::to_string(start) + " end " + std::to_string(end);
        return 0;
    }
    ++m_endBeforeStart;
    if (m_endBeforeStartExamples.size() < 3)
        m_endBeforeStartExamples.push_back(std::string(table) + " start " + std::to_string(start) + " end " +
                                           std::to_string(end));
    return 0;
}

std::unordered_map<uint64_t, double> MsprofDbReader::sampleShares(const char* table, const char* col1, const char* col2)
{
    std::unordered_map<uint64_t, double> shares;
    TableQuery q(m_db, table);
    const int c1 = q.add(col1), c2 = col2 ? q.add(col2) : -1;
    if (c1 < 0)
        return shares;
    SqliteStatement st = q.prepare(" LIMIT " + std::to_string(kSampleRows));
    size_t n = 0;
    while (st.ok() && st.step() == SQLITE_ROW) {
        const uint64_t key = (static_cast<uint64_t>(st.int64(c1)) << 32) ^ static_cast<uint64_t>(st.int64(c2));
        shares[key] += 1;
        ++n;
    }
    for (auto& [key, share] : shares)
        share /= static_cast<double>(std::max<size_t>(n, 1));
    return shares;
}

// ---------------------------------------------------------------------------------------------
QString MsprofDbReader::readStrings()
{
    TableQuery q(m_db, "STRING_IDS");
    const int cId = q.add("id"), cValue = q.add("value");
    if (!q.exists() || cId < 0 || cValue < 0) {
        m_warnings << QCoreApplication::translate("MsprofDbLoader",
                                                  "%1: no STRING_IDS table; names are shown as string ids")
                          .arg(m_fileName);
        m_stringIds.build();
        return {};
    }
    SqliteStatement st = q.prepare();
    QString error = forEachRow(st, "STRING_IDS",
                               [&] { m_stringIds.insert(st.int64(cId), m_profile.strings.intern(st.text(cValue))); });
    m_stringIds.build();
    return error;
}

void MsprofDbReader::readEnum(const char* table, std::unordered_map<int64_t, uint32_t>& out)
{
    TableQuery q(m_db, table);
    const int cId = q.add("id"), cName = q.add("name");
    if (cId < 0 || cName < 0)
        return;
    SqliteStatement st = q.prepare();
    while (st.ok() && st.step() == SQLITE_ROW)
        out[st.int64(cId)] = m_profile.strings.intern(st.text(cName));
}

void MsprofDbReader::readMetadata()
{
    TableQuery q(m_db, "META_DATA");
    const int cName = q.add("name"), cValue = q.add("value");
    if (cName < 0 || cValue < 0)
        return;
    SqliteStatement st = q.prepare();
    while (st.ok() && st.step() == SQLITE_ROW) {
        const std::string key(st.text(cName));
        // parallel_group_info (newer torch_npu): each HCCL group's members, kept as its JSON text for the
        // cluster's communication matrix (docs/cluster.md).
        if (key.rfind("SCHEMA_VERSION", 0) == 0 || key == "parallel_group_info")
            m_profile.metadata["msprof_db." + key] = std::string(st.text(cValue));
    }
}

// Rank of the file: the scanner's (file name / profiler_info_<r>.json), else RANK_DEVICE_MAP, else 0.
// Its device: RANK_DEVICE_MAP, else the first TASK row's.
void MsprofDbReader::resolveRanks()
{
    TableQuery q(m_db, "RANK_DEVICE_MAP");
    const int cRank = q.add("rankId"), cDevice = q.add("deviceId");
    int firstMappedRank = -1;
    if (cRank >= 0 && cDevice >= 0) {
        SqliteStatement st = q.prepare();
        while (st.ok() && st.step() == SQLITE_ROW) {
            const int rank = static_cast<int>(st.int64(cRank));
            m_rankOfDevice[st.int64(cDevice)] = rank;
            if (firstMappedRank < 0)
                firstMappedRank = rank;
        }
    }
    m_primaryRank = m_file.rankNumber >= 0 ? m_file.rankNumber : (firstMappedRank >= 0 ? firstMappedRank : 0);
    for (const auto& [device, rank] : m_rankOfDevice)
        if (rank == m_primaryRank && m_primaryDevice < 0)
            m_primaryDevice = device;
    if (m_primaryDevice < 0) {
        TableQuery t(m_db, "TASK");
        const int cDev = t.add("deviceId");
        if (cDev >= 0) {
            SqliteStatement st = t.prepare(" LIMIT 1");
            if (st.ok() && st.step() == SQLITE_ROW)
                m_primaryDevice = st.int64(cDev);
        }
    }
    m_hostRankIndex = m_profile.ensureRank(m_primaryRank, static_cast<int>(m_primaryDevice));
    if (m_primaryDevice >= 0)
        m_rankIndexOfDevice[m_primaryDevice] = m_hostRankIndex;
}

int MsprofDbReader::rankIndexForDevice(int64_t deviceId)
{
    if (deviceId < 0)
        return m_hostRankIndex;
    auto it = m_rankIndexOfDevice.find(deviceId);
    if (it != m_rankIndexOfDevice.end())
        return it->second;
    int index;
    if (auto mapped = m_rankOfDevice.find(deviceId); mapped != m_rankOfDevice.end()) {
        index = m_profile.ensureRank(mapped->second, static_cast<int>(deviceId));
    } else {
        // A second device without a rank (multi-device msprof db): a rank of its own, numbered after
        // its device when that number is free.
        int number = static_cast<int>(deviceId);
        auto taken = [&](int r) {
            return std::any_of(m_profile.ranks.begin(), m_profile.ranks.end(),
                               [&](const RankInfo& ri) { return ri.rankNumber == r; });
        };
        while (taken(number))
            ++number;
        index = m_profile.ensureRank(number, static_cast<int>(deviceId), "device " + std::to_string(deviceId));
    }
    m_rankIndexOfDevice[deviceId] = index;
    return index;
}

uint32_t MsprofDbReader::hostLane(HostProcess process, int64_t globalTid, double expected)
{
    // globalTid = pid << 32 | tid (formats.md §2). Lanes are per thread, like trace_view.json.
    static const char* const processNames[] = {"CANN", "Python", "MSTX"};
    const int64_t tid = globalTid & 0xffffffff;
    const uint64_t key = (static_cast<uint64_t>(process) << 32) | static_cast<uint64_t>(tid);
    auto it = m_hostLanes.find(key);
    if (it != m_hostLanes.end())
        return it->second;
    LaneInfo info;
    info.kind = LaneKind::Host;
    info.rankIndex = m_hostRankIndex;
    info.threadId = tid;
    info.process = processNames[static_cast<int>(process)];
    info.name = "Thread " + std::to_string(tid);
    const uint32_t lane = m_profile.laneFor(info);
    if (expected > 0)
        m_profile.lanes[lane].reserve(m_profile.lanes[lane].size() + static_cast<size_t>(expected * 1.05 + 16));
    m_hostLanes.emplace(key, lane);
    return lane;
}

uint32_t MsprofDbReader::deviceLane(int64_t deviceId, int64_t streamId, double expected)
{
    const uint64_t key = (static_cast<uint64_t>(deviceId) << 32) ^ static_cast<uint64_t>(streamId & 0xffffffff);
    auto it = m_deviceLanes.find(key);
    if (it != m_deviceLanes.end())
        return it->second;
    LaneInfo info;
    info.kind = LaneKind::NpuStream;
    info.rankIndex = rankIndexForDevice(deviceId);
    info.deviceId = static_cast<int>(deviceId);
    info.streamId = streamId;
    info.process = "Ascend Hardware";
    info.name = "Stream " + std::to_string(streamId);
    const uint32_t lane = m_profile.laneFor(info);
    if (expected > 0)
        m_profile.lanes[lane].reserve(m_profile.lanes[lane].size() + static_cast<size_t>(expected * 1.05 + 16));
    m_deviceLanes.emplace(key, lane);
    return lane;
}

// ---------------------------------------------------------------------------------------------
// CANN_API: host API calls per thread, named like trace_view.json ("AscendCL@aclrtMemcpyAsync",
// "Node@launch") so that name rules match both exports. connectionId → TASK.connectionId.
QString MsprofDbReader::readCannApi()
{
    TableQuery q(m_db, "CANN_API");
    if (!q.exists())
        return {};
    const int cStart = q.add("startNs", true), cEnd = q.add("endNs", true), cType = q.add("type"),
              cTid = q.add("globalTid"), cConn = q.add("connectionId"), cName = q.add("name");
    if (!hasTimes(cStart, cEnd, "CANN_API"))
        return {};
    checkIntegerColumns(q, "CANN_API");
    beginPhase(QCoreApplication::translate("MsprofDbLoader", "Reading CANN API calls"));
    const double total = static_cast<double>(rowCount("CANN_API"));
    const auto shares = sampleShares("CANN_API", "globalTid", nullptr);
    m_cannByConn.reserve(static_cast<size_t>(total));
    static const std::map<std::string, std::string> levelPrefix = {
        {"acl", "AscendCL@"}, {"model", "Model@"}, {"node", "Node@"}, {"runtime", "Runtime@"}, {"hccl", "Hccl@"}};
    std::unordered_map<uint64_t, uint32_t> names; // (type, name id) → prefixed name
    SqliteStatement st = q.prepare();
    uint32_t lastLane = UINT32_MAX;
    int64_t lastTid = INT64_MIN;
    QString error = forEachRow(st, "CANN_API", [&] {
        const int64_t tid = st.int64(cTid);
        if (tid != lastTid || lastLane == UINT32_MAX) {
            auto share = shares.find(static_cast<uint64_t>(tid) << 32);
            lastLane = hostLane(HostProcess::Cann, tid, share == shares.end() ? 0 : share->second * total);
            lastTid = tid;
        }
        const int64_t type = st.int64(cType);
        const int64_t nameDb = st.int64(cName);
        const uint64_t key = (static_cast<uint64_t>(type) << 40) ^ static_cast<uint64_t>(nameDb);
        auto it = names.find(key);
        if (it == names.end()) {
            const uint32_t base = str(nameDb, "CANN_API.name");
            std::string prefix;
            if (auto t = m_apiTypes.find(type); t != m_apiTypes.end())
                if (auto p = levelPrefix.find(std::string(m_profile.strings.view(t->second))); p != levelPrefix.end())
                    prefix = p->second;
            const uint32_t id =
                prefix.empty() ? base : m_profile.strings.intern(prefix + std::string(m_profile.strings.view(base)));
            it = names.emplace(key, id).first;
        }
        const TimeNs start = st.int64(cStart);
        const int64_t conn = st.isNull(cConn) ? -1 : st.int64(cConn);
        Lane& lane = m_profile.lanes[lastLane];
        const uint32_t index = lane.append(start, duration(start, st.int64(cEnd), "CANN_API"), it->second,
                                           EventKind::HostApi, isNoneId(conn) ? -1 : conn);
        if (!isNoneId(conn))
            m_cannByConn.push_back({conn, {lastLane, index}});
    });
    if (!error.isEmpty())
        return error;
    // One call per connection id; should two rows share one (hand-edited files), the inner (later) call
    // is the one that launched.
    sortByKey(m_cannByConn, [](const ConnRef& c) { return c.conn; });
    auto last = std::unique(m_cannByConn.rbegin(), m_cannByConn.rend(),
                            [](const ConnRef& a, const ConnRef& b) { return a.conn == b.conn; });
    m_cannByConn.erase(m_cannByConn.begin(), last.base());
    return {};
}

QString MsprofDbReader::readConnectionIds()
{
    TableQuery q(m_db, "CONNECTION_IDS");
    const int cId = q.add("id"), cConn = q.add("connectionId");
    if (cId < 0 || cConn < 0)
        return {};
    SqliteStatement st = q.prepare();
    QString error =
        forEachRow(st, "CONNECTION_IDS", [&] { m_connectionIds.emplace_back(st.int64(cId), st.int64(cConn)); });
    // By id, then connectionId: a pair listed twice links once (else every copy multiplies the links).
    if (!std::is_sorted(m_connectionIds.begin(), m_connectionIds.end()))
        std::sort(m_connectionIds.begin(), m_connectionIds.end());
    m_connectionIds.erase(std::unique(m_connectionIds.begin(), m_connectionIds.end()), m_connectionIds.end());
    m_connectionUses.assign(m_connectionIds.size(), 0);
    return error;
}

// PYTORCH_CALLCHAINS(id, stack → STRING_IDS, stackDepth): one "Call stack" text per chain, frames
// joined like trace_view.json does.
QString MsprofDbReader::readCallChains()
{
    TableQuery q(m_db, "PYTORCH_CALLCHAINS");
    const int cId = q.add("id"), cStack = q.add("stack"), cDepth = q.add("stackDepth");
    if (cId < 0 || cStack < 0)
        return {};
    std::vector<std::tuple<int64_t, int64_t, uint32_t>> frames; // (chain, depth, frame string)
    SqliteStatement st = q.prepare();
    QString error = forEachRow(st, "PYTORCH_CALLCHAINS", [&] {
        frames.emplace_back(st.int64(cId), st.int64(cDepth), str(st.int64(cStack), "PYTORCH_CALLCHAINS.stack"));
    });
    if (!error.isEmpty())
        return error;
    std::sort(frames.begin(), frames.end());
    std::string text;
    for (size_t i = 0; i < frames.size();) {
        const int64_t chain = std::get<0>(frames[i]);
        text.clear();
        for (; i < frames.size() && std::get<0>(frames[i]) == chain; ++i) {
            if (!text.empty())
                text += ";\n";
            text += m_profile.strings.view(std::get<2>(frames[i]));
        }
        m_callChains[chain] = m_profile.strings.intern(text);
    }
    return {};
}

// PYTORCH_API: framework ops (50001), task-queue enqueue/dequeue (50002), python trace (50003),
// mstx ranges (50004) on "Python" thread lanes. Times are TEXT in the torch_npu file: CAST.
QString MsprofDbReader::readPytorchApi()
{
    TableQuery q(m_db, "PYTORCH_API");
    if (!q.exists())
        return {};
    const int cStart = q.add("startNs", true), cEnd = q.add("endNs", true), cTid = q.add("globalTid"),
              cConn = q.add("connectionId"), cName = q.add("name"), cSeq = q.add("sequenceNumber"),
              cFwd = q.add("fwdThreadId"), cDtypes = q.add("inputDtypes"), cShapes = q.add("inputShapes"),
              cChain = q.add("callchainId"), cType = q.add("type");
    if (!hasTimes(cStart, cEnd, "PYTORCH_API"))
        return {};
    checkIntegerColumns(q, "PYTORCH_API");
    beginPhase(QCoreApplication::translate("MsprofDbLoader", "Reading PyTorch ops"));
    const uint16_t schema = addSchema({{"sequenceNumber", Arg::Int},
                                       {"fwdThreadId", Arg::Int},
                                       {"inputDtypes", Arg::String},
                                       {"inputShapes", Arg::String},
                                       {"Call stack", Arg::String},
                                       {"connectionId", Arg::Int}});
    const double total = static_cast<double>(rowCount("PYTORCH_API"));
    const auto shares = sampleShares("PYTORCH_API", "globalTid", nullptr);
    // Python ops and host threads: one lane per thread.
    SqliteStatement st = q.prepare();
    RowArgs::Row row;
    uint32_t lastLane = UINT32_MAX;
    int64_t lastTid = INT64_MIN;
    size_t connHint = 0;
    QString error = forEachRow(st, "PYTORCH_API", [&] {
        const int64_t tid = st.int64(cTid);
        if (tid != lastTid || lastLane == UINT32_MAX) {
            auto share = shares.find(static_cast<uint64_t>(tid) << 32);
            lastLane = hostLane(HostProcess::Python, tid, share == shares.end() ? 0 : share->second * total);
            lastTid = tid;
        }
        const int64_t type = st.isNull(cType) ? 50001 : st.int64(cType);
        row.clear();
        if (!st.isNull(cSeq))
            row.set(0, st.int64(cSeq));
        if (!st.isNull(cFwd))
            row.set(1, st.int64(cFwd));
        if (!st.isNull(cDtypes) && !isNoneId(st.int64(cDtypes)))
            row.set(2, str(st.int64(cDtypes), "PYTORCH_API.inputDtypes"));
        if (!st.isNull(cShapes) && !isNoneId(st.int64(cShapes)))
            row.set(3, str(st.int64(cShapes), "PYTORCH_API.inputShapes"));
        if (!st.isNull(cChain))
            if (auto it = m_callChains.find(st.int64(cChain)); it != m_callChains.end())
                row.set(4, it->second);
        const bool hasConn = !st.isNull(cConn);
        const int64_t connKey = hasConn ? st.int64(cConn) : -1;
        if (hasConn)
            row.set(5, connKey);
        const TimeNs start = st.int64(cStart);
        Lane& lane = m_profile.lanes[lastLane];
        const uint32_t index =
            lane.append(start, duration(start, st.int64(cEnd), "PYTORCH_API"), str(st.int64(cName), "PYTORCH_API.name"),
                        type == 50004 ? EventKind::Annotation : EventKind::TorchOp, connKey,
                        row.present ? argsRef(m_args->add(schema, row)) : 0);
        if (!hasConn)
            return;
        // PYTORCH_API.connectionId → CONNECTION_IDS.id → connectionId (task queue, fwd/bwd, op → CANN → TASK).
        auto idOf = [](const std::pair<int64_t, int64_t>& p) { return p.first; };
        const auto* first = firstOfRun(m_connectionIds, findSorted(m_connectionIds, connKey, connHint, idOf), idOf);
        if (!first)
            return;
        // A few rows share an id (an op, its enqueue and dequeue); past kMaxFanOut (a damaged file)
        // linking each would make the links a product of the tables.
        if (++m_connectionUses[static_cast<size_t>(first - m_connectionIds.data())] > kMaxFanOut) {
            droppedFanOut(connKey);
            return;
        }
        for (const auto* c = first; c != m_connectionIds.data() + m_connectionIds.size() && c->first == connKey; ++c)
            m_opByConn.push_back({c->second, {lastLane, index}, type, false});
    });
    if (!error.isEmpty())
        return error;
    sortByKey(m_opByConn, [](const OpConn& o) { return o.conn; });
    return {};
}

// MSTX_EVENTS: user ranges and markers (mstx API) on "MSTX" thread lanes; connectionId → TASK.
QString MsprofDbReader::readMstx()
{
    TableQuery q(m_db, "MSTX_EVENTS");
    if (!q.exists())
        return {};
    const int cStart = q.add("startNs", true), cEnd = q.add("endNs", true), cType = q.add("eventType"),
              cRange = q.add("rangeId"), cCategory = q.add("category"), cMessage = q.add("message"),
              cTid = q.add("globalTid"), cDomain = q.add("domainId"), cConn = q.add("connectionId");
    if (!hasTimes(cStart, cEnd, "MSTX_EVENTS"))
        return {};
    beginPhase(QCoreApplication::translate("MsprofDbLoader", "Reading MSTX ranges"));
    StringTable& s = m_profile.strings;
    const uint16_t schema = addSchema({{"eventType", Arg::String},
                                       {"rangeId", Arg::Int},
                                       {"category", Arg::Int},
                                       {"domainId", Arg::Int},
                                       {"connectionId", Arg::Int}});
    SqliteStatement st = q.prepare();
    RowArgs::Row row;
    QString error = forEachRow(st, "MSTX_EVENTS", [&] {
        const uint32_t lane = hostLane(HostProcess::Mstx, st.int64(cTid), 0);
        const int64_t type = st.int64(cType);
        uint32_t typeName = 0;
        if (!st.isNull(cType)) {
            auto it = m_mstxTypes.find(type);
            typeName = it != m_mstxTypes.end() ? it->second : s.intern(std::to_string(type));
        }
        // ENUM_MSTX_EVENT_TYPE: 0 marker, 1 push/pop, 2 start/end, 3 marker_ex.
        const bool marker = type == 0 || type == 3;
        const int64_t conn = st.isNull(cConn) ? -1 : st.int64(cConn);
        row.clear();
        if (typeName)
            row.set(0, typeName);
        for (auto [field, column] : {std::pair{1, cRange}, {2, cCategory}, {3, cDomain}})
            if (!st.isNull(column) && !isNoneId(st.int64(column)))
                row.set(field, st.int64(column));
        if (!isNoneId(conn))
            row.set(4, conn);
        const TimeNs start = st.int64(cStart);
        const TimeNs dur = marker ? 0 : duration(start, st.int64(cEnd), "MSTX_EVENTS");
        const uint32_t index =
            m_profile.lanes[lane].append(start, dur, str(st.int64(cMessage), "MSTX_EVENTS.message"),
                                         marker ? EventKind::Instant : EventKind::Annotation,
                                         isNoneId(conn) ? -1 : conn, argsRef(m_args->add(schema, row)));
        if (!isNoneId(conn))
            m_mstxByConn.push_back({conn, {lane, index}});
    });
    sortByKey(m_mstxByConn, [](const ConnRef& c) { return c.conn; });
    return error;
}

// GC_RECORD (torch_npu ≥ 2024/9): Python garbage collections on their thread.
QString MsprofDbReader::readGcRecords()
{
    TableQuery q(m_db, "GC_RECORD");
    const int cStart = q.add("startNs", true), cEnd = q.add("endNs", true), cTid = q.add("globalTid");
    if (cStart < 0 || cEnd < 0)
        return {};
    const uint32_t name = m_profile.strings.intern("GC");
    SqliteStatement st = q.prepare();
    return forEachRow(st, "GC_RECORD", [&] {
        const TimeNs start = st.int64(cStart);
        m_profile.lanes[hostLane(HostProcess::Python, st.int64(cTid), 0)].append(
            start, duration(start, st.int64(cEnd), "GC_RECORD"), name, EventKind::Annotation);
    });
}

// COMMUNICATION_OP: HCCL collectives, one "Group <g> Communication" lane per communication group
// (g = order of first appearance, the full group name is in the args).
QString MsprofDbReader::readCommOps()
{
    TableQuery q(m_db, "COMMUNICATION_OP");
    if (!q.exists())
        return {};
    const int cName = q.add("opName"), cStart = q.add("startNs", true), cEnd = q.add("endNs", true),
              cConn = q.add("connectionId"), cGroup = q.add("groupName"), cOpId = q.add("opId"),
              cRelay = q.add("relay"), cRetry = q.add("retry"), cDataType = q.add("dataType"), cAlg = q.add("algType"),
              cCount = q.add("count"), cOpType = q.add("opType"), cDevice = q.add("deviceId"),
              cRankSize = q.add("rankSize");
    if (!hasTimes(cStart, cEnd, "COMMUNICATION_OP"))
        return {};
    beginPhase(QCoreApplication::translate("MsprofDbLoader", "Reading communication ops"));
    const uint16_t schema = addSchema({{"groupName", Arg::String},
                                       {"opId", Arg::Int},
                                       {"connectionId", Arg::Int},
                                       {"relay", Arg::Int},
                                       {"retry", Arg::Int},
                                       {"dataType", Arg::String},
                                       {"algType", Arg::String},
                                       {"count", Arg::Int},
                                       {"opType", Arg::String},
                                       {"rankSize", Arg::Int}});
    std::unordered_map<int64_t, int> groupIndex;
    std::unordered_map<uint64_t, uint32_t> lanes;
    SqliteStatement st = q.prepare();
    RowArgs::Row row;
    QString error = forEachRow(st, "COMMUNICATION_OP", [&] {
        const int64_t group = st.isNull(cGroup) ? kNone : st.int64(cGroup);
        const int g = groupIndex.try_emplace(group, static_cast<int>(groupIndex.size())).first->second;
        const int64_t device = cDevice >= 0 && !st.isNull(cDevice) ? st.int64(cDevice) : m_primaryDevice;
        const uint64_t laneKey = (static_cast<uint64_t>(device) << 32) ^ static_cast<uint64_t>(g);
        auto lit = lanes.find(laneKey);
        if (lit == lanes.end()) {
            LaneInfo info;
            info.kind = LaneKind::Comm;
            info.rankIndex = rankIndexForDevice(device);
            info.deviceId = static_cast<int>(device);
            info.process = "HCCL";
            info.name = "Group " + std::to_string(g) + " Communication";
            lit = lanes.emplace(laneKey, m_profile.laneFor(info)).first;
        }
        row.clear();
        if (!isNoneId(group))
            row.set(0, str(group, "COMMUNICATION_OP.groupName"));
        if (!st.isNull(cOpId))
            row.set(1, st.int64(cOpId));
        const int64_t conn = st.isNull(cConn) ? -1 : st.int64(cConn);
        if (!isNoneId(conn))
            row.set(2, conn);
        if (!st.isNull(cRelay))
            row.set(3, st.int64(cRelay));
        if (!st.isNull(cRetry))
            row.set(4, st.int64(cRetry));
        if (!st.isNull(cDataType))
            row.set(5, enumName(m_hcclDataTypes, st.int64(cDataType), "COMMUNICATION_OP.dataType"));
        if (!st.isNull(cAlg) && !isNoneId(st.int64(cAlg)))
            row.set(6, str(st.int64(cAlg), "COMMUNICATION_OP.algType"));
        if (!st.isNull(cCount))
            row.set(7, st.int64(cCount));
        if (!st.isNull(cOpType) && !isNoneId(st.int64(cOpType)) && st.int64(cOpType) >= 0)
            row.set(8, str(st.int64(cOpType), "COMMUNICATION_OP.opType"));
        if (!st.isNull(cRankSize))
            row.set(9, st.int64(cRankSize));
        const TimeNs start = st.int64(cStart);
        const uint32_t index = m_profile.lanes[lit->second].append(
            start, duration(start, st.int64(cEnd), "COMMUNICATION_OP"), str(st.int64(cName), "COMMUNICATION_OP.opName"),
            EventKind::CommOp, isNoneId(conn) ? -1 : conn, argsRef(m_args->add(schema, row)));
        if (!st.isNull(cOpId))
            m_commOps.emplace_back(st.int64(cOpId), EventRef{lit->second, index});
    });
    sortByKey(m_commOps, [](const auto& p) { return p.first; });
    return error;
}

// Per-task detail tables keyed by globalTaskId, read whole into sorted vectors; their args rows are
// written once here and chained from the TASK row's args.
MsprofDbReader::TaskInfoPlan MsprofDbReader::planTaskInfo(const char* table, std::vector<TaskInfo>& out)
{
    TaskInfoPlan plan;
    plan.table = table;
    plan.out = &out;
    TableQuery q(m_db, table);
    if (!q.exists())
        return plan;
    plan.cTask = q.add("globalTaskId");
    if (plan.cTask < 0) {
        m_warnings << QCoreApplication::translate("MsprofDbLoader", "%1: table %2 lacks column %3; skipped")
                          .arg(m_fileName, table, "globalTaskId");
        return plan;
    }
    const std::string_view name(table);
    std::vector<RowArgs::Field> fields;
    auto add = [&](const char* alternatives, RowArgs::Type type, const char* key = nullptr,
                   const std::unordered_map<int64_t, uint32_t>* enumTable = nullptr) {
        const int c = q.add(alternatives);
        if (c < 0)
            return;
        int enumBit = -1;
        if (enumTable && !enumTable->empty()) // (else the column holds STRING_IDS ids: msprof before 2024/5)
            enumBit = plan.enumColumns++;
        plan.columns.push_back({c, type, enumTable, enumBit, std::string(table) + "." + q.name(c)});
        plan.keys.push_back(key ? std::string(key) : q.name(c));
        fields.push_back({0, type}); // (keys: internKeys)
    };
    if (name == "COMPUTE_TASK_INFO" || name == "COMMUNICATION_SCHEDULE_TASK_INFO") {
        plan.cName = q.add("name");
        add("opType", Arg::String);
        add("taskType", Arg::String, "computeTaskType");
        add("blockNum|blockDim|block_dim", Arg::Int);
        add("mixBlockNum|mixBlockDim", Arg::Int);
        for (const char* c : {"inputFormats", "inputDataTypes", "inputShapes", "outputFormats", "outputDataTypes",
                              "outputShapes", "attrInfo", "opState", "hf32Eligible"})
            add(c, Arg::String);
        add("waitNs", Arg::Int);
    } else if (name == "COMMUNICATION_TASK_INFO") {
        plan.cType = q.add("taskType"); // the sub-task's name (Notify_Wait, Memcpy, ...)
        plan.cOpId = q.add("opId");
        add("name", Arg::String, "opName");
        add("groupName", Arg::String);
        add("planeId", Arg::Int);
        add("notifyId", Arg::Int);
        add("srcRank", Arg::Int);
        add("dstRank", Arg::Int);
        add("size", Arg::Int);
        add("transportType", Arg::String, nullptr, &m_hcclTransportTypes);
        add("linkType", Arg::String, nullptr, &m_hcclLinkTypes);
        add("rdmaType", Arg::String, nullptr, &m_hcclRdmaTypes);
        add("dataType", Arg::String, nullptr, &m_hcclDataTypes);
        add("opId", Arg::Int);
        add("isMaster", Arg::Int);
        add("bandwidth", Arg::Real);
    } else { // MEMCPY_INFO
        add("size", Arg::Int, "memcpySize");
        add("memcpyOperation", Arg::String, nullptr, &m_memcpyOps);
    }
    // A value its enum table lacks is kept as the number it is (shown the same): one schema for each
    // set of enum fields that hold numbers, schema + (bit i: enum column i), so a row never interns.
    for (uint32_t variant = 0; variant < (1u << plan.enumColumns); ++variant) {
        std::vector<RowArgs::Field> typed = fields;
        for (size_t i = 0; i < plan.columns.size(); ++i)
            if (plan.columns[i].enumBit >= 0 && (variant >> plan.columns[i].enumBit & 1))
                typed[i].type = Arg::Int;
        const uint16_t id = m_args->addSchema(std::move(typed));
        if (variant == 0)
            plan.schema = id;
    }
    out.reserve(static_cast<size_t>(rowCount(table)));
    plan.sql = q.sql();
    return plan;
}

void MsprofDbReader::internKeys(const TaskInfoPlan& plan)
{
    if (plan.sql.empty())
        return;
    std::vector<uint32_t> ids;
    for (const std::string& key : plan.keys)
        ids.push_back(m_profile.strings.intern(key));
    for (uint32_t variant = 0; variant < (1u << plan.enumColumns); ++variant)
        m_args->setKeys(static_cast<uint16_t>(plan.schema + variant), ids);
}

template <typename Names>
QString MsprofDbReader::readTaskInfoRows(const TaskInfoPlan& plan, const SqliteDatabase& db, RowArgs& args,
                                         Names& names, bool loadingThread)
{
    if (plan.sql.empty())
        return {};
    if (loadingThread)
        beginPhase(QCoreApplication::translate("MsprofDbLoader", "Reading %1").arg(plan.table));
    std::vector<TaskInfo>& out = *plan.out;
    SqliteStatement st(db.handle(), plan.sql);
    RowArgs::Row row;
    const auto perRow = [&] {
        row.clear();
        uint32_t variant = 0;
        for (size_t i = 0; i < plan.columns.size(); ++i) {
            const TaskInfoColumn& c = plan.columns[i];
            if (st.isNull(c.column))
                continue;
            switch (c.type) {
            case Arg::Int: row.set(static_cast<int>(i), st.int64(c.column)); break;
            case Arg::Real: row.setReal(static_cast<int>(i), st.real(c.column)); break;
            case Arg::String: {
                const int64_t v = st.int64(c.column);
                if (c.enumBit >= 0) {
                    const auto it = c.enumTable->find(v);
                    row.set(static_cast<int>(i), it == c.enumTable->end() ? v : it->second);
                    variant |= it == c.enumTable->end() ? 1u << c.enumBit : 0;
                } else if (c.enumTable || !isNoneId(v)) {
                    row.set(static_cast<int>(i), names.str(v, c.where.c_str()));
                }
                break;
            }
            }
        }
        TaskInfo info{st.int64(plan.cTask), -1, 0, 0};
        if (plan.cName >= 0)
            info.nameId = names.str(st.int64(plan.cName), "COMPUTE_TASK_INFO.name");
        if (plan.cType >= 0)
            info.nameId = names.str(st.int64(plan.cType), "COMMUNICATION_TASK_INFO.taskType");
        if (plan.cOpId >= 0 && !st.isNull(plan.cOpId))
            info.opId = st.int64(plan.cOpId);
        info.argsRef = args.add(static_cast<uint16_t>(plan.schema + variant), row);
        out.push_back(info);
    };
    QString error = forEachRow(st, plan.table, perRow, loadingThread ? nullptr : &db, &names.unknown);
    sortByKey(out, [](const TaskInfo& t) { return t.globalTaskId; });
    return error;
}

// The detail tables need nothing the host tables give, and TASK needs them all: when they are large,
// a worker reads them over a second connection while this thread reads the host tables (SQLite's own
// stepping is most of what a table costs, so a worker that only stepped rows paid little; whole
// tables on each core do). The worker interns nothing: the table keys are interned here, in the
// order one thread would, so the model is the same either way.
QString MsprofDbReader::readHostAndDetailTables()
{
    using Step = QString (MsprofDbReader::*)();
    const std::initializer_list<Step> hostSteps = {&MsprofDbReader::readCannApi,    &MsprofDbReader::readConnectionIds,
                                                   &MsprofDbReader::readCallChains, &MsprofDbReader::readPytorchApi,
                                                   &MsprofDbReader::readMstx,       &MsprofDbReader::readGcRecords,
                                                   &MsprofDbReader::readCommOps};
    const auto readHostTables = [&]() -> QString {
        for (Step step : hostSteps)
            if (QString error = (this->*step)(); !error.isEmpty())
                return error;
        return {};
    };
    const std::pair<const char*, std::vector<TaskInfo>*> tables[] = {{"COMPUTE_TASK_INFO", &m_compute},
                                                                     {"COMMUNICATION_TASK_INFO", &m_comm},
                                                                     {"COMMUNICATION_SCHEDULE_TASK_INFO", &m_schedule},
                                                                     {"MEMCPY_INFO", &m_memcpy}};
    // Names of the detail tables' ids here: resolved and interned as in every other table.
    struct LoadingThreadNames {
        MsprofDbReader& reader;
        bool unknown = false; // (never set)
        uint32_t str(int64_t v, const char* where) { return reader.str(v, where); }
    };
    // On the worker: look-ups only. An id it cannot resolve sets `unknown`, which ends its read; the
    // tables are then read again here, where such ids are interned and reported.
    struct WorkerNames {
        const StringIdMap& ids;
        StringIdMap::Cursor cursor;
        bool unknown = false;
        uint32_t str(int64_t v, const char*)
        {
            const uint32_t found = ids.find(v, cursor);
            unknown = unknown || found == StringIdMap::kMissing;
            return found == StringIdMap::kMissing ? 0 : found;
        }
    };
    const auto readSerially = [&](const std::vector<TaskInfoPlan>* planned) -> QString {
        for (size_t i = 0; i < std::size(tables); ++i) {
            const TaskInfoPlan plan = planned ? (*planned)[i] : planTaskInfo(tables[i].first, *tables[i].second);
            internKeys(plan);
            LoadingThreadNames names{*this};
            if (QString error = readTaskInfoRows(plan, m_db, *m_args, names, true); !error.isEmpty())
                return error;
        }
        return {};
    };

    int64_t detailRows = 0;
    for (const auto& [table, out] : tables)
        detailRows += rowCount(table);
    const bool parallel = m_threads > 1 && detailRows >= m_parallelRows && sqlite3_threadsafe() != 0;
    if (!parallel) {
        if (QString error = readHostTables(); !error.isEmpty())
            return error;
        return readSerially(nullptr);
    }

    // Planned here; their warnings (a table without globalTaskId) and keys go after the host tables'.
    const qsizetype warningsBefore = m_warnings.size();
    std::vector<TaskInfoPlan> plans;
    for (const auto& [table, out] : tables)
        plans.push_back(planTaskInfo(table, *out));
    const QStringList planWarnings = m_warnings.mid(warningsBefore);
    m_warnings.resize(warningsBefore);
    std::unique_ptr<RowArgs> workerArgs = m_args->emptyWithSchemas();
    SqliteDatabase workerDb;
    bool readHere = false; // an id the worker could not resolve (or no second connection)
    QString hostError, workerError;
    m_workerRows = 0;
    uint64_t workerRows = 0;
    runBoth(
        true,
        [&] {
            if (!openDatabase(workerDb)) {
                readHere = true;
                return;
            }
            WorkerNames names{m_stringIds, {}, false};
            for (const TaskInfoPlan& plan : plans) {
                const size_t before = plan.out->size();
                workerError = readTaskInfoRows(plan, workerDb, *workerArgs, names, false);
                workerRows += plan.out->size() - before;
                if (!workerError.isEmpty() || names.unknown)
                    break;
            }
            readHere = names.unknown;
        },
        [&] { hostError = readHostTables(); });
    m_rowsDone += static_cast<double>(workerRows);
    m_workerRows = 0;
    m_warnings += planWarnings;
    if (!hostError.isEmpty())
        return hostError;
    if (readHere) { // (the rows read twice count twice: progress runs ahead, then waits at the end)
        for (const TaskInfoPlan& plan : plans)
            plan.out->clear();
        return readSerially(&plans);
    }
    if (!workerError.isEmpty())
        return workerError;
    const uint64_t shift = m_args->absorb(*workerArgs);
    for (const TaskInfoPlan& plan : plans) {
        internKeys(plan);
        for (TaskInfo& info : *plan.out)
            info.argsRef += shift;
    }
    return {};
}

// TASK: every device task on its stream lane. Kernel = has a COMPUTE_TASK_INFO row; CommTask = has a
// COMMUNICATION_TASK_INFO row (linked from its op); others are named and kinded by their taskType.
// What a TASK row means: a device task in the lane of its (device, stream), named by its detail row
// (kernel, HCCL sub-task, ...) or its type, with its args, and linked to what launched it (CANN API, PyTorch
// ops, MSTX marks) and to its HCCL op. Rows are placed in rowid order, from a statement or the stage.
class MsprofDbReader::TaskPlacer {
public:
    TaskPlacer(MsprofDbReader& reader, TableQuery& q) : r(reader)
    {
        cStart = q.add("startNs", true);
        cEnd = q.add("endNs", true);
        cDevice = q.add("deviceId");
        cConn = q.add("connectionId");
        cTask = q.add("globalTaskId");
        cType = q.add("taskType");
        cContext = q.add("contextId");
        cStream = q.add("streamId");
        cTaskId = q.add("taskId");
        cModel = q.add("modelId");
    }
    bool hasTimes() { return r.hasTimes(cStart, cEnd, "TASK"); }
    // The args schema, the lanes' expected sizes and the links' room; after the phase has begun.
    void prepare()
    {
        schema = r.addSchema({{"taskType", Arg::String},
                              {"streamId", Arg::Int},
                              {"taskId", Arg::Int},
                              {"contextId", Arg::Int},
                              {"modelId", Arg::Int},
                              {"globalTaskId", Arg::Int},
                              {"connectionId", Arg::Int},
                              {"deviceId", Arg::Int}});
        total = static_cast<double>(r.rowCount("TASK"));
        shares = r.sampleShares("TASK", "deviceId", "streamId");
        // Links to come: at most one launch per task, one op per HCCL sub-task, and about one PyTorch op
        // per task it reaches (bounded by the CONNECTION_IDS rows read). Reserved once: doubling would
        // copy them.
        Profile& profile = r.m_profile;
        profile.links.reserve(profile.links.size() + static_cast<size_t>(total) + r.m_comm.size() +
                              std::min(static_cast<size_t>(total), r.m_opByConn.size()) + r.m_mstxByConn.size());
        mstxCategory = profile.strings.intern("mstx");
    }
    double rows() const { return total; }
    template <typename Row> void place(const Row& in);

private:
    struct TypeInfo {
        uint32_t name;
        EventKind kind;
    };
    const TypeInfo& typeInfo(int64_t dbType);
    void link(int64_t conn, const TaskInfo* comm, EventRef task);

    MsprofDbReader& r;
    int cStart, cEnd, cDevice, cConn, cTask, cType, cContext, cStream, cTaskId, cModel;
    uint16_t schema = 0;
    double total = 0;
    std::unordered_map<uint64_t, double> shares;
    uint32_t mstxCategory = 0;
    std::unordered_map<int64_t, TypeInfo> types;
    size_t computeHint = 0, commHint = 0, scheduleHint = 0, memcpyHint = 0, cannHint = 0, opHint = 0, mstxHint = 0,
           commOpHint = 0;
    uint64_t lastLaneKey = 0;
    uint32_t lastLane = UINT32_MAX; // none yet: every key, UINT64_MAX (device and stream -1) too, is new
    RowArgs::Row row;
};

const MsprofDbReader::TaskPlacer::TypeInfo& MsprofDbReader::TaskPlacer::typeInfo(int64_t dbType)
{
    auto it = types.find(dbType);
    if (it != types.end())
        return it->second;
    const uint32_t n = r.str(dbType, "TASK.taskType");
    const std::string_view v = r.m_profile.strings.view(n);
    EventKind k = EventKind::Other;
    if (v == "EVENT_RECORD")
        k = EventKind::EventRecord;
    else if (v == "EVENT_WAIT")
        k = EventKind::EventWait;
    else if (v == "MEMCPY_ASYNC")
        k = EventKind::Memcpy;
    return types.emplace(dbType, TypeInfo{n, k}).first->second;
}

template <typename Row> void MsprofDbReader::TaskPlacer::place(const Row& in)
{
    const int64_t device = cDevice >= 0 ? in.int64(cDevice) : std::max<int64_t>(r.m_primaryDevice, 0);
    const int64_t stream = in.int64(cStream);
    const uint64_t laneKey = (static_cast<uint64_t>(device) << 32) ^ static_cast<uint64_t>(stream & 0xffffffff);
    if (laneKey != lastLaneKey || lastLane == UINT32_MAX) {
        auto share = shares.find(laneKey);
        lastLane = r.deviceLane(device, stream, share == shares.end() ? 0 : share->second * total);
        lastLaneKey = laneKey;
    }
    const int64_t globalTaskId = in.isNull(cTask) ? -1 : in.int64(cTask);
    const TypeInfo& type = typeInfo(in.int64(cType));
    uint32_t name;
    EventKind kind;
    uint64_t detail = 0;
    const TaskInfo* comm = nullptr;
    auto key = [](const TaskInfo& t) { return t.globalTaskId; };
    if (const TaskInfo* c = findSorted(r.m_compute, globalTaskId, computeHint, key)) {
        name = c->nameId;
        kind = EventKind::Kernel;
        detail = c->argsRef;
    } else if ((comm = findSorted(r.m_comm, globalTaskId, commHint, key))) {
        name = comm->nameId;
        kind = EventKind::CommTask;
        detail = comm->argsRef;
    } else if (const TaskInfo* sc = findSorted(r.m_schedule, globalTaskId, scheduleHint, key)) {
        name = sc->nameId;
        kind = EventKind::Other;
        detail = sc->argsRef;
    } else {
        name = type.name;
        kind = type.kind;
        if (const TaskInfo* m = findSorted(r.m_memcpy, globalTaskId, memcpyHint, key))
            detail = m->argsRef;
    }
    const int64_t conn = in.isNull(cConn) ? -1 : in.int64(cConn);
    row.clear();
    row.set(0, type.name);
    row.set(1, stream);
    for (auto [field, column] : {std::pair{2, cTaskId}, {3, cContext}, {4, cModel}})
        if (!in.isNull(column) && !isNoneId(in.int64(column)))
            row.set(field, in.int64(column));
    if (globalTaskId >= 0)
        row.set(5, globalTaskId);
    if (!isNoneId(conn))
        row.set(6, conn);
    row.set(7, device);
    const TimeNs start = in.int64(cStart);
    const uint32_t index =
        r.m_profile.lanes[lastLane].append(start, r.duration(start, in.int64(cEnd), "TASK"), name, kind,
                                           isNoneId(conn) ? -1 : conn, r.argsRef(r.m_args->add(schema, row, detail)));
    link(conn, comm, EventRef{lastLane, index});
}

// The task's links: from its CANN launch, its PyTorch ops and MSTX marks (by connection id, at most
// kMaxFanOut each), from its HCCL op.
void MsprofDbReader::TaskPlacer::link(int64_t conn, const TaskInfo* comm, EventRef task)
{
    Profile& profile = r.m_profile;
    if (!isNoneId(conn)) {
        if (const ConnRef* api = findSorted(r.m_cannByConn, conn, cannHint, [](const ConnRef& c) { return c.conn; }))
            profile.addLink(api->ref, task, LinkKind::HostToDevice);
        std::vector<OpConn>& ops = r.m_opByConn;
        auto connOf = [](const OpConn& o) { return o.conn; };
        if (const OpConn* found = firstOfRun(ops, findSorted(ops, conn, opHint, connOf), connOf)) {
            OpConn* op = ops.data() + (found - ops.data());
            for (size_t n = 0; op != ops.data() + ops.size() && op->conn == conn; ++op, ++n) {
                if (n == kMaxFanOut) {
                    r.droppedFanOut(conn);
                    break;
                }
                profile.addLink(op->ref, task, LinkKind::OpToDevice);
                op->matchedTask = true;
            }
        }
        const std::vector<ConnRef>& marks = r.m_mstxByConn;
        auto markOf = [](const ConnRef& c) { return c.conn; };
        size_t linked = 0;
        for (const ConnRef* mark = firstOfRun(marks, findSorted(marks, conn, mstxHint, markOf), markOf);
             mark && mark != marks.data() + marks.size() && mark->conn == conn; ++mark) {
            if (linked++ == kMaxFanOut) {
                r.droppedFanOut(conn);
                break;
            }
            profile.addLink(mark->ref, task, LinkKind::Flow, mstxCategory);
        }
    }
    if (comm && comm->opId >= 0) {
        if (const auto* op = findSorted(r.m_commOps, comm->opId, commOpHint, [](const auto& p) { return p.first; }))
            profile.addLink(op->second, task, LinkKind::CommOpToTask);
        else if (++r.m_missingOps == 1)
            r.m_missingOpExample = comm->opId;
    }
}

QString MsprofDbReader::readTasks()
{
    TableQuery q(m_db, "TASK");
    if (!q.exists())
        return {};
    TaskPlacer placer(*this, q);
    if (!placer.hasTimes())
        return {};
    checkIntegerColumns(q, "TASK");
    beginPhase(QCoreApplication::translate("MsprofDbLoader", "Reading device tasks"));
    placer.prepare();
    return readTaskHalves(q, taskSplitRowid(q, placer.rows()), placer);
}

// A large table is read in two halves by rowid: a worker steps the second half's rows (SQLite's stepping
// is most of what a row costs) into a compact stage while this thread reads and places the first; then
// this thread places the staged rows. Rows with a rowid above the result go through the stage;
// INT64_MAX: the table is read here alone.
int64_t MsprofDbReader::taskSplitRowid(const TableQuery& q, double rows)
{
    // (Not when a column is named like the rowid: then the name means the column.)
    const bool rowidIsRowid = !q.hasColumn("rowid") && !q.hasColumn("_rowid_") && !q.hasColumn("oid");
    if (m_threads > 1 && rows >= static_cast<double>(m_parallelRows) && sqlite3_threadsafe() != 0 && rowidIsRowid &&
        q.columnCount() <= TaskStage::kMaxColumns) {
        SqliteStatement range(m_db.handle(), "SELECT min(rowid), max(rowid) FROM " + SqliteDatabase::quote("TASK"));
        if (range.ok() && range.step() == SQLITE_ROW && !range.isNull(0) && range.int64(1) > range.int64(0))
            return range.int64(0) + (range.int64(1) - range.int64(0)) / 2;
    }
    return INT64_MAX;
}

// Places the rows up to `splitAfter` from a statement here while a worker, over its own connection, stages
// the rest; then the staged rows (or, when the worker could not open the file, the rest read here). Rows
// are placed in the order one thread would.
QString MsprofDbReader::readTaskHalves(const TableQuery& q, int64_t splitAfter, TaskPlacer& placer)
{
    const bool split = splitAfter != INT64_MAX;
    const std::string firstHalf = split ? " WHERE rowid <= " + std::to_string(splitAfter) : std::string();
    const std::string secondHalf = " WHERE rowid > " + std::to_string(splitAfter);
    QString error, workerError;
    TaskStage stage(q.columnCount());
    SqliteDatabase workerDb;
    bool staged = false; // (else the second half is read here)
    m_workerRows = 0;
    runBoth(
        split,
        [&] {
            if (!split || !openDatabase(workerDb))
                return;
            staged = true;
            SqliteStatement rest(workerDb.handle(), q.sql(secondHalf));
            workerError = forEachRow(
                rest, "TASK", [&] { stage.append(rest); }, &workerDb);
        },
        [&] {
            SqliteStatement st = q.prepare(firstHalf);
            error = forEachRow(st, "TASK", [&] { placer.place(st); });
        });
    m_rowsDone += static_cast<double>(stage.rows());
    m_workerRows = 0;
    if (!error.isEmpty())
        return error;
    if (!workerError.isEmpty())
        return workerError;
    if (split && !staged) {
        SqliteStatement rest = q.prepare(secondHalf);
        return forEachRow(rest, "TASK", [&] { placer.place(rest); });
    }
    return stage.forEach([&](const TaskStage::Row& row) { placer.place(row); }, m_progress) ? QString() : cancelError();
}

// PyTorch rows that share a CONNECTION_IDS connection id but reach no device task are host-side flows:
// Enqueue → Dequeue (async_task_queue) and forward op → backward op (fwdbwd), as in trace_view.json.
void MsprofDbReader::linkTorchFlows()
{
    const uint32_t queue = m_profile.strings.intern("async_task_queue");
    const uint32_t fwdbwd = m_profile.strings.intern("fwdbwd");
    for (size_t i = 0; i < m_opByConn.size();) {
        size_t j = i;
        bool matched = false;
        while (j < m_opByConn.size() && m_opByConn[j].conn == m_opByConn[i].conn)
            matched |= m_opByConn[j++].matchedTask;
        if (!matched && j - i >= 2) {
            std::vector<const OpConn*> group;
            for (size_t k = i; k < j; ++k)
                group.push_back(&m_opByConn[k]);
            std::sort(group.begin(), group.end(), [&](const OpConn* a, const OpConn* b) {
                return m_profile.startNs(a->ref) < m_profile.startNs(b->ref);
            });
            for (size_t k = 1; k < group.size(); ++k) {
                const bool isQueue = group[0]->type == 50002;
                m_profile.addLink(group[k - 1]->ref, group[k]->ref, LinkKind::Flow, isQueue ? queue : fwdbwd);
            }
        }
        i = j;
    }
}

// STEP_TIME: the profiler's step boundaries, a host lane "Steps / STEP_TIME" (the step-record
// alignment falls back to it when the trace has no step[...] spans).
QString MsprofDbReader::readStepTime()
{
    TableQuery q(m_db, "STEP_TIME");
    const int cId = q.add("id"), cStart = q.add("startNs", true), cEnd = q.add("endNs", true);
    if (cStart < 0 || cEnd < 0)
        return {};
    LaneInfo info;
    info.kind = LaneKind::Host;
    info.rankIndex = m_hostRankIndex;
    info.process = "Steps";
    info.name = "STEP_TIME";
    info.profilerSteps = true;
    const uint32_t lane = m_profile.laneFor(info);
    SqliteStatement st = q.prepare();
    return forEachRow(st, "STEP_TIME", [&] {
        const TimeNs start = st.int64(cStart);
        m_profile.lanes[lane].append(start, duration(start, st.int64(cEnd), "STEP_TIME"),
                                     m_profile.strings.intern("Step " + std::to_string(st.int64(cId))),
                                     EventKind::Annotation, st.int64(cId));
    });
}

QString MsprofDbReader::readOverlap()
{
    TableQuery q(m_db, "OVERLAP_ANALYSIS");
    const int cDevice = q.add("deviceId"), cStart = q.add("startNs", true), cEnd = q.add("endNs", true),
              cType = q.add("type");
    if (cStart < 0 || cEnd < 0 || cType < 0)
        return {};
    static const char* const names[] = {"Computing", "Communication", "Communication(Not Overlapped)", "Free"};
    std::map<std::pair<int64_t, int64_t>, std::pair<uint32_t, uint32_t>> lanes; // (device, type) → (lane, name)
    SqliteStatement st = q.prepare();
    return forEachRow(st, "OVERLAP_ANALYSIS", [&] {
        const int64_t device = cDevice >= 0 && !st.isNull(cDevice) ? st.int64(cDevice) : m_primaryDevice;
        const int64_t type = st.int64(cType);
        auto it = lanes.find({device, type});
        if (it == lanes.end()) {
            LaneInfo info;
            info.kind = LaneKind::Overlap;
            info.rankIndex = rankIndexForDevice(device);
            info.deviceId = static_cast<int>(device);
            info.process = "Overlap Analysis";
            info.name = type >= 0 && type < 4 ? names[type] : "Type " + std::to_string(type);
            info.sortIndex = static_cast<int>(type);
            it = lanes
                     .emplace(std::pair{device, type},
                              std::pair{m_profile.laneFor(info), m_profile.strings.intern(info.name)})
                     .first;
        }
        const TimeNs start = st.int64(cStart);
        m_profile.lanes[it->second.first].append(start, duration(start, st.int64(cEnd), "OVERLAP_ANALYSIS"),
                                                 it->second.second, EventKind::OverlapSpan);
    });
}

// Counter tables (timestamp + values), named like msprof's own trace_view.json tracks with the same
// units: NPU MEM in KB (B / 1024, checked against the fixtures), bandwidths in MB/s (B/s / 2^20),
// LLC hit rate as a fraction. Tables or columns a release lacks are skipped.
QString MsprofDbReader::readCounters()
{
    enum class KeyKind { None, Number, StringId };
    struct Value {
        const char* column;
        const char* series; // appended to the key part: "<key>/<series>" or just "<series>"
        double scale;
    };
    struct Spec {
        const char* table;
        const char* process;
        const char* time;
        const char* keyColumn;
        KeyKind keyKind;
        const char* keyPrefix; // "HBM " + hbmId
        const char* key2Column;
        const char* key2Separator; // between the key and key2 parts
        std::vector<Value> values;
    };
    constexpr double MiB = 1.0 / 1048576.0;
    // clang-format off
    static const std::vector<Spec> specs = {
        {"HBM", "HBM", "timestampNs", "hbmId", KeyKind::Number, "HBM ", "type", "/", {{"bandwidth", "", MiB}}},
        {"LLC", "LLC", "timestampNs", "llcId", KeyKind::Number, "LLC ", "mode", " ",
         {{"hitRate", "Hit Rate", 0.01}, {"throughput", "Throughput", MiB}}},
        {"NPU_MEM", "NPU MEM", "timestampNs", "type", KeyKind::StringId, "", nullptr, nullptr,
         {{"ddr", "DDR", 1.0 / 1024}, {"hbm", "HBM", 1.0 / 1024}}},
        {"AICORE_FREQ", "AI Core Freq", "timestampNs", nullptr, KeyKind::None, "", nullptr, nullptr,
         {{"freq", "AI Core Freq", 1}}},
        {"DDR", "DDR", "timestampNs", nullptr, KeyKind::None, "", nullptr, nullptr,
         {{"read", "Read", MiB}, {"write", "Write", MiB}}},
        {"HCCS", "HCCS", "timestampNs", nullptr, KeyKind::None, "", nullptr, nullptr,
         {{"txThroughput", "Tx", MiB}, {"rxThroughput", "Rx", MiB}}},
        {"PCIE", "PCIe", "timestampNs", nullptr, KeyKind::None, "", nullptr, nullptr,
         {{"txPostAvg", "Tx Post", MiB}, {"txNonpostAvg", "Tx Nonpost", MiB}, {"txCplAvg", "Tx Cpl", MiB},
          {"rxPostAvg", "Rx Post", MiB}, {"rxNonpostAvg", "Rx Nonpost", MiB}, {"rxCplAvg", "Rx Cpl", MiB}}},
        {"NIC", "NIC", "timestampNs", "funcId", KeyKind::Number, "Port ", nullptr, nullptr,
         {{"rxByteRate", "Rx", MiB}, {"txByteRate", "Tx", MiB}}},
        {"ROCE", "RoCE", "timestampNs", "funcId", KeyKind::Number, "Port ", nullptr, nullptr,
         {{"rxByteRate", "Rx", MiB}, {"txByteRate", "Tx", MiB}}},
        {"SOC_BANDWIDTH_LEVEL", "Stars Soc Info", "timestampNs", nullptr, KeyKind::None, "", nullptr, nullptr,
         {{"l2BufferBwLevel", "L2 Buffer Bw Level", 1}, {"mataBwLevel", "Mata Bw Level", 1}}},
        // Like trace_view.json: one series per level for all accelerators (accId is not split out).
        {"ACC_PMU", "Acc PMU", "timestampNs", nullptr, KeyKind::None, "", nullptr, nullptr,
         {{"readBwLevel", "read_bandwidth", 1}, {"writeBwLevel", "write_band_width", 1},
          {"readOstLevel", "read_ost", 1}, {"writeOstLevel", "write_ost", 1}}},
        // torch_npu memory of the framework (PTA) and graph engine (GE), KB.
        {"MEMORY_RECORD", "Memory", "timestamp", "component", KeyKind::StringId, "", nullptr, nullptr,
         {{"totalAllocated", "Allocated", 1.0 / 1024}, {"totalReserved", "Reserved", 1.0 / 1024},
          {"totalActive", "Active", 1.0 / 1024}}},
    };
    // clang-format on

    for (const Spec& spec : specs) {
        TableQuery q(m_db, spec.table);
        if (!q.exists())
            continue;
        const int cTime = q.add(spec.time, true), cDevice = q.add("deviceId");
        const int cKey = spec.keyColumn ? q.add(spec.keyColumn) : -1;
        const int cKey2 = spec.key2Column ? q.add(spec.key2Column) : -1;
        std::vector<std::pair<int, const Value*>> values;
        for (const Value& v : spec.values)
            if (const int c = q.add(v.column); c >= 0)
                values.emplace_back(c, &v);
        if (cTime < 0 || values.empty())
            continue;
        // (device, key, key2, value index) → lane and series name id
        std::map<std::tuple<int64_t, int64_t, int64_t, size_t>, std::pair<uint32_t, uint32_t>> lanes;
        SqliteStatement st = q.prepare();
        QString error = forEachRow(st, spec.table, [&] {
            const int64_t device = cDevice >= 0 && !st.isNull(cDevice) ? st.int64(cDevice) : m_primaryDevice;
            const int64_t key = cKey >= 0 ? st.int64(cKey) : 0;
            const int64_t key2 = cKey2 >= 0 ? st.int64(cKey2) : 0;
            const TimeNs time = st.int64(cTime);
            for (size_t v = 0; v < values.size(); ++v) {
                if (st.isNull(values[v].first))
                    continue;
                auto it = lanes.find({device, key, key2, v});
                if (it == lanes.end()) {
                    std::string part;
                    switch (spec.keyKind) {
                    case KeyKind::None: break;
                    case KeyKind::Number: part = spec.keyPrefix + std::to_string(key); break;
                    case KeyKind::StringId:
                        part = counterLabel(m_profile.strings.view(str(key, spec.keyColumn)));
                        break;
                    }
                    if (cKey2 >= 0)
                        part += spec.key2Separator + counterLabel(m_profile.strings.view(str(key2, spec.key2Column)));
                    const std::string series = values[v].second->series;
                    std::string laneName = part;
                    if (!series.empty())
                        laneName = part.empty() ? series : part + "/" + series;
                    LaneInfo info;
                    info.kind = LaneKind::Counter;
                    info.rankIndex = rankIndexForDevice(device);
                    info.deviceId = static_cast<int>(device);
                    info.process = spec.process;
                    info.name = laneName;
                    it = lanes
                             .emplace(std::tuple{device, key, key2, v},
                                      std::pair{m_profile.laneFor(info), m_profile.strings.intern(laneName)})
                             .first;
                }
                m_profile.lanes[it->second.first].appendSample(time, st.real(values[v].first) * values[v].second->scale,
                                                               it->second.second);
            }
        });
        if (!error.isEmpty())
            return error;
    }
    return {};
}

void MsprofDbReader::reportWarnings()
{
    if (m_stringIds.unknownCount() > 0) {
        QStringList examples;
        for (const std::string& e : m_stringIds.unknownExamples())
            examples << QString::fromStdString(e);
        const int unknown = static_cast<int>(std::min<uint64_t>(m_stringIds.unknownCount(), INT32_MAX));
        m_warnings << QCoreApplication::translate(
                          "MsprofDbLoader",
                          "%1: %n string id(s) point nowhere in STRING_IDS (e.g. %2); shown as \"<unknown string N>\"",
                          nullptr, unknown)
                          .arg(m_fileName, examples.join(QStringLiteral(", ")));
    }
    if (m_endBeforeStart > 0) {
        QStringList examples;
        for (const std::string& e : m_endBeforeStartExamples)
            examples << QString::fromStdString(e);
        const int rows = static_cast<int>(std::min<uint64_t>(m_endBeforeStart, INT32_MAX));
        m_warnings << QCoreApplication::translate(
                          "MsprofDbLoader", "%1: %n row(s) end before they start (e.g. %2); drawn with zero duration",
                          nullptr, rows)
                          .arg(m_fileName, examples.join(QStringLiteral(", ")));
    }
    if (m_fanOutDropped > 0) {
        const int links = static_cast<int>(std::min<uint64_t>(m_fanOutDropped, INT32_MAX));
        m_warnings << QCoreApplication::translate("MsprofDbLoader",
                                                  "%1: more than %2 rows share a connection id (e.g. %3); %n "
                                                  "link(s) past them are not drawn",
                                                  nullptr, links)
                          .arg(m_fileName)
                          .arg(kMaxFanOut)
                          .arg(m_fanOutExample);
    }
    if (m_durationOverflow > 0) {
        const int rows = static_cast<int>(std::min<uint64_t>(m_durationOverflow, INT32_MAX));
        m_warnings << QCoreApplication::translate(
                          "MsprofDbLoader",
                          "%1: %n row(s) last longer than the time range can hold (e.g. %2); drawn with zero duration",
                          nullptr, rows)
                          .arg(m_fileName, QString::fromStdString(m_durationOverflowExample));
    }
    if (m_missingOps > 0) {
        const int subTasks = static_cast<int>(std::min<uint64_t>(m_missingOps, INT32_MAX));
        m_warnings << QCoreApplication::translate(
                          "MsprofDbLoader",
                          "%1: %n communication sub-task(s) refer to an HCCL op missing from COMMUNICATION_OP "
                          "(e.g. opId %2); they are not linked to an op",
                          nullptr, subTasks)
                          .arg(m_fileName)
                          .arg(m_missingOpExample);
    }
    for (const QString& w : m_warnings)
        m_profile.warn(w);
}

} // namespace dspark::db
