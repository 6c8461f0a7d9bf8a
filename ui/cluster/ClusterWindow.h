#pragma once

#include "cluster/ClusterLoader.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;
class QThread;

namespace dspark::ui {

class ClusterView;

// A cluster folder opened in a window of its own: its ranks load off the UI thread (loadCluster, one
// progress bar and Cancel), then the ClusterView shows them; ranks that failed are listed with their
// errors. Clicking a step asks the main window to open that rank (openRankRequested).
class ClusterWindow : public QWidget {
    Q_OBJECT
public:
    explicit ClusterWindow(QWidget* parent = nullptr);
    ~ClusterWindow() override;

    void open(const QString& folder, const ClusterLoadOptions& options = {});
    void cancel();
    bool loading() const { return m_thread != nullptr; }
    ClusterView* view() const { return m_view; }
    const ClusterLoad& load() const { return m_load; }
    QPushButton* cancelButton() const { return m_cancel; }
    QLabel* statusLabel() const { return m_status; }

Q_SIGNALS:
    void loaded();
    // The rank's folder (or file) and the step the user clicked.
    void openRankRequested(const QString& path, qint64 stepId);

private:
    void finish(std::shared_ptr<ClusterLoad> load);

    ClusterView* m_view;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QLabel* m_status;
    QThread* m_thread = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    ClusterLoad m_load;
};

} // namespace dspark::ui
