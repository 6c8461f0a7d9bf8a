#include "summary/SummaryDocks.h"

#include "steps/StepRecords.h"
#include "summary/SummaryPanels.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>

namespace dspark::ui {

SummaryDocks::SummaryDocks(QMainWindow* window) : QObject(window)
{
    m_range = new RangeStatsPanel(window);
    m_kernels = new KernelSummaryPanel(window);
    m_steps = new PlainStepsPanel(window);
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
    m_stepsDock = dock("plainStepsDock", m_steps);
    window->tabifyDockWidget(m_stepsDock, m_kernelDock);
    window->tabifyDockWidget(m_kernelDock, m_rangeDock);
    connect(m_range, &RangeStatsPanel::instancesRequested, this, &SummaryDocks::instancesRequested);
    connect(m_kernels, &KernelSummaryPanel::instancesRequested, this, &SummaryDocks::instancesRequested);
    // The kernel summary is computed off the UI thread: shown when an opened profile's first one arrives,
    // unless empty (a host-only trace). Later scopes (a step, a range) leave the dock as the user left it.
    connect(m_kernels, &SummaryPanel::computed, this, [this]() {
        if (!m_showKernelsWhenComputed)
            return;
        m_showKernelsWhenComputed = false;
        m_kernelDock->setVisible(m_profile && !m_kernels->isEmpty());
    });
    // A record-less profile's steps: shown once analysed, when there are any; a picked one fills the
    // range docks.
    connect(m_steps, &PlainStepsPanel::analysed, this, [this]() {
        m_stepsDock->setVisible(!m_steps->isEmpty());
        if (!m_steps->isEmpty())
            m_stepsDock->raise();
    });
    connect(m_steps, &PlainStepsPanel::stepRequested, this,
            [this](int rankIndex, TimeNs startNs, TimeNs endNs, const QString& what) {
                showRange(startNs, endNs, what);
                Q_EMIT stepRequested(rankIndex, startNs, endNs);
            });
    retranslate();
}

void SummaryDocks::setProfile(std::shared_ptr<const Profile> profile, std::shared_ptr<const AnalysisRules> rules)
{
    m_profile = std::move(profile);
    if (!rules)
        rules = std::shared_ptr<const AnalysisRules>(&AnalysisRules::builtin(), [](const AnalysisRules*) {});
    m_kernels->setRules(rules);
    m_range->clear();
    m_showKernelsWhenComputed = m_profile != nullptr;
    if (!m_profile) {
        m_rangeDock->hide();
        m_steps->setProfile(nullptr);
        m_stepsDock->hide();
        m_kernels->clear();
        m_kernelDock->hide();
        return;
    }
    // Docks shown stay shown, emptied until refilled: hiding them while the next profile's summaries
    // are computed would share their room out and lose the widths the user gave the bottom row. The
    // ones hidden show once computed (and an empty one hides then).
    m_kernels->setScope(m_profile, {}, tr("the whole profile"));
    // The profile's own steps only where it has no DSpark step records (those have the step table).
    const bool records = m_profile->stepRecords && !m_profile->stepRecords->empty();
    m_steps->setProfile(records ? nullptr : m_profile, std::move(rules));
    if (records)
        m_stepsDock->hide();
}

void SummaryDocks::showRange(TimeNs fromNs, TimeNs toNs, const QString& what)
{
    showStep(fromNs, toNs, what, nullptr);
}

void SummaryDocks::showStep(TimeNs fromNs, TimeNs toNs, const QString& what, const StepBands* bands)
{
    if (!m_profile || toNs <= fromNs)
        return;
    m_range->setRange(m_profile, fromNs, toNs, what);
    m_rangeDock->show();
    m_rangeDock->raise();
    KernelQuery q;
    q.fromNs = fromNs;
    q.toNs = toNs;
    q.bands = bands;
    m_kernels->setScope(m_profile, q, what);
}

void SummaryDocks::showFilled()
{
    if (!m_profile)
        return;
    if (!m_kernels->busy() && !m_kernels->isEmpty())
        m_kernelDock->show();
    if (m_range->profile())
        m_rangeDock->show();
    if (!m_steps->busy() && !m_steps->isEmpty())
        m_stepsDock->show();
}

void SummaryDocks::addToMenu(QMenu* menu) const
{
    menu->addAction(m_kernelDock->toggleViewAction());
    menu->addAction(m_rangeDock->toggleViewAction());
    menu->addAction(m_stepsDock->toggleViewAction());
}

void SummaryDocks::retranslate()
{
    const auto named = [this](const QString& title) {
        return m_runName.isEmpty() ? title : tr("%1 · %2").arg(title, m_runName);
    };
    m_rangeDock->setWindowTitle(named(tr("Range Statistics")));
    m_kernelDock->setWindowTitle(named(tr("Kernel Summary")));
    m_stepsDock->setWindowTitle(named(tr("Profiler Steps")));
}

void SummaryDocks::setRunName(const QString& name)
{
    m_runName = name;
    retranslate();
}

} // namespace dspark::ui
