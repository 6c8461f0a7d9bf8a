#include "MainWindow.h"

#include "analysis/RangeStats.h"
#include "cluster/ClusterWindow.h"

#include "steps/StepTableModel.h"

#include "ProfileLoadTask.h"
#include "charts/StepChartsPanel.h"
#include "compare/ComparisonController.h"
#include "demo/DemoCache.h"
#include "overlays/AnnotationOverlay.h"
#include "overlays/MarkerActions.h"
#include "panels/EventDetailsPane.h"
#include "panels/EventTablePanel.h"
#include "panels/FileListPanel.h"
#include "panels/LegendPanel.h"
#include "panels/SearchPanel.h"
#include "panels/StepTablePanel.h"
#include "report/ReportActions.h"
#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"
#include "summary/SummaryDocks.h"
#include "summary/SummaryPanels.h"
#include "timeline/FlowOverlay.h"
#include "timeline/LaneActions.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "timeline/UndoHistory.h"
#include "util/CommandLinePath.h"
#include "util/Translations.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QChildEvent>
#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLayout>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

// The icons live in the static dspark_ui library: register its resources explicitly.
static void initUiResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace dspark::ui {

static constexpr int kMaxRecent = 10;

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    initUiResources();
    setObjectName(QStringLiteral("MainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/dspark-timeline.svg")));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks | QMainWindow::AllowNestedDocks);
    resize(1440, 900);

    m_stack = new QStackedWidget(this);
    m_welcome = createWelcomePage();
    m_timelinePage = new QWidget(m_stack);
    m_timelinePage->setObjectName(QStringLiteral("timelinePage"));
    m_timeline = new TimelineWidget(m_timelinePage);
    auto* timelineLayout = new QVBoxLayout(m_timelinePage);
    timelineLayout->setContentsMargins(0, 0, 0, 0);
    timelineLayout->setSpacing(0);
    timelineLayout->addWidget(m_timeline);
    m_stack->addWidget(m_welcome);
    m_stack->addWidget(m_timelinePage);
    m_stepsOnlyPage = new QWidget(m_stack);
    m_stepsOnlyPage->setObjectName(QStringLiteral("stepsOnlyPage"));
    m_stepsOnlyText = new QLabel(m_stepsOnlyPage);
    m_stepsOnlyText->setObjectName(QStringLiteral("noTimelineLabel"));
    m_stepsOnlyText->setWordWrap(true);
    m_stepsOnlySplitter = new QSplitter(Qt::Vertical, m_stepsOnlyPage);
    auto* stepsOnlyLayout = new QVBoxLayout(m_stepsOnlyPage);
    stepsOnlyLayout->addWidget(m_stepsOnlyText);
    stepsOnlyLayout->addWidget(m_stepsOnlySplitter, 1);
    m_stack->addWidget(m_stepsOnlyPage);
    setCentralWidget(m_stack);

    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(240);
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_cancelButton = new QPushButton(this);
    m_cancelButton->setObjectName(QStringLiteral("cancelLoadButton"));
    m_cancelButton->hide();
    connect(m_cancelButton, &QPushButton::clicked, this, &MainWindow::cancelLoading);
    m_status = new QLabel(this);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long message (a load's warnings) is cut at the window's edge, never widens the window.
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_selectionStatus = new QLabel(this);
    m_frameStatus = new QLabel(this);
    m_frameStatus->hide();
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_selectionStatus);
    statusBar()->addPermanentWidget(m_frameStatus);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancelButton);

    createDocks();
    createActions();
    createMenus();

    // ---- timeline ↔ panels ----
    TimelineSelection* selection = m_timeline->selection();
    connect(selection, &TimelineSelection::eventChanged, this, &MainWindow::onEventSelected);
    connect(selection, &TimelineSelection::timeRangeChanged, this, &MainWindow::onTimeRangeSelected);
    connect(m_timeline->zoom(), &TimelineZoom::rangeChanged, this,
            [this]() { m_legend->setRange(m_timeline->visibleStartNs(), m_timeline->visibleEndNs()); });
    connect(m_timeline->zoom(), &TimelineZoom::historyChanged, this, &MainWindow::updateActions);
    connect(m_timeline->zoom(), &TimelineZoom::revisited, this, &MainWindow::followViewToStep);
    connect(m_timeline->history(), &UndoHistory::changed, this, &MainWindow::updateActions);
    connect(m_timeline->layout(), &LaneLayout::changed, this, &MainWindow::rebuildHiddenLanesMenu);
    connect(m_timeline, &TimelineWidget::laneContextMenuRequested, this, &MainWindow::showLaneMenu);
    connect(m_timeline, &TimelineWidget::frameTimeMeasured, this, [this](double ms) {
        if (m_frameStatus->isVisible())
            m_frameStatus->setText(tr("frame %1 ms").arg(ms, 0, 'f', 2));
    });
    connect(m_steps, &StepTablePanel::stepSelected, this, [this](int row) { showStep(row, false); });
    connect(m_steps, &StepTablePanel::stepActivated, this, [this](int row) { showStep(row, true); });
    connect(m_steps, &StepTablePanel::attachRequested, this, &MainWindow::attachStepRecordsAnyway);
    // Each pane's events are tagged with the session of the profile that pane shows: a pane still
    // showing another session's events selects nothing here.
    connect(m_events, &EventTablePanel::eventClicked, this, [this](EventRef e) {
        m_selectingFromTable = true;
        revealEvent(tagFrom(m_events->profile(), e), false);
        m_selectingFromTable = false;
    });
    connect(m_events, &EventTablePanel::eventActivated, this, [this](EventRef e) {
        m_selectingFromTable = true;
        revealEvent(tagFrom(m_events->profile(), e), true);
        m_selectingFromTable = false;
    });
    connect(m_details, &EventDetailsPane::linkedEventActivated, this,
            [this](EventRef e) { revealEvent(tagFrom(m_details->profile(), e), false); });
    m_paneTimeline = m_timeline;
    m_searchHighlights =
        connect(m_search, &SearchPanel::highlightsChanged, m_timeline, &TimelineWidget::setSearchHighlights);
    connect(m_search, &SearchPanel::hitActivated, this, [this](EventRef e) {
        m_selectingFromTable = true;
        revealEvent(tagFrom(m_search->profile(), e), false);
        m_selectingFromTable = false;
    });
    connect(m_legend, &LegendPanel::nameActivated, this, [this](const QString& name) {
        m_searchDock->show();
        m_searchDock->raise();
        m_search->search(QLatin1Char('^') + QRegularExpression::escape(name) + QLatin1Char('$'), true);
    });

    m_reports = new ReportActions(this);
    m_comparison = new ComparisonController(this);
    m_markers = new MarkerActions(this);           // after the annotations it adds markers to
    new LaneActions(m_timeline, this, m_viewMenu); // lane filter, lane layout saved per profile kind

    m_defaultState = saveState();
    boundMinimumToScreen();
    readSettings();
    parkDocks(); // (the welcome page first)
    retranslateUi();
    updateActions();
}

MainWindow::~MainWindow() = default;

// ---------------------------------------------------------------------------------------------
// Construction

QWidget* MainWindow::createWelcomePage()
{
    auto* page = new QWidget(this);
    page->setObjectName(QStringLiteral("welcomePage"));
    m_welcomeTitle = new QLabel(page);
    QFont f = m_welcomeTitle->font();
    f.setPointSizeF(f.pointSizeF() * 1.8);
    f.setBold(true);
    m_welcomeTitle->setFont(f);
    m_welcomeText = new QLabel(page);
    m_welcomeText->setWordWrap(true);
    m_welcomeText->setTextFormat(Qt::RichText);
    m_openFolderButton = new QPushButton(page);
    m_openFileButton = new QPushButton(page);
    m_openDemoButton = new QPushButton(page);
    m_recentTitle = new QLabel(page);
    m_recentList = new QListWidget(page);
    m_recentList->setObjectName(QStringLiteral("recentList"));
    m_recentList->setMaximumHeight(220);
    connect(m_openFolderButton, &QPushButton::clicked, this,
            [this]() { action(QStringLiteral("openFolder"))->trigger(); });
    connect(m_openFileButton, &QPushButton::clicked, this, [this]() { action(QStringLiteral("openFile"))->trigger(); });
    connect(m_openDemoButton, &QPushButton::clicked, this, &MainWindow::openDemo);
    connect(m_recentList, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { openPath(item->data(Qt::UserRole).toString()); });

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_openFolderButton);
    buttons->addWidget(m_openFileButton);
    buttons->addWidget(m_openDemoButton);
    buttons->addStretch(1);
    auto* column = new QVBoxLayout;
    column->addWidget(m_welcomeTitle);
    column->addWidget(m_welcomeText);
    column->addSpacing(12);
    column->addLayout(buttons);
    column->addSpacing(18);
    column->addWidget(m_recentTitle);
    column->addWidget(m_recentList);
    auto* frame = new QWidget(page);
    frame->setLayout(column);
    frame->setMaximumWidth(760);
    auto* outer = new QVBoxLayout(page);
    outer->addStretch(1);
    auto* centre = new QHBoxLayout;
    centre->addStretch(1);
    centre->addWidget(frame, 4);
    centre->addStretch(1);
    outer->addLayout(centre);
    outer->addStretch(2);
    return page;
}

