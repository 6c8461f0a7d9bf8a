// The inputs kept in tests/fuzz/regressions/<harness>/ (found by the fuzzers, or written by hand for a
// bug a fuzzer would reach), run through the same targets as the libFuzzer harnesses (FuzzTargets.h):
// each must pass without a crash or, in the sanitizer build, a report.
#include "TestSupport.h"

#include "../fuzz/FuzzTargets.h"
#include "steps/StepRecords.h"

#include <QDirIterator>
#include <QFile>
#include <QTest>

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
    void databaseByteInputs() { runInputs(QStringLiteral("db_bytes"), &fuzz::dbBytes); }
    void databaseSqlInputs() { runInputs(QStringLiteral("db_sql"), &fuzz::dbSql); }

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
