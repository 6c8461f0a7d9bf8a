#pragma once

#include "model/Profile.h"

#include <QObject>
#include <QPointer>
#include <QUrl>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QDockWidget;
class QThread;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QSplitter;
class QWidget;

namespace dspark {
class ProfileSession;
struct ComparisonSide;
struct RunComparison;
struct KernelAlignment;
} // namespace dspark

namespace dspark::ui {

// A baseline step and the changed run's step it is compared with (indices into each session's
// StepAnalyses).
struct StepPair {
    size_t baselineStep = 0;
    size_t changedStep = 0;
    friend bool operator==(const StepPair&, const StepPair&) = default;
};

class CommBracketOverlay;
class ComparisonLoadTask;
class ConfigDiffPanel;
class DistributionPanel;
class KernelDiffPanel;
class PairTablePanel;
class CriticalPathOverlay;
class MainWindow;
class StageBandOverlay;
class TimelineWidget;

// Issue 23, the window's half: two runs in one window. The baseline is the window's session (the
// panels are bound to it) in the window's timeline; the changed run is a second session in a second
// timeline below it, on the window's zoom, offset so that the current matched step pair starts
// together. Opens comparisons (File › Compare With…, Shift+drop, `--compare A B`, `--demo-compare`,
// recent pairs) with both sides loading side by side under one progress bar; swaps and closes sides;
// `[` / `]` move both timelines to the next matched pair.
class ComparisonController : public QObject {
    Q_OBJECT
public:
    explicit ComparisonController(MainWindow* window);
    ~ComparisonController() override;

    // ---- opening ----
    // Loads both runs (folders or files) in the background; the window then shows the comparison.
    void openComparison(const QString& baseline, const QString& changed);
    // Compares the window's profile (the baseline) with `changed`; with none open, opens `changed`.
    void compareWith(const QString& changed);
    // Writes the demo pair once (as --demo does for the single demo) and compares it.
    void openDemoComparison();
    // `--compare BASELINE CHANGED`, `--demo-compare`: true when the arguments asked for a comparison.
    bool openFromCommandLine(const QStringList& args);
    // Shift+drop: two files compare with each other, one with the shown profile. False: not handled.
    bool openDropped(const QList<QUrl>& urls);
    void cancelLoading();
    // Drops a comparison still loading without a word (another profile is being opened): its result
    // never lands.
    void abandonLoading();
    bool isLoading() const;
    QStringList recentComparisons() const; // "baseline\nchanged", latest first

    // ---- the comparison shown ----
    bool isActive() const { return m_changed != nullptr; }
    ProfileSession* baselineSession() const;
    ProfileSession* changedSession() const { return m_changed.get(); }
    TimelineWidget* changedTimeline() const { return m_changedTimeline; }
    // The changed side's analysis overlays (the window's own draw the baseline's).
    StageBandOverlay* changedStageBands() const { return m_bands; }
    CommBracketOverlay* changedCommBrackets() const { return m_comm; }
    CriticalPathOverlay* changedCriticalPath() const { return m_path; }
    // The pairs `[` / `]` walk: the Matched Pairs dock's (the core's RunComparison::allPairs, median pairs
    // or all pairs as the dock shows them) that are on both timelines, in the baseline's time order. Empty
    // until the comparison is ready.
    const std::vector<StepPair>& pairs() const { return m_pairs; }
    int currentPair() const { return m_current; }
    // Shows pair i on both timelines (offset, zoom, highlights). False when there is no such pair.
    bool showPair(int index);
    // `[` / `]`: the previous / next pair (the first one when none is shown yet).
    void stepPair(int delta);
    // Shows two steps (StepAnalyses indices of each run) together: the pair table's rows, the keys.
    bool showSteps(size_t baselineStep, size_t changedStep);

    // ---- the docks fed by the core's comparison (core/compare) ----
    // The comparison of the two runs once both runs' steps are analysed (null until then).
    const std::shared_ptr<const RunComparison>& result() const { return m_result; }
    // The kernel diff of the shown pair (null while it is being aligned on a worker, or with no pair shown).
    const std::shared_ptr<const KernelAlignment>& kernelAlignment() const { return m_kernels; }
    bool isAligningKernels() const;
    ConfigDiffPanel* configPanel() const { return m_configPanel; }
    DistributionPanel* distributionPanel() const { return m_distributionPanel; }
    PairTablePanel* pairPanel() const { return m_pairPanel; }
    KernelDiffPanel* kernelPanel() const { return m_kernelPanel; }
    QList<QDockWidget*> docks() const { return m_docks; }

    // What cannot be compared between the two runs (other platforms, no steps), empty when all can.
    QString limitationsText() const;

    // Writes the figure of the current pair (the first when none is shown) as PNG / SVG / PDF by the
    // file's suffix; an error naming the file, or empty.
    QString exportFigure(const QString& path, int width = 1600) const;

    void swapSides();
    // Closing the baseline leaves an ordinary window on the changed run, closing the changed run one
    // on the baseline.
    void closeBaseline();
    void closeChanged();