void MainWindow::createDocks()
{
    auto dock = [this](const char* name, QWidget* content, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(this);
        d->setObjectName(QString::fromLatin1(name));
        d->setWidget(content);
        d->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                       QDockWidget::DockWidgetFloatable);
        addDockWidget(area, d);
        return d;
    };
    m_steps = new StepTablePanel(this);
    m_details = new EventDetailsPane(this);
    m_events = new EventTablePanel(this);
    m_search = new SearchPanel(this);
    m_legend = new LegendPanel(this);
    m_stepsDock = dock("stepsDock", m_steps, Qt::BottomDockWidgetArea);
    m_eventsDock = dock("eventsDock", m_events, Qt::BottomDockWidgetArea);
    m_detailsDock = dock("detailsDock", m_details, Qt::RightDockWidgetArea);
    m_searchDock = dock("searchDock", m_search, Qt::RightDockWidgetArea);
    m_legendDock = dock("legendDock", m_legend, Qt::RightDockWidgetArea);
    m_files = new FileListPanel(this);
    m_filesDock = dock("filesDock", m_files, Qt::RightDockWidgetArea);
    tabifyDockWidget(m_legendDock, m_filesDock);
    splitDockWidget(m_stepsDock, m_eventsDock, Qt::Horizontal);
    tabifyDockWidget(m_searchDock, m_legendDock);
    m_searchDock->raise();
    resizeDocks({m_detailsDock, m_searchDock}, {420, 300}, Qt::Vertical);
    resizeDocks({m_detailsDock}, {400}, Qt::Horizontal);
    resizeDocks({m_stepsDock}, {260}, Qt::Vertical);
    resizeDocks({m_stepsDock, m_eventsDock}, {640, 500}, Qt::Horizontal);

    // ---- summary docks (issue 26): a picked row lists its instances and goes to the longest ----
    m_summaries = new SummaryDocks(this);
    connect(m_summaries, &SummaryDocks::instancesRequested, this,
            [this](const QString& title, std::vector<EventRef> events) {
                // (of the summaries' profile: the panes' session)
                const std::shared_ptr<const Profile> p = m_paneSession ? m_paneSession->profile() : profile();
                const EventRef first = events.empty() ? EventRef{} : events.front();
                m_events->setEvents(title, p, std::move(events), true);
                m_eventsDock->show();
                m_eventsDock->raise();
                if (first.valid())
                    revealEvent(tagFrom(p.get(), first), true);
            });
    connect(m_summaries->plainSteps(), &PlainStepsPanel::analysed, this, &MainWindow::updateActions);
    connect(m_summaries, &SummaryDocks::stepRequested, this, [this](int rankIndex, TimeNs startNs, TimeNs endNs) {
        m_paneTimeline->zoom()->zoomToInterval(m_paneTimeline->toSharedNs(startNs), m_paneTimeline->toSharedNs(endNs),
                                               0.03);
        showDeviceTasks(tr("Device tasks of the step"), rankIndex, startNs, endNs);
    });
}

void MainWindow::createActions()
{
    auto make = [this](const char* name, const QKeySequence& key, auto slot) {
        auto* a = new QAction(this);
        a->setObjectName(QString::fromLatin1(name));
        if (!key.isEmpty())
            a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    make("openFolder", QKeySequence::Open, [this]() {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Profile Folder"));
        if (!dir.isEmpty())
            openPath(dir);
    });
    make("openFile", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), [this]() {
        const QString file =
            QFileDialog::getOpenFileName(this, tr("Open Profile File"), {},
                                         tr("Profiles (*.db *.json *.json.gz *.jsonl *.trace.json.gz);;All files (*)"));
        if (!file.isEmpty())
            openPath(file);
    });
    make("openDemo", QKeySequence(), [this]() { openDemo(); });
    make("openCluster", QKeySequence(), [this]() {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Cluster Folder"));
        if (!dir.isEmpty())
            openClusterWindow(dir);
    });
    make("clearRecent", QKeySequence(), [this]() {
        QSettings().setValue(QStringLiteral("recentProfiles"), QStringList());
        rebuildRecentMenu();
    });
    make("quit", QKeySequence::Quit, [this]() { close(); });

    make("find", QKeySequence::Find, [this]() {
        m_searchDock->show();
        m_searchDock->raise();
        m_search->focusSearch();
    });
    make("findNext", QKeySequence::FindNext, [this]() { m_search->next(); });
    make("findPrevious", QKeySequence::FindPrevious, [this]() { m_search->previous(); });

    TimelineZoom* zoom = m_timeline->zoom();
    make("back", QKeySequence(Qt::ALT | Qt::Key_Left), [zoom]() { zoom->goBack(); });
    make("forward", QKeySequence(Qt::ALT | Qt::Key_Right), [zoom]() { zoom->goForward(); });
    // One history for view changes and annotation edits, latest first (UndoHistory).
    UndoHistory* history = m_timeline->history();
    make("undo", QKeySequence::Undo, [history]() { history->undo(); });
    make("redo", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), [history]() { history->redo(); });
    // Single-key navigation works while the timeline has the focus (typing elsewhere is not stolen).
    auto local = [this](QAction* a) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        m_timeline->addAction(a);
        return a;
    };
    TimelineView* view = m_timeline->view();
    local(make("zoomIn", QKeySequence(Qt::Key_W), [view]() { view->zoomStep(true); }));
    local(make("zoomOut", QKeySequence(Qt::Key_S), [view]() { view->zoomStep(false); }));
    local(make("panLeft", QKeySequence(Qt::Key_A), [view]() { view->panStep(-1); }));
    local(make("panRight", QKeySequence(Qt::Key_D), [view]() { view->panStep(1); }));
    local(make("zoomToSelection", QKeySequence(Qt::Key_F), [this]() { m_timeline->zoomToSelection(); }));
    local(make("toggleLaneFold", QKeySequence(Qt::Key_E),
               [this]() { m_timeline->toggleLaneFold(m_timeline->focusLane()); }));
    make("fitAll", QKeySequence(Qt::Key_Home), [zoom]() {
        zoom->fitAll();
    })->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_timeline->addAction(action(QStringLiteral("fitAll")));
    make("zoomToStep", QKeySequence(Qt::Key_G), [this]() {
        const int row = m_steps->currentSourceRow();
        if (row >= 0)
            showStep(row, false);
    });
    make("previousStep", QKeySequence(Qt::Key_BracketLeft), [this]() { stepBy(-1, false); });
    make("nextStep", QKeySequence(Qt::Key_BracketRight), [this]() { stepBy(1, false); });
    make("previousAnomaly", QKeySequence(Qt::CTRL | Qt::Key_BracketLeft), [this]() { stepBy(-1, true); });
    make("nextAnomaly", QKeySequence(Qt::CTRL | Qt::Key_BracketRight), [this]() { stepBy(1, true); });
    make("clearSelection", QKeySequence(), [this]() { m_timeline->selection()->clear(); });

    auto toggle = [&](const char* name, const QKeySequence& key, auto slot) {
        QAction* a = make(name, key, slot);
        a->setCheckable(true);
        return a;
    };
    toggle("absoluteTime", QKeySequence(Qt::CTRL | Qt::Key_T), [this](bool on) { m_timeline->setAbsoluteTime(on); });
    toggle("allFlows", QKeySequence(Qt::CTRL | Qt::Key_L), [this](bool on) { m_timeline->setShowAllFlows(on); });
    make("collapseAll", QKeySequence(), [this]() { m_timeline->layout()->setAllCollapsed(true); });
    make("expandAll", QKeySequence(), [this]() { m_timeline->layout()->setAllCollapsed(false); });
    make("showAllLanes", QKeySequence(), [this]() { m_timeline->layout()->showAllLanes(); });
    make("resetLayout", QKeySequence(), [this]() { resetLayout(); });
    toggle("frameTime", QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_F), [this](bool on) {
        m_timeline->setFrameTimeVisible(on);
        m_frameStatus->setVisible(on);
    });
    make("measureRepaint", QKeySequence(), [this]() {
        // Twenty full repaints of the lanes, as the user sees them now.
        std::vector<double> ms;
        for (int i = 0; i < 20; ++i) {
            m_timeline->view()->viewport()->repaint();
            ms.push_back(m_timeline->lastFrameMs());
        }
        std::sort(ms.begin(), ms.end());
        m_status->setText(tr("Repaint of %1×%2: min %3 ms, median %4 ms, max %5 ms")
                              .arg(m_timeline->view()->viewport()->width())
                              .arg(m_timeline->view()->viewport()->height())
                              .arg(ms.front(), 0, 'f', 2)
                              .arg(ms[ms.size() / 2], 0, 'f', 2)
                              .arg(ms.back(), 0, 'f', 2));
    });
    make("shortcuts", QKeySequence::HelpContents, [this]() { showShortcuts(); });
    make("about", QKeySequence(), [this]() { showAbout(); });

    m_languageGroup = new QActionGroup(this);
    m_languageGroup->setExclusive(true);
    for (const char* name : {"languageSystem", "languageEnglish", "languageChinese"}) {
        auto* a = new QAction(this);
        a->setObjectName(QString::fromLatin1(name));
        a->setCheckable(true);
        m_languageGroup->addAction(a);
    }
    action(QStringLiteral("languageSystem"))->setData(QString());
    action(QStringLiteral("languageEnglish"))->setData(QStringLiteral("en"));
    action(QStringLiteral("languageChinese"))->setData(QStringLiteral("zh_CN"));
    connect(m_languageGroup, &QActionGroup::triggered, this, [this](QAction* a) { setLanguage(a->data().toString()); });
}

