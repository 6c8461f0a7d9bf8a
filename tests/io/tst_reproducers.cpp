// The audit's reproducers (../shared/testdata/repro, read in place) and the two made at test time (a
// gzip bomb, a 100 MB line of "["): each loads, or fails with one line naming the file, in the loader
// and in the CLI; never a crash, an abort, a sanitizer report or runaway memory.
#include "GzipSupport.h"
#include "TestSupport.h"

#include "io/ProfileLoader.h"
#include "model/Profile.h"
#include "steps/StepRecords.h"
#include "util/Gzip.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <string>

using namespace dspark;
using namespace dspark::test;

namespace {

// As the loaders name it (absolute, ".." and symlinks resolved): the fixture folder may be reached
// through a symlink.
QString repro(const QString& name)
{
    return test::realData(QStringLiteral("../repro/") + name);
}

bool haveRepro()
{
    return QFileInfo::exists(repro(QStringLiteral("README.md")));
}

#define REQUIRE_REPRO()                                                                                                \
    do {                                                                                                               \
        if (!haveRepro())                                                                                              \
            QSKIP("the reproducer folder (DSPARK_REAL_TESTDATA/../repro) is absent");                                  \
    } while (0)

// The CLI's stderr as one line (or a description of why it is not one).
QString oneLine(const CliResult& r)
{
    const QList<QByteArray> lines = r.err.trimmed().split('\n');
    return lines.size() == 1
               ? QString::fromUtf8(lines[0])
               : QStringLiteral("<%1 lines: %2>").arg(lines.size()).arg(QString::fromUtf8(r.err.left(2000)));
}

// `command PATH --json` succeeds with a JSON document on stdout.
nlohmann::json cliJson(const QString& command, const QString& path)
{
    const CliResult r = runCli({command, path, QStringLiteral("--json")});
    if (r.exitCode != 0) {
        qWarning().noquote() << command << path << "exit" << r.exitCode << r.err.left(2000);
        return nlohmann::json(nlohmann::json::value_t::discarded);
    }
    return r.json();
}

// Every sub-command fails on `path` with one line naming `file` and holding `what`.
void expectCliFailure(const QString& path, const QString& file, const QString& what)
{
    for (const QString& command : {QStringLiteral("info"), QStringLiteral("steps"), QStringLiteral("analyze")}) {
        const CliResult r = runCli({command, path, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        const QString line = oneLine(r);
        QVERIFY2(line.startsWith(QStringLiteral("dspark-timeline: ") + file), qPrintable(line));
        QVERIFY2(line.contains(what), qPrintable(line));
    }
}

QStringList warningsOf(const nlohmann::json& doc)
{
    QStringList out;
    for (const auto& w : doc["warnings"])
        out << QString::fromStdString(w.get<std::string>());
    return out;
}

// `count` copies of one gzip member of `block` (concatenated members are one stream), between the
// members of `head` and `tail`: gigabytes inflated from a few MB, compressed once at test time.
bool writeGzipBomb(const QString& path, const std::string& head, char fill, size_t blockBytes, int count,
                   const std::string& tail)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    const std::string block = gzipped(std::string(blockBytes, fill));
    if (!head.empty())
        f.write(QByteArray::fromStdString(gzipped(head)));
    for (int i = 0; i < count; ++i)
        f.write(block.data(), qint64(block.size()));
    if (!tail.empty())
        f.write(QByteArray::fromStdString(gzipped(tail)));
    return f.error() == QFile::NoError;
}

} // namespace

class TestReproducers : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void deeplyNestedMetadataIsAnErrorNamingTheFile()
    {
        REQUIRE_REPRO();
        const QString file = repro(QStringLiteral("deep_metadata/profiler_metadata.json"));
        const LoadOutcome o = loadProfile(repro(QStringLiteral("deep_metadata")).toStdString());
        QVERIFY(!o.profile);
        QCOMPARE(o.error, file + QStringLiteral(": JSON nested deeper than 512 levels; not loaded"));
        expectCliFailure(repro(QStringLiteral("deep_metadata")), file, QStringLiteral("nested deeper than 512"));
    }

