// The comparison's docks (ComparisonController.h): created with the window, filled by the core's
// comparison once both runs are analysed, and the kernel diff of the shown pair.
#include "compare/ComparisonController.h"

#include "MainWindow.h"
#include "compare/ComparisonPanels.h"
#include "compare/KernelAlignment.h"
#include "compare/RunComparison.h"
#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineWidget.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QMenu>
#include <QPointer>
#include <QStatusBar>
#include <QThread>

#include <limits>

namespace dspark::ui {

void ComparisonController::createDocks()
{
    MainWindow* w = m_window;
    m_configPanel = new ConfigDiffPanel(w);
    m_distributionPanel = new DistributionPanel(w);
    m_pairPanel = new PairTablePanel(w);
    m_kernelPanel = new KernelDiffPanel(w);
    const std::pair<const char*, QWidget*> docks[] = {{"configDiffDock", m_configPanel},
                                                      {"distributionDock", m_distributionPanel},
                                                      {"pairTableDock", m_pairPanel},
                                                      {"kernelDiffDock", m_kernelPanel}};
    m_docksMenu = new QMenu(w->viewMenu());
    m_docksMenu->setObjectName(QStringLiteral("comparisonPanelsMenu"));
    for (const auto& [name, panel] : docks) {
        auto* d = new QDockWidget(w);
        d->setObjectName(QString::fromLatin1(name));
        d->setWidget(panel);
        d->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                       QDockWidget::DockWidgetFloatable);
        w->addDockWidget(Qt::BottomDockWidgetArea, d);
        d->hide(); // until a comparison is open
        m_docks << d;
        m_docksMenu->addAction(d->toggleViewAction());
    }
    // Tabbed with the step table (the three about steps) and the kernel table (the kernel diff): wide
    // tables where the window already has them.
    auto* steps = w->findChild<QDockWidget*>(QStringLiteral("stepsDock"));
    auto* kernels = w->findChild<QDockWidget*>(QStringLiteral("eventsDock"));
    for (int i = 0; i < 3 && steps; ++i)
        w->tabifyDockWidget(steps, m_docks[i]);
    if (kernels)
        w->tabifyDockWidget(kernels, m_docks[3]);
    w->viewMenu()->addMenu(m_docksMenu);
    connect(m_pairPanel, &PairTablePanel::pairActivated, this, [this](int index) {
        if (!m_result || index < 0 || index >= int(m_result->allPairs.size()))
            return;
        const MatchedPair& p = m_result->allPairs[size_t(index)];
        if (p.baselineStepIndex < 0 || p.changedStepIndex < 0)
            m_window->statusBar()->showMessage(tr("This pair is not on both timelines"), 5000);
        else
            showSteps(size_t(p.baselineStepIndex), size_t(p.changedStepIndex));
    });
    connect(m_pairPanel, &PairTablePanel::pairSetChanged, this, &ComparisonController::rebuildPairs);
    connect(m_kernelPanel, &KernelDiffPanel::taskActivated, this, &ComparisonController::revealTasks);
}

void ComparisonController::compareWhenAnalysed()
{
    const quint64 generation = ++m_generation;
    m_result.reset();
    m_sides = {};
    if (!isActive())
        return;
    const QString waiting = tr("Analysing the steps of both runs…");
    m_configPanel->setPlaceholder(waiting);
    m_distributionPanel->setPlaceholder(waiting);
    m_pairPanel->setPlaceholder(waiting);
    prepareSideWhenAnalysed(0, generation);
    prepareSideWhenAnalysed(1, generation);
}

void ComparisonController::prepareSideWhenAnalysed(int side, quint64 generation)
{
    std::shared_ptr<ProfileSession> session = side == 0 ? m_window->sessions().front() : m_changed;
    if (side == 0 && session == m_earlySession && m_earlySide) // prepared while the changed run loaded
        return sidePrepared(0, generation, m_earlySide);
    if (!session->analyses()->ready()) {
        connect(
            session->analyses(), &StepAnalyses::analysesReady, this,
            [this, side, generation]() {
                if (generation == m_generation)
                    prepareSideWhenAnalysed(side, generation);
            },
            Qt::SingleShotConnection);
        return;
    }
    // The run's own part of the comparison while the other run may still be analysing (docs/compare.md
    // §5a). The analyses are complete and immutable: the worker only reads them.
    const ComparisonRole role = side == 0 ? ComparisonRole::Baseline : ComparisonRole::Changed;
    QPointer<ComparisonController> self(this);
    QThread* worker = QThread::create([self, generation, session, side, role]() {
        auto prepared = std::make_shared<const ComparisonSide>(prepareSide(*session, role, windowCompareOptions()));
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, generation, side, prepared]() {
                if (self)
                    self->sidePrepared(side, generation, prepared);
            },
            Qt::QueuedConnection);
    });
    startWorker(worker);
}

