// Bad input: every case gives one clear line naming the file (and a non-zero exit in the CLI), never a
// crash or a hang. Broken databases are made at test time from a copy of the real fixture.
#include "TestSupport.h"

#include "DbTestSupport.h"

#include "io/ProfileLoader.h"
#include "model/Profile.h"

#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace dspark;
using namespace dspark::test;

namespace {

QString writeFile(const QString& dir, const QString& name, const QByteArray& bytes)
{
    const QString path = QDir(dir).filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        return {};
    return path;
}

QByteArray fixtureBytes()
{
    QFile f(torchDbFixture());
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The CLI's stderr must be exactly one line.
QString oneLine(const CliResult& r)
{
    const QList<QByteArray> lines = r.err.trimmed().split('\n');
    return lines.size() == 1 ? QString::fromUtf8(lines[0])
                             : QStringLiteral("<%1 lines: %2>").arg(lines.size()).arg(QString::fromUtf8(r.err));
}

// Runs the CLI as `nobody` (uid/gid 65534): root reads any file, whatever its mode.
CliResult runCliAsNobody(const QStringList& args)
{
    return runCli(args, 60000, [] {
        // In the child, after fork: drop to nobody; if that fails, exit so the test sees it.
        if (setgroups(0, nullptr) != 0 || setgid(65534) != 0 || setuid(65534) != 0)
            _exit(97);
    });
}

// Why `nobody` cannot run the CLI here, or empty when it can (every folder above it traversable).
QString whyNobodyCannotRun()
{
    if (geteuid() != 0)
        return {};
    QFileInfo exe(test::cliPath());
    if (!(exe.permissions() & QFileDevice::ExeOther))
        return QStringLiteral("%1 is not executable by others").arg(exe.filePath());
    for (QDir d = exe.absoluteDir(); !d.isRoot(); d.cdUp()) {
        if (!(QFileInfo(d.absolutePath()).permissions() & QFileDevice::ExeOther))
            return QStringLiteral("%1 is not traversable by others").arg(d.absolutePath());
    }
    return {};
}

} // namespace

class TestBadInput : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    // Loads a path and returns the error (the profile must be null).
    QString loadError(const QString& path)
    {
        LoadOutcome o = loadProfile(path.toStdString());
        if (o.profile)
            return QStringLiteral("<loaded>");
        return o.error;
    }

