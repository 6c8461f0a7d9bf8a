#pragma once

// Helpers for the database tests: variants of the real fixtures made at test time in a temp folder,
// and a record of a folder's files to prove that loading wrote nothing.
#include "TestSupport.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>

#include <sqlite3.h>

#include <map>
#include <string>
#include <vector>

namespace dspark::test {

inline QString torchDbFixture()
{
    return realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"
                                   "ascend_pytorch_profiler_0.db"));
}

// Every file under a folder with its size, mtime (ns) and SHA-256.
struct FolderState {
    std::map<QString, std::tuple<qint64, qint64, QByteArray>> files;
    friend bool operator==(const FolderState&, const FolderState&) = default;
};

inline FolderState folderState(const QString& folder)
{
    FolderState state;
    QDir dir(folder);
    for (const QFileInfo& fi : dir.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden)) {
        if (fi.isDir()) {
            for (const auto& [path, v] : folderState(fi.absoluteFilePath()).files)
                state.files[fi.fileName() + QLatin1Char('/') + path] = v;
            continue;
        }
        QFile f(fi.absoluteFilePath());
        QByteArray hash;
        if (f.open(QIODevice::ReadOnly))
            hash = QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
        state.files[fi.fileName()] = {fi.size(), fi.lastModified().toMSecsSinceEpoch() * 1000000LL, hash};
    }
    return state;
}

// Copies the torch_npu fixture database to `dir/name` (writable) and returns the new path.
inline QString copyTorchDb(const QString& dir, const QString& name = QStringLiteral("ascend_pytorch_profiler_0.db"))
{
    const QString path = QDir(dir).filePath(name);
    QFile::remove(path);
    if (!QFile::copy(torchDbFixture(), path))
        return {};
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    return path;
}

// Runs SQL on a (copied) database, leaving a plain rollback-journal file with every change in it.
inline bool execSql(const QString& path, const QString& sql, QString* error = nullptr)
{
    sqlite3* db = nullptr;
    if (sqlite3_open(path.toUtf8().constData(), &db) != SQLITE_OK) {
        if (error)
            *error = QString::fromUtf8(sqlite3_errmsg(db));
        sqlite3_close(db);
        return false;
    }
    char* message = nullptr;
    const QByteArray text = ("PRAGMA journal_mode=DELETE; " + sql).toUtf8();
    const int rc = sqlite3_exec(db, text.constData(), nullptr, nullptr, &message);
    if (rc != SQLITE_OK && error)
        *error = QString::fromUtf8(message ? message : sqlite3_errmsg(db));
    sqlite3_free(message);
    sqlite3_close(db);
    return rc == SQLITE_OK;
}

// Switches a (copied) database to WAL mode and runs SQL whose changes stay in the -wal file, not
// checkpointed into the database (as when a profiler or viewer was killed): <db>-wal and <db>-shm remain.
inline bool leaveWalChanges(const QString& path, const QString& sql)
{
    sqlite3* db = nullptr;
    if (sqlite3_open(path.toUtf8().constData(), &db) != SQLITE_OK) {
        sqlite3_close(db);
        return false;
    }
    sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    const QByteArray text = ("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; " + sql).toUtf8();
    const int rc = sqlite3_exec(db, text.constData(), nullptr, nullptr, nullptr);
    sqlite3_close(db);
    return rc == SQLITE_OK && QFileInfo(path + QStringLiteral("-wal")).size() > 0;
}

// One integer from a query on a database (read-only), or -1.
inline qint64 queryInt(const QString& path, const QString& sql)
{
    sqlite3* db = nullptr;
    qint64 value = -1;
    const QByteArray uri = ("file:" + path + "?immutable=1").toUtf8();
    if (sqlite3_open_v2(uri.constData(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, sql.toUtf8().constData(), -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            value = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return value;
}

// Every row of a query on a database (read-only), each column as text (NULL: empty).
inline std::vector<std::vector<std::string>> queryRows(const QString& path, const QString& sql)
{
    std::vector<std::vector<std::string>> rows;
    sqlite3* db = nullptr;
    const QByteArray uri = ("file:" + path + "?immutable=1").toUtf8();
    if (sqlite3_open_v2(uri.constData(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, sql.toUtf8().constData(), -1, &st, nullptr) == SQLITE_OK)
            while (sqlite3_step(st) == SQLITE_ROW) {
                std::vector<std::string> row;
                for (int c = 0; c < sqlite3_column_count(st); ++c) {
                    const unsigned char* t = sqlite3_column_text(st, c);
                    row.emplace_back(t ? reinterpret_cast<const char*>(t) : "");
                }
                rows.push_back(std::move(row));
            }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return rows;
}

// Overwrites the b-tree root page of `table` with garbage: earlier tables still read, this one fails.
inline bool corruptTable(const QString& path, const QString& table)
{
    const qint64 root = queryInt(path, QStringLiteral("SELECT rootpage FROM sqlite_master WHERE name='%1'").arg(table));
    const qint64 pageSize = queryInt(path, QStringLiteral("PRAGMA page_size"));
    if (root <= 1 || pageSize <= 0)
        return false;
    QFile f(path);
    if (!f.open(QIODevice::ReadWrite) || !f.seek((root - 1) * pageSize))
        return false;
    QByteArray garbage(static_cast<int>(pageSize), '\xA5');
    return f.write(garbage) == pageSize;
}

} // namespace dspark::test