void ComparisonController::sidePrepared(int side, quint64 generation, std::shared_ptr<const ComparisonSide> prepared)
{
    // (a side may come twice: prepared ahead and again with the comparison; the first one counts)
    if (generation != m_generation || m_sides[size_t(side)])
        return;
    m_sides[size_t(side)] = std::move(prepared);
    if (m_sides[0] && m_sides[1])
        compareSides(generation);
}

void ComparisonController::prepareShownBaseline()
{
    std::shared_ptr<ProfileSession> session = m_window->sessions().front();
    if (session == m_earlySession || !session->analyses()->ready())
        return; // (already prepared or under way; a session still analysing is prepared with the comparison)
    m_earlySession = session;
    m_earlySide.reset();
    QPointer<ComparisonController> self(this);
    QThread* worker = QThread::create([self, session]() {
        auto prepared = std::make_shared<const ComparisonSide>(
            prepareSide(*session, ComparisonRole::Baseline, windowCompareOptions()));
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, session, prepared]() {
                if (!self || self->m_earlySession != session)
                    return;
                self->m_earlySide = prepared;
                // A comparison of this baseline already waiting for its side takes it.
                if (self->isActive() && self->m_window->sessions().front() == session)
                    self->sidePrepared(0, self->m_generation, prepared);
            },
            Qt::QueuedConnection);
    });
    startWorker(worker);
}

void ComparisonController::compareSides(quint64 generation)
{
    const QString comparing = tr("Comparing the two runs…");
    m_configPanel->setPlaceholder(comparing);
    m_distributionPanel->setPlaceholder(comparing);
    m_pairPanel->setPlaceholder(comparing);
    QPointer<ComparisonController> self(this);
    QThread* worker = QThread::create([self, generation, a = m_sides[0], b = m_sides[1]]() {
        auto result = std::make_shared<const RunComparison>(compareRuns(*a, *b, windowCompareOptions()));
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, generation, result]() {
                if (!self || generation != self->m_generation)
                    return;
                self->m_result = result;
                self->m_configPanel->setComparison(result);
                self->m_distributionPanel->setComparison(result);
                self->m_pairPanel->setComparison(result);
                self->rebuildPairs();
                if (!self->m_shown && !self->m_pairs.empty())
                    self->showPair(0);
                else if (self->m_pairs.empty() && self->m_result->allPairs.empty())
                    self->alignWholeProfiles();
                Q_EMIT self->comparisonReady();
            },
            Qt::QueuedConnection);
    });
    startWorker(worker);
}

void ComparisonController::rebuildPairs()
{
    m_pairs.clear();
    m_pairRows.clear();
    m_current = -1;
    if (m_result) {
        const bool all = m_pairPanel->showsAllPairs();
        const std::vector<MatchedPair>& pairs = m_result->allPairs;
        for (size_t i = 0; i < pairs.size(); ++i)
            if ((all ? !pairs[i].extraMedian : pairs[i].median) && pairs[i].baselineStepIndex >= 0 &&
                pairs[i].changedStepIndex >= 0) {
                m_pairs.push_back({size_t(pairs[i].baselineStepIndex), size_t(pairs[i].changedStepIndex)});
                m_pairRows.push_back(int(i));
            }
    }
    if (m_shown)
        if (const auto at = std::find(m_pairs.begin(), m_pairs.end(), *m_shown); at != m_pairs.end()) {
            m_current = int(at - m_pairs.begin());
            m_pairPanel->selectPair(m_pairRows[size_t(m_current)]);
        }
    setSharedBounds();
    updateBanner();
}

