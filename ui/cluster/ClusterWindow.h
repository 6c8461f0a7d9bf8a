#pragma once

#include "cluster/ClusterLoader.h"

#include <QWidget>

#include <atomic>
#include <deque>
#include <map>
#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;
class QThread;

namespace dspark::ui {

class ClusterView;
class RankOverview;

// A cluster folder opened in a window of its own: its ranks load off the UI thread (loadCluster, one
// progress bar and Cancel); the RankOverview above shows every rank on one clock (one session per rank,
// offset by the ClusterView's clocks) and the ClusterView below compares them; ranks that failed, runs
// not loaded and folders of unknown rank are listed. Clicking a step cell shows that rank's step in the
// overview; activating it (double-click, Enter) asks the main window to open the rank (openRankRequested).
// Clicking a segment of the cross-rank critical path selects its event on its rank's timeline.
class ClusterWindow : public QWidget {
    Q_OBJECT
public:
    explicit ClusterWindow(QWidget* parent = nullptr);
    ~ClusterWindow() override;

    // Loads the ranks: those whose estimated loaded size does not fit the memory budget
    // (options.memoryBudgetBytes, else memoryBudget(); planClusterLoad) as summaries first, each one's
    // events loaded when it is unfolded; loaded ranks are dropped, least recently viewed first, when they
    // outgrow the budget.
    void open(const QString& folder, const ClusterLoadOptions& options = {});
    // Stops the loads (Cancel, or Esc while loading): a cancelled cluster load shows nothing of itself.
    void cancel();
    bool loading() const { return m_thread != nullptr || !m_rankLoads.empty(); }
    // Ranks whose events are loading now (lazy loading; several at once within cores and budget).
    size_t rankLoadsRunning() const { return m_rankLoads.size(); }
    // Whether some ranks opened as summaries (their events load on demand): those whose estimated loaded
    // size did not fit the budget (planClusterLoad).
    bool lazy() const { return m_lazy; }
    size_t lazyCount() const { return m_lazyCount; }
    uint64_t budgetBytes() const { return m_budget; }
    // The default budget: the environment's DSPARK_CLUSTER_MEMORY_MB, else the setting
    // cluster/memoryBudgetMB, else half of the machine's memory.
    static uint64_t memoryBudget();
    ClusterView* view() const { return m_view; }
    RankOverview* overview() const { return m_overview; }
    const ClusterLoad& load() const { return m_load; }
    QPushButton* cancelButton() const { return m_cancel; }
    QLabel* statusLabel() const { return m_status; }

Q_SIGNALS:
    void loaded();
    // The cluster load was cancelled: the window is empty (clear()) and ready for another open().
    void loadCancelled();
    // A rank's events arrived (lazy loading) or failed to (profile null).
    void rankLoaded(size_t rank, bool ok);
    // The rank's folder (or file) and the step the user clicked.
    void openRankRequested(const QString& path, qint64 stepId);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void finish(std::shared_ptr<ClusterLoad> load);
    void clear();               // no ranks, no tables
    QString loadReport() const; // failed ranks, runs not loaded, warnings, lazy loading
    void fitOverview();         // the splitter: the rank rows what they need, the tables the rest
    // Lazy loading: a rank's profile in the background (queued while cores or budget are taken), then
    // room made for it.
    void loadRank(size_t rank);
    void startQueuedLoads();
    void startRankLoad(size_t rank);
    void rankProgress(size_t rank, double fraction);
    void rankArrived(size_t rank, std::shared_ptr<const Profile> profile, const QString& error);
    uint64_t estimateOf(size_t rank) const; // the rank's estimated loaded size (overview index)
    void makeRoom(size_t keep, uint64_t incomingBytes);
    void touch(size_t rank); // most recently viewed
    void showProgress(bool on);
    void setStatus(const QString& text); // shown only when there is something to say
    void stopThreads();                  // cancels and waits for both loads

    RankOverview* m_overview;
    QSplitter* m_split = nullptr;
    ClusterView* m_view;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QLabel* m_status;
    QThread* m_thread = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    ClusterLoad m_load;
    std::vector<size_t> m_okRanks; // overview rank index → index into m_load.ranks
    bool m_lazy = false;
    size_t m_lazyCount = 0; // ranks opened as summaries only
    uint64_t m_budget = 0;
    struct RankLoad {
        QThread* thread = nullptr;
        std::shared_ptr<std::atomic<bool>> cancel;
        double fraction = 0;
    };
    std::map<size_t, RankLoad> m_rankLoads; // overview rank → its running load
    std::deque<size_t> m_rankQueue;         // unfolded ranks waiting for a load slot
    std::vector<size_t> m_recent;           // loaded ranks (overview indices), least recently viewed first
    quint64 m_generation = 0;               // one per open(): a result of an earlier cluster is dropped
};

} // namespace dspark::ui