QAction* MainWindow::action(const QString& objectName) const
{
    return findChild<QAction*>(objectName, Qt::FindDirectChildrenOnly);
}

void MainWindow::createMenus()
{
    auto a = [this](const char* name) { return action(QString::fromLatin1(name)); };
    m_fileMenu = menuBar()->addMenu(QString());
    m_fileMenu->addAction(a("openFolder"));
    m_fileMenu->addAction(a("openFile"));
    m_fileMenu->addAction(a("openDemo"));
    m_fileMenu->addAction(a("openCluster"));
    m_recentMenu = m_fileMenu->addMenu(QString());
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(a("quit"));

    m_editMenu = menuBar()->addMenu(QString());
    m_editMenu->addAction(a("undo"));
    m_editMenu->addAction(a("redo"));
    m_editMenu->addSeparator();
    m_editMenu->addAction(a("find"));
    m_editMenu->addAction(a("findNext"));
    m_editMenu->addAction(a("findPrevious"));
    m_editMenu->addSeparator();
    m_editMenu->addAction(a("clearSelection"));

    m_viewMenu = menuBar()->addMenu(QString());
    for (const char* name : {"back", "forward"})
        m_viewMenu->addAction(a(name));
    m_viewMenu->addSeparator();
    for (const char* name : {"zoomIn", "zoomOut", "panLeft", "panRight", "fitAll", "zoomToSelection", "zoomToStep"})
        m_viewMenu->addAction(a(name));
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(a("absoluteTime"));
    m_viewMenu->addAction(a("allFlows"));
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(a("collapseAll"));
    m_viewMenu->addAction(a("expandAll"));
    m_viewMenu->addAction(a("toggleLaneFold"));
    m_hiddenMenu = m_viewMenu->addMenu(QString());
    m_viewMenu->addSeparator();
    m_panelsMenu = m_viewMenu->addMenu(QString());
    for (QDockWidget* d : {m_stepsDock, m_eventsDock, m_detailsDock, m_searchDock, m_legendDock, m_filesDock})
        m_panelsMenu->addAction(d->toggleViewAction());
    m_summaries->addToMenu(m_panelsMenu); // issue 26
    m_panelsMenu->addSeparator();
    m_panelsMenu->addAction(a("resetLayout"));

    m_navigateMenu = menuBar()->addMenu(QString());
    for (const char* name : {"previousStep", "nextStep", "previousAnomaly", "nextAnomaly"})
        m_navigateMenu->addAction(a(name));

    m_toolsMenu = menuBar()->addMenu(QString());
    m_toolsMenu->menuAction()->setVisible(false); // shown once a feature adds an action

    m_languageMenu = menuBar()->addMenu(QString());
    m_languageMenu->addActions(m_languageGroup->actions());

    // A developer's menu, shown with DSPARK_DEBUG=1; its shortcuts work without it.
    m_debugMenu = menuBar()->addMenu(QString());
    m_debugMenu->addAction(a("frameTime"));
    m_debugMenu->addAction(a("measureRepaint"));
    m_debugMenu->menuAction()->setVisible(qEnvironmentVariableIntValue("DSPARK_DEBUG") != 0);
    addAction(a("frameTime"));

    m_helpMenu = menuBar()->addMenu(QString());
    m_helpMenu->addAction(a("shortcuts"));
    m_helpMenu->addAction(a("about"));
    connect(m_toolsMenu, &QMenu::aboutToShow, this, [] {});
    rebuildRecentMenu();
    rebuildHiddenLanesMenu();
}

void MainWindow::retranslateUi()
{
    auto set = [this](const char* name, const QString& text, const QString& tip = {}) {
        QAction* a = action(QString::fromLatin1(name));
        a->setText(text);
        a->setStatusTip(tip);
        a->setToolTip(tip.isEmpty() ? QString(text).remove(QLatin1Char('&')) : tip);
    };
    set("openFolder", tr("Open Profile &Folder…"), tr("Open a profiler output folder (all ranks and formats in it)"));
    set("openFile", tr("Open F&ile…"), tr("Open one profiler file (.db, trace_view.json, *.trace.json.gz)"));
    set("openDemo", tr("Open &Demo Profile"), tr("Open the simulated DeepSeek-V4 + DSpark decode profile"));
    set("openCluster", tr("Open &Cluster Folder…"),
        tr("Open every rank of a folder and compare them: clock offsets, late ranks, waits"));
    set("clearRecent", tr("&Clear Recent Profiles"));
    set("quit", tr("&Quit"));
    set("find", tr("&Find Events…"), tr("Search events by name (substring or regular expression)"));
    set("findNext", tr("Find &Next"));
    set("findPrevious", tr("Find &Previous"));
    set("clearSelection", tr("C&lear Selection"));
    set("back", tr("&Back"), tr("Go back to the previous view (zoom/pan history)"));
    set("forward", tr("&Forward"), tr("Go forward in the zoom/pan history"));
    set("zoomIn", tr("Zoom &In"), tr("Zoom in (W; Ctrl+wheel)"));
    set("zoomOut", tr("Zoom &Out"), tr("Zoom out (S; Ctrl+wheel)"));
    set("panLeft", tr("Pan &Left"), tr("Pan left (A; Shift+wheel; drag)"));
    set("panRight", tr("Pan &Right"), tr("Pan right (D; Shift+wheel; drag)"));
    set("fitAll", tr("Fit &All"), tr("Show the whole profile (Home)"));
    set("zoomToSelection", tr("Zoom to &Selection"), tr("Zoom to the selected event or time range (F)"));
    set("zoomToStep", tr("Zoom to S&tep"), tr("Zoom to the step selected in the step table (G)"));
    set("previousStep", tr("&Previous Step"));
    set("nextStep", tr("&Next Step"));
    set("previousAnomaly", tr("Previous &Anomalous Step"));
    set("nextAnomaly", tr("Next A&nomalous Step"));
    set("absoluteTime", tr("Absolute &Clock Time"),
        tr("Show times on the profile's clock instead of from the profile start"));
    set("allFlows", tr("Show All &Flows in View"),
        tr("Draw every host→device link of the visible events, not only the selection's"));
    set("collapseAll", tr("&Collapse All Groups"));
    set("expandAll", tr("&Expand All Groups"));
    set("toggleLaneFold", tr("&Fold / Unfold Lane Levels"),
        tr("Show all nesting levels of the selected lane, or only its first %1 (E)").arg(LaneLayout::kFoldedDepths));
    set("showAllLanes", tr("Show &All Lanes"));
    set("resetLayout", tr("&Reset Panel Layout"));
    set("frameTime", tr("Show &Frame Time"), tr("Show how long the last repaint of the lanes took"));
    set("measureRepaint", tr("&Measure Repaint"), tr("Repaint the lanes 20 times and report the frame times"));
    set("shortcuts", tr("&Keyboard and Mouse"));
    set("about", tr("&About DSpark Timeline"));
    set("languageSystem", tr("&System Default"));
    set("languageEnglish", QStringLiteral("English"));
    set("languageChinese", QStringLiteral("简体中文"));

    m_fileMenu->setTitle(tr("&File"));
    m_recentMenu->setTitle(tr("Open &Recent"));
    m_editMenu->setTitle(tr("&Edit"));
    m_viewMenu->setTitle(tr("&View"));
    m_hiddenMenu->setTitle(tr("&Hidden Lanes"));
    m_panelsMenu->setTitle(tr("&Panels"));
    m_navigateMenu->setTitle(tr("&Navigate"));
    m_toolsMenu->setTitle(tr("&Tools"));
    m_languageMenu->setTitle(tr("&Language"));
    m_debugMenu->setTitle(tr("&Debug"));
    m_helpMenu->setTitle(tr("&Help"));

    m_stepsDock->setWindowTitle(tr("Steps"));
    retitlePaneDocks();
    m_legendDock->setWindowTitle(tr("Legend"));
    m_filesDock->setWindowTitle(tr("Files"));
    m_summaries->retranslate(); // issue 26

    m_cancelButton->setText(tr("Cancel"));
    m_welcomeTitle->setText(tr("DSpark Timeline"));
    m_welcomeText->setText(
        tr("Open a profile folder written by the torch_npu / msprof profiler (or a Kineto trace). "
           "Step records (server_info, step-record JSON Lines) next to it are aligned to the timeline.<br><br>"
           "<b>Navigate:</b> W/S zoom, A/D pan, drag to pan, Ctrl+wheel zoom, right-drag to zoom to an "
           "interval, Ctrl+drag to select a time range, F zoom to selection, Home fit all, Alt+Left back."));
    m_openFolderButton->setText(tr("Open Profile Folder…"));
    m_openFileButton->setText(tr("Open File…"));
    m_openDemoButton->setText(tr("Open Demo Profile"));
    m_recentTitle->setText(tr("Recent profiles"));
    m_stepsOnlyText->setText(tr("These are DSpark step records without a profiler timeline: the step table and its "
                                "charts are shown. Open the profiler output folder (or put the records next to "
                                "it) to see the steps on the device timeline."));
    rebuildRecentMenu();
    rebuildHiddenLanesMenu();
    setWindowTitle(m_session ? tr("%1 — DSpark Timeline").arg(QFileInfo(m_session->path()).fileName())
                             : tr("DSpark Timeline"));
}

