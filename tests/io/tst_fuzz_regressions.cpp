// The inputs kept in tests/fuzz/regressions/<harness>/ (found by the fuzzers, or written by hand for a
// bug a fuzzer would reach), run through the same targets as the libFuzzer harnesses (FuzzTargets.h):
// each must pass without a crash or, in the sanitizer build, a report.
#include "TestSupport.h"

#include "../fuzz/FuzzTargets.h"
#include "steps/StepRecords.h"

#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace dspark;

namespace {

using Target = int (*)(const uint8_t*, size_t);

// Runs every input of one harness's folder; returns how many there were.
int runInputs(const QString& harness, Target target)
{
    int n = 0;
    QDirIterator it(test::sourceDir() + QStringLiteral("/tests/fuzz/regressions/") + harness, QDir::Files);
    while (it.hasNext()) {
        QFile f(it.next());
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QByteArray bytes = f.readAll();
        target(reinterpret_cast<const uint8_t*>(bytes.constData()), size_t(bytes.size()));
        ++n;
    }
    return n;
}

QString messagesOf(const LoadOutcome& o)
{
    return o.error + QLatin1Char('\n') + (o.profile ? o.profile->warnings.join(QLatin1Char('\n')) : QString());
}

} // namespace

class TestFuzzRegressions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanupTestCase()
    {
        std::error_code ec;
        std::filesystem::remove_all(fuzz::scratch(), ec);
    }

    void chromeTraceInputs() { QVERIFY(runInputs(QStringLiteral("chrome_trace"), &fuzz::chromeTrace) >= 1); }
    void stepRecordInputs() { QVERIFY(runInputs(QStringLiteral("step_records"), &fuzz::stepRecords) >= 2); }
    void databaseByteInputs() { QVERIFY(runInputs(QStringLiteral("db_bytes"), &fuzz::dbBytes) >= 4); }
    void databaseSqlInputs() { QVERIFY(runInputs(QStringLiteral("db_sql"), &fuzz::dbSql) >= 4); }

    // Each hand-made database input (tools/fuzz_regressions.py) reaches the path it was made for, both as
    // its harness loads it (in memory: fuzz::loadDatabaseImage) and as the viewer would (the database its
    // target makes, written to a file and loaded with loadProfile): each gives that path's message.
    void eachDatabaseInputReachesItsPath_data()
    {
        QTest::addColumn<QString>("harness");
        QTest::addColumn<QString>("expected");
        QTest::newRow("msprof-truncated") << "db_bytes"
                                          << "truncated SQLite database (14848 bytes of the 29696";
        QTest::newRow("msprof-task-page-corrupt") << "db_bytes"
                                                  << "(reading table TASK: database disk image is malformed)";
        QTest::newRow("no-profiler-tables") << "db_bytes"
                                            << "not profiler output (no profiler tables";
        QTest::newRow("torch-task-int64-extremes")
            << "db_bytes"
            << "1 row(s) last longer than the time range can hold (e.g. TASK start -9223372036854775808 end "
               "9223372036854775807)";
        QTest::newRow("torch-task-start-text") << "db_sql"
                                               << "TASK holds text where numbers belong (startNs, e.g. \"abc\")";
        QTest::newRow("torch-connection-fan-out")
            << "db_sql"
            << "more than 16 rows share a connection id (e.g. 0); 44 link(s) past them are not drawn";
        QTest::newRow("torch-task-int64-span") << "db_sql"
                                               << "1 event(s) have times beyond 146 years from the epoch";
        QTest::newRow("torch-held-durations-unordered") // (found by db_sql: its load took 26 s)
            << "db_sql"
            << "7504 event(s) have times beyond 146 years from the epoch; held at that limit";
        QTest::newRow("torch-task-lane-key-all-ones") // (found by db_sql: TASK device and stream -1, no lane)
            << "db_sql"
            << "17 string id(s) point nowhere in STRING_IDS";
        QTest::newRow("msprof-no-string-ids") << "db_sql"
                                              << "no STRING_IDS table; names are shown as string ids";
    }
    void eachDatabaseInputReachesItsPath()
    {
        QFETCH(QString, harness);
        QFETCH(QString, expected);
        if (harness == QLatin1String("db_sql"))
            DSPARK_REQUIRE_REAL_DATA(); // (its templates are the real databases)
        QFile f(test::sourceDir() + QStringLiteral("/tests/fuzz/regressions/") + harness + QLatin1Char('/') +
                QLatin1String(QTest::currentDataTag()));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(!bytes.isEmpty());
        const auto* data = reinterpret_cast<const uint8_t*>(bytes.constData());
        std::string name, image;
        if (harness == QLatin1String("db_sql")) {
            fuzz::withEditedTemplate(data, size_t(bytes.size()), [&](const std::string& n, std::string_view i) {
                name = n;
                image = i;
            });
        } else {
            name = fuzz::dbName(data[0]);
            image = bytes.toStdString().substr(1);
        }
        QVERIFY(!name.empty());
        const QString inMemory = messagesOf(fuzz::loadDatabaseImage(name, image));
        QVERIFY2(inMemory.contains(expected), qPrintable(inMemory));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.path().toStdString() + "/" + name;
        std::ofstream(path, std::ios::binary).write(image.data(), std::streamsize(image.size()));
        const QString messages = messagesOf(loadProfile(dir.path().toStdString()));
        QVERIFY2(messages.contains(expected), qPrintable(messages));
    }

    // The step target does what its harness says: the trace beside the records aligns them (so the
    // fuzzer reaches the alignment).
    void theStepTargetAlignsBesideItsTrace()
    {
        const std::string records = "\x05{\"forward_ct\": 1, \"bs\": 4}\n{\"forward_ct\": 2, \"bs\": 4}\n";
        fuzz::stepRecords(reinterpret_cast<const uint8_t*>(records.data()), records.size());
        const LoadOutcome o = loadProfile(fuzz::scratch().string());
        QVERIFY2(o.profile, qPrintable(o.error));
        QCOMPARE(o.profile->stepRecords->rows.size(), size_t(2));
        QVERIFY(o.profile->stepRecords->alignment.aligned());
    }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzz_regressions.moc"
