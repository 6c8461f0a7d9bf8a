#include "io/db/SqliteDatabase.h"

#include <sqlite3.h>

#include <charconv>
#include <filesystem>
#include <strings.h>

namespace dspark::db {

SqliteStatement::SqliteStatement(sqlite3* db, const std::string& sql)
{
    if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &m_stmt, nullptr) != SQLITE_OK) {
        sqlite3_finalize(m_stmt);
        m_stmt = nullptr;
    }
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept : m_stmt(other.m_stmt)
{
    other.m_stmt = nullptr;
}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_stmt = other.m_stmt;
        other.m_stmt = nullptr;
    }
    return *this;
}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(m_stmt);
}

int SqliteStatement::step()
{
    return m_stmt ? sqlite3_step(m_stmt) : SQLITE_MISUSE;
}

bool SqliteStatement::isNull(int column) const
{
    return column < 0 || sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

int64_t SqliteStatement::int64(int column) const
{
    return column < 0 ? 0 : sqlite3_column_int64(m_stmt, column);
}

double SqliteStatement::real(int column) const
{
    return column < 0 ? 0.0 : sqlite3_column_double(m_stmt, column);
}

bool SqliteStatement::isNumeric(int column) const
{
    switch (sqlite3_column_type(m_stmt, column)) {
    case SQLITE_TEXT: {
        std::string_view t = text(column);
        while (!t.empty() && (t.front() == ' ' || t.front() == '\t'))
            t.remove_prefix(1);
        while (!t.empty() && (t.back() == ' ' || t.back() == '\t'))
            t.remove_suffix(1);
        if (!t.empty() && t.front() == '+')
            t.remove_prefix(1);
        double v = 0;
        const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        return !t.empty() && ec == std::errc() && end == t.data() + t.size();
    }
    case SQLITE_BLOB: return false;
    default: return true;
    }
}

std::string_view SqliteStatement::text(int column) const
{
    if (column < 0)
        return {};
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    const int size = sqlite3_column_bytes(m_stmt, column);
    return data ? std::string_view(data, static_cast<size_t>(size)) : std::string_view();
}

SqliteDatabase::~SqliteDatabase()
{
    if (m_db)
        sqlite3_close_v2(m_db);
}

std::string SqliteDatabase::uriForPath(const std::string& path)
{
    std::error_code ec;
    std::string absolute = std::filesystem::absolute(path, ec).string();
    if (ec)
        absolute = path;
    // "file://" + "" authority + absolute path; '%', '?' and '#' would otherwise end or escape the path.
    std::string uri = "file://";
    static const char* hex = "0123456789ABCDEF";
    for (unsigned char c : absolute) {
        if (c == '%' || c == '?' || c == '#') {
            uri += '%';
            uri += hex[c >> 4];
            uri += hex[c & 15];
        } else {
            uri += static_cast<char>(c);
        }
    }
    uri += "?immutable=1";
    return uri;
}

std::string SqliteDatabase::quote(std::string_view identifier)
{
    std::string out = "\"";
    for (char c : identifier) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

bool SqliteDatabase::open(const std::string& path)
{
    const std::string uri = uriForPath(path);
    // immutable=1: no locking, no WAL/SHM, no change detection; READONLY: nothing is ever written.
    const int rc =
        sqlite3_open_v2(uri.c_str(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK)
        return false;
    configure();
    return true;
}

bool SqliteDatabase::openImage(std::string_view image)
{
    // SQLite cannot read a deserialized WAL database (header bytes 18-19 = 2: SQLITE_CANTOPEN at the first
    // read), which open() reads with immutable=1: a copy marked as a rollback-journal one reads the same.
    if (image.size() >= 20 && (image[18] == 2 || image[19] == 2)) {
        m_walCopy.assign(image);
        m_walCopy[18] = m_walCopy[19] = 1;
        image = m_walCopy;
    }
    if (sqlite3_open_v2(":memory:", &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK)
        return false;
    // READONLY: SQLite never writes to (nor frees) the caller's bytes, so the const_cast is safe.
    auto* bytes = reinterpret_cast<unsigned char*>(const_cast<char*>(image.data()));
    const auto size = static_cast<sqlite3_int64>(image.size());
    if (sqlite3_deserialize(m_db, "main", bytes, size, size, SQLITE_DESERIALIZE_READONLY) != SQLITE_OK)
        return false;
    configure();
    return true;
}

void SqliteDatabase::configure()
{
    sqlite3_extended_result_codes(m_db, 1);
    // Temporary b-trees (automatic indexes, sorts) stay in memory, never in a file. Pages are read
    // through SQLite's small, reused page cache rather than a memory map: same CPU time, but mapped
    // pages count in the RSS up to the file size (docs/performance.md, bench_db_load --mmap).
    sqlite3_exec(m_db, "PRAGMA temp_store=MEMORY; PRAGMA cache_size=-8192;", nullptr, nullptr, nullptr);
}

std::string SqliteDatabase::errorText() const
{
    return m_db ? sqlite3_errmsg(m_db) : "out of memory";
}

int SqliteDatabase::errorCode() const
{
    return m_db ? sqlite3_errcode(m_db) : SQLITE_NOMEM;
}

bool SqliteDatabase::readSchema()
{
    m_tables.clear();
    SqliteStatement st(m_db, "SELECT name FROM sqlite_master WHERE type='table'");
    if (!st.ok())
        return false;
    int rc;
    while ((rc = st.step()) == SQLITE_ROW)
        m_tables.emplace_back(st.text(0));
    return rc == SQLITE_DONE;
}

bool SqliteDatabase::hasTable(std::string_view table) const
{
    for (const std::string& t : m_tables)
        if (t.size() == table.size() && strncasecmp(t.data(), table.data(), t.size()) == 0)
            return true;
    return false;
}

std::vector<std::string> SqliteDatabase::columns(std::string_view table) const
{
    std::vector<std::string> out;
    if (!hasTable(table))
        return out;
    SqliteStatement st(m_db, "PRAGMA table_info(" + quote(table) + ")");
    if (!st.ok())
        return out;
    while (st.step() == SQLITE_ROW)
        out.emplace_back(st.text(1));
    return out;
}

int64_t SqliteDatabase::count(std::string_view table) const
{
    SqliteStatement st(m_db, "SELECT count(*) FROM " + quote(table));
    if (!st.ok() || st.step() != SQLITE_ROW)
        return -1;
    return st.int64(0);
}

} // namespace dspark::db