    void deeplyNestedServerInfoIsAnErrorNamingTheFile()
    {
        REQUIRE_REPRO();
        const QString file = repro(QStringLiteral("deep_server_info/server_info.json"));
        const LoadOutcome o = loadProfile(repro(QStringLiteral("deep_server_info")).toStdString());
        QVERIFY(!o.profile);
        QCOMPARE(o.error, file + QStringLiteral(": JSON nested deeper than 512 levels; not loaded"));
        expectCliFailure(repro(QStringLiteral("deep_server_info")), file, QStringLiteral("nested deeper than 512"));
    }

    // A folder reached through a symlink loads as its target: the message names the file by its resolved
    // path, whichever way the user came to it.
    void aFolderReachedThroughASymlinkIsNamedByItsResolvedPath()
    {
        REQUIRE_REPRO();
        const QString link = m_dir.filePath(QStringLiteral("linked_metadata"));
        QVERIFY(QFile::link(repro(QStringLiteral("deep_metadata")), link));
        const QString file = repro(QStringLiteral("deep_metadata/profiler_metadata.json"));
        QVERIFY(!file.startsWith(m_dir.path()));
        const LoadOutcome o = loadProfile(link.toStdString());
        QVERIFY(!o.profile);
        QCOMPARE(o.error, file + QStringLiteral(": JSON nested deeper than 512 levels; not loaded"));
        expectCliFailure(link, file, QStringLiteral("nested deeper than 512"));
    }

    void aRankTooLargeForAnIntIsUnknownAndTheTraceLoads()
    {
        REQUIRE_REPRO();
        const QString dir = repro(QStringLiteral("stoi_rank_folder"));
        const LoadOutcome o = loadProfile(dir.toStdString());
        QVERIFY2(o.profile, qPrintable(o.error));
        QVERIFY(o.profile->stats().hostEvents + o.profile->stats().deviceTasks > 0);
        const nlohmann::json info = cliJson(QStringLiteral("info"), dir);
        QVERIFY(info.is_object());
        QCOMPARE(info["files"].size(), size_t(2)); // trace_view.json and profiler_info_99999999999.json
        QVERIFY(cliJson(QStringLiteral("analyze"), dir).is_object());
    }

