#pragma once

#include "model/Profile.h"

#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>

#include <memory>
#include <optional>
#include <vector>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QListWidget;
class QMenu;
class QMessageBox;
class QProgressBar;
class QPushButton;
class QSplitter;
class QStackedWidget;

namespace dspark {
class ProfileSession;
struct SessionEvent;
} // namespace dspark

namespace dspark::ui {

class ComparisonController;
class ClusterWindow;
class EventDetailsPane;
class EventTablePanel;
class LegendPanel;
class MarkerActions;
class FileListPanel;
class ProfileLoadTask;
class ReportActions;
class SearchPanel;
class StepTablePanel;
class SummaryDocks;
class TimelineWidget;

// The main window: the timeline in the centre; docks for the step table, the details of the
// selection, the kernel/event table, search and the colour legend. Opens profiles in the background
// (progress bar, Cancel), remembers recent profiles, window state and options (QSettings), switches
// language at run time, and links the step table with the timeline both ways.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a path (folder or file) in the background.
    void openPath(const QString& path);
    // Writes (once) and opens the embedded demo profile, in the background.
    void openDemo();
    // Opens a folder of ranks in a cluster window (docs/cluster.md).
    ClusterWindow* openClusterWindow(const QString& folder);
    // Handles the GUI's command line: a path or a file:// URI, `--demo`, or nothing.
    void openFromCommandLine(const QStringList& args);
    void cancelLoading();
    bool isLoading() const;

    // The profile of the shown session (null: none).
    const std::shared_ptr<const Profile>& profile() const;
    // Shows an already loaded profile (tests, embedding): it becomes the window's one session.
    void setProfile(std::shared_ptr<const Profile> profile, const QString& path = {});

    // ---- sessions ----
    // The opened profiles (today at most one) and the one the panels are bound to.
    const std::vector<std::shared_ptr<ProfileSession>>& sessions() const { return m_sessions; }
    ProfileSession* session() const { return m_session.get(); }
    // Selects an event of the shown session in every pane; an event of another session is refused
    // (false, nothing changes), so that it never resolves to whatever sits at its address here.
    bool selectEvent(const SessionEvent& e);
    // Shows `session` as the window's one session (the panels are bound to it); null: none.
    void setSession(std::shared_ptr<ProfileSession> session);

    // ---- comparison (issue 23, ui/compare/ComparisonController) ----
    // The second run of a comparison is an extra session: its events resolve here, the panels stay
    // bound to session(). Removing the shown session is refused (setSession replaces it).
    void addSession(std::shared_ptr<ProfileSession> session);
    void removeSession(const ProfileSession* session);
    // The session the details, search and event-table panes, the step table, the range statistics and
    // the kernel summary work on: session() unless an event of another session was selected on its own
    // timeline (a comparison's changed run) or that timeline took the focus. Their dock titles name it
    // while there is more than one session.
    ProfileSession* paneSession() const { return m_paneSession; }
    void setPaneSession(ProfileSession* session, TimelineWidget* timeline);
    // An event of `session` selected on `timeline`: the panes move to that session and show it.
    void showSessionEvent(ProfileSession* session, TimelineWidget* timeline, EventRef e);
    // A time range of `session` selected on `timeline` (Ctrl-drag): the panes move to it and show the range.
    void showSessionRange(ProfileSession* session, TimelineWidget* timeline, TimeNs startNs, TimeNs endNs);
    ComparisonController* comparison() const { return m_comparison; }
    // Holds the timeline; the comparison puts the second timeline beside it.
    QWidget* timelinePage() const { return m_timelinePage; }

    // ---- parts (tests, and features that extend the window: overlays, exports) ----
    TimelineWidget* timeline() const { return m_timeline; }
    StepTablePanel* stepPanel() const { return m_steps; }
    EventDetailsPane* detailsPane() const { return m_details; }
    EventTablePanel* eventTable() const { return m_events; }
    SearchPanel* searchPanel() const { return m_search; }
    LegendPanel* legendPanel() const { return m_legend; }
    FileListPanel* fileListPanel() const { return m_files; }
    // Range statistics and the kernel summary (issue 26).
    SummaryDocks* summaries() const { return m_summaries; }
    // Analysis overlays, annotations, exports and the step charts (issues 7 and 8).
    ReportActions* reports() const { return m_reports; }
    // Markers and their dock (issue 27).
    MarkerActions* markers() const { return m_markers; }
    QMenu* fileMenu() const { return m_fileMenu; }
    QMenu* viewMenu() const { return m_viewMenu; }
    QMenu* toolsMenu() const { return m_toolsMenu; }
    QAction* action(const QString& objectName) const;

    QStringList recentProfiles() const;
    QString lastError() const { return m_lastError; }
    // The error box of the last failed load, while it is open.
    QMessageBox* errorBox() const { return m_errorBox; }
    QString statusText() const;

    // "" follows the system locale; "en", "zh_CN".
    void setLanguage(const QString& localeName);
    QString language() const { return m_language; }

    // The Help › Keyboard and Mouse table (HTML), as it reads in the window's present mode.
    QString shortcutsHtml() const;

