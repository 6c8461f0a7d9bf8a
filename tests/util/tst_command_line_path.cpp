// localPathFromArgument: what a file manager passes through `%U` (file:// URIs, percent-encoded) becomes
// the local path; plain paths pass untouched; a URI of another machine is refused with a message.
#include "util/CommandLinePath.h"

#include <QTest>

using namespace dspark;

class TestCommandLinePath : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void uris_data()
    {
        QTest::addColumn<QString>("argument");
        QTest::addColumn<QString>("path"); // empty: refused
        QTest::newRow("absolute path") << "/data/run 1/msprof_0.db"
                                       << "/data/run 1/msprof_0.db";
        QTest::newRow("relative path") << "runs/rank0"
                                       << "runs/rank0";
        // A path is never decoded, and a colon inside it does not make it a URI.
        QTest::newRow("percent in a path") << "runs/a%20b"
                                           << "runs/a%20b";
        QTest::newRow("colon in a path") << "step:1209/trace_view.json"
                                         << "step:1209/trace_view.json";
        QTest::newRow("file URI") << "file:///data/run%201/%E6%98%87%E8%85%BE/msprof_0.db"
                                  << "/data/run 1/昇腾/msprof_0.db";
        QTest::newRow("file URI of a folder") << "file:///data/rank0_ascend_pt/"
                                              << "/data/rank0_ascend_pt/";
        QTest::newRow("localhost") << "file://localhost/data/x.db"
                                   << "/data/x.db";
        QTest::newRow("upper-case scheme") << "FILE:///data/x.db"
                                           << "/data/x.db";
        QTest::newRow("unencoded space") << "file:///data/run 1/x.db"
                                         << "/data/run 1/x.db";
        QTest::newRow("sftp") << "sftp://server/data/x.db"
                              << "";
        QTest::newRow("http") << "https://example.org/trace.json"
                              << "";
        QTest::newRow("another host") << "file://server/data/x.db"
                                      << "";
    }
    void uris()
    {
        QFETCH(QString, argument);
        QFETCH(QString, path);
        QString error;
        QCOMPARE(localPathFromArgument(argument, &error), path);
        if (path.isEmpty()) {
            QVERIFY2(error.startsWith(argument + QStringLiteral(": ")), qPrintable(error));
            QVERIFY(error.contains(QStringLiteral("not a file on this computer")));
        } else {
            QVERIFY(error.isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestCommandLinePath)
#include "tst_command_line_path.moc"
