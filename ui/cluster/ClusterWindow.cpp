#include "cluster/ClusterWindow.h"

#include "cluster/ClusterView.h"
#include "cluster/RankOverview.h"

#include "io/ProfileLoader.h"
#include "session/ProfileSession.h"

#include <QDir>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace dspark::ui {

ClusterWindow::ClusterWindow(QWidget* parent)
    : QWidget(parent, Qt::Window), m_overview(new RankOverview(this)), m_view(new ClusterView(this)),
      m_progress(new QProgressBar(this)), m_cancel(new QPushButton(tr("Cancel"), this)), m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("clusterWindow"));
    m_progress->setRange(0, 1000);
    m_status->setWordWrap(true);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_progress, 1);
    bar->addWidget(m_cancel);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    m_status->hide(); // (no blank line above the ranks while there is nothing to say)
    m_split = new QSplitter(Qt::Vertical, this);
    m_split->addWidget(m_overview);
    m_split->addWidget(m_view);
    m_split->setStretchFactor(0, 0); // a taller window: more table rows (the rank rows have what they need)
    m_split->setStretchFactor(1, 1);
    m_split->setSizes({600, 400}); // until the ranks come (fitOverview)
    layout->addWidget(m_split, 1);
    connect(m_view, &ClusterView::analysed, m_overview, [this] { m_overview->setOffsets(m_view->offsets()); });
    connect(m_view, &ClusterView::stepClicked, m_overview,
            [this](size_t rank, qint64 stepId) { m_overview->showStep(rank, stepId); });
    connect(m_overview, &RankOverview::profileWanted, this, &ClusterWindow::loadRank);
    connect(m_view, &ClusterView::segmentClicked, m_overview,
            [this](size_t rank, qint64 startNs, qint64 endNs, const QString& what, bool collective) {
                m_overview->revealSegment(rank, startNs, endNs, what.toStdString(), collective);
            });
    connect(m_overview, &RankOverview::expansionChanged, this, [this](size_t rank, bool expanded) {
        if (expanded)
            touch(rank);
        fitOverview();
    });
    connect(m_cancel, &QPushButton::clicked, this, &ClusterWindow::cancel);
    connect(m_view, &ClusterView::stepActivated, this, [this](int rankNumber, qint64 stepId) {
        for (const LoadedRank& r : m_load.ranks)
            if (r.where.rankNumber == rankNumber && r.ok())
                Q_EMIT openRankRequested(
                    QString::fromStdString(r.where.path.empty() ? r.where.summaryPath : r.where.path), stepId);
    });
    resize(1200, 900);
}

ClusterWindow::~ClusterWindow()
{
    stopThreads();
}

void ClusterWindow::stopThreads()
{
    cancel();
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
    }
    for (auto& [rank, load] : m_rankLoads) {
        load.thread->wait();
        delete load.thread;
    }
    m_rankLoads.clear();
}

uint64_t ClusterWindow::memoryBudget()
{
    bool ok = false;
    const qulonglong env = qEnvironmentVariable("DSPARK_CLUSTER_MEMORY_MB").toULongLong(&ok);
    if (ok && env > 0)
        return env << 20;
    const qulonglong setting = QSettings().value(QStringLiteral("cluster/memoryBudgetMB")).toULongLong(&ok);
    if (ok && setting > 0)
        return setting << 20;
    return defaultClusterMemoryBudget();
}

void ClusterWindow::showProgress(bool on)
{
    m_progress->setValue(0);
    m_progress->setVisible(on);
    m_cancel->setVisible(on);
}

void ClusterWindow::open(const QString& folder, const ClusterLoadOptions& optionsIn)
{
    stopThreads(); // an earlier cluster's loads end here; their results, still queued, are dropped
    ++m_generation;
    setWindowTitle(tr("Cluster %1").arg(QDir::toNativeSeparators(folder)));
    showProgress(true);
    setStatus(tr("Finding the ranks of %1…").arg(QDir::toNativeSeparators(folder)));
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    ClusterLoadOptions options = optionsIn;
    m_budget = options.memoryBudgetBytes ? options.memoryBudgetBytes : memoryBudget();
    options.memoryBudgetBytes = m_budget;
    const auto flag = m_cancelFlag;
    QPointer<ClusterWindow> self(this);
    const quint64 generation = m_generation;
    m_thread = QThread::create([self, folder, options, flag, generation] {
        auto result = std::make_shared<ClusterLoad>();
        const ClusterLayout layout = findClusterRanks(folder.toStdString());
        const auto report = [self](double fraction, const QString& phase) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, fraction, phase] {
                    if (self) {
                        self->m_progress->setValue(int(fraction * 1000));
                        self->setStatus(phase);
                    }
                },
                Qt::QueuedConnection);
        };
        if (layout.error.isEmpty()) {
            // The ranks whose estimated loaded size fits the budget keep their events; the others open
            // as summaries first.
            const int cores = options.maxConcurrent > 0 ? options.maxConcurrent : QThread::idealThreadCount();
            const ClusterLoadPlan plan = planClusterLoad(layout, options.memoryBudgetBytes, cores);
            ClusterLoadOptions run = options;
            run.keep = plan.keep;
            for (const RankSizeEstimate& e : plan.estimates)
                run.loadedBytes.push_back(e.loadedBytes);
            *result = loadCluster(layout, report, flag.get(), run);
        } else {
            result->layout = layout;
            result->error = layout.error;
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, result, generation] {
                if (self && self->m_generation == generation)
                    self->finish(result);
            },
            Qt::QueuedConnection);
    });
    m_thread->start();
}

