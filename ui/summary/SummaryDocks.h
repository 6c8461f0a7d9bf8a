#pragma once

#include "analysis/AnalysisRules.h"
#include "analysis/StageBands.h"
#include "model/Profile.h"

#include <QObject>

#include <memory>
#include <vector>

class QDockWidget;
class QMainWindow;
class QMenu;

namespace dspark::ui {

class KernelSummaryPanel;
class PlainStepsPanel;
class RangeStatsPanel;

// The window's summary docks: range statistics (a Ctrl-drag selection, a step), the kernel summary (the
// profile, or the selected range) and the steps of a profile without DSpark records. A dock with nothing to show is
// hidden; the kernel dock shows itself when a profile with kernels opens (and stays closed once the user
// closes it, until the next profile). Kept apart from MainWindow, which calls it from a few small hooks.
class SummaryDocks : public QObject {
    Q_OBJECT
public:
    explicit SummaryDocks(QMainWindow* window);

    // `rules`: the name rules the window loaded (null: the built-in ones).
    void setProfile(std::shared_ptr<const Profile> profile, std::shared_ptr<const AnalysisRules> rules = nullptr);
    // A Ctrl-drag selection or a step: both docks follow it.
    void showRange(TimeNs fromNs, TimeNs toNs, const QString& what);
    // A DSpark step: the range of its window; with its stage bands the kernel summary also sums by stage.
    void showStep(TimeNs fromNs, TimeNs toNs, const QString& what, const StepBands* bands);
    // After Reset Panel Layout (which hides them): the docks with something to show are shown again.
    void showFilled();
    void addToMenu(QMenu* menu) const;
    void retranslate();
    // While two runs are open, the titles name the run shown (empty: no name).
    void setRunName(const QString& name);

    RangeStatsPanel* rangeStats() const { return m_range; }
    PlainStepsPanel* plainSteps() const { return m_steps; }
    QDockWidget* stepsDock() const { return m_stepsDock; }
    KernelSummaryPanel* kernelSummary() const { return m_kernels; }
    QDockWidget* rangeDock() const { return m_rangeDock; }
    QDockWidget* kernelDock() const { return m_kernelDock; }

Q_SIGNALS:
    // A row was picked: list these events (longest first) and go to the first.
    void instancesRequested(const QString& title, std::vector<dspark::EventRef> events);
    // A step of a profile without DSpark records was picked: show [startNs, endNs) of that rank.
    void stepRequested(int rankIndex, dspark::TimeNs startNs, dspark::TimeNs endNs);

private:
    std::shared_ptr<const Profile> m_profile;
    QString m_runName;
    bool m_showKernelsWhenComputed = false; // (a profile opened: its first kernel summary shows the dock)
    RangeStatsPanel* m_range = nullptr;
    KernelSummaryPanel* m_kernels = nullptr;
    PlainStepsPanel* m_steps = nullptr;
    QDockWidget* m_stepsDock = nullptr;
    QDockWidget* m_rangeDock = nullptr;
    QDockWidget* m_kernelDock = nullptr;
};

} // namespace dspark::ui
