#include "compare/ComparisonLoadTask.h"

#include "compare/OpenComparison.h"

#include <QCoreApplication>
#include <QDir>
#include <QMetaObject>
#include <QThread>

namespace dspark::ui {

ComparisonLoadTask::ComparisonLoadTask(QString baseline, QString changed, QObject* parent, Preparation prepare)
    : QObject(parent), m_paths{std::move(baseline), std::move(changed)}, m_prepare(std::move(prepare))
{
    qRegisterMetaType<std::shared_ptr<dspark::Profile>>("std::shared_ptr<dspark::Profile>");
}

ComparisonLoadTask::~ComparisonLoadTask()
{
    cancel();
    if (m_prepareThread) {
        m_prepareThread->wait();
        delete m_prepareThread;
    }
    // (the two ProfileLoadTasks are children: their destructors wait for their threads)
}

void ComparisonLoadTask::cancel()
{
    m_cancelled = true;
    for (const QPointer<ProfileLoadTask>& t : m_tasks)
        if (t)
            t->cancel();
}

void ComparisonLoadTask::start()
{
    if (!m_prepare) {
        startLoads();
        return;
    }
    Q_EMIT progress(0.0, QCoreApplication::translate("ComparisonLoadTask", "Preparing…"));
    QPointer<ComparisonLoadTask> self(this);
    Preparation prepare = m_prepare;
    m_prepareThread = QThread::create([self, prepare]() {
        QString baseline, changed;
        const QString error = prepare(baseline, changed);
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, baseline, changed, error]() {
                if (!self)
                    return;
                if (!error.isEmpty() || self->m_cancelled) {
                    Q_EMIT self->finished(nullptr, nullptr, error, self->m_cancelled);
                    return;
                }
                self->m_paths = {baseline, changed};
                self->startLoads();
            },
            Qt::QueuedConnection);
    });
    m_prepareThread->start();
}

void ComparisonLoadTask::startLoads()
{
    for (int side : {Baseline, Changed}) {
        if (m_paths[side].isEmpty())
            continue;
        m_done[side] = false;
        m_fraction[side] = 0.0;
        auto* task = new ProfileLoadTask(m_paths[side], this);
        m_tasks[side] = task;
        connect(task, &ProfileLoadTask::progress, this, [this, side](double fraction, const QString& phase) {
            m_fraction[side] = fraction;
            // One bar for both: the mean of the two sides (a side already open counts as done).
            const QString label =
                phase.isEmpty() ? QString()
                                : (side == Baseline ? QCoreApplication::translate("ComparisonLoadTask", "Baseline: %1")
                                                    : QCoreApplication::translate("ComparisonLoadTask", "Changed: %1"))
                                      .arg(phase);
            Q_EMIT progress((m_fraction[0] + m_fraction[1]) / 2, label);
        });
        connect(task, &ProfileLoadTask::finished, this,
                [this, side](std::shared_ptr<Profile> profile, const QString& error, bool cancelled, const QString&) {
                    sideFinished(Side(side), std::move(profile), error, cancelled);
                });
    }
    // Two loads side by side split the cores (one each on two cores), as `compare` does
    // (core/compare/OpenComparison.h); one load alone keeps the loader's default.
    const bool both = m_tasks[0] && m_tasks[1];
    for (const QPointer<ProfileLoadTask>& t : m_tasks)
        if (t) {
            if (both)
                t->setLoaderThreads(sideBySideLoaderThreads());
            t->start();
        }
    if (m_done[0] && m_done[1]) // nothing to load
        Q_EMIT finished(nullptr, nullptr, {}, m_cancelled);
}

void ComparisonLoadTask::sideFinished(Side side, std::shared_ptr<Profile> profile, const QString& error, bool cancelled)
{
    m_done[side] = true;
    m_fraction[side] = 1.0;
    m_profiles[side] = std::move(profile);
    m_anyCancelled = m_anyCancelled || cancelled;
    if (!m_profiles[side] && !cancelled && m_error.isEmpty()) {
        const QString what = error.isEmpty() ? QCoreApplication::translate("ComparisonLoadTask", "%1: cannot be opened")
                                                   .arg(QDir::toNativeSeparators(m_paths[side]))
                                             : error;
        m_error = side == Baseline ? QCoreApplication::translate("ComparisonLoadTask", "baseline: %1").arg(what)
                                   : QCoreApplication::translate("ComparisonLoadTask", "changed run: %1").arg(what);
        // The comparison needs both: the other side's load is no use any more.
        if (QPointer<ProfileLoadTask> other = m_tasks[1 - side])
            other->cancel();
    }
    if (!(m_done[0] && m_done[1]))
        return;
    const bool cancelled_ = m_cancelled || (m_anyCancelled && m_error.isEmpty());
    Q_EMIT finished(m_profiles[0], m_profiles[1], cancelled_ ? QString() : m_error, cancelled_);
}

} // namespace dspark::ui