    // Called by the window whenever its session changes: a profile opened another way ends the comparison.
    void windowSessionChanged();
    // Reset Panel Layout restored the window's default state: the comparison's docks shown again, the
    // bottom row shared out as on the first comparison.
    void layoutReset();

Q_SIGNALS:
    void comparisonOpened();
    void comparisonClosed();
    void loadFailed(const QString& error);
    void loadCancelled();
    void pairChanged(int index);
    // The core's comparison of the shown runs is in the docks.
    void comparisonReady();
    // The kernel diff of the shown pair is in its dock.
    void kernelsAligned();
    // A kernel diff arrived for a pair no longer shown and was dropped.
    void kernelsDropped();

private:
    void createWidgets();
    void createActions();
    void createDocks();
    // Runs the core's comparison on workers: each run's side (prepareSide) as soon as its steps are
    // analysed, the pairwise part once both sides are in.
    void compareWhenAnalysed();
    void prepareSideWhenAnalysed(int side, quint64 generation);
    void sidePrepared(int side, quint64 generation, std::shared_ptr<const ComparisonSide> prepared);
    void compareSides(quint64 generation);
    // Compare With… from the shown profile: its side is prepared while the other run loads.
    void prepareShownBaseline();
    // m_pairs from the comparison and the dock's mode; keeps the shown pair current when it is one.
    void rebuildPairs();
    void alignKernelsOfShownPair(size_t baselineStep, size_t changedStep);
    void alignWholeProfiles(); // no step pairs: the kernels of the two whole runs
    void startAlignment(const QString& pairText, std::function<KernelAlignment()> align);
    void startWorker(QThread* worker); // kept in m_workers (the destructor waits for them)
    void revealTasks(EventRef baseline, EventRef changed);
    void retranslate();
    bool eventFilter(QObject* watched, QEvent* event) override;
    void startTask(ComparisonLoadTask* task, const QString& label);
    void onLoaded(std::shared_ptr<Profile> baseline, std::shared_ptr<Profile> changed, const QString& error,
                  bool cancelled, const QString& baselinePath, const QString& changedPath);
    // Puts the two sessions on show (the baseline as the window's session).
    void showSessions(std::shared_ptr<ProfileSession> baseline, std::shared_ptr<ProfileSession> changed);
    void endComparison();
    void updateBanner();
    void updateActions();
    void setSharedBounds();
    TimeNs startOffsetNs() const; // the changed run's clock offset that starts both runs together
    void showDocks();             // the four docks, the pair table and the kernel diff on top of their tabs
    void fitBottomRow();          // the bottom row of docks shared out once the comparison's docks show
    void addRecent(const QString& baseline, const QString& changed);
    void rebuildRecentMenu();
    QString askPath(const QString& title, bool folder);
    void askAndCompare(bool folder);

    QPointer<MainWindow> m_window;
    std::shared_ptr<ProfileSession> m_changed;
    std::vector<StepPair> m_pairs;
    std::vector<int> m_pairRows; // the RunComparison::allPairs index of each of m_pairs
    int m_current = -1;
    std::optional<StepPair> m_shown; // the steps on show (a pair of the table need not be one of m_pairs)
    bool m_settingSessions = false;
    bool m_bottomRowFitted = false; // (fitBottomRow ran: the row's widths are the user's from then on)

    QSplitter* m_splitter = nullptr;
    QWidget* m_banner = nullptr;
    QLabel* m_bannerText = nullptr;
    QLabel* m_limitations = nullptr;
    QLabel* m_baselineCaption = nullptr;
    QLabel* m_changedCaption = nullptr;
    QWidget* m_changedPane = nullptr;
    TimelineWidget* m_changedTimeline = nullptr;
    StageBandOverlay* m_bands = nullptr;
    CommBracketOverlay* m_comm = nullptr;
    CriticalPathOverlay* m_path = nullptr;
    QPushButton* m_swapButton = nullptr;
    QPushButton* m_closeBaselineButton = nullptr;
    QPushButton* m_closeChangedButton = nullptr;

    ComparisonLoadTask* m_task = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_compareMenu = nullptr;

    std::shared_ptr<const RunComparison> m_result;
    std::array<std::shared_ptr<const ComparisonSide>, 2> m_sides; // baseline, changed (null until prepared)
    // The shown profile's baseline side, prepared ahead (prepareShownBaseline); null side while in flight.
    std::shared_ptr<ProfileSession> m_earlySession;
    std::shared_ptr<const ComparisonSide> m_earlySide;
    std::shared_ptr<const KernelAlignment> m_kernels;
    quint64 m_generation = 0;       // a result of an older comparison is dropped
    quint64 m_kernelGeneration = 0; // a kernel diff of a pair no longer shown is dropped
    std::vector<QThread*> m_workers;
    ConfigDiffPanel* m_configPanel = nullptr;
    DistributionPanel* m_distributionPanel = nullptr;
    PairTablePanel* m_pairPanel = nullptr;
    KernelDiffPanel* m_kernelPanel = nullptr;
    QList<QDockWidget*> m_docks;
    QMenu* m_docksMenu = nullptr;
};

} // namespace dspark::ui