    void invalidUtf8InAStringIsReplacedInTheJson()
    {
        REQUIRE_REPRO();
        const QString dir = repro(QStringLiteral("db_invalid_utf8_name"));
        const CliResult r = runCli({QStringLiteral("info"), dir, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.json().is_object());
        QVERIFY(r.out.contains("\xEF\xBF\xBD")); // U+FFFD, the replacement character
        QVERIFY(cliJson(QStringLiteral("analyze"), dir).is_object());
    }

    void aSharedConnectionIdLinksAFewAndWarns()
    {
        REQUIRE_REPRO();
        const QString dir = repro(QStringLiteral("db_connection_fanout"));
        const LoadOutcome o = loadProfile(dir.toStdString());
        QVERIFY2(o.profile, qPrintable(o.error));
        // 552 tasks, 2460 PyTorch rows and 563 CONNECTION_IDS rows (all 5 → 7) share one connection:
        // 16 PyTorch rows are linked, each to every task, not 2460 × 563 × 552.
        QCOMPARE(o.profile->stats().flows, uint64_t(552 * 16));
        const QString file = repro(QStringLiteral("db_connection_fanout/ascend_pytorch_profiler_0.db"));
        bool warned = false;
        for (const QString& w : o.profile->warnings)
            warned |= w.startsWith(file + QStringLiteral(": more than 16 rows share a connection id (e.g. 5)"));
        QVERIFY2(warned, qPrintable(o.profile->warnings.join(QLatin1Char('\n'))));
        QVERIFY(o.profile->warnings.join(QLatin1Char('\n')).contains(QStringLiteral("2444 link(s) past them")));
        QVERIFY(cliJson(QStringLiteral("analyze"), dir).is_object());
    }

    void aTaskLongerThanTheTimeRangeIsAWarning()
    {
        REQUIRE_REPRO();
        const QString dir = repro(QStringLiteral("db_task_extreme_duration"));
        const nlohmann::json info = cliJson(QStringLiteral("info"), dir);
        QVERIFY(info.is_object());
        const QStringList warnings = warningsOf(info);
        QVERIFY2(warnings.filter(QStringLiteral("12 row(s) last longer than the time range can hold (e.g. TASK "
                                                "start -9223372036854775808 end 9223372036854775807)"))
                         .size() == 1,
                 qPrintable(warnings.join(QLatin1Char('\n'))));
        QVERIFY(cliJson(QStringLiteral("analyze"), dir).is_object());
    }

    void timesNearTheInt64LimitsAnalyse()
    {
        REQUIRE_REPRO();
        const QString dir = repro(QStringLiteral("db_timelineindex_overflow"));
        const nlohmann::json analysis = cliJson(QStringLiteral("analyze"), dir);
        QVERIFY(analysis.is_object());
        const QStringList warnings = warningsOf(cliJson(QStringLiteral("info"), dir));
        QVERIFY2(warnings.contains(QStringLiteral("236 event(s) have times beyond 146 years from the epoch; held at "
                                                  "that limit")),
                 qPrintable(warnings.join(QLatin1Char('\n'))));
    }

    void forwardCtsNearTheInt64LimitsAlignWithoutOverflow()
    {
        REQUIRE_REPRO();
        const QString dir = repro(QStringLiteral("align_fct_int64max"));
        const nlohmann::json steps = cliJson(QStringLiteral("steps"), dir);
        QVERIFY(steps.is_object());
        QVERIFY(steps["steps"].size() > 0);
        QStringList notes;
        for (const auto& n : steps["alignment"]["notes"])
            notes << QString::fromStdString(n.get<std::string>());
        QVERIFY2(notes.contains(QStringLiteral("1 record(s) have a forward_ct beyond ±2^40 and are not aligned")),
                 qPrintable(notes.join(QLatin1Char('\n'))));
        QVERIFY(cliJson(QStringLiteral("analyze"), dir).is_object());
    }

    void forwardCtsPrintExactly()
    {
        REQUIRE_REPRO();
        const QString dir = repro(QStringLiteral("steps_json_fct_int64max"));
        const CliResult r = runCli({QStringLiteral("steps"), dir, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const nlohmann::json doc = r.json();
        QVERIFY(doc.is_object());
        // 2^63 − 1, − 2 and − 3 (a double holds none of them) and 1, in forward_ct order.
        std::vector<int64_t> fcts;
        for (const auto& s : doc["steps"])
            fcts.push_back(s["forward_ct"].get<int64_t>());
        QCOMPARE(fcts, (std::vector<int64_t>{1, INT64_MAX - 2, INT64_MAX - 1, INT64_MAX}));
        QVERIFY(r.out.contains("\"forward_ct\": 9223372036854775805,"));
        QVERIFY(!r.out.contains("-9223372036854775808"));
    }

    void aTraceWithoutFlowsLoads()
    {
        REQUIRE_REPRO();
        const QString dir = repro(QStringLiteral("tracebuilder_memset"));
        const LoadOutcome o = loadProfile(dir.toStdString());
        QVERIFY2(o.profile, qPrintable(o.error));
        QCOMPARE(o.profile->links.size(), size_t(0));
        QVERIFY(cliJson(QStringLiteral("info"), dir).is_object());
    }

    void aGzipBombOfZerosIsRefusedNamingTheFile()
    {
        // 4 GiB of zeros in 256 members of 16 MiB (about 4 MB compressed): refused once it inflates past
        // 100 times the compressed size, long before the 4 GiB.
        const QString path = m_dir.filePath(QStringLiteral("bomb.pt.trace.json.gz"));
        QVERIFY(writeGzipBomb(path, {}, '\0', size_t(16) << 20, 256, {}));
        const LoadOutcome o = loadProfile(path.toStdString());
        QVERIFY(!o.profile);
        QVERIFY2(o.error.startsWith(path + QStringLiteral(": not loaded: it inflates to more than 100 times its size")),
                 qPrintable(o.error));
        QVERIFY(o.error.endsWith(QStringLiteral("like a gzip bomb")));
        const CliResult r = runCli({QStringLiteral("info"), path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(oneLine(r).contains(QStringLiteral("like a gzip bomb")), qPrintable(oneLine(r)));
    }

    void aGzipBombOfJsonWhitespaceIsRefused()
    {
        const QString path = m_dir.filePath(QStringLiteral("spaces.pt.trace.json.gz"));
        QVERIFY(writeGzipBomb(path, "[", ' ', size_t(16) << 20, 256, "]"));
        const LoadOutcome o = loadProfile(path.toStdString());
        QVERIFY(!o.profile);
        QVERIFY2(o.error.contains(QStringLiteral("like a gzip bomb")), qPrintable(o.error));
    }

    void theAbsoluteInflateCapIsAnError()
    {
        // (The absolute cap is 16 GiB; a small one here makes the same path run fast.)
        const QString path = m_dir.filePath(QStringLiteral("big.json.gz"));
        QVERIFY(writeGzipBomb(path, "[", ' ', size_t(1) << 20, 4, "]"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray gz = f.readAll();
        HeapBytes out;
        std::string error;
        GunzipLimits limits;
        limits.maxBytes = size_t(3) << 20;
        QCOMPARE(gunzip(gz.constData(), size_t(gz.size()), 0, out, error, limits), GunzipResult::TooLarge);
        QCOMPARE(QString::fromStdString(error), QStringLiteral("it inflates to more than 3 MB"));
        QCOMPARE(out.size(), size_t(0));
        limits.maxBytes = size_t(5) << 20; // 4 MiB + 2 bytes fit
        QCOMPARE(gunzip(gz.constData(), size_t(gz.size()), 0, out, error, limits), GunzipResult::Ok);
        QCOMPARE(out.size(), (size_t(4) << 20) + 2);
    }

    void aHundredMegabyteLineOfBracketsIsSkipped()
    {
        const QString path = m_dir.filePath(QStringLiteral("brackets_dp0.records.jsonl"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const QByteArray mb(1 << 20, '[');
            for (int i = 0; i < 100; ++i)
                f.write(mb);
            f.write("\n{\"forward_ct\": 7, \"bs\": 2}\n");
        }
        const LoadOutcome o = loadProfile(path.toStdString());
        QVERIFY2(o.profile, qPrintable(o.error));
        QCOMPARE(o.profile->stepRecords->rows.size(), size_t(1));
        QCOMPARE(o.profile->warnings.size(), 1);
        QCOMPARE(o.profile->warnings[0], path + QStringLiteral(": line 1: longer than 64 MB; line skipped"));
    }

    void aDeepLineOfJsonLinesIsSkipped()
    {
        const QString path = m_dir.filePath(QStringLiteral("deep_dp0.records.jsonl"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"forward_ct\": 1}\n");
            f.write(QByteArray(1 << 20, '['));
            f.write("\n{\"forward_ct\": 2, \"extra\": ");
            f.write(QByteArray(600, '['));
            f.write(QByteArray(600, ']'));
            f.write("}\n");
        }
        const LoadOutcome o = loadProfile(path.toStdString());
        QVERIFY2(o.profile, qPrintable(o.error));
        QCOMPARE(o.profile->stepRecords->rows.size(), size_t(1));
        QCOMPARE(o.profile->warnings.size(), 2);
        QCOMPARE(o.profile->warnings[0],
                 path + QStringLiteral(": line 2: nested deeper than 512 levels; line skipped"));
        QCOMPARE(o.profile->warnings[1],
                 path + QStringLiteral(": line 3: nested deeper than 512 levels; line skipped"));
    }
};

QTEST_GUILESS_MAIN(TestReproducers)
#include "tst_reproducers.moc"
