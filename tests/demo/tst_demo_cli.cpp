// `dspark-timeline demo`: what it writes, what it prints, and its exit codes on bad input.
#include "DemoTestSupport.h"
#include "TestSupport.h"

#include <QTemporaryDir>
#include <QTest>

using namespace dspark::test;

class TestDemoCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void writesTheDemoAndReportsWhatItWrote()
    {
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("d"));
        const CliResult r = runCli({QStringLiteral("demo"), out, QStringLiteral("--steps"), QStringLiteral("3"),
                                    QStringLiteral("--scale"), QStringLiteral("2"), QStringLiteral("--seed"),
                                    QStringLiteral("11"), QStringLiteral("--trace-json")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("iterations: 6"), r.out.constData());
        QVERIFY(r.out.contains("time: "));
        QVERIFY(r.err.isEmpty());
        const nlohmann::json truth = readJsonFile(QDir(out).filePath(QStringLiteral("ground_truth.json")));
        QCOMPARE(truth["steps"].size(), size_t(6));
        QCOMPARE(truth["generator"]["seed"].get<int>(), 11);
        QCOMPARE(truth["run"]["num_steps"].get<int>(), 6);
        QVERIFY(r.out.contains(("device tasks: " + std::to_string(truth["counts"]["tasks"].get<int64_t>())).c_str()));
        QVERIFY(QFileInfo::exists(QDir(out).filePath(QString::fromLatin1(dspark::demo::names::RunFolder) +
                                                     "/ASCEND_PROFILER_OUTPUT/trace_view.json")));
        // The same seed through the CLI and through the library: the same bytes.
        const WrittenDemo lib = writeTestDemo(3, 11, 2, true);
        QVERIFY2(lib.result.error.isEmpty(), qPrintable(lib.result.error));
        QCOMPARE(readBytes(lib.path(QStringLiteral("ground_truth.json"))),
                 readBytes(QDir(out).filePath(QStringLiteral("ground_truth.json"))));
    }

    void refusesAFolderThatIsNotEmpty()
    {
        QTemporaryDir tmp;
        QFile f(tmp.filePath(QStringLiteral("mine.txt")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("user data");
        f.close();
        const CliResult r =
            runCli({QStringLiteral("demo"), tmp.path(), QStringLiteral("--steps"), QStringLiteral("1")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("not empty"), r.err.constData());
        QVERIFY(r.err.contains(tmp.path().toUtf8()));
        QCOMPARE(r.err.count('\n'), 1);
        QCOMPARE(QDir(tmp.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList{"mine.txt"});
    }

    void reportsAnUnwritableOutputFolder()
    {
        QTemporaryDir tmp;
        QFile f(tmp.filePath(QStringLiteral("a-file")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        // A folder below a regular file cannot be created, whoever runs the test.
        const QString out = tmp.filePath(QStringLiteral("a-file/demo"));
        const CliResult r = runCli({QStringLiteral("demo"), out, QStringLiteral("--steps"), QStringLiteral("1")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith("dspark-timeline: "), r.err.constData());
        QVERIFY2(r.err.contains("a-file"), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
        // ... and a path that is a file.
        const CliResult onFile = runCli({QStringLiteral("demo"), tmp.filePath(QStringLiteral("a-file"))});
        QCOMPARE(onFile.exitCode, 1);
        QVERIFY2(onFile.err.contains("not a folder"), onFile.err.constData());
    }

    void rejectsBadArgumentsWithUsageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("no folder") << QStringList{QStringLiteral("demo")} << QByteArray("usage:");
        QTest::newRow("two folders") << QStringList{"demo", "a", "b"} << QByteArray("usage:");
        QTest::newRow("unknown option") << QStringList{"demo", "out", "--fast"} << QByteArray("usage:");
        QTest::newRow("steps zero") << QStringList{"demo", "out", "--steps", "0"} << QByteArray("--steps");
        QTest::newRow("steps text") << QStringList{"demo", "out", "--steps", "many"} << QByteArray("--steps");
        QTest::newRow("steps missing value") << QStringList{"demo", "out", "--steps"} << QByteArray("usage:");
        QTest::newRow("scale negative") << QStringList{"demo", "out", "--scale", "-2"} << QByteArray("--scale");
        QTest::newRow("seed text") << QStringList{"demo", "out", "--seed", "x"} << QByteArray("--seed");
    }
    void rejectsBadArgumentsWithUsageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, message);
        QTemporaryDir tmp;
        for (QString& a : args)
            if (a == QLatin1String("out") || a == QLatin1String("a") || a == QLatin1String("b"))
                a = tmp.filePath(a);
        const CliResult r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(!QFileInfo::exists(tmp.filePath(QStringLiteral("out"))));
    }
};

QTEST_GUILESS_MAIN(TestDemoCli)
#include "tst_demo_cli.moc"
