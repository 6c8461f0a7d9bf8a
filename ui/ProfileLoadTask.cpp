#include "ProfileLoadTask.h"

#include <QElapsedTimer>
#include <QMetaObject>
#include <QPointer>

namespace dspark::ui {

ProfileLoadTask::ProfileLoadTask(QString path, QObject* parent) : QObject(parent), m_path(std::move(path))
{
    qRegisterMetaType<std::shared_ptr<dspark::Profile>>("std::shared_ptr<dspark::Profile>");
}

ProfileLoadTask::~ProfileLoadTask()
{
    cancel();
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
    }
}

bool ProfileLoadTask::isRunning() const
{
    return m_thread && m_thread->isRunning();
}

void ProfileLoadTask::cancel()
{
    m_cancel->store(true);
}

void ProfileLoadTask::start()
{
    QPointer<ProfileLoadTask> self(this);
    auto cancelFlag = m_cancel;
    const std::string path = m_path.toStdString();
    m_thread = QThread::create([self, cancelFlag, path]() {
        auto timer = std::make_shared<QElapsedTimer>();
        timer->start();
        // Progress is throttled to ~30 updates a second and delivered queued to the UI thread.
        LoadProgress progress(
            [self, timer](double fraction, const QString& phase) {
                if (!phase.isEmpty() || timer->elapsed() > 33) {
                    timer->restart();
                    if (self)
                        QMetaObject::invokeMethod(self.data(), [self, fraction, phase]() {
                            if (self)
                                Q_EMIT self->progress(fraction, phase);
                        }, Qt::QueuedConnection);
                }
            },
            cancelFlag.get());
        LoadOutcome outcome = loadProfile(path, progress);
        if (self)
            QMetaObject::invokeMethod(self.data(), [self, outcome]() {
                if (self)
                    Q_EMIT self->finished(outcome.profile, outcome.error, outcome.cancelled);
            }, Qt::QueuedConnection);
    });
    m_thread->start();
}

} // namespace dspark::ui