void MainWindow::changeEvent(QEvent* event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::LanguageChange && m_fileMenu) {
        if (AnnotationOverlay* notes = m_reports ? m_reports->annotations() : nullptr)
            notes->retranslateUndoTexts();
        retranslateUi();
        updateActions(); // Undo / Redo texts
    }
}

// ---------------------------------------------------------------------------------------------
// Loading

void MainWindow::openFromCommandLine(const QStringList& args)
{
    if (m_comparison->openFromCommandLine(args))
        return;
    if (const qsizetype i = args.indexOf(QLatin1String("--cluster")); i >= 0) {
        if (i + 1 < args.size())
            openClusterWindow(args[i + 1]);
        else
            onLoadFinished(nullptr, tr("--cluster needs a folder of ranks"), false, QString());
        return;
    }
    for (const QString& a : args) {
        if (a == QLatin1String("--demo")) {
            openDemo();
            return;
        }
        if (!a.startsWith(QLatin1Char('-'))) {
            QString error;
            const QString path = localPathFromArgument(a, &error);
            if (path.isEmpty())
                onLoadFinished(nullptr, error, false, a); // the same message box as a failed load
            else
                openPath(path);
            return;
        }
    }
}

bool MainWindow::isLoading() const
{
    return m_task != nullptr; // until its outcome is handled: its thread may have ended before that
}

void MainWindow::openPath(const QString& path)
{
    m_comparison->cancelLoading(); // (a plain open wins over a comparison still loading)
    startTask(new ProfileLoadTask(path, this), tr("Loading %1…").arg(QDir::toNativeSeparators(path)));
}

ClusterWindow* MainWindow::openClusterWindow(const QString& folder)
{
    // A window of its own (the main window's panels stay bound to one profile); a clicked step opens
    // that rank here.
    auto* window = new ClusterWindow(this);
    window->setAttribute(Qt::WA_DeleteOnClose);
    connect(window, &ClusterWindow::openRankRequested, this, [this](const QString& path) { openPath(path); });
    window->show();
    window->open(folder);
    return window;
}

void MainWindow::openDemo()
{
    const QString version = QCoreApplication::applicationVersion();
    auto prepare = [version](QString& path) -> QString {
        const demo::DemoCacheResult cached = demo::ensureCachedDemo(version);
        if (cached.path.isEmpty())
            return cached.error;
        path = cached.path;
        return {};
    };
    startTask(new ProfileLoadTask(QString(), this, prepare), tr("Preparing the demo profile…"));
}

void MainWindow::startTask(ProfileLoadTask* task, const QString& label)
{
    if (m_comparison) // a comparison still loading gives way to the profile asked for now
        m_comparison->abandonLoading();
    if (m_task) {
        // A newer request wins: the old load is cancelled and its outcome ignored.
        disconnect(m_task, nullptr, this, nullptr);
        m_task->cancel();
        m_task->deleteLater();
    }
    m_task = task;
    connect(m_task, &ProfileLoadTask::progress, this, [this](double fraction, const QString& phase) {
        m_progress->setValue(int(fraction * 1000));
        if (!phase.isEmpty())
            m_status->setText(phase);
    });
    connect(m_task, &ProfileLoadTask::finished, this, &MainWindow::onLoadFinished);
    m_progress->setValue(0);
    m_progress->show();
    m_cancelButton->show();
    m_cancelButton->setEnabled(true);
    m_status->setText(label);
    m_task->start();
}

void MainWindow::cancelLoading()
{
    if (m_task && !m_task->isCancelled()) { // (its thread may have ended: the outcome is still to come)
        m_task->cancel();
        m_cancelButton->setEnabled(false);
        m_status->setText(tr("Cancelling…"));
    }
}

void MainWindow::onLoadFinished(std::shared_ptr<Profile> profile, const QString& error, bool cancelled,
                                const QString& path)
{
    m_progress->hide();
    m_cancelButton->hide();
    if (m_task) {
        cancelled = cancelled || m_task->isCancelled(); // cancelled before the outcome arrived: dropped
        m_task->deleteLater();
        m_task = nullptr;
    }
    if (cancelled) {
        m_status->setText(tr("Loading cancelled"));
        Q_EMIT loadCancelled();
        return;
    }
    if (!profile) {
        m_lastError = error.isEmpty() ? tr("%1: cannot be opened").arg(path) : error;
        m_status->setText(m_lastError);
        showError(tr("Cannot open profile"), m_lastError);
        Q_EMIT loadFailed(m_lastError);
        return;
    }
    m_lastError.clear();
    setProfile(std::move(profile), path);
    addRecent(path);
    Q_EMIT profileLoaded();
}

