#include "summary/SummaryDocks.h"

#include "summary/SummaryPanels.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>

namespace dspark::ui {

SummaryDocks::SummaryDocks(QMainWindow* window) : QObject(window)
{
    m_range = new RangeStatsPanel(window);
    m_kernels = new KernelSummaryPanel(window);
    auto dock = [window](const char* name, QWidget* content) {
        auto* d = new QDockWidget(window);
        d->setObjectName(QString::fromLatin1(name));
        d->setWidget(content);
        d->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                       QDockWidget::DockWidgetFloatable);
        window->addDockWidget(Qt::BottomDockWidgetArea, d);
        d->hide(); // nothing to show before a profile opens
        return d;
    };
    m_rangeDock = dock("rangeStatsDock", m_range);
    m_kernelDock = dock("kernelSummaryDock", m_kernels);
    window->tabifyDockWidget(m_kernelDock, m_rangeDock);
    connect(m_range, &RangeStatsPanel::instancesRequested, this, &SummaryDocks::instancesRequested);
    connect(m_kernels, &KernelSummaryPanel::instancesRequested, this, &SummaryDocks::instancesRequested);
    retranslate();
}

void SummaryDocks::setProfile(std::shared_ptr<const Profile> profile)
{
    m_profile = std::move(profile);
    m_range->clear();
    m_rangeDock->hide();
    if (!m_profile) {
        m_kernels->clear();
        m_kernelDock->hide();
        return;
    }
    m_kernels->setScope(m_profile, {}, tr("the whole profile"));
    // An empty kernel pane is not shown (a host-only trace).
    m_kernelDock->setVisible(!m_kernels->isEmpty());
}

void SummaryDocks::showRange(TimeNs fromNs, TimeNs toNs, const QString& what)
{
    if (!m_profile || toNs <= fromNs)
        return;
    m_range->setRange(m_profile, fromNs, toNs, what);
    m_rangeDock->show();
    m_rangeDock->raise();
    KernelQuery q;
    q.fromNs = fromNs;
    q.toNs = toNs;
    m_kernels->setScope(m_profile, q, what);
    m_kernelDock->setVisible(!m_kernels->isEmpty());
}

void SummaryDocks::addToMenu(QMenu* menu) const
{
    menu->addAction(m_kernelDock->toggleViewAction());
    menu->addAction(m_rangeDock->toggleViewAction());
}

void SummaryDocks::retranslate()
{
    m_rangeDock->setWindowTitle(tr("Range Statistics"));
    m_kernelDock->setWindowTitle(tr("Kernel Summary"));
}

} // namespace dspark::ui
