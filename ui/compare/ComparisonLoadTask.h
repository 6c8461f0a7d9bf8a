#pragma once

#include "ProfileLoadTask.h"

#include <QObject>
#include <QPointer>

#include <array>
#include <functional>
#include <memory>

class QThread;

namespace dspark::ui {

// Loads the two runs of a comparison side by side (one ProfileLoadTask each, so a comparison costs
// what the slower side costs), reports one progress for both and one outcome. A side already open in
// the window is not loaded again: give its path empty and its profile through `finished` yourself.
class ComparisonLoadTask : public QObject {
    Q_OBJECT
public:
    enum Side { Baseline = 0, Changed = 1 };
    // Work done on a worker before loading (writing the demo pair): may set both paths; returns an
    // error line or an empty string.
    using Preparation = std::function<QString(QString& baseline, QString& changed)>;

    // An empty path: that side is not loaded (the window already shows it).
    ComparisonLoadTask(QString baseline, QString changed, QObject* parent = nullptr, Preparation prepare = {});
    ~ComparisonLoadTask() override;

    void start();
    void cancel();
    bool isCancelled() const { return m_cancelled; }
    QString path(Side side) const { return m_paths[side]; }

Q_SIGNALS:
    void progress(double fraction, const QString& phase);
    // Both sides done. `error` names the side's file and the problem (empty: both loaded); a side not
    // asked for comes back null.
    void finished(std::shared_ptr<dspark::Profile> baseline, std::shared_ptr<dspark::Profile> changed,
                  const QString& error, bool cancelled);

private:
    void startLoads();
    void sideFinished(Side side, std::shared_ptr<Profile> profile, const QString& error, bool cancelled);

    std::array<QString, 2> m_paths;
    Preparation m_prepare;
    QThread* m_prepareThread = nullptr;
    std::array<QPointer<ProfileLoadTask>, 2> m_tasks;
    std::array<double, 2> m_fraction{1.0, 1.0};
    std::array<bool, 2> m_done{true, true};
    std::array<std::shared_ptr<Profile>, 2> m_profiles;
    QString m_error;
    bool m_cancelled = false;
    bool m_anyCancelled = false;
};

} // namespace dspark::ui