void MainWindow::showError(const QString& title, const QString& message)
{
    if (m_errorBox)
        m_errorBox->close();
    // Window-modal and non-blocking: the window (and a test driving it) keeps running.
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("loadErrorBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_errorBox = box;
    box->open();
}

void MainWindow::placeStepPanels(bool central)
{
    QDockWidget* chartsDock = m_reports->chartsDock();
    QWidget* charts = m_reports->charts();
    if (central == (m_steps->parentWidget() == m_stepsOnlySplitter))
        return;
    if (central) {
        m_stepsOnlySplitter->addWidget(m_steps);
        m_stepsOnlySplitter->addWidget(charts);
        m_stepsOnlySplitter->setStretchFactor(0, 1);
        m_stepsOnlySplitter->setStretchFactor(1, 1);
        m_stepsOnlySplitter->setSizes({std::max(200, m_stack->height() / 2), std::max(200, m_stack->height() / 2)});
    } else {
        m_stepsDock->setWidget(m_steps);
        chartsDock->setWidget(charts);
    }
}

// The welcome page and the step-records-only page have no events for the docks to show: the docks are
// put away, their layout kept (and saved as the user's on quit), and brought back with a timeline.
void MainWindow::parkDocks()
{
    if (!m_parkedState.isEmpty())
        return;
    m_parkedState = saveState();
    for (QDockWidget* d : findChildren<QDockWidget*>())
        d->hide();
}

void MainWindow::unparkDocks()
{
    if (m_parkedState.isEmpty())
        return;
    restoreState(m_parkedState);
    m_parkedState.clear();
}

// The first view gives the timeline the room: the bottom docks (Kernels / Events beside the step tables)
// a fifth of the window, or what their shown content needs at least (the step charts need more); the
// Kernels / Events dock, empty until something is picked, less than a third of the width (beside the
// step tables shown by then; the summary docks show later, once computed).
void MainWindow::fitBottomDocks()
{
    m_bottomDocksFitted = true;
    resizeDocks({m_eventsDock}, {std::max(150, height() / 5)}, Qt::Vertical);
    resizeDocks({m_eventsDock}, {width() * 3 / 10}, Qt::Horizontal);
}

// The default places and sizes, with the docks that have something to show shown (the default state,
// saved before any profile, has them hidden).
void MainWindow::resetLayout()
{
    if (!m_parkedState.isEmpty()) { // (the docks come back with the next timeline)
        m_parkedState = m_defaultState;
        return;
    }
    restoreState(m_defaultState);
    if (!profile())
        return;
    showStepDocks(*profile());
    m_summaries->showFilled();
    fitBottomDocks();
    m_comparison->layoutReset();
}

void MainWindow::showStepDocks(const Profile& p)
{
    const bool records = p.stepRecords && !p.stepRecords->empty();
    m_stepsDock->setVisible(records);
    m_reports->chartsDock()->setVisible(records);
}

const std::shared_ptr<const Profile>& MainWindow::profile() const
{
    static const std::shared_ptr<const Profile> none;
    return m_session ? m_session->profile() : none;
}

void MainWindow::setProfile(std::shared_ptr<const Profile> loaded, const QString& path)
{
    std::shared_ptr<ProfileSession> session;
    if (loaded) {
        QString rulesError;
        AnalysisRules rules = AnalysisRules::load({}, &rulesError);
        if (!rulesError.isEmpty())
            statusBar()->showMessage(rulesError, 10000);
        session = std::make_shared<ProfileSession>(std::move(loaded), path, std::move(rules));
    }
    setSession(std::move(session));
}

void MainWindow::setSession(std::shared_ptr<ProfileSession> session)
{
    m_sessions.clear();
    m_session = std::move(session);
    if (m_session)
        m_sessions.push_back(m_session);
    if (m_comparison)
        m_comparison->windowSessionChanged();
    const std::shared_ptr<const Profile>& p = profile();
    m_timeline->setProfile(p);
    m_stepPanesSession = nullptr; // (a new session may sit where the last one was)
    setPaneSession(m_session.get(), m_timeline);
    m_details->setProfile(p);
    m_search->setProfile(p);
    m_legend->setProfile(p);
    m_files->setProfile(p);
    m_events->clear();
    // Step records without a timeline: the step table and charts take the window, with a line saying why.
    const bool stepsOnly = p && p->stepRecords && !p->stepRecords->empty() && p->stats().events == 0;
    placeStepPanels(stepsOnly);
    if (p && !stepsOnly)
        unparkDocks();
    else
        parkDocks();
    // Issue 26: the DSpark step table only for profiles with step records (the Profiler Steps dock
    // lists a record-less profile's own steps).
    if (p && !stepsOnly) {
        showStepDocks(*p);
        // The first view (and Home) fits the events, not counters or the overlap track spanning a whole
        // session.
        const auto [first, last] = eventExtentNs(*p);
        if (last > first && (first > p->firstNs() || last < p->lastNs()))
            m_timeline->zoom()->setFitRange(m_timeline->toSharedNs(first), m_timeline->toSharedNs(last));
        if (!m_bottomDocksFitted)
            fitBottomDocks();
    }
    m_stack->setCurrentWidget(!p ? m_welcome : stepsOnly ? m_stepsOnlyPage : m_timelinePage);
    if (p) {
        const ProfileStats s = p->stats();
        const QLocale locale;
        QString text = tr("%1 events in %2 lanes, %3 ranks, %4 links")
                           .arg(locale.toString(qulonglong(s.events)))
                           .arg(p->lanes.size())
                           .arg(p->ranks.size())
                           .arg(locale.toString(qulonglong(p->links.size())));
        if (!p->warnings.isEmpty())
            text += tr(" — warnings: %1 (first: %2)").arg(p->warnings.size()).arg(p->warnings.first());
        m_status->setText(text);
        m_status->setToolTip(p->warnings.join(QLatin1Char('\n')));
        m_timeline->setFocus();
    }
    m_reports->setSession(m_session);
    retranslateUi();
    updateActions();
}

// Step records that do not match the profile, placed on it at the user's word: the alignment found is put
// back, and every view is rebuilt from it (the records are read on this thread only).
void MainWindow::attachStepRecordsAnyway()
{
    std::shared_ptr<const Profile> p = profile(); // (setProfile replaces the session that holds it)
    if (!p || !p->stepRecords || p->stepRecords->alignment.attached)
        return;
    p->stepRecords->alignment.attachAnyway();
    const QString path = m_session->path();
    setProfile(std::move(p), path);
    m_status->setText(tr("Step records attached by hand: they did not match this profile"));
}

// ---------------------------------------------------------------------------------------------
// Selection ↔ panels

void MainWindow::addSession(std::shared_ptr<ProfileSession> session)
{
    if (session && std::find(m_sessions.begin(), m_sessions.end(), session) == m_sessions.end())
        m_sessions.push_back(std::move(session));
    retitlePaneDocks();
}

void MainWindow::removeSession(const ProfileSession* session)
{
    if (session == m_session.get())
        return;
    if (session == m_paneSession)
        setPaneSession(m_session.get(), m_timeline);
    std::erase_if(m_sessions, [session](const std::shared_ptr<ProfileSession>& s) { return s.get() == session; });
    retitlePaneDocks();
}

void MainWindow::setPaneSession(ProfileSession* session, TimelineWidget* timeline)
{
    if (session == m_paneSession && timeline == m_paneTimeline)
        return;
    m_paneSession = session;
    const std::shared_ptr<const Profile> p = session ? session->profile() : nullptr;
    m_details->setProfile(p);
    m_events->clear();
    // The search runs again on the new session; its hits are drawn on that session's timeline only.
    disconnect(m_searchHighlights);
    if (m_paneTimeline && m_paneTimeline != timeline)
        m_paneTimeline->setSearchHighlights({}, {});
    m_paneTimeline = timeline ? timeline : m_timeline;
    m_searchHighlights =
        connect(m_search, &SearchPanel::highlightsChanged, m_paneTimeline, &TimelineWidget::setSearchHighlights);
    m_search->setProfile(p);
    bindStepPanes(session);
    retitlePaneDocks();
}

void MainWindow::bindStepPanes(ProfileSession* session)
{
    if (session == m_stepPanesSession)
        return;
    m_stepPanesSession = session;
    const std::shared_ptr<const Profile> p = session ? session->profile() : nullptr;
    // Issue 26: the kernel summary and plain steps of the profile, with the rules the session loaded.
    m_summaries->setProfile(p, session ? std::make_shared<const AnalysisRules>(session->analyses()->rules()) : nullptr);
    m_steps->setStepRecords(p && p->stepRecords ? std::shared_ptr<const StepRecordSet>(p, p->stepRecords.get())
                                                : nullptr);
    if (session && m_reports)
        m_reports->nameAnomalyCausesFrom(session->analyses());
}

const std::shared_ptr<const Profile>& MainWindow::paneProfile() const
{
    static const std::shared_ptr<const Profile> none;
    return m_paneSession ? m_paneSession->profile() : none;
}

void MainWindow::retitlePaneDocks()
{
    // While two runs are open, the panes say whose events and steps they show.
    const bool named = m_sessions.size() > 1 && m_paneSession;
    QString name = named ? QFileInfo(m_paneSession->path()).fileName() : QString();
    // A long folder or trace name keeps its start and end in the dock tabs (the captions above the
    // timelines give the whole paths).
    constexpr qsizetype kLongestName = 24; // characters
    if (name.size() > kLongestName)
        name = name.left(kLongestName / 2) + QStringLiteral("…") + name.right(kLongestName / 2 - 1);
    m_detailsDock->setWindowTitle(named ? tr("Details · %1").arg(name) : tr("Details"));
    m_searchDock->setWindowTitle(named ? tr("Search · %1").arg(name) : tr("Search"));
    m_eventsDock->setWindowTitle(named ? tr("Kernels / Events · %1").arg(name) : tr("Kernels / Events"));
    m_stepsDock->setWindowTitle(named ? tr("Steps · %1").arg(name) : tr("Steps"));
    m_summaries->setRunName(name);
}

void MainWindow::showSessionEvent(ProfileSession* session, TimelineWidget* timeline, EventRef e)
{
    setPaneSession(session, timeline);
    if (!paneProfile() || !e.valid()) {
        m_details->setEvent({});
        m_selectionStatus->clear();
        return;
    }
    const int stepRow = stepRowForEvent(e);
    if (stepRow >= 0 && !m_selectingFromTable)
        m_steps->selectSourceRow(stepRow);
    showEventInPanes(e, stepRow >= 0 ? stepTextForRow(stepRow) : QString());
}

void MainWindow::showSessionRange(ProfileSession* session, TimelineWidget* timeline, TimeNs startNs, TimeNs endNs)
{
    setPaneSession(session, timeline);
    if (!paneProfile() || endNs <= startNs)
        return;
    m_details->showTimeRange(startNs, endNs);
    showDeviceTasks(tr("Device tasks in the selected range (%1)").arg(formatDuration(endNs - startNs)), -1, startNs,
                    endNs);
    m_eventsDock->show();
    m_summaries->showRange(startNs, endNs, tr("the selected range")); // issue 26
}

SessionEvent MainWindow::tagFrom(const Profile* source, EventRef e) const
{
    for (const std::shared_ptr<ProfileSession>& s : m_sessions)
        if (source && s->profile().get() == source)
            return s->tag(e);
    return {};
}

bool MainWindow::selectEvent(const SessionEvent& e)
{
    if (!m_session || e.session != m_session->id())
        return false;
    return revealEvent(e, false);
}

bool MainWindow::revealEvent(const SessionEvent& e, bool zoom)
{
    // The shown session's events on the window's timeline; the panes' other session's (a comparison's
    // changed run: a search hit, a row of its device tasks) on its own.
    EventRef local = m_session ? m_session->resolve(e) : EventRef{};
    TimelineWidget* timeline = m_timeline;
    if (!local.valid() && m_paneSession && m_paneSession != m_session.get()) {
        local = m_paneSession->resolve(e);
        timeline = m_paneTimeline;
    }
    if (!local.valid())
        return false;
    timeline->selectEvent(local, zoom ? TimelineWidget::Reveal::Zoom : TimelineWidget::Reveal::Pan);
    return true;
}

void MainWindow::onEventSelected(EventRef e)
{
    showSessionEvent(m_session.get(), m_timeline, e);
}

void MainWindow::showEventInPanes(EventRef e, const QString& stepText)
{
    const std::shared_ptr<const Profile> p = m_paneSession ? m_paneSession->profile() : nullptr;
    if (!p || !e.valid() || e.lane >= p->lanes.size()) {
        m_details->setEvent({});
        m_selectionStatus->clear();
        return;
    }
    m_details->setEvent(e, stepText);
    m_events->markEvent(e);
    const Lane& lane = p->lanes[e.lane];
    const std::string_view name = p->name(e);
    m_selectionStatus->setText(tr("%1 · %2").arg(QString::fromUtf8(name.data(), qsizetype(name.size())).left(60),
                                                 formatDuration(lane.durationNs[e.index])));
    // A host call selected on the timeline lists the device tasks it launched.
    if (!m_selectingFromTable) {
        std::vector<EventRef> tasks;
        for (const Link* l : p->linksFrom(e))
            if (isDeviceLane(p->lanes[l->to.lane].info.kind))
                tasks.push_back(l->to);
        if (!tasks.empty())
            m_events->setEvents(
                tr("Device tasks launched by %1").arg(QString::fromUtf8(name.data(), qsizetype(name.size()))), p,
                std::move(tasks), true);
    }
}

void MainWindow::onTimeRangeSelected(TimeNs startNs, TimeNs endNs)
{
    showSessionRange(m_session.get(), m_timeline, startNs, endNs);
}

void MainWindow::showDeviceTasks(const QString& title, int rankIndex, TimeNs startNs, TimeNs endNs)
{
    const std::shared_ptr<const Profile>& p = paneProfile(); // the step table's and the range's profile
    if (!p)
        return;
    std::vector<EventRef> tasks;
    for (uint32_t laneIndex = 0; laneIndex < p->lanes.size(); ++laneIndex) {
        const Lane& lane = p->lanes[laneIndex];
        if (!isDeviceLane(lane.info.kind) || (rankIndex >= 0 && lane.info.rankIndex != rankIndex))
            continue;
        const auto [first, last] = lane.overlapping(startNs, endNs);
        for (size_t i = first; i < last; ++i)
            if (lane.startNs[i] >= startNs && lane.startNs[i] < endNs)
                tasks.push_back({laneIndex, uint32_t(i)});
    }
    m_events->setEvents(title, p, std::move(tasks), true);
}

int MainWindow::stepRowForEvent(EventRef e) const
{
    const StepRecordSet* set = m_steps->stepRecords();
    const Profile* p = paneProfile().get();
    if (!p || !set || !e.valid())
        return -1;
    const auto& rows = set->alignment.rows;
    const int rank = p->lanes[e.lane].info.rankIndex;
    const TimeNs t = p->startNs(e);
    for (size_t i = 0; i < rows.size(); ++i) {
        const StepAlignmentRow& r = rows[i];
        if (r.hasWindow() && r.traceRankIndex == rank && t >= r.windowStartNs() && t < r.windowEndNs())
            return int(i);
    }
    return -1;
}

QString MainWindow::stepTextForRow(int sourceRow) const
{
    const StepRecordSet* set = m_steps->stepRecords();
    if (!set || sourceRow < 0 || sourceRow >= int(set->size()))
        return {};
    const StepRecord& r = set->record(size_t(sourceRow));
    QString text = tr("forward_ct %1 (rank %2)").arg(r.forwardCt).arg(set->rows[sourceRow].dpRank);
    if (const QString anomaly = m_steps->model()->anomalyText(sourceRow); !anomaly.isEmpty())
        text += tr(" — anomalous: %1").arg(anomaly);
    return text;
}

void MainWindow::showStep(int sourceRow, bool openTasks)
{
    if (!markStep(sourceRow))
        return;
    // On the timeline of the step table's run (the panes' session).
    const StepAlignmentRow& row = m_steps->stepRecords()->alignment.rows[sourceRow];
    const Profile& p = *paneProfile();
    m_paneTimeline->zoom()->zoomToInterval(m_paneTimeline->toSharedNs(row.windowStartNs()),
                                           m_paneTimeline->toSharedNs(row.windowEndNs()), 0.03);
    if (row.traceRankIndex >= 0)
        for (uint32_t lane = 0; lane < p.lanes.size(); ++lane)
            if (p.lanes[lane].info.rankIndex == row.traceRankIndex && isDeviceLane(p.lanes[lane].info.kind)) {
                m_paneTimeline->ensureLaneVisible(lane);
                break;
            }
    if (openTasks) {
        m_eventsDock->show();
        m_eventsDock->raise();
    }
    // Issue 26: the step's range statistics and kernels (by stage band when analysed).
    const StepAnalyses* analyses = m_paneSession ? m_paneSession->analyses() : nullptr;
    const std::optional<size_t> step = analyses ? analyses->stepOfRecordRow(size_t(sourceRow)) : std::nullopt;
    const StepAnalysis* analysis = step ? analyses->analysis(*step) : nullptr;
    m_summaries->showStep(row.windowStartNs(), row.windowEndNs(),
                          tr("forward_ct %1").arg(m_steps->stepRecords()->record(size_t(sourceRow)).forwardCt),
                          analysis ? &analysis->bands : nullptr);
}

bool MainWindow::markStep(int sourceRow)
{
    const StepRecordSet* set = m_steps->stepRecords();
    if (!paneProfile() || !set || sourceRow < 0 || sourceRow >= int(set->size()))
        return false;
    const StepRecord& record = set->record(size_t(sourceRow));
    const bool aligned = sourceRow < int(set->alignment.rows.size()) && set->alignment.rows[sourceRow].hasWindow();
    if (!aligned) {
        const QString status = sourceRow < int(set->alignment.rows.size())
                                   ? stepMatchText(set->alignment.rows[sourceRow].status)
                                   : QString();
        m_paneTimeline->clearHighlightedInterval();
        m_status->setText(status.isEmpty()
                              ? tr("Step forward_ct %1 is not on the timeline").arg(record.forwardCt)
                              : tr("Step forward_ct %1 is not on the timeline (%2)").arg(record.forwardCt).arg(status));
        return false;
    }
    const StepAlignmentRow& row = set->alignment.rows[sourceRow];
    const TimeNs a = row.windowStartNs(), b = row.windowEndNs();
    m_paneTimeline->setHighlightedInterval(a, b, tr("step %1 · %2").arg(record.forwardCt).arg(formatDuration(b - a)));
    m_status->setText(stepTextForRow(sourceRow));
    // The kernel table follows the selected step (its tasks, longest first).
    const TimeNs da = row.deviceStartNs >= 0 ? row.deviceStartNs : a;
    const TimeNs db = row.deviceEndNs >= 0 ? row.deviceEndNs : b;
    showDeviceTasks(tr("Device tasks of step %1 (longest first)").arg(record.forwardCt), row.traceRankIndex, da, db);
    return true;
}

void MainWindow::followViewToStep()
{
    // After Back / Forward / undo the view may be on another step: the step whose window holds the
    // centre of the view and fills at least half of it is selected; none when the view is elsewhere.
    const StepRecordSet* set = m_steps->stepRecords();
    if (!paneProfile() || !set)
        return;
    const TimelineZoom* zoom = m_paneTimeline->zoom();
    const TimeNs centre = m_paneTimeline->visibleStartNs() + zoom->spanNs() / 2;
    int found = -1;
    for (size_t i = 0; i < set->alignment.rows.size() && found < 0; ++i) {
        const StepAlignmentRow& r = set->alignment.rows[i];
        if (r.hasWindow() && r.windowStartNs() <= centre && centre < r.windowEndNs() &&
            2 * (r.windowEndNs() - r.windowStartNs()) >= zoom->spanNs())
            found = int(i);
    }
    if (found == m_steps->currentSourceRow())
        return;
    m_steps->selectSourceRow(found);
    if (found >= 0)
        markStep(found);
    else
        m_paneTimeline->clearHighlightedInterval();
    if (m_paneSession == m_session.get()) // (the charts are the shown session's)
        m_reports->charts()->setCurrentRecordRow(found >= 0 ? std::optional<size_t>(found) : std::nullopt);
}

void MainWindow::stepBy(int delta, bool anomalousOnly)
{
    if (!anomalousOnly && m_comparison->isActive()) { // [ / ] move both runs to the next matched pair
        m_comparison->stepPair(delta);
        return;
    }
    const StepRecordSet* set = m_steps->stepRecords();
    QTableView* table = m_steps->table();
    if (!set || set->empty()) {
        if (!anomalousOnly) // no step records: the profiler's own steps (the Profiler Steps dock)
            m_summaries->plainSteps()->stepBy(delta);
        return;
    }
    const int count = table->model()->rowCount();
    int row = table->currentIndex().isValid() ? table->currentIndex().row() : (delta > 0 ? -1 : count);
    for (row += delta; row >= 0 && row < count; row += delta) {
        const int source = m_steps->sourceRow(row);
        if (!anomalousOnly || !m_steps->model()->anomalyText(source).isEmpty()) {
            table->setCurrentIndex(table->model()->index(row, 0)); // emits stepSelected → showStep
            return;
        }
    }
}

void MainWindow::showLaneMenu(int row, const QPoint& globalPos, EventRef event)
{
    LaneLayout* layout = m_timeline->layout();
    QMenu menu(this);
    if (event.valid() && profile()) {
        menu.addAction(tr("Zoom to This Event"), this, [this, event]() { m_timeline->zoomToEvent(event); });
        menu.addAction(tr("Copy Name"), this, [this, event]() {
            const std::string_view n = profile()->name(event);
            QGuiApplication::clipboard()->setText(QString::fromUtf8(n.data(), qsizetype(n.size())));
        });
        menu.addAction(tr("Find Events with This Name"), this, [this, event]() {
            const std::string_view n = profile()->name(event);
            m_searchDock->show();
            m_searchDock->raise();
            m_search->search(QLatin1Char('^') +
                                 QRegularExpression::escape(QString::fromUtf8(n.data(), qsizetype(n.size()))) +
                                 QLatin1Char('$'),
                             true);
        });
        menu.addSeparator();
    }
    if (row >= 0 && row < int(layout->rows().size())) {
        const LaneLayout::Row r = layout->rows()[row];
        if (r.kind == LaneLayout::RowKind::Lane) {
            const uint32_t lane = r.lane;
            menu.addAction(layout->isPinned(lane) ? tr("Unpin Lane") : tr("Pin Lane to Top"), this,
                           [layout, lane]() { layout->setPinned(lane, !layout->isPinned(lane)); });
            if (layout->isFoldable(lane))
                menu.addAction(layout->isFolded(lane) ? tr("Unfold Lane Levels") : tr("Fold Lane Levels"), this,
                               [layout, lane]() { layout->setUnfolded(lane, !layout->isUnfolded(lane)); });
            menu.addAction(tr("Hide Lane"), this, [layout, lane]() { layout->setHidden(lane, true); });
            menu.addAction(tr("Move Lane Up"), this, [layout, lane]() { layout->moveLane(lane, -1); });
            menu.addAction(tr("Move Lane Down"), this, [layout, lane]() { layout->moveLane(lane, 1); });
        } else {
            menu.addAction(r.collapsed ? tr("Expand Group") : tr("Collapse Group"), this,
                           [layout, row]() { layout->toggleRow(row); });
        }
        menu.addSeparator();
    }
    if (const std::optional<TimeNs> t = m_timeline->cursorNs(); t && profile()) // the right-clicked time
        menu.addAction(tr("Add Marker Here"), this, [this, at = *t]() { m_markers->addMarkerAt(at); });
    if (auto* annotate = findChild<QMenu*>(QStringLiteral("annotateMenu"))) {
        menu.addMenu(annotate);
        menu.addSeparator();
    }
    menu.addAction(action(QStringLiteral("collapseAll")));
    menu.addAction(action(QStringLiteral("expandAll")));
    if (!layout->hiddenLanes().empty())
        menu.addAction(action(QStringLiteral("showAllLanes")));
    menu.exec(globalPos);
}

// ---------------------------------------------------------------------------------------------
// Recent profiles, hidden lanes, settings

QStringList MainWindow::recentProfiles() const
{
    return QSettings().value(QStringLiteral("recentProfiles")).toStringList();
}

void MainWindow::addRecent(const QString& path)
{
    if (path.isEmpty())
        return;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = recentProfiles();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMaxRecent)
        list.removeLast();
    QSettings().setValue(QStringLiteral("recentProfiles"), list);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    m_recentList->clear();
    const QStringList list = recentProfiles();
    int n = 0;
    for (const QString& path : list) {
        const QString label = QStringLiteral("&%1  %2").arg(++n % 10).arg(QDir::toNativeSeparators(path));
        m_recentMenu->addAction(label, this, [this, path]() { openPath(path); });
        auto* item = new QListWidgetItem(QDir::toNativeSeparators(path), m_recentList);
        item->setData(Qt::UserRole, path);
        if (!QFileInfo::exists(path))
            item->setForeground(Qt::gray);
    }
    if (list.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(action(QStringLiteral("clearRecent")));
    m_recentTitle->setVisible(!list.isEmpty());
    m_recentList->setVisible(!list.isEmpty());
}

void MainWindow::rebuildHiddenLanesMenu()
{
    if (!m_hiddenMenu)
        return;
    m_hiddenMenu->clear();
    const std::vector<uint32_t> hidden = m_timeline->layout()->hiddenLanes();
    for (uint32_t lane : hidden) {
        const LaneInfo& info = profile()->lanes[lane].info;
        m_hiddenMenu->addAction(
            tr("Show %1 / %2").arg(QString::fromStdString(info.process), QString::fromStdString(info.name)), this,
            [this, lane]() { m_timeline->layout()->setHidden(lane, false); });
    }
    if (hidden.empty())
        m_hiddenMenu->addAction(tr("(no hidden lanes)"))->setEnabled(false);
    else {
        m_hiddenMenu->addSeparator();
        m_hiddenMenu->addAction(action(QStringLiteral("showAllLanes")));
    }
}

bool MainWindow::event(QEvent* event)
{
    // A dock tab's title ("Steps · <run folder>") keeps its start and its end when the tabs are
    // narrow; the tab's tooltip (Qt's) is the whole title. The tab bars come with the first tabbed docks.
    if (event->type() == QEvent::ChildPolished)
        if (auto* tabs = qobject_cast<QTabBar*>(static_cast<QChildEvent*>(event)->child()))
            tabs->setElideMode(Qt::ElideMiddle);
    const bool handled = QMainWindow::event(event);
    if (event->type() == QEvent::LayoutRequest)
        boundMinimumToScreen();
    return handled;
}

void MainWindow::boundMinimumToScreen()
{
    // The window's minimum is its docks' (as the layout would set it) but never more than the screen
    // has: a dock's tall minimum (a restored layout's, a chart's) squeezes the docks instead of growing
    // the window past the screen. Being explicit, the layout leaves it alone.
    const QScreen* sc = screen();
    if (!sc || !layout())
        return;
    const QSize wanted = layout()->totalMinimumSize().boundedTo(sc->availableGeometry().size());
    if (wanted != minimumSize())
        setMinimumSize(wanted);
}

void MainWindow::readSettings()
{
    QSettings s;
    restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    // A layout the user left is theirs: the first profile does not resize its docks.
    m_bottomDocksFitted = restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    // A geometry saved on a larger screen (or a taller layout) is bounded by this one's.
    if (const QScreen* sc = screen(); sc && !isMaximized() && !isFullScreen())
        resize(size().boundedTo(sc->availableGeometry().size()));
    m_timeline->setLabelWidth(s.value(QStringLiteral("timeline/labelWidth"), 210).toInt());
    action(QStringLiteral("absoluteTime"))
        ->setChecked(s.value(QStringLiteral("timeline/absoluteTime"), false).toBool());
    m_timeline->setAbsoluteTime(action(QStringLiteral("absoluteTime"))->isChecked());
    action(QStringLiteral("allFlows"))->setChecked(s.value(QStringLiteral("timeline/allFlows"), false).toBool());
    m_timeline->setShowAllFlows(action(QStringLiteral("allFlows"))->isChecked());
    m_language = s.value(QStringLiteral("language")).toString();
    for (QAction* a : m_languageGroup->actions())
        a->setChecked(a->data().toString() == m_language);
    // main() installed the system locale's translation; a saved choice overrides it.
    if (!m_language.isEmpty())
        installTranslations(m_language);
}

void MainWindow::writeSettings() const
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), m_parkedState.isEmpty() ? saveState() : m_parkedState);
    s.setValue(QStringLiteral("timeline/labelWidth"), m_timeline->labelWidth());
    s.setValue(QStringLiteral("timeline/absoluteTime"), m_timeline->absoluteTime());
    s.setValue(QStringLiteral("timeline/allFlows"), m_timeline->showAllFlows());
    s.setValue(QStringLiteral("language"), m_language);
}

