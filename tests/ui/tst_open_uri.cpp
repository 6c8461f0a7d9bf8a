// Opening from a file manager: the desktop file passes `%U`, so the window gets file:// URIs,
// percent-encoded; a URI of another machine gets the same error box as a profile that cannot be read.
#include "MainWindowTestSupport.h"

#include "MainWindow.h"

#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QUrl>

using namespace dspark;
using namespace dspark::ui;

class TestOpenUri : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w;

private Q_SLOTS:
    void initTestCase() { test::useTestSettings(QStringLiteral("tst_open_uri")); }
    void init()
    {
        w = test::openMainWindow({900, 600});
        QVERIFY(w);
    }
    void cleanup() { w.reset(); }

    void aFileUriOfAFolderWithSpacesAndChineseOpensIt()
    {
        QTemporaryDir tmp;
        const QString folder = tmp.filePath(QStringLiteral("运行 1 #2"));
        QVERIFY(QDir().mkpath(folder));
        QFile f(folder + QStringLiteral("/trace_view.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        // Two kernels on one stream, 2 µs and 1 µs long.
        f.write(R"([{"name":"k1","ph":"X","ts":"1000.000","dur":2.0,"pid":1,"tid":7},)"
                R"({"name":"k2","ph":"X","ts":"1003.000","dur":1.0,"pid":1,"tid":7}])");
        f.close();
        const QString uri = QUrl::fromLocalFile(folder).toString(QUrl::FullyEncoded);
        QVERIFY2(uri.contains(QStringLiteral("%20")) && uri.contains(QStringLiteral("%23")), qPrintable(uri));
        w->openFromCommandLine({uri});
        QVERIFY(test::waitLoaded(w.get(), 30'000));
        size_t events = 0;
        for (const Lane& lane : w->profile()->lanes)
            events += lane.size();
        QCOMPARE(events, size_t(2));
        QCOMPARE(w->recentProfiles().value(0), QFileInfo(folder).absoluteFilePath());
        QVERIFY2(w->windowTitle().startsWith(QStringLiteral("运行 1 #2")), qPrintable(w->windowTitle()));
    }

    void aRemoteUriShowsAnErrorNamingIt()
    {
        QSignalSpy failed(w.get(), &MainWindow::loadFailed);
        const QString uri = QStringLiteral("sftp://npu-host/data/ascend_pytorch_profiler_0.db");
        w->openFromCommandLine({uri});
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.first().first().toString().startsWith(uri + QStringLiteral(": ")));
        QVERIFY(w->errorBox() && w->errorBox()->isVisible());
        QVERIFY(w->errorBox()->text().contains(uri));
        QVERIFY(!w->profile());
        QVERIFY(!w->isLoading());
    }
};

QTEST_MAIN(TestOpenUri)
#include "tst_open_uri.moc"
