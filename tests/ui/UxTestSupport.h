#pragma once
// The new-user walk (tst_ux_walk) and its defects' tests (tst_ux_defects): a comparison or a cluster
// opened as a user opens one, waited for.
#include "cluster/ClusterWindow.h"
#include "compare/ComparisonController.h"

#include <QSignalSpy>
#include <QTest>

namespace dspark::test {

// Waits until the comparison is open and compared (false: it failed, the error logged, or timed out).
inline bool waitComparisonReady(ui::ComparisonController* c, int timeoutMs = 180000)
{
    QSignalSpy opened(c, &ui::ComparisonController::comparisonOpened);
    QSignalSpy failed(c, &ui::ComparisonController::loadFailed);
    (void)QTest::qWaitFor([&]() { return opened.count() > 0 || failed.count() > 0; }, timeoutMs);
    if (failed.count() > 0)
        qWarning() << "comparison failed:" << failed.first().first().toString();
    return opened.count() > 0 && QTest::qWaitFor([&]() { return c->result() != nullptr; }, timeoutMs);
}

// Shows `window` at `size`, opens `folder` in it and waits for the ranks (false: not loaded in time).
inline bool openClusterAt(ui::ClusterWindow& window, const QString& folder, QSize size)
{
    window.resize(size);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    QSignalSpy loaded(&window, &ui::ClusterWindow::loaded);
    window.open(folder, {});
    return QTest::qWaitFor([&] { return loaded.size() == 1; }, 120000);
}

} // namespace dspark::test
