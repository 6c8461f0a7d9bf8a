#pragma once

#include "io/ProfileLoader.h"

#include <QObject>
#include <QThread>

#include <atomic>
#include <memory>

namespace dspark::ui {

// Runs loadProfile() on a worker thread; reports progress and the outcome on the UI thread.
class ProfileLoadTask : public QObject {
    Q_OBJECT
public:
    explicit ProfileLoadTask(QString path, QObject* parent = nullptr);
    ~ProfileLoadTask() override;

    void start();
    void cancel();
    const QString& path() const { return m_path; }
    bool isRunning() const;

Q_SIGNALS:
    void progress(double fraction, const QString& phase);
    void finished(std::shared_ptr<dspark::Profile> profile, const QString& error, bool cancelled);

private:
    QString m_path;
    QThread* m_thread = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
};

} // namespace dspark::ui
