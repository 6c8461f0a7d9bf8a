#include "cluster/ClusterWindow.h"

#include "cluster/ClusterView.h"

#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QThread>
#include <QVBoxLayout>

namespace dspark::ui {

ClusterWindow::ClusterWindow(QWidget* parent)
    : QWidget(parent, Qt::Window), m_view(new ClusterView(this)), m_progress(new QProgressBar(this)),
      m_cancel(new QPushButton(tr("Cancel"), this)), m_status(new QLabel(this))
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
    layout->addWidget(m_view, 1);
    connect(m_cancel, &QPushButton::clicked, this, &ClusterWindow::cancel);
    connect(m_view, &ClusterView::stepActivated, this, [this](int rankNumber, qint64 stepId) {
        for (const LoadedRank& r : m_load.ranks)
            if (r.where.rankNumber == rankNumber && r.ok())
                Q_EMIT openRankRequested(
                    QString::fromStdString(r.where.path.empty() ? r.where.summaryPath : r.where.path), stepId);
    });
    resize(1000, 700);
}

ClusterWindow::~ClusterWindow()
{
    if (m_thread) {
        m_cancelFlag->store(true);
        m_thread->wait();
    }
}

void ClusterWindow::open(const QString& folder, const ClusterLoadOptions& optionsIn)
{
    cancel();
    setWindowTitle(tr("Cluster %1").arg(QDir::toNativeSeparators(folder)));
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
    m_status->setText(tr("Finding the ranks of %1…").arg(QDir::toNativeSeparators(folder)));
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    ClusterLoadOptions options = optionsIn;
    options.keepProfiles = false; // the window reads the summaries; a rank opens in the main window on demand
    const auto flag = m_cancelFlag;
    QPointer<ClusterWindow> self(this);
    m_thread = QThread::create([self, folder, options, flag] {
        auto result = std::make_shared<ClusterLoad>();
        const ClusterLayout layout = findClusterRanks(folder.toStdString());
        const auto report = [self](double fraction, const QString& phase) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, fraction, phase] {
                    if (self) {
                        self->m_progress->setValue(int(fraction * 1000));
                        self->m_status->setText(phase);
                    }
                },
                Qt::QueuedConnection);
        };
        if (layout.error.isEmpty())
            *result = loadCluster(layout, report, flag.get(), options);
        else {
            result->layout = layout;
            result->error = layout.error;
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, result] {
                if (self)
                    self->finish(result);
            },
            Qt::QueuedConnection);
    });
    m_thread->start();
}

void ClusterWindow::cancel()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
}

void ClusterWindow::finish(std::shared_ptr<ClusterLoad> load)
{
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    m_progress->hide();
    m_cancel->hide();
    m_load = std::move(*load);
    QStringList lines;
    if (m_load.cancelled)
        lines << tr("Cancelled: the ranks loaded so far are shown.");
    if (!m_load.error.isEmpty())
        lines << m_load.error;
    for (const LoadedRank& r : m_load.ranks)
        if (!r.ok())
            lines << tr("Rank %1 not opened: %2").arg(r.where.rankNumber).arg(r.error);
    lines << m_load.layout.warnings;
    m_status->setText(lines.join(QLatin1Char('\n')));
    m_view->setRanks(m_load.summaries());
    Q_EMIT loaded();
}

} // namespace dspark::ui
