// The audit's reproducers (../shared/testdata/repro, read in place) opened in the main window as a user
// opens them: each loads, or shows one error naming the file, and the window closes cleanly afterwards
// (its event filters see the close: the ReportActions use-after-free ran there).
#include "MainWindowTestSupport.h"
#include "TestSupport.h"

#include "MainWindow.h"

#include <QMessageBox>
#include <QSignalSpy>
#include <QTest>

using namespace dspark;
using namespace dspark::ui;

namespace {

// As the loaders name it (absolute, ".." and symlinks resolved): the fixture folder may be reached
// through a symlink.
QString repro(const QString& name)
{
    return test::realData(QStringLiteral("../repro/") + name);
}

} // namespace

class TestReproducersGui : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        test::useTestSettings(QStringLiteral("tst_reproducers_gui"));
        if (!QFileInfo::exists(repro(QStringLiteral("README.md"))))
            QSKIP("the reproducer folder (DSPARK_REAL_TESTDATA/../repro) is absent");
    }

    void eachOpensOrSaysWhy_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("failingFile"); // empty: it loads
        QTest::newRow("deep_metadata") << "deep_metadata"
                                       << "profiler_metadata.json";
        QTest::newRow("deep_server_info") << "deep_server_info"
                                          << "server_info.json";
        QTest::newRow("stoi_rank_folder") << "stoi_rank_folder"
                                          << "";
        QTest::newRow("db_invalid_utf8_name") << "db_invalid_utf8_name"
                                              << "";
        QTest::newRow("db_connection_fanout") << "db_connection_fanout"
                                              << "";
        QTest::newRow("db_task_extreme_duration") << "db_task_extreme_duration"
                                                  << "";
        QTest::newRow("db_timelineindex_overflow") << "db_timelineindex_overflow"
                                                   << "";
        QTest::newRow("align_fct_int64max") << "align_fct_int64max"
                                            << "";
        QTest::newRow("steps_json_fct_int64max") << "steps_json_fct_int64max"
                                                 << "";
        QTest::newRow("tracebuilder_memset") << "tracebuilder_memset"
                                             << "";
    }

    void eachOpensOrSaysWhy()
    {
        QFETCH(QString, folder);
        QFETCH(QString, failingFile);
        std::unique_ptr<MainWindow> w = test::openMainWindow();
        QVERIFY(w);
        QSignalSpy loaded(w.get(), &MainWindow::profileLoaded);
        QSignalSpy failed(w.get(), &MainWindow::loadFailed);
        w->openPath(repro(folder));
        QVERIFY(QTest::qWaitFor([&] { return loaded.count() + failed.count() > 0; }, 120'000));
        if (failingFile.isEmpty()) {
            QVERIFY2(loaded.count() == 1, failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
            QVERIFY(w->profile());
        } else {
            QCOMPARE(failed.count(), 1);
            const QString error = failed.first().first().toString();
            QCOMPARE(error, repro(folder + QLatin1Char('/') + failingFile) +
                                QStringLiteral(": JSON nested deeper than 512 levels; not loaded"));
            QVERIFY(w->errorBox() && w->errorBox()->isVisible());
            QVERIFY(w->errorBox()->text().contains(error));
            w->errorBox()->close();
        }
        w->close();
        w.reset();
    }
};

QTEST_MAIN(TestReproducersGui)
#include "tst_reproducers_gui.moc"