void ComparisonController::alignKernelsOfShownPair(size_t baselineStep, size_t changedStep)
{
    StepAnalyses& sa = *m_window->session()->analyses();
    StepAnalyses& sb = *m_changed->analyses();
    const RecordWindow& a = sa.step(baselineStep);
    const RecordWindow& b = sb.step(changedStep);
    const QString pairText =
        tr("Baseline forward_ct %1 vs changed forward_ct %2").arg(a.window.forwardCt).arg(b.window.forwardCt);
    // The two steps' analyses are copied (the worker never touches StepAnalyses); the profiles are immutable.
    std::shared_ptr<const Profile> pa = m_window->profile();
    std::shared_ptr<const Profile> pb = m_changed->profile();
    auto stepA = std::make_shared<const StepAnalysis>(sa.ensure(baselineStep));
    auto stepB = std::make_shared<const StepAnalysis>(sb.ensure(changedStep));
    startAlignment(pairText, [pa, pb, stepA, stepB] { return alignKernels(*pa, *stepA, *pb, *stepB); });
}

void ComparisonController::alignWholeProfiles()
{
    // No pair of steps to align (runs without step records): the device tasks of the two whole
    // profiles, as the command line's `compare` aligns them.
    std::shared_ptr<const Profile> pa = m_window->profile();
    std::shared_ptr<const Profile> pb = m_changed->profile();
    startAlignment(tr("The whole baseline vs the whole changed run"), [pa, pb] {
        const std::vector<EventRef> ta = deviceTasksIn(*pa, pa->firstNs(), pa->lastNs() + 1);
        const std::vector<EventRef> tb = deviceTasksIn(*pb, pb->firstNs(), pb->lastNs() + 1);
        return alignTasks(*pa, ta, *pb, tb);
    });
}

void ComparisonController::startAlignment(const QString& pairText, std::function<KernelAlignment()> align)
{
    // On a worker (20,000 tasks a side take tens of ms): the dock says it is busy meanwhile, and a
    // result for a pair no longer shown is dropped (m_kernelGeneration).
    const quint64 generation = ++m_kernelGeneration;
    m_kernels.reset();
    m_kernelPanel->setPlaceholder(tr("Aligning the kernels of %1…").arg(pairText));
    QPointer<ComparisonController> self(this);
    QThread* worker = QThread::create([self, generation, align = std::move(align), pairText]() {
        auto result = std::make_shared<const KernelAlignment>(align());
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, generation, result, pairText]() {
                if (!self)
                    return;
                if (generation != self->m_kernelGeneration) {
                    Q_EMIT self->kernelsDropped();
                    return;
                }
                self->m_kernels = result;
                self->m_kernelPanel->setAlignment(result, pairText);
                Q_EMIT self->kernelsAligned();
            },
            Qt::QueuedConnection);
    });
    startWorker(worker);
}

bool ComparisonController::isAligningKernels() const
{
    return isActive() && m_shown && !m_kernels;
}

void ComparisonController::startWorker(QThread* worker)
{
    m_workers.push_back(worker);
    worker->start();
    // Finished workers are let go of here (the one just started keeps running).
    std::erase_if(m_workers, [worker](QThread* t) {
        if (t == worker || !t->isFinished())
            return false;
        delete t;
        return true;
    });
}

void ComparisonController::revealTasks(EventRef baseline, EventRef changed)
{
    // Each timeline selects its task; the shared range then shows both (panned when they fit).
    TimelineWidget* top = m_window->timeline();
    TimeNs lo = std::numeric_limits<TimeNs>::max(), hi = std::numeric_limits<TimeNs>::min();
    auto take = [&](TimelineWidget* t, EventRef e) {
        const Profile* p = t->profile();
        if (!p || !e.valid())
            return;
        t->selectEvent(e, TimelineWidget::Reveal::None);
        t->ensureLaneVisible(e.lane);
        const TimeNs start = t->toSharedNs(p->startNs(e));
        lo = std::min(lo, start);
        hi = std::max(hi, start + p->lanes[e.lane].durationNs[e.index]);
    };
    take(top, baseline);
    take(m_changedTimeline, changed);
    if (lo <= hi)
        top->zoom()->reveal(lo, std::max(hi, lo + 1));
}

} // namespace dspark::ui
