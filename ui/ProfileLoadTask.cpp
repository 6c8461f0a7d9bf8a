#include "ProfileLoadTask.h"

#include "analysis/AnalysisRules.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMetaObject>
#include <QPointer>

namespace dspark::ui {

ProfileLoadTask::ProfileLoadTask(QString path, QObject* parent, Preparation prepare)
    : QObject(parent), m_path(std::move(path)), m_prepare(std::move(prepare))
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

void ProfileLoadTask::cancel()
{
    m_cancel->store(true);
}

void ProfileLoadTask::start()
{
    QPointer<ProfileLoadTask> self(this);
    auto cancelFlag = m_cancel;
    QString path = m_path;
    Preparation prepare = m_prepare;
    const int threads = m_threads;
    m_thread = QThread::create([self, cancelFlag, path, prepare, threads]() mutable {
        auto deliver = [self](auto&& f) {
            if (self)
                QMetaObject::invokeMethod(
                    self.data(),
                    [self, f]() {
                        if (self)
                            f(self.data());
                    },
                    Qt::QueuedConnection);
        };
        if (prepare) {
            deliver([](ProfileLoadTask* t) {
                Q_EMIT t->progress(0.0, QCoreApplication::translate("ProfileLoadTask", "Preparing…"));
            });
            const QString error = prepare(path);
            if (!error.isEmpty() || cancelFlag->load()) {
                const bool cancelled = cancelFlag->load();
                deliver([error, cancelled, path](ProfileLoadTask* t) {
                    Q_EMIT t->finished(nullptr, error, cancelled, path);
                });
                return;
            }
        }
        QElapsedTimer timer;
        timer.start();
        // Progress is throttled to ~30 updates a second and delivered queued to the UI thread.
        LoadProgress progress(
            [&timer, deliver](double fraction, const QString& phase) {
                if (!phase.isEmpty() || timer.elapsed() > 33) {
                    timer.restart();
                    deliver([fraction, phase](ProfileLoadTask* t) { Q_EMIT t->progress(fraction, phase); });
                }
            },
            cancelFlag.get());
        LoadOptions options; // the alignment reads the user's step_span rule, as the session's analyses do
        options.rules = std::make_shared<const AnalysisRules>(AnalysisRules::load({}, nullptr));
        if (threads > 0)
            options.threads = threads;
        LoadOutcome outcome = loadProfile(path.toStdString(), progress, options);
        deliver([outcome, path](ProfileLoadTask* t) {
            Q_EMIT t->finished(outcome.profile, outcome.error, outcome.cancelled, path);
        });
    });
    m_thread->start();
}

} // namespace dspark::ui