    // The CLI must fail with exit code 1 and one stderr line that names the file and holds `what`.
    void expectCliFailure(const QString& path, const QString& what)
    {
        const CliResult r = runCli({QStringLiteral("info"), QStringLiteral("--json"), path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        const QString line = oneLine(r);
        QVERIFY2(line.startsWith(QStringLiteral("dspark-timeline: ")), qPrintable(line));
        QVERIFY2(line.contains(path), qPrintable(line));
        QVERIFY2(line.contains(what), qPrintable(line));
    }

    QString freshDir(const QString& name)
    {
        const QString path = m_dir.filePath(name);
        QDir().mkpath(path);
        return path;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void garbageBytesAreNotADatabase()
    {
        QByteArray junk(8192, '\0');
        for (char& c : junk)
            c = static_cast<char>(QRandomGenerator::global()->bounded(256));
        junk.replace(0, 6, "GARBAG");
        const QString path =
            writeFile(freshDir(QStringLiteral("garbage")), QStringLiteral("ascend_pytorch_profiler_0.db"), junk);
        const QString error = loadError(path);
        QCOMPARE(error,
                 path + QStringLiteral(": not an SQLite database (the file does not start with the SQLite header)"));
        expectCliFailure(path, QStringLiteral("not an SQLite database"));
    }

    void anEmptyFileIsSaidToBeEmpty()
    {
        const QString path = writeFile(freshDir(QStringLiteral("empty")), QStringLiteral("msprof_123.db"), {});
        QCOMPARE(loadError(path), path + QStringLiteral(": the file is empty, not an SQLite database"));
        expectCliFailure(path, QStringLiteral("the file is empty"));
    }

    void aCutHeaderIsTruncated()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString path = writeFile(freshDir(QStringLiteral("header")),
                                       QStringLiteral("ascend_pytorch_profiler_0.db"), fixtureBytes().left(50));
        QCOMPARE(loadError(path),
                 path + QStringLiteral(": truncated SQLite database (50 bytes, shorter than its 100-byte header)"));
        expectCliFailure(path, QStringLiteral("truncated"));
    }

    void aTruncatedCopyIsTruncated()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QByteArray bytes = fixtureBytes();
        QCOMPARE(bytes.size(), 774144); // 189 pages of 4096 bytes (header: page count 189)
        const QString path = writeFile(freshDir(QStringLiteral("truncated")),
                                       QStringLiteral("ascend_pytorch_profiler_0.db"), bytes.left(bytes.size() / 2));
        QCOMPARE(loadError(path),
                 path + QStringLiteral(": truncated SQLite database (387072 bytes of the 774144 its header declares)"));
        expectCliFailure(path, QStringLiteral("truncated SQLite database"));
    }

    void aCorruptTableFailsAndTakesBackWhatItRead()
    {
        DSPARK_REQUIRE_REAL_DATA();
        // TASK is read after CANN_API and PYTORCH_API: those rows must disappear with the error.
        const QString dir = freshDir(QStringLiteral("corrupt"));
        const QString bad = copyTorchDb(dir, QStringLiteral("ascend_pytorch_profiler_0.db"));
        QVERIFY(corruptTable(bad, QStringLiteral("TASK")));
        QCOMPARE(loadError(bad), bad + QStringLiteral(": the database is truncated or corrupt (reading table TASK: "
                                                      "database disk image is malformed)"));
        expectCliFailure(bad, QStringLiteral("corrupt"));

        // Next to a good file (rank 1 by its name): the good one loads, the bad one is a warning.
        copyTorchDb(dir, QStringLiteral("ascend_pytorch_profiler_1.db"));
        LoadOutcome o = loadProfile(dir.toStdString());
        QVERIFY2(o.profile, qPrintable(o.error));
        const ProfileStats s = o.profile->stats();
        QCOMPARE(s.deviceTasks, uint64_t(552));
        QCOMPARE(s.hostEvents, uint64_t(710 + 2460 + 1)); // nothing left over from the corrupt file
        QCOMPARE(s.flows, uint64_t(1236));
        QCOMPARE(o.profile->ranks.size(), size_t(1));
        QCOMPARE(o.profile->ranks[0].rankNumber, 1);
        QCOMPARE(o.profile->warnings.size(), 1);
        QVERIFY(o.profile->warnings[0].startsWith(bad + QStringLiteral(": the database is truncated or corrupt")));
        const CliResult r = runCli({QStringLiteral("info"), QStringLiteral("--json"), dir});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json()["warnings"].size(), size_t(1));
    }

    void danglingStringIdsAreNamedAndCounted()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString db = copyTorchDb(freshDir(QStringLiteral("dangling")));
        QString sqlError;
        // globalTaskId 0 and 551 are PROFILING_ENABLE / PROFILING_DISABLE on stream 0; 5 is Conv2D1.
        QVERIFY2(execSql(db,
                         QStringLiteral("UPDATE TASK SET taskType = 99999 WHERE globalTaskId IN (0, 551);"
                                        "UPDATE COMPUTE_TASK_INFO SET name = 88888 WHERE globalTaskId = 5;"),
                         &sqlError),
                 qPrintable(sqlError));
        LoadOutcome o = loadProfile(db.toStdString());
        QVERIFY2(o.profile, qPrintable(o.error));
        const Profile& p = *o.profile;
        QCOMPARE(p.warnings.size(), 1);
        QCOMPARE(p.warnings[0], db + QStringLiteral(": 2 string id(s) point nowhere in STRING_IDS (e.g. "
                                                    "COMPUTE_TASK_INFO.name=88888, TASK.taskType=99999); shown as "
                                                    "\"<unknown string N>\""));
        int unknownTasks = 0, unknownKernels = 0;
        for (const Lane& lane : p.lanes)
            for (size_t i = 0; i < lane.size(); ++i) {
                const std::string_view name = p.strings.view(lane.nameId[i]);
                unknownTasks += name == "<unknown string 99999>";
                unknownKernels += name == "<unknown string 88888>" && lane.kind[i] == EventKind::Kernel;
            }
        QCOMPARE(unknownTasks, 2);
        QCOMPARE(unknownKernels, 1);
        QCOMPARE(p.stats().deviceTasks, uint64_t(552)); // nothing dropped

