#pragma once

#include "io/ProfileLoader.h"

#include <QObject>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>

namespace dspark::ui {

// Runs loadProfile() on a worker thread; reports progress and the outcome on the UI thread. The UI
// never waits for it: cancel() sets a flag the loaders poll, and the outcome arrives as `finished`.
class ProfileLoadTask : public QObject {
    Q_OBJECT
public:
    // Work done on the worker before loading: may replace the path (e.g. write the demo profile
    // into the cache first). Returns an error line, or an empty string.
    using Preparation = std::function<QString(QString& path)>;

    explicit ProfileLoadTask(QString path, QObject* parent = nullptr, Preparation prepare = {});
    ~ProfileLoadTask() override;

    // The loader's threads (LoadOptions::threads; 0: the default). Before start().
    void setLoaderThreads(int threads) { m_threads = threads; }
    void start();
    void cancel();
    const QString& path() const { return m_path; }
    bool isCancelled() const { return m_cancel->load(); }

Q_SIGNALS:
    void progress(double fraction, const QString& phase);
    // `path` is what was loaded (after preparation).
    void finished(std::shared_ptr<dspark::Profile> profile, const QString& error, bool cancelled, const QString& path);

private:
    QString m_path;
    Preparation m_prepare;
    int m_threads = 0;
    QThread* m_thread = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
};

} // namespace dspark::ui
