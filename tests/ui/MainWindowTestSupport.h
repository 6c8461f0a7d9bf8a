#pragma once
// Driving the main window in GUI tests: wait for a load, click table rows, find lanes.
#include "MainWindow.h"
#include "model/Profile.h"

#include <QCoreApplication>
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

inline uint32_t laneNamed(const Profile& p, const std::string& process, const std::string& name)
{
    for (uint32_t i = 0; i < p.lanes.size(); ++i)
        if (p.lanes[i].info.process == process && p.lanes[i].info.name == name)
            return i;
    return UINT32_MAX;
}

} // namespace dspark::test