void ClusterWindow::clear()
{
    m_load = ClusterLoad();
    m_okRanks.clear();
    m_recent.clear();
    m_lazy = false;
    m_lazyCount = 0;
    m_overview->setRanks({}, {});
    m_view->setRanks({});
}

void ClusterWindow::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape && loading()) { // Esc is the Cancel button while loading
        cancel();
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

void ClusterWindow::cancel()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
    for (auto& [rank, load] : m_rankLoads)
        load.cancel->store(true);
    for (size_t rank : std::exchange(m_rankQueue, {})) // queued ranks fold back: nothing will come for them
        m_overview->setExpanded(rank, false);
}

void ClusterWindow::finish(std::shared_ptr<ClusterLoad> load)
{
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    showProgress(false);
    if (load->cancelled) { // nothing of a cancelled load is shown: the window stays as a new one is
        clear();
        setStatus(tr("Loading cancelled: nothing is shown. Open the folder again to load it."));
        Q_EMIT loadCancelled();
        return;
    }
    m_load = std::move(*load);
    std::vector<std::shared_ptr<const Profile>> profiles;
    m_okRanks.clear();
    m_recent.clear();
    m_lazyCount = 0;
    for (size_t i = 0; i < m_load.ranks.size(); ++i)
        if (LoadedRank& r = m_load.ranks[i]; r.ok()) {
            m_lazyCount += r.profile ? 0 : 1;
            if (r.profile) // the loaded ranks count against the budget when a lazy one loads (makeRoom)
                m_recent.push_back(m_okRanks.size());
            m_okRanks.push_back(i);
            profiles.push_back(std::move(r.profile)); // the overview's sessions hold them (and drop them)
        }
    m_lazy = m_lazyCount > 0;
    setStatus(loadReport());
    // The overview first: the view's first analysis hands it the offsets.
    const std::vector<RankSummary> summaries = m_load.summaries();
    m_overview->setRanks(summaries, std::move(profiles));
    m_view->setRanks(summaries);
    m_split->setVisible(!m_okRanks.empty()); // no rank: the message alone, not empty rows and tables
    fitOverview();
    Q_EMIT loaded();
}

void ClusterWindow::fitOverview()
{
    // The rows take what they need (no blank below the last rank), at most 70 % of the height; the
    // tables below get the rest.
    const int total = m_split->height() - m_split->handleWidth();
    if (total <= 0)
        return;
    const int top = std::min(m_overview->wantedHeight(), total * 7 / 10);
    m_split->setSizes({top, total - top});
    m_view->fitRankTable();
}