void MainWindow::setLanguage(const QString& localeName)
{
    m_language = localeName;
    for (QAction* a : m_languageGroup->actions())
        a->setChecked(a->data().toString() == localeName);
    QSettings().setValue(QStringLiteral("language"), localeName);
    // Every widget receives QEvent::LanguageChange and retranslates itself.
    const QString used = installTranslations(localeName);
    m_status->setText(
        tr("Language: %1")
            .arg(used == QLatin1String("en") ? QStringLiteral("English") : QLocale(used).nativeLanguageName()));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    writeSettings();
    if (m_task)
        m_task->cancel();
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    // Shift+drop: compare the shown profile with the dropped one (or two dropped at once with each other).
    if (event->modifiers().testFlag(Qt::ShiftModifier) && m_comparison->openDropped(urls))
        return;
    openPath(urls.first().toLocalFile());
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

void MainWindow::updateActions()
{
    const bool has = profile() != nullptr;
    action(QStringLiteral("back"))->setEnabled(has && m_timeline->zoom()->canGoBack());
    action(QStringLiteral("forward"))->setEnabled(has && m_timeline->zoom()->canGoForward());
    // Undo / Redo say what they take back: an annotation edit by name, else the view change.
    const UndoHistory* history = m_timeline->history();
    QAction* undo = action(QStringLiteral("undo"));
    undo->setEnabled(has && history->canUndo());
    undo->setText(history->undoText().isEmpty() ? tr("&Undo View Change") : tr("&Undo %1").arg(history->undoText()));
    QAction* redo = action(QStringLiteral("redo"));
    redo->setEnabled(has && history->canRedo());
    redo->setText(history->redoText().isEmpty() ? tr("&Redo View Change") : tr("&Redo %1").arg(history->redoText()));
    for (const char* name :
         {"zoomIn", "zoomOut", "panLeft", "panRight", "fitAll", "zoomToSelection", "zoomToStep", "find", "findNext",
          "findPrevious", "collapseAll", "expandAll", "toggleLaneFold", "clearSelection", "measureRepaint"})
        action(QString::fromLatin1(name))->setEnabled(has);
    const bool steps = has && m_steps->stepRecords() && !m_steps->stepRecords()->empty();
    for (const char* name : {"previousStep", "nextStep", "previousAnomaly", "nextAnomaly", "zoomToStep"})
        action(QString::fromLatin1(name))->setEnabled(steps);
    if (has && !steps && !m_summaries->plainSteps()->steps().steps.empty()) // [ / ]: the profiler's steps
        for (const char* name : {"previousStep", "nextStep"})
            action(QString::fromLatin1(name))->setEnabled(true);
}

QString MainWindow::shortcutsHtml() const
{
    // In a comparison `[` / `]` walk the matched pairs (ComparisonController::stepPair), not the steps.
    const QString brackets =
        m_comparison && m_comparison->isActive()
            ? tr("previous / next matched step pair, both runs together (the Matched Pairs dock's)")
            : tr("previous / next step");
    const QString rows[][2] = {
        {tr("W / S"), tr("zoom in / out (around the mouse)")},
        {tr("A / D"), tr("pan left / right")},
        {tr("Ctrl+wheel"), tr("zoom around the mouse")},
        {tr("Shift+wheel"), tr("pan")},
        {tr("drag"), tr("pan (and scroll lanes)")},
        {tr("right-drag, Shift+drag, drag on the ruler"), tr("zoom to the dragged interval")},
        {tr("Ctrl+drag"), tr("select a time range (its device tasks fill the kernel table)")},
        {tr("click / double-click"), tr("select an event / zoom to it")},
        {tr("F"), tr("zoom to the selection")},
        {tr("E, click on a lane's name"), tr("fold / unfold the deeper levels of a lane")},
        {tr("Home, double-click on the ruler"), tr("fit everything")},
        {tr("Alt+Left / Alt+Right"), tr("back / forward in the view history")},
        {tr("Ctrl+Z / Ctrl+Shift+Z"), tr("undo / redo the last view change or annotation edit")},
        {tr("[ / ]"), brackets},
        {tr("Ctrl+[ / Ctrl+]"), tr("previous / next anomalous step")},
        {tr("G"), tr("zoom to the selected step")},
        {tr("Ctrl+F, F3, Shift+F3"), tr("search, next / previous match")},
        {tr("Ctrl+T"), tr("absolute clock time")},
        {tr("Ctrl+L"), tr("all flows in view")},
        {tr("Esc"), tr("clear the selection")},
        {tr("drag the name column's edge"), tr("resize the name column")},
        {tr("Ctrl+Shift+L"), tr("filter lanes by name, kind:K, rank:N, -word (Esc clears)")},
        {tr("drag a lane's name"), tr("move the lane within its group")},
        {tr("M"), tr("add a marker at the mouse (or on the Ctrl+dragged range); Markers dock lists them")},
        {tr(", / ."), tr("previous / next marker")},
        {tr("Shift+click, Shift+click"), tr("measure the time between two points (Esc clears)")},
        {tr("N / Shift+A / R"), tr("annotate: place a note / draw an arrow / highlight a range (Tools menu)")},
        {tr("right-click a lane"), tr("pin, hide, move lanes; collapse groups; annotate")},
    };
    QString html = QStringLiteral("<table cellspacing='4'>");
    for (const auto& r : rows)
        html +=
            QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(r[0].toHtmlEscaped(), r[1].toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

void MainWindow::showShortcuts()
{
    QMessageBox box(QMessageBox::NoIcon, tr("Keyboard and Mouse"), shortcutsHtml(), QMessageBox::Close, this);
    box.setTextFormat(Qt::RichText);
    box.exec();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About DSpark Timeline"),
                       tr("<b>DSpark Timeline</b> %1<br>A timeline viewer for profiling SGLang DSpark speculative "
                          "decoding on Ascend NPUs.")
                           .arg(QCoreApplication::applicationVersion()));
}

} // namespace dspark::ui
