#pragma once

#include "model/Profile.h"

#include <QObject>

#include <memory>
#include <vector>

class QDockWidget;
class QMainWindow;
class QMenu;

namespace dspark::ui {

class KernelSummaryPanel;
class RangeStatsPanel;

// The window's two summary docks: range statistics (a Ctrl-drag selection, a step) and the kernel
// summary (the profile, or the selected range). A dock with nothing to show is hidden; the kernel dock
// shows itself when a profile with kernels opens. Kept apart from MainWindow, which calls it from a few
// small hooks.
class SummaryDocks : public QObject {
    Q_OBJECT
public:
    explicit SummaryDocks(QMainWindow* window);

    void setProfile(std::shared_ptr<const Profile> profile);
    // A Ctrl-drag selection or a step: both docks follow it.
    void showRange(TimeNs fromNs, TimeNs toNs, const QString& what);
    void addToMenu(QMenu* menu) const;
    void retranslate();

    RangeStatsPanel* rangeStats() const { return m_range; }
    KernelSummaryPanel* kernelSummary() const { return m_kernels; }
    QDockWidget* rangeDock() const { return m_rangeDock; }
    QDockWidget* kernelDock() const { return m_kernelDock; }

Q_SIGNALS:
    // A row was picked: list these events (longest first) and go to the first.
    void instancesRequested(const QString& title, std::vector<dspark::EventRef> events);

private:
    std::shared_ptr<const Profile> m_profile;
    RangeStatsPanel* m_range = nullptr;
    KernelSummaryPanel* m_kernels = nullptr;
    QDockWidget* m_rangeDock = nullptr;
    QDockWidget* m_kernelDock = nullptr;
};

} // namespace dspark::ui
