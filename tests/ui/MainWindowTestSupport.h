#pragma once
// Driving the main window in GUI tests: wait for a load, click table rows, find lanes.
#include "MainWindow.h"
#include "TestSupport.h"
#include "model/Profile.h"

#include <QCoreApplication>
#include <QDir>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

#include <cstdint>
#include <memory>
#include <string>

namespace dspark::test {

// initTestCase() of a main-window test: settings and caches in Qt's test locations (~/.qttest),
// under this test's own application name.
inline void useTestSettings(const QString& testName)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("DSparkTest"));
    QCoreApplication::setApplicationName(testName);
    QCoreApplication::setApplicationVersion(QStringLiteral("test"));
}

// A main window from cleared settings, shown at `size` and exposed (check with QVERIFY(w)).
inline std::unique_ptr<ui::MainWindow> openMainWindow(QSize size = {1500, 950})
{
    QSettings().clear();
    auto w = std::make_unique<ui::MainWindow>();
    w->resize(size);
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get()))
        return nullptr;
    return w;
}

// Waits until the window reports the profile loaded (true) or failed (false, with the error logged).
inline bool waitLoaded(ui::MainWindow* w, int timeoutMs)
{
    QSignalSpy loaded(w, &ui::MainWindow::profileLoaded);
    QSignalSpy failed(w, &ui::MainWindow::loadFailed);
    (void)QTest::qWaitFor([&]() { return loaded.count() > 0 || failed.count() > 0; }, timeoutMs);
    if (failed.count() > 0)
        qWarning() << "load failed:" << failed.first().first().toString();
    return loaded.count() > 0;
}

// Clicks a row of a table view (the first column's centre), and double-clicks it when `twice`.
// Scrolls the row into view first, as a user would, then clicks it (a click beyond the viewport would
// select a row nobody can see).
inline void clickRow(QTableView* table, int row, bool twice = false)
{
    table->scrollTo(table->model()->index(row, 0));
    const QRect r = table->visualRect(table->model()->index(row, 0));
    QVERIFY(table->viewport()->rect().contains(r.center()));
    QVERIFY(r.isValid());
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, r.center());
    if (twice)
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, r.center());
}

// A screenshots() test's setting: DSPARK_SCREENSHOT_DIR (the folder, made), DSPARK_SCREENSHOT_LANG
// (zh_CN: the window in Chinese, file names end in "-zh", back to English at the end); the window at
// 1600×1000. Null when DSPARK_SCREENSHOT_DIR is not set.
struct Screenshots {
    QString dir, suffix, language;
    InstalledTranslator translation;
    ui::MainWindow* window = nullptr;
    QString path(const QString& name) const { return dir + QLatin1Char('/') + name + suffix + QStringLiteral(".png"); }
    ~Screenshots()
    {
        if (window && !language.isEmpty())
            window->setLanguage(QString());
    }
};
inline std::unique_ptr<Screenshots> startScreenshots(ui::MainWindow* w)
{
    auto s = std::make_unique<Screenshots>();
    s->dir = qEnvironmentVariable("DSPARK_SCREENSHOT_DIR");
    if (s->dir.isEmpty())
        return nullptr;
    s->language = qEnvironmentVariable("DSPARK_SCREENSHOT_LANG");
    s->window = w;
    if (!s->language.isEmpty()) {
        s->suffix = QStringLiteral("-zh");
        s->translation = installTranslation(s->language);
        w->setLanguage(s->language);
    }
    w->resize(1600, 1000);
    QDir().mkpath(s->dir);
    return s;
}

inline uint32_t laneNamed(const Profile& p, const std::string& process, const std::string& name)
{
    for (uint32_t i = 0; i < p.lanes.size(); ++i)
        if (p.lanes[i].info.process == process && p.lanes[i].info.name == name)
            return i;
    return UINT32_MAX;
}

} // namespace dspark::test
