// A new user's walk through the comparison window, the cluster window and the main window, on the demo
// and on the real profiler output, in English and Chinese at 1440×900 and 1920×1080. With
// DSPARK_WALK_DIR set every stop saves a PNG there (reviews look at them); without it the walk is skipped.
#include "../common/TestSupport.h"
#include "MainWindow.h"
#include "MainWindowTestSupport.h"
#include "UxTestSupport.h"
#include "cluster/ClusterView.h"
#include "cluster/ClusterWindow.h"
#include "cluster/RankOverview.h"
#include "compare/ComparisonController.h"
#include "compare/ComparisonPanels.h"
#include "demo/ClusterDemo.h"
#include "panels/StepTablePanel.h"

#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace dspark;
using namespace dspark::ui;

namespace {

bool waitCluster(ClusterWindow* window)
{
    QSignalSpy loaded(window, &ClusterWindow::loaded);
    return QTest::qWaitFor([&] { return loaded.size() > 0 || !window->view()->ranks().empty(); }, 120000);
}

} // namespace

class TestUxWalk : public QObject {
    Q_OBJECT
    QString m_dir;
    QList<QSize> m_sizes{{1440, 900}, {1920, 1080}};
    QStringList m_languages{QString(), QStringLiteral("zh_CN")};

    QString name(const QString& stop, QSize size, const QString& language) const
    {
        return m_dir + QStringLiteral("/%1-%2x%3%4.png")
                           .arg(stop)
                           .arg(size.width())
                           .arg(size.height())
                           .arg(language.isEmpty() ? QString() : QStringLiteral("-zh"));
    }

    template <typename Stop> void everywhere(const Stop& stop)
    {
        for (const QString& language : m_languages)
            for (QSize size : m_sizes) {
                test::InstalledTranslator zh;
                if (!language.isEmpty())
                    zh = test::installTranslation(language);
                auto w = test::openMainWindow(size);
                QVERIFY(w);
                if (!language.isEmpty())
                    w->setLanguage(language);
                stop(w.get(), size, language);
                if (!language.isEmpty())
                    w->setLanguage(QString());
            }
    }

    void comparison(const QString& stopName, const QString& a, const QString& b)
    {
        everywhere([&](MainWindow* w, QSize size, const QString& language) {
            ComparisonController* c = w->comparison();
            if (a.isEmpty())
                c->openDemoComparison();
            else
                c->openComparison(a, b);
            QVERIFY(test::waitComparisonReady(c));
            QTest::qWait(300);
            qInfo() << "window" << w->size() << "minimum" << w->minimumSizeHint();
            for (QDockWidget* d : w->findChildren<QDockWidget*>())
                if (d->isVisible())
                    qInfo() << d->windowTitle() << d->geometry() << d->minimumSizeHint();
            QVERIFY(w->grab().save(name(stopName, size, language)));
            for (int d = 0; d < int(c->docks().size()); ++d) {
                c->docks()[size_t(d)]->raise();
                QTest::qWait(200);
                QVERIFY(w->grab().save(name(stopName + QStringLiteral("-dock%1").arg(d), size, language)));
            }
        });
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::useTestSettings(QStringLiteral("tst_ux_walk"));
        m_dir = qEnvironmentVariable("DSPARK_WALK_DIR");
        if (m_dir.isEmpty())
            QSKIP("DSPARK_WALK_DIR is not set");
        QDir().mkpath(m_dir);
        if (qEnvironmentVariableIsSet("DSPARK_WALK_ONE")) {
            m_sizes = {{1440, 900}};
            m_languages = {qEnvironmentVariable("DSPARK_WALK_ONE")};
        }
    }

    void compareDemo() { comparison(QStringLiteral("compare-demo"), {}, {}); }
    void compareRealDb()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString db = test::realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt"));
        comparison(QStringLiteral("compare-db"), db, db);
    }
    void compareKineto()
    {
        DSPARK_REQUIRE_REAL_DATA();
        comparison(QStringLiteral("compare-kineto"),
                   test::realData(QStringLiteral("kineto/a100_2rank_nccl_rank0.pt.trace.json.gz")),
                   test::realData(QStringLiteral("kineto/a100_event_sync_multi_stream.pt.trace.json.gz")));
    }

    void clusterDemo()
    {
        QTemporaryDir dir;
        QVERIFY(demo::writeClusterDemo({}, dir.path().toStdString()).error.isEmpty());
        cluster(QStringLiteral("cluster-demo"), dir.path());
    }
    void clusterReal()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QTemporaryDir dir;
        for (int r = 0; r < 2; ++r) {
            const QString folder = QStringLiteral("torch_npu_db_rank%1_ascend_pt").arg(r);
            // (copies: the scanner does not follow symlinked folders, see the report)
            std::error_code ec;
            std::filesystem::copy(test::realData(QStringLiteral("ascend/") + folder).toStdString(),
                                  dir.filePath(folder).toStdString(), std::filesystem::copy_options::recursive, ec);
            QVERIFY(!ec);
        }
        cluster(QStringLiteral("cluster-real"), dir.path());
    }

    void mainWindow()
    {
        DSPARK_REQUIRE_REAL_DATA();
        for (const auto& [path, stop] : {std::pair{"ascend/torch_npu_db_rank0_ascend_pt", "main-db"},
                                         std::pair{"kineto/a100_2rank_nccl_rank0.pt.trace.json.gz", "main-kineto"}})
            everywhere([&](MainWindow* w, QSize size, const QString& language) {
                w->openPath(test::realData(QString::fromLatin1(path)));
                QVERIFY(test::waitLoaded(w, 120000));
                QTest::qWait(300);
                qInfo() << "window" << w->size() << "minimum" << w->minimumSizeHint();
                for (QDockWidget* d : w->findChildren<QDockWidget*>())
                    if (d->isVisible())
                        qInfo() << d->windowTitle() << d->geometry() << d->minimumSizeHint();
                QVERIFY(w->grab().save(name(QString::fromLatin1(stop), size, language)));
                w->stepBy(1, false);
                QTest::qWait(300);
                QVERIFY(w->grab().save(name(QString::fromLatin1(stop) + QStringLiteral("-step"), size, language)));
            });
    }

private:
    void cluster(const QString& stop, const QString& folder)
    {
        everywhere([&](MainWindow* w, QSize size, const QString& language) {
            ClusterWindow* window = w->openClusterWindow(folder);
            QVERIFY(window);
            window->resize(size);
            QVERIFY(waitCluster(window));
            QTest::qWait(300);
            QVERIFY(window->grab().save(name(stop, size, language)));
            QVERIFY(window->overview()->rankCount() > 0);
            window->overview()->setExpanded(0, true);
            (void)QTest::qWaitFor([&] { return window->overview()->session(0) != nullptr; }, 60000);
            QTest::qWait(300);
            QVERIFY(window->grab().save(name(stop + QStringLiteral("-rank0"), size, language)));
            for (int t = 1; t < window->view()->tabs()->count(); ++t) {
                window->view()->tabs()->setCurrentIndex(t);
                QTest::qWait(200);
                QVERIFY(window->grab().save(name(stop + QStringLiteral("-tab%1").arg(t), size, language)));
            }
            window->close();
        });
    }
};

QTEST_MAIN(TestUxWalk)
#include "tst_ux_walk.moc"