    // Step table ↔ timeline.
    void showStep(int sourceRow, bool openTasks);
    void attachStepRecordsAnyway();
    void stepBy(int delta, bool anomalousOnly);

Q_SIGNALS:
    void profileLoaded();
    void loadFailed(const QString& error);
    void loadCancelled();

protected:
    bool event(QEvent* event) override; // the dock areas' tab bars elide in the middle
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void boundMinimumToScreen(); // the docks' minimum, at most the screen's available size
    void createActions();
    void createMenus();
    void createDocks();
    QWidget* createWelcomePage();
    void retranslateUi();
    void startTask(ProfileLoadTask* task, const QString& label);
    void onLoadFinished(std::shared_ptr<Profile> profile, const QString& error, bool cancelled, const QString& path);
    void showError(const QString& title, const QString& message);
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void rebuildHiddenLanesMenu();
    void readSettings();
    void writeSettings() const;
    // The event `e` of the pane showing `source`, tagged with its session (invalid when no session
    // holds `source`).
    SessionEvent tagFrom(const Profile* source, EventRef e) const;
    bool revealEvent(const SessionEvent& e, bool zoom);
    void onEventSelected(EventRef e);
    // The details pane, the status and the device tasks a host call launched, for an event of the panes'
    // session (`stepText`: its step, or empty).
    void showEventInPanes(EventRef e, const QString& stepText);
    void retitlePaneDocks();
    // The step table and the summaries on `session` (null: none), when they are not on it already.
    void bindStepPanes(ProfileSession* session);
    const std::shared_ptr<const Profile>& paneProfile() const; // paneSession()'s profile (null: none)
    void onTimeRangeSelected(TimeNs startNs, TimeNs endNs);
    void showLaneMenu(int row, const QPoint& globalPos, EventRef event);
    int stepRowForEvent(EventRef e) const;
    QString stepTextForRow(int sourceRow) const;
    void showDeviceTasks(const QString& title, int rankIndex, TimeNs startNs, TimeNs endNs);
    // The panes that follow the selected step: its highlight, the status line, the kernel table.
    // False (and the status says why) when the step is not on the timeline.
    bool markStep(int sourceRow);
    // Moves the step table and charts into the window's centre (step records without a timeline) or
    // back into their docks.
    void placeStepPanels(bool central);
    void parkDocks();
    void unparkDocks();
    void fitBottomDocks();
    void resetLayout();                   // Reset Panel Layout
    void showStepDocks(const Profile& p); // the DSpark step table and charts: shown iff p has step records
    void followViewToStep();
    void showShortcuts();
    void showAbout();
    void updateActions();

    std::vector<std::shared_ptr<ProfileSession>> m_sessions;
    std::shared_ptr<ProfileSession> m_session;          // the one the panels show (one of m_sessions)
    ProfileSession* m_paneSession = nullptr;            // paneSession()
    TimelineWidget* m_paneTimeline = nullptr;           // its timeline
    const ProfileSession* m_stepPanesSession = nullptr; // the step table's and summaries' (bindStepPanes)
    QMetaObject::Connection m_searchHighlights;         // the search panel's highlights → m_paneTimeline
    ProfileLoadTask* m_task = nullptr;
    QString m_lastError;
    QPointer<QMessageBox> m_errorBox;
    QString m_language;

    QStackedWidget* m_stack = nullptr;
    QWidget* m_welcome = nullptr;
    QLabel* m_welcomeTitle = nullptr;
    QLabel* m_welcomeText = nullptr;
    QLabel* m_recentTitle = nullptr;
    QListWidget* m_recentList = nullptr;
    QPushButton* m_openFolderButton = nullptr;
    QPushButton* m_openFileButton = nullptr;
    QPushButton* m_openDemoButton = nullptr;
    TimelineWidget* m_timeline = nullptr;
    QWidget* m_stepsOnlyPage = nullptr;
    QLabel* m_stepsOnlyText = nullptr;
    QSplitter* m_stepsOnlySplitter = nullptr;
    QByteArray m_parkedState; // the dock layout while the docks are put away (parkDocks), else empty

    StepTablePanel* m_steps = nullptr;
    EventDetailsPane* m_details = nullptr;
    EventTablePanel* m_events = nullptr;
    SearchPanel* m_search = nullptr;
    LegendPanel* m_legend = nullptr;
    FileListPanel* m_files = nullptr;
    ReportActions* m_reports = nullptr;
    ComparisonController* m_comparison = nullptr;
    QWidget* m_timelinePage = nullptr;
    MarkerActions* m_markers = nullptr;
    QDockWidget* m_stepsDock = nullptr;
    QDockWidget* m_detailsDock = nullptr;
    QDockWidget* m_eventsDock = nullptr;
    QDockWidget* m_searchDock = nullptr;
    QDockWidget* m_legendDock = nullptr;
    QDockWidget* m_filesDock = nullptr;
    SummaryDocks* m_summaries = nullptr; // range statistics and kernel summary docks

    QMenu* m_fileMenu = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_editMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QMenu* m_hiddenMenu = nullptr;
    QMenu* m_panelsMenu = nullptr;
    QMenu* m_navigateMenu = nullptr;
    QMenu* m_toolsMenu = nullptr;
    QMenu* m_languageMenu = nullptr;
    QMenu* m_debugMenu = nullptr;
    QMenu* m_helpMenu = nullptr;
    QActionGroup* m_languageGroup = nullptr;

    QLabel* m_status = nullptr;
    QLabel* m_selectionStatus = nullptr;
    QLabel* m_frameStatus = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QByteArray m_defaultState;
    bool m_bottomDocksFitted = false; // the first profile shown (or a saved layout restored)
    bool m_selectingFromTable = false;
};

} // namespace dspark::ui
