#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace dspark::db {

// One prepared statement (RAII). Rows are read in place: no copies, no allocation per row.
class SqliteStatement {
public:
    SqliteStatement() = default;
    SqliteStatement(sqlite3* db, const std::string& sql);
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement& operator=(SqliteStatement&& other) noexcept;
    ~SqliteStatement();

    bool ok() const { return m_stmt != nullptr; }
    // SQLITE_ROW, SQLITE_DONE or an error code (see SqliteDatabase::errorText()).
    int step();
    bool isNull(int column) const;
    // Whether int64()/real() read the value as it is: a number, NULL, or text holding one (not text such
    // as "abc" or a blob, which SQLite reads as 0).
    bool isNumeric(int column) const;
    int64_t int64(int column) const;
    double real(int column) const;
    std::string_view text(int column) const;

private:
    sqlite3_stmt* m_stmt = nullptr;
};

// A profiler database opened read-only and immutable: SQLite never creates -wal/-shm/-journal files
// next to it and never writes to it (formats.md §2: the files are in WAL mode).
class SqliteDatabase {
public:
    SqliteDatabase() = default;
    SqliteDatabase(const SqliteDatabase&) = delete;
    SqliteDatabase& operator=(const SqliteDatabase&) = delete;
    ~SqliteDatabase();

    // Opens `path` as file:<escaped path>?immutable=1 with SQLITE_OPEN_READONLY | SQLITE_OPEN_URI.
    bool open(const std::string& path);
    // Opens a database image held in memory (sqlite3_deserialize), read-only and without a copy (but of a
    // WAL database): `image` must outlive the connection.
    bool openImage(std::string_view image);
    sqlite3* handle() const { return m_db; }
    // The last SQLite error, e.g. "database disk image is malformed".
    std::string errorText() const;
    int errorCode() const;

    // Reads sqlite_master once. False (with errorText()) when the file is not a readable database.
    bool readSchema();
    bool hasTable(std::string_view table) const;
    // Column names of a table in declaration order (PRAGMA table_info); empty if the table is absent.
    std::vector<std::string> columns(std::string_view table) const;
    // SELECT count(*); -1 on error.
    int64_t count(std::string_view table) const;
    size_t tableCount() const { return m_tables.size(); }

    // "file:" URI of a path with %, ?, # escaped (and the path made absolute).
    static std::string uriForPath(const std::string& path);
    // Double-quoted SQL identifier.
    static std::string quote(std::string_view identifier);

private:
    void configure(); // the settings of every connection

    sqlite3* m_db = nullptr;
    std::vector<std::string> m_tables;
    std::string m_walCopy; // openImage() of a WAL database: the image it reads, marked rollback-journal
};

} // namespace dspark::db