        const CliResult r = runCli({QStringLiteral("info"), QStringLiteral("--json"), db});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json()["warnings"][0].get<std::string>(), p.warnings[0].toStdString());
    }

    void rowsEndingBeforeTheyStartAreClampedAndCounted()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString db = copyTorchDb(freshDir(QStringLiteral("reversed")));
        QVERIFY(execSql(db, QStringLiteral("UPDATE TASK SET endNs = startNs - 1000 WHERE globalTaskId IN (3, 4);"
                                           "UPDATE CANN_API SET endNs = startNs - 1 WHERE connectionId = 936;")));
        LoadOutcome o = loadProfile(db.toStdString());
        QVERIFY2(o.profile, qPrintable(o.error));
        const Profile& p = *o.profile;
        QCOMPARE(p.warnings.size(), 1);
        QVERIFY2(
            p.warnings[0].startsWith(db + QStringLiteral(": 3 row(s) end before they start (e.g. CANN_API start "
                                                         "1736410576395215600 end 1736410576395215599, TASK start ")),
            qPrintable(p.warnings[0]));
        QVERIFY(p.warnings[0].endsWith(QStringLiteral("); drawn with zero duration")));
        // globalTaskId 3 is trans_TransData_0 (1736410576404465403): now zero-length, still there.
        size_t zero = 0;
        for (const Lane& lane : p.lanes)
            for (size_t i = 0; i < lane.size(); ++i)
                if (p.strings.view(lane.nameId[i]) == "trans_TransData_0") {
                    QCOMPARE(lane.startNs[i], TimeNs(1736410576404465403));
                    QCOMPARE(lane.durationNs[i], TimeNs(0));
                    ++zero;
                }
        QCOMPARE(zero, size_t(1));
        QCOMPARE(p.stats().deviceTasks, uint64_t(552));
    }

    void aDatabaseWithoutProfilerTablesIsRejected()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString fixture = realData(QStringLiteral("negative/empty_schema_ascend_pytorch_profiler.db"));
        QCOMPARE(loadError(fixture),
                 fixture + QStringLiteral(": an SQLite database, but not profiler output (no profiler tables: none "
                                          "of TASK, CANN_API, PYTORCH_API, COMMUNICATION_OP, MSTX_EVENTS; the "
                                          "database has 1 table(s))"));
        expectCliFailure(fixture, QStringLiteral("no profiler tables"));

        // Any other SQLite file given that name says the same.
        const QString other = QDir(freshDir(QStringLiteral("other"))).filePath(QStringLiteral("msprof_1.db"));
        QVERIFY(execSql(other, QStringLiteral("CREATE TABLE notes(id INTEGER, text TEXT); CREATE TABLE more(x);")));
        QVERIFY(loadError(other).contains(QStringLiteral("the database has 2 table(s)")));
        expectCliFailure(other, QStringLiteral("no profiler tables"));
    }

    void anEmptyFolderHasNoProfilerOutput()
    {
        const QString dir = freshDir(QStringLiteral("nothing/inside"));
        writeFile(dir, QStringLiteral("readme.txt"), "not a profile");
        QCOMPARE(loadError(dir), dir + QStringLiteral(": no profiler output found (no msprof / torch_npu database, "
                                                      "trace JSON or DSpark step records)"));
        expectCliFailure(dir, QStringLiteral("no profiler output found"));
    }

    void aMissingPathIsSaidToBeMissing()
    {
        const QString path = m_dir.filePath(QStringLiteral("does/not/exist.db"));
        QCOMPARE(loadError(path), path + QStringLiteral(": no such file or folder"));
        expectCliFailure(path, QStringLiteral("no such file or folder"));
    }

    void anUnreadableDatabaseSaysPermissionDenied()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString why = whyNobodyCannotRun();
        if (!why.isEmpty())
            QSKIP(qPrintable(QStringLiteral("cannot run the CLI as nobody: ") + why));
        // A world-traversable folder holding a 0600 database owned by root (or, when not root, mode 000).
        const QString dir = freshDir(QStringLiteral("private"));
        QVERIFY(chmod(QFile::encodeName(m_dir.path()).constData(), 0755) == 0);
        QVERIFY(chmod(QFile::encodeName(dir).constData(), 0755) == 0);
        const QString db = copyTorchDb(dir);
        QVERIFY(chmod(QFile::encodeName(db).constData(), geteuid() == 0 ? 0600 : 0000) == 0);
        const CliResult r = geteuid() == 0 ? runCliAsNobody({QStringLiteral("info"), QStringLiteral("--json"), db})
                                           : runCli({QStringLiteral("info"), QStringLiteral("--json"), db});
        QVERIFY2(r.exitCode != 97, "could not switch to user nobody");
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(oneLine(r),
                 QStringLiteral("dspark-timeline: ") + db + QStringLiteral(": cannot be read (Permission denied)"));

        // The same file inside a folder: the folder scan finds it, the loader says why it failed.
        const CliResult folder =
            geteuid() == 0 ? runCliAsNobody({QStringLiteral("info"), dir}) : runCli({QStringLiteral("info"), dir});
        QCOMPARE(folder.exitCode, 1);
        QCOMPARE(oneLine(folder),
                 QStringLiteral("dspark-timeline: ") + db + QStringLiteral(": cannot be read (Permission denied)"));

        // A folder nobody may open at all.
        const QString closed = freshDir(QStringLiteral("closed"));
        copyTorchDb(closed);
        QVERIFY(chmod(QFile::encodeName(closed).constData(), geteuid() == 0 ? 0700 : 0000) == 0);
        const CliResult shut = geteuid() == 0 ? runCliAsNobody({QStringLiteral("info"), closed})
                                              : runCli({QStringLiteral("info"), closed});
        QVERIFY(chmod(QFile::encodeName(closed).constData(), 0755) == 0); // so that cleanup can remove it
        QCOMPARE(shut.exitCode, 1);
        QCOMPARE(oneLine(shut), QStringLiteral("dspark-timeline: ") + closed +
                                    QStringLiteral(": cannot read the folder (Permission denied)"));
    }

    void anUnreadableSubfolderIsAWarningAndTheRestLoads()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString why = whyNobodyCannotRun();
        if (!why.isEmpty())
            QSKIP(qPrintable(QStringLiteral("cannot run the CLI as nobody: ") + why));
        const QString dir = freshDir(QStringLiteral("half_open"));
        QVERIFY(chmod(QFile::encodeName(m_dir.path()).constData(), 0755) == 0);
        QVERIFY(chmod(QFile::encodeName(dir).constData(), 0755) == 0);
        const QString good = copyTorchDb(dir, QStringLiteral("ascend_pytorch_profiler_1.db"));
        QVERIFY(chmod(QFile::encodeName(good).constData(), 0644) == 0);
        const QString closed = QDir(dir).filePath(QStringLiteral("rank0"));
        QVERIFY(QDir().mkpath(closed));
        copyTorchDb(closed);
        QVERIFY(chmod(QFile::encodeName(closed).constData(), geteuid() == 0 ? 0700 : 0000) == 0);
        const QStringList args{QStringLiteral("info"), QStringLiteral("--json"), dir};
        const CliResult r = geteuid() == 0 ? runCliAsNobody(args) : runCli(args);
        QVERIFY(chmod(QFile::encodeName(closed).constData(), 0755) == 0);
        QVERIFY2(r.exitCode != 97, "could not switch to user nobody");
        QCOMPARE(r.exitCode, 0);
        const nlohmann::json j = r.json();
        QCOMPARE(j["files"].size(), size_t(1)); // the readable database
        QCOMPARE(j["warnings"].size(), size_t(1));
        QCOMPARE(QString::fromStdString(j["warnings"][0].get<std::string>()),
                 closed + QStringLiteral(": cannot read the folder (Permission denied); skipped"));
    }

    void textInIntegerColumnsIsAWarning()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString db = copyTorchDb(freshDir(QStringLiteral("text_columns")));
        QString sqlError;
        QVERIFY2(execSql(db, QStringLiteral("UPDATE TASK SET streamId = 'stream', taskId = 'x' || taskId;"), &sqlError),
                 qPrintable(sqlError));
        LoadOutcome o = loadProfile(db.toStdString());
        QVERIFY2(o.profile, qPrintable(o.error));
        QCOMPARE(o.profile->warnings.size(), 1);
        QCOMPARE(o.profile->warnings[0], db + QStringLiteral(": TASK holds text where numbers belong (streamId, "
                                                             "taskId, e.g. \"stream\"); those values are read as 0"));
        // Numbers stored as text (torch_npu's times) are numbers: the real file has no such warning.
        LoadOutcome real = loadProfile(torchDbFixture().toStdString());
        QVERIFY2(real.profile, qPrintable(real.error));
        QVERIFY(real.profile->warnings.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "tst_bad_input.moc"