void ClusterWindow::setStatus(const QString& text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

QString ClusterWindow::loadReport() const
{
    QStringList lines;
    if (!m_load.error.isEmpty())
        lines << m_load.error;
    for (const LoadedRank& r : m_load.ranks)
        if (!r.ok())
            lines << tr("Rank %1 not opened: %2").arg(r.where.rankNumber).arg(r.error);
    lines << m_load.layout.warnings;
    for (const ClusterSkipped& s : m_load.layout.skipped) // (an older run's reason is its warning, listed above)
        if (!m_load.layout.warnings.contains(QString::fromStdString(s.reason)))
            lines << tr("Not loaded: %1 (%2)")
                         .arg(QDir::toNativeSeparators(QString::fromStdString(s.path)),
                              QString::fromStdString(s.reason));
    if (m_lazy)
        lines << tr("%1 of %2 ranks exceed the memory budget (%3, against each rank's estimated loaded size): "
                    "their events load when you unfold them.")
                     .arg(m_lazyCount)
                     .arg(m_okRanks.size())
                     .arg(QLocale().formattedDataSize(qint64(m_budget)));
    return lines.join(QLatin1Char('\n'));
}

void ClusterWindow::touch(size_t rank)
{
    std::erase(m_recent, rank);
    if (m_overview->session(rank))
        m_recent.push_back(rank);
}

void ClusterWindow::loadRank(size_t rank)
{
    const ClusterRank& where = m_load.ranks[m_okRanks.at(rank)].where;
    if (where.path.empty()) {
        setStatus(tr("Rank %1 has only its summary: no events to show.").arg(where.rankNumber));
        m_overview->setExpanded(rank, false);
        return;
    }
    if (m_rankLoads.count(rank) || std::find(m_rankQueue.begin(), m_rankQueue.end(), rank) != m_rankQueue.end())
        return;
    m_rankQueue.push_back(rank);
    startQueuedLoads();
}

uint64_t ClusterWindow::estimateOf(size_t rank) const
{
    const size_t i = m_okRanks.at(rank);
    return i < m_load.loadedBytesEstimate.size() ? m_load.loadedBytesEstimate[i] : m_load.ranks[i].where.bytes * 3;
}

void ClusterWindow::startQueuedLoads()
{
    // Several ranks load at once, as many as cores allow and as their estimated loads fit the budget
    // (peaking at twice the estimate, as in planClusterLoad); one always may.
    const size_t cores = static_cast<size_t>(std::max(1, QThread::idealThreadCount()));
    while (!m_rankQueue.empty() && m_rankLoads.size() < cores) {
        uint64_t running = 0;
        for (const auto& [r, load] : m_rankLoads)
            running += 2 * estimateOf(r);
        const size_t rank = m_rankQueue.front();
        if (!m_rankLoads.empty() && running + 2 * estimateOf(rank) > m_budget)
            break;
        m_rankQueue.pop_front();
        startRankLoad(rank);
    }
    if (m_rankLoads.empty())
        return;
    QStringList names;
    for (const auto& [r, load] : m_rankLoads)
        names << QString::number(m_load.ranks[m_okRanks[r]].where.rankNumber);
    const QString list = names.join(QStringLiteral(", "));
    setStatus(m_rankQueue.empty()
                  ? tr("Loading ranks: %1…").arg(list)
                  : tr("Loading ranks: %1… (%n more waiting)", nullptr, int(m_rankQueue.size())).arg(list));
}

void ClusterWindow::startRankLoad(size_t rank)
{
    showProgress(true);
    RankLoad& load = m_rankLoads[rank];
    load.cancel = std::make_shared<std::atomic<bool>>(false);
    const auto flag = load.cancel;
    const std::string path = m_load.ranks[m_okRanks.at(rank)].where.path;
    QPointer<ClusterWindow> self(this);
    const quint64 generation = m_generation;
    load.thread = QThread::create([self, rank, path, flag, generation] {
        const auto report = [self, rank, generation](double fraction, const QString&) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, rank, fraction, generation] {
                    if (self && self->m_generation == generation)
                        self->rankProgress(rank, fraction);
                },
                Qt::QueuedConnection);
        };
        LoadOutcome outcome = loadProfile(path, LoadProgress(report, flag.get()));
        std::shared_ptr<const Profile> profile = std::move(outcome.profile);
        const QString error = outcome.cancelled ? tr("cancelled") : outcome.error;
        QMetaObject::invokeMethod(
            self.data(),
            [self, rank, profile, error, generation] {
                if (self && self->m_generation == generation)
                    self->rankArrived(rank, profile, error);
            },
            Qt::QueuedConnection);
    });
    load.thread->start();
}

void ClusterWindow::rankProgress(size_t rank, double fraction)
{
    const auto it = m_rankLoads.find(rank);
    if (it == m_rankLoads.end())
        return;
    it->second.fraction = fraction;
    double sum = 0; // the bar: the running loads' mean
    for (const auto& [r, load] : m_rankLoads)
        sum += load.fraction;
    m_progress->setValue(int(1000 * sum / double(m_rankLoads.size())));
}

void ClusterWindow::rankArrived(size_t rank, std::shared_ptr<const Profile> profile, const QString& error)
{
    const auto it = m_rankLoads.find(rank);
    it->second.thread->wait();
    delete it->second.thread;
    m_rankLoads.erase(it);
    if (m_rankLoads.empty() && m_rankQueue.empty())
        showProgress(false);
    const int number = m_load.ranks[m_okRanks[rank]].where.rankNumber;
    if (!profile) {
        setStatus(tr("Rank %1 not loaded: %2").arg(number).arg(error));
        m_overview->setExpanded(rank, false);
        Q_EMIT rankLoaded(rank, false);
        startQueuedLoads();
        return;
    }
    makeRoom(rank, profile->bytesUsed());
    m_overview->setProfile(rank, std::move(profile));
    touch(rank);
    setStatus(tr("Rank %1 loaded.").arg(number));
    Q_EMIT rankLoaded(rank, true);
    startQueuedLoads();
}

void ClusterWindow::makeRoom(size_t keep, uint64_t incomingBytes)
{
    // Least recently viewed first, until the loaded ranks and the new one fit (the new one always stays).
    uint64_t used = incomingBytes;
    for (size_t r : m_recent)
        used += m_overview->session(r)->profile()->bytesUsed();
    while (used > m_budget && !m_recent.empty()) {
        const size_t drop = m_recent.front();
        m_recent.erase(m_recent.begin());
        if (drop == keep)
            continue;
        used -= m_overview->session(drop)->profile()->bytesUsed();
        m_overview->setExpanded(drop, false);
        m_overview->setProfile(drop, nullptr);
    }
}

} // namespace dspark::ui
