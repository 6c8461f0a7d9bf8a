#include "compare/ComparisonController.h"

#include "summary/SummaryDocks.h"

#include "MainWindow.h"
#include "compare/ComparisonFigure.h"
#include "compare/ComparisonLoadTask.h"
#include "compare/ComparisonPanels.h"
#include "compare/KernelAlignment.h"
#include "compare/RunComparison.h"
#include "demo/DemoCache.h"
#include "demo/DemoPairWriter.h"
#include "overlays/CommBracketOverlay.h"
#include "overlays/CriticalPathOverlay.h"
#include "overlays/StageBandOverlay.h"
#include "panels/StepTablePanel.h"
#include "report/ExportDialog.h"
#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"
#include "summary/SummaryDocks.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"
#include "util/CommandLinePath.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <filesystem>
#include <limits>

namespace dspark::ui {

static constexpr int kMaxRecentComparisons = 10;
static const QLatin1String kRecentKey("recentComparisons");

// What kind of device a run was profiled on, from its lanes (the analyses never look at formats).
enum class Platform { None, Ascend, Gpu };
static Platform platformOf(const Profile* p)
{
    if (!p)
        return Platform::None;
    bool npu = false, gpu = false;
    for (const Lane& lane : p->lanes) {
        npu = npu || lane.info.kind == LaneKind::NpuStream;
        gpu = gpu || lane.info.kind == LaneKind::GpuStream;
    }
    return npu ? Platform::Ascend : gpu ? Platform::Gpu : Platform::None;
}

static QString platformName(Platform p)
{
    switch (p) {
    case Platform::Ascend: return QCoreApplication::translate("ComparisonController", "an Ascend NPU run");
    case Platform::Gpu: return QCoreApplication::translate("ComparisonController", "a GPU (Kineto) run");
    case Platform::None: break;
    }
    return QCoreApplication::translate("ComparisonController", "step records without a timeline");
}

ComparisonController::ComparisonController(MainWindow* window) : QObject(window), m_window(window)
{
    createWidgets();
    createActions();
    createDocks();
    window->installEventFilter(this);
    retranslate();
    rebuildRecentMenu();
    updateBanner();
    updateActions();
}

ComparisonController::~ComparisonController()
{
    ++m_generation;
    ++m_kernelGeneration;
    for (QThread* t : m_workers) {
        t->wait();
        delete t;
    }
}

// ---------------------------------------------------------------------------------------------
// Construction

void ComparisonController::createWidgets()
{
    MainWindow* w = m_window;
    TimelineWidget* baseline = w->timeline();
    QWidget* page = w->timelinePage();
    auto* pageLayout = qobject_cast<QVBoxLayout*>(page->layout());

    // Banner: which run is which, what cannot be compared, swap / close.
    m_banner = new QWidget(page);
    m_banner->setObjectName(QStringLiteral("comparisonBanner"));
    m_bannerText = new QLabel(m_banner);
    m_bannerText->setObjectName(QStringLiteral("comparisonBannerText"));
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The runs' long names never widen the window past the screen: the line wraps (the pair count at
    // its end stays in view); a name longer than the line is cut there (the tooltip holds the paths).
    m_bannerText->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_bannerText->setWordWrap(true);
    m_limitations = new QLabel(m_banner);
    m_limitations->setObjectName(QStringLiteral("comparisonLimitations"));
    m_limitations->setWordWrap(true);
    m_limitations->setStyleSheet(QStringLiteral("color: #9a5b00;"));
    m_swapButton = new QPushButton(m_banner);
    m_swapButton->setObjectName(QStringLiteral("swapSidesButton"));
    m_closeBaselineButton = new QPushButton(m_banner);
    m_closeBaselineButton->setObjectName(QStringLiteral("closeBaselineButton"));
    m_closeChangedButton = new QPushButton(m_banner);
    m_closeChangedButton->setObjectName(QStringLiteral("closeChangedButton"));
    connect(m_swapButton, &QPushButton::clicked, this, &ComparisonController::swapSides);
    connect(m_closeBaselineButton, &QPushButton::clicked, this, &ComparisonController::closeBaseline);
    connect(m_closeChangedButton, &QPushButton::clicked, this, &ComparisonController::closeChanged);
    auto* row = new QHBoxLayout;
    row->addWidget(m_bannerText, 1);
    row->addWidget(m_swapButton);
    row->addWidget(m_closeBaselineButton);
    row->addWidget(m_closeChangedButton);
    auto* bannerLayout = new QVBoxLayout(m_banner);
    bannerLayout->setContentsMargins(6, 3, 6, 3);
    bannerLayout->setSpacing(2);
    bannerLayout->addLayout(row);
    bannerLayout->addWidget(m_limitations);

    // Baseline above, changed below, in a vertical splitter; each under a caption.
    m_splitter = new QSplitter(Qt::Vertical, page);
    m_splitter->setObjectName(QStringLiteral("comparisonSplitter"));
    m_splitter->setChildrenCollapsible(false);
    auto* baselinePane = new QWidget(m_splitter);
    m_baselineCaption = new QLabel(baselinePane);
    m_baselineCaption->setObjectName(QStringLiteral("baselineCaption"));
    m_baselineCaption->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    pageLayout->removeWidget(baseline);
    auto* baselineLayout = new QVBoxLayout(baselinePane);
    baselineLayout->setContentsMargins(0, 0, 0, 0);
    baselineLayout->setSpacing(0);
    baselineLayout->addWidget(m_baselineCaption);
    baselineLayout->addWidget(baseline, 1);

    m_changedPane = new QWidget(m_splitter);
    m_changedCaption = new QLabel(m_changedPane);
    m_changedCaption->setObjectName(QStringLiteral("changedCaption"));
    m_changedCaption->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_changedTimeline = new TimelineWidget(m_changedPane, baseline->zoom());
    m_changedTimeline->setObjectName(QStringLiteral("changedTimeline"));
    auto* changedLayout = new QVBoxLayout(m_changedPane);
    changedLayout->setContentsMargins(0, 0, 0, 0);
    changedLayout->setSpacing(0);
    changedLayout->addWidget(m_changedCaption);
    changedLayout->addWidget(m_changedTimeline, 1);
    for (QLabel* caption : {m_baselineCaption, m_changedCaption}) {
        caption->setContentsMargins(6, 2, 6, 2);
        QFont f = caption->font();
        f.setBold(true);
        caption->setFont(f);
    }
    m_splitter->addWidget(baselinePane);
    m_splitter->addWidget(m_changedPane);
    pageLayout->addWidget(m_banner);
    pageLayout->addWidget(m_splitter, 1);

    // The changed run gets the same analysis layers, shown or hidden with the window's (View menu).
    m_bands = new StageBandOverlay(nullptr, m_changedTimeline);
    m_comm = new CommBracketOverlay(nullptr, m_changedTimeline);
    m_path = new CriticalPathOverlay(nullptr, m_changedTimeline);
    for (TimelineOverlay* o : std::initializer_list<TimelineOverlay*>{m_comm, m_path, m_bands})
        m_changedTimeline->addOverlay(o);
    const std::pair<const char*, TimelineOverlay*> layers[] = {
        {"showStageBands", m_bands}, {"showCommBrackets", m_comm}, {"showCriticalPath", m_path}};
    for (const auto& [name, overlay] : layers)
        if (QAction* a = w->action(QString::fromLatin1(name))) {
            overlay->setVisible(a->isChecked());
            TimelineOverlay* o = overlay;
            connect(a, &QAction::toggled, o, [o](bool on) { o->setVisible(on); });
        }
    // Zoom and pan keys act on the shared range from either timeline.
    for (const char* name : {"zoomIn", "zoomOut", "panLeft", "panRight", "fitAll"})
        if (QAction* a = w->action(QString::fromLatin1(name)))
            m_changedTimeline->addAction(a);
    // A selection on the changed timeline shows in the window's panes, which then work on the changed run
    // (MainWindow::paneSession); a click on either timeline gives it the focus, and the panes its session.
    connect(m_changedTimeline->selection(), &TimelineSelection::eventChanged, this, [this](EventRef e) {
        if (m_changed)
            m_window->showSessionEvent(m_changed.get(), m_changedTimeline, e);
    });
    connect(m_changedTimeline->selection(), &TimelineSelection::timeRangeChanged, this,
            [this](TimeNs startNs, TimeNs endNs) {
                if (m_changed)
                    m_window->showSessionRange(m_changed.get(), m_changedTimeline, startNs, endNs);
            });
    m_changedTimeline->view()->installEventFilter(this);
    baseline->view()->installEventFilter(this);

    m_progress = new QProgressBar(w);
    m_progress->setObjectName(QStringLiteral("comparisonProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(240);
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_cancelButton = new QPushButton(w);
    m_cancelButton->setObjectName(QStringLiteral("cancelComparisonButton"));
    m_cancelButton->hide();
    connect(m_cancelButton, &QPushButton::clicked, this, &ComparisonController::cancelLoading);
    w->statusBar()->addPermanentWidget(m_progress);
    w->statusBar()->addPermanentWidget(m_cancelButton);

    m_banner->hide();
    m_changedPane->hide();
    m_baselineCaption->hide();
}

void ComparisonController::createActions()
{
    MainWindow* w = m_window;
    auto make = [this, w](const char* name, auto slot) {
        auto* a = new QAction(w);
        a->setObjectName(QString::fromLatin1(name));
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    QAction* withFolder = make("compareWithFolder", [this]() { askAndCompare(true); });
    QAction* withFile = make("compareWithFile", [this]() { askAndCompare(false); });
    QAction* demo = make("openDemoComparison", [this]() { openDemoComparison(); });
    QAction* swap = make("swapComparison", [this]() { swapSides(); });
    QAction* closeBase = make("closeBaseline", [this]() { closeBaseline(); });
    QAction* closeChanged = make("closeChanged", [this]() { this->closeChanged(); });
    QAction* figure = make("exportComparisonFigure", [this]() {
        const QString file =
            QFileDialog::getSaveFileName(m_window, tr("Export Comparison Figure"),
                                         QDir(ExportDialog::defaultFolder()).filePath(QStringLiteral("comparison.png")),
                                         tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)"));
        if (file.isEmpty())
            return;
        if (const QString error = exportFigure(file); !error.isEmpty())
            QMessageBox::warning(m_window, tr("Export Comparison Figure"), error);
        else {
            ExportDialog::rememberFolderOf(file);
            m_window->statusBar()->showMessage(tr("Wrote %1").arg(file), 4000);
        }
    });
    QAction* clear = make("clearRecentComparisons", [this]() {
        QSettings().setValue(kRecentKey, QStringList());
        rebuildRecentMenu();
    });
    Q_UNUSED(clear);

    // File menu: after Open Recent, before the exports.
    QMenu* file = w->fileMenu();
    QAction* before = nullptr;
    const QList<QAction*> actions = file->actions();
    for (int i = 0; i < actions.size(); ++i)
        if (actions[i]->menu() && i + 1 < actions.size()) { // the Open Recent submenu
            before = actions[i + 1];
            break;
        }
    QAction* separator = file->insertSeparator(before);
    for (QAction* a : {withFolder, withFile, demo})
        file->insertAction(separator, a);
    m_recentMenu = new QMenu(file);
    m_recentMenu->setObjectName(QStringLiteral("recentComparisonsMenu"));
    file->insertMenu(separator, m_recentMenu);
    m_compareMenu = new QMenu(file);
    m_compareMenu->setObjectName(QStringLiteral("comparisonMenu"));
    for (QAction* a : {swap, closeBase, closeChanged})
        m_compareMenu->addAction(a);
    m_compareMenu->addSeparator();
    m_compareMenu->addAction(figure);
    file->insertMenu(separator, m_compareMenu);
}

void ComparisonController::retranslate()
{
    auto set = [this](const char* name, const QString& text, const QString& tip = {}) {
        if (QAction* a = m_window->action(QString::fromLatin1(name))) {
            a->setText(text);
            a->setStatusTip(tip);
            a->setToolTip(tip.isEmpty() ? QString(text).remove(QLatin1Char('&')) : tip);
        }
    };
    set("compareWithFolder", tr("Compare With F&older…"),
        tr("Compare the open profile (baseline) with another profile folder (the changed run)"));
    set("compareWithFile", tr("Compare With Fi&le…"),
        tr("Compare the open profile (baseline) with another profile file or step records"));
    set("openDemoComparison", tr("Open Demo Co&mparison"), tr("Compare the demo's baseline run with its changed run"));
    set("swapComparison", tr("&Swap Baseline and Changed"));
    set("closeBaseline", tr("Close &Baseline"), tr("Leave an ordinary window on the changed run"));
    set("closeChanged", tr("Close &Changed Run"), tr("Leave an ordinary window on the baseline"));
    set("exportComparisonFigure", tr("Export Comparison &Figure…"),
        tr("Save the current step pair, aligned, with its deltas, bands and legend (PNG, SVG or PDF)"));
    set("clearRecentComparisons", tr("&Clear Recent Comparisons"));
    m_recentMenu->setTitle(tr("Recent Compa&risons"));
    if (m_docks.size() == 4) {
        m_docks[0]->setWindowTitle(tr("Configuration Diff"));
        m_docks[1]->setWindowTitle(tr("Distributions"));
        m_docks[2]->setWindowTitle(tr("Matched Pairs"));
        m_docks[3]->setWindowTitle(tr("Kernel Diff"));
        m_docksMenu->setTitle(tr("Comparison &Panels"));
    }
    m_compareMenu->setTitle(tr("Compariso&n"));
    m_swapButton->setText(tr("Swap"));
    m_closeBaselineButton->setText(tr("Close Baseline"));
    m_closeChangedButton->setText(tr("Close Changed"));
    m_cancelButton->setText(tr("Cancel"));
    rebuildRecentMenu();
    updateBanner();
}

bool ComparisonController::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && watched == static_cast<QObject*>(m_window.data()))
        retranslate();
    if (event->type() == QEvent::FocusIn && isActive()) {
        if (watched == m_changedTimeline->view())
            m_window->setPaneSession(m_changed.get(), m_changedTimeline);
        else if (watched == m_window->timeline()->view())
            m_window->setPaneSession(m_window->session(), m_window->timeline());
    }
    return false;
}

void ComparisonController::askAndCompare(bool folder)
{
    // With a profile open it is the baseline; else both runs are asked for, the baseline first.
    const bool both = !m_window->session();
    const QString first = askPath(both ? (folder ? tr("Baseline Profile Folder") : tr("Baseline Profile File"))
                                       : (folder ? tr("Compare With Profile Folder") : tr("Compare With Profile File")),
                                  folder);
    if (first.isEmpty())
        return;
    if (!both)
        return compareWith(first);
    const QString second = askPath(folder ? tr("Changed Profile Folder") : tr("Changed Profile File"), folder);
    if (!second.isEmpty())
        openComparison(first, second);
}

QString ComparisonController::askPath(const QString& title, bool folder)
{
    if (folder)
        return QFileDialog::getExistingDirectory(m_window, title);
    return QFileDialog::getOpenFileName(
        m_window, title, {},
        tr("Profiles and step records (*.db *.json *.json.gz *.jsonl *.trace.json.gz);;All files (*)"));
}

// ---------------------------------------------------------------------------------------------
// Opening

void ComparisonController::openComparison(const QString& baseline, const QString& changed)
{
    startTask(new ComparisonLoadTask(baseline, changed, this),
              tr("Loading %1 and %2…").arg(QDir::toNativeSeparators(baseline), QDir::toNativeSeparators(changed)));
}

void ComparisonController::compareWith(const QString& changed)
{
    if (!m_window->session()) {
        m_window->openPath(changed);
        return;
    }
    // The baseline is the window's session: only the changed run is loaded, and the baseline's side of the
    // comparison is prepared meanwhile.
    startTask(new ComparisonLoadTask(QString(), changed, this),
              tr("Loading %1 to compare…").arg(QDir::toNativeSeparators(changed)));
    prepareShownBaseline();
}

// The demo pair (`demo OUTDIR --compare`), written once into the cache folder and reused, as --demo
// does for the single demo: under a temporary name, renamed when complete.
static QString ensureCachedDemoPair(const QString& version, QString& baseline, QString& changed)
{
    const QString cacheRoot = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    if (cacheRoot.isEmpty())
        return QCoreApplication::translate("ComparisonController", "no cache folder is available for the demo pair");
    const QString finalPath =
        QDir(cacheRoot).filePath(QStringLiteral("demo-compare-%1-%2").arg(version).arg(demo::DefaultDemoSeed));
    const QString truth = QDir(finalPath).filePath(QStringLiteral("ground_truth_compare.json"));
    if (!QFileInfo::exists(truth)) {
        const QString partial = finalPath + QStringLiteral(".partial");
        std::error_code ec;
        std::filesystem::remove_all(partial.toStdString(), ec); // an interrupted earlier attempt of ours
        std::filesystem::remove_all(finalPath.toStdString(), ec);
        demo::DemoOptions options;
        options.seed = demo::DefaultDemoSeed;
        const demo::DemoPairResult written = demo::writeDemoPair(options, partial.toStdString());
        if (!written.error.isEmpty())
            return written.error;
        std::filesystem::rename(partial.toStdString(), finalPath.toStdString(), ec);
        if (ec)
            return QCoreApplication::translate("ComparisonController", "%1: cannot create the demo folder (%2)")
                .arg(finalPath, QString::fromStdString(ec.message()));
    }
    baseline = QDir(finalPath).filePath(QStringLiteral("baseline"));
    changed = QDir(finalPath).filePath(QStringLiteral("changed"));
    return {};
}

void ComparisonController::openDemoComparison()
{
    const QString version = QCoreApplication::applicationVersion();
    startTask(new ComparisonLoadTask(QString(), QString(), this,
                                     [version](QString& baseline, QString& changed) {
                                         return ensureCachedDemoPair(version, baseline, changed);
                                     }),
              tr("Preparing the demo comparison…"));
}

bool ComparisonController::openFromCommandLine(const QStringList& args)
{
    if (args.contains(QLatin1String("--demo-compare"))) {
        openDemoComparison();
        return true;
    }
    const qsizetype at = args.indexOf(QLatin1String("--compare"));
    if (at < 0)
        return false;
    QStringList paths;
    for (qsizetype i = at + 1; i < args.size() && paths.size() < 2 && !args[i].startsWith(QLatin1Char('-')); ++i) {
        QString error;
        const QString path = localPathFromArgument(args[i], &error);
        if (path.isEmpty()) {
            Q_EMIT loadFailed(error);
            QMessageBox::warning(m_window, tr("Cannot compare"), error);
            return true;
        }
        paths << path;
    }
    if (paths.size() < 2) {
        const QString error = tr("--compare needs two profiles: --compare BASELINE CHANGED");
        m_window->statusBar()->showMessage(error);
        Q_EMIT loadFailed(error);
        return true;
    }
    openComparison(paths[0], paths[1]);
    return true;
}

bool ComparisonController::openDropped(const QList<QUrl>& urls)
{
    QStringList paths;
    for (const QUrl& u : urls)
        if (u.isLocalFile())
            paths << u.toLocalFile();
    if (paths.size() >= 2) {
        openComparison(paths[0], paths[1]);
        return true;
    }
    if (paths.size() == 1 && m_window->session()) {
        compareWith(paths[0]);
        return true;
    }
    return false;
}

bool ComparisonController::isLoading() const
{
    return m_task != nullptr;
}

void ComparisonController::startTask(ComparisonLoadTask* task, const QString& label)
{
    abandonLoading();          // a newer request wins
    m_window->cancelLoading(); // (an ordinary load under way: its outcome comes back cancelled)
    m_task = task;
    connect(task, &ComparisonLoadTask::progress, this, [this](double fraction, const QString& phase) {
        m_progress->setValue(int(fraction * 1000));
        if (!phase.isEmpty())
            m_window->statusBar()->showMessage(phase);
    });
    connect(task, &ComparisonLoadTask::finished, this,
            [this, task](std::shared_ptr<Profile> a, std::shared_ptr<Profile> b, const QString& error, bool cancelled) {
                onLoaded(std::move(a), std::move(b), error, cancelled, task->path(ComparisonLoadTask::Baseline),
                         task->path(ComparisonLoadTask::Changed));
            });
    m_progress->setValue(0);
    m_progress->show();
    m_cancelButton->setEnabled(true);
    m_cancelButton->show();
    m_window->statusBar()->showMessage(label);
    task->start();
}

void ComparisonController::abandonLoading()
{
    if (!m_task)
        return;
    // Nothing of it reaches the window any more: its signals are cut before it is cancelled, and it
    // waits for its threads when deleted.
    disconnect(m_task, nullptr, this, nullptr);
    m_task->cancel();
    m_task->deleteLater();
    m_task = nullptr;
    m_progress->hide();
    m_cancelButton->hide();
}

void ComparisonController::cancelLoading()
{
    if (m_task && !m_task->isCancelled()) {
        m_task->cancel();
        m_cancelButton->setEnabled(false);
        m_window->statusBar()->showMessage(tr("Cancelling…"));
    }
}

void ComparisonController::onLoaded(std::shared_ptr<Profile> baseline, std::shared_ptr<Profile> changed,
                                    const QString& error, bool cancelled, const QString& baselinePath,
                                    const QString& changedPath)
{
    m_progress->hide();
    m_cancelButton->hide();
    if (m_task) {
        m_task->deleteLater();
        m_task = nullptr;
    }
    if (cancelled) {
        m_window->statusBar()->showMessage(tr("Loading cancelled"), 5000);
        Q_EMIT loadCancelled();
        return;
    }
    if (!error.isEmpty() || !changed) {
        const QString message = error.isEmpty() ? tr("%1: cannot be opened").arg(changedPath) : error;
        m_window->statusBar()->showMessage(message);
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot compare"), message, QMessageBox::Ok, m_window);
        box->setObjectName(QStringLiteral("comparisonErrorBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        Q_EMIT loadFailed(message);
        return;
    }
    const AnalysisRules rules = AnalysisRules::load({}, nullptr);
    std::shared_ptr<ProfileSession> base;
    if (baseline)
        base = std::make_shared<ProfileSession>(std::move(baseline), baselinePath, rules);
    else if (m_window->session()) // compared with the shown profile: that session stays the baseline
        base = m_window->sessions().front();
    if (!base)
        return;
    auto other = std::make_shared<ProfileSession>(std::move(changed), changedPath, rules);
    addRecent(base->path(), changedPath);
    showSessions(std::move(base), std::move(other));
    Q_EMIT comparisonOpened();
}

void ComparisonController::addRecent(const QString& baseline, const QString& changed)
{
    const QString entry =
        QFileInfo(baseline).absoluteFilePath() + QLatin1Char('\n') + QFileInfo(changed).absoluteFilePath();
    QStringList list = recentComparisons();
    list.removeAll(entry);
    list.prepend(entry);
    while (list.size() > kMaxRecentComparisons)
        list.removeLast();
    QSettings().setValue(kRecentKey, list);
    rebuildRecentMenu();
}

QStringList ComparisonController::recentComparisons() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void ComparisonController::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList list = recentComparisons();
    int n = 0;
    for (const QString& entry : list) {
        const QStringList two = entry.split(QLatin1Char('\n'));
        if (two.size() != 2)
            continue;
        const QString label =
            tr("&%1  %2  vs  %3").arg(++n % 10).arg(QDir::toNativeSeparators(two[0]), QDir::toNativeSeparators(two[1]));
        m_recentMenu->addAction(label, this, [this, two]() { openComparison(two[0], two[1]); });
    }
    if (n == 0)
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(m_window->action(QStringLiteral("clearRecentComparisons")));
}

// ---------------------------------------------------------------------------------------------
// The comparison shown

ProfileSession* ComparisonController::baselineSession() const
{
    return isActive() ? m_window->session() : nullptr;
}

void ComparisonController::showSessions(std::shared_ptr<ProfileSession> baseline,
                                        std::shared_ptr<ProfileSession> changed)
{
    if (m_changed)
        m_window->removeSession(m_changed.get());
    m_settingSessions = true;
    if (baseline.get() != m_window->session())
        m_window->setSession(baseline);
    m_settingSessions = false;
    m_changed = std::move(changed);
    m_changed->setTimeOffsetNs(startOffsetNs());
    m_window->addSession(m_changed);
    m_changedTimeline->setProfile(m_changed->profile());
    m_changedTimeline->setTimeOffsetNs(startOffsetNs());
    m_changedTimeline->setLabelWidth(m_window->timeline()->labelWidth());
    m_changedTimeline->setAbsoluteTime(m_window->timeline()->absoluteTime());
    for (StepAnalysisOverlay* o : std::initializer_list<StepAnalysisOverlay*>{m_bands, m_comm, m_path})
        o->setAnalyses(m_changed->analyses());
    if (!m_changed->analyses()->ready())
        m_changed->analyses()->computeInBackground();
    connect(m_changed->analyses(), &StepAnalyses::analysesReady, m_changedTimeline, &TimelineWidget::refresh,
            Qt::UniqueConnection);

    m_pairs.clear(); // the core's pairs, once the comparison is ready (rebuildPairs)
    m_pairRows.clear();
    m_current = -1;
    m_shown.reset();
    ++m_kernelGeneration;
    m_kernels.reset();
    m_kernelPanel->setPlaceholder(tr("Show a matched step pair ([ / ]) to align its kernels."));
    showDocks();
    // Shared out on the window's first comparison only: later ones keep the widths the user gave.
    if (!m_bottomRowFitted) {
        m_bottomRowFitted = true;
        QTimer::singleShot(0, this, &ComparisonController::fitBottomRow); // (once the docks shown are laid out)
    }
    compareWhenAnalysed();
    m_banner->show();
    m_changedPane->show();
    m_baselineCaption->show();
    m_splitter->setSizes({1, 1});
    setSharedBounds();
    updateBanner();
    updateActions();
}

void ComparisonController::showDocks()
{
    for (QDockWidget* d : std::as_const(m_docks))
        d->show();
    m_docks[2]->raise();
    m_docks[3]->raise();
}

void ComparisonController::layoutReset()
{
    if (!m_changed)
        return;
    showDocks();
    QTimer::singleShot(0, this, &ComparisonController::fitBottomRow); // (once the docks shown are laid out)
}

void ComparisonController::fitBottomRow()
{
    if (!m_changed)
        return;
    // The step tables' area now holds five tabs and the pair table: it gets the widest share of the
    // bottom row, the kernel diff and the summaries (when shown) the rest.
    QList<QDockWidget*> row{m_docks[2], m_docks[3]};
    QList<int> widths{m_window->width() * 44 / 100, m_window->width() * 28 / 100};
    const SummaryDocks* summaries = m_window->summaries();
    for (QDockWidget* d : {summaries->rangeDock(), summaries->kernelDock(), summaries->stepsDock()})
        if (d->isVisible() && !d->isFloating() && m_window->dockWidgetArea(d) == Qt::BottomDockWidgetArea) {
            row << d;
            widths << m_window->width() * 28 / 100;
            break;
        }
    m_window->resizeDocks(row, widths, Qt::Horizontal);
}

TimeNs ComparisonController::startOffsetNs() const
{
    // Until a pair is shown the two runs start together: their clocks may be days apart (two traces
    // with epoch timestamps), and one axis over both would show neither.
    const Profile* a = m_window->profile().get();
    const Profile* b = m_changed ? m_changed->profile().get() : nullptr;
    return a && b ? a->firstNs() - b->firstNs() : 0;
}

void ComparisonController::setSharedBounds()
{
    // One range for both: the baseline's span and the changed run's at every pair's offset, so that
    // moving between pairs never leaves a run outside the zoom's bounds (which would reset its history).
    const Profile* a = m_window->profile().get();
    const Profile* b = m_changed ? m_changed->profile().get() : nullptr;
    if (!a || !b)
        return;
    TimeNs first = a->firstNs(), last = a->lastNs();
    const StepAnalyses& sa = *m_window->session()->analyses();
    const StepAnalyses& sb = *m_changed->analyses();
    std::vector<TimeNs> offsets{startOffsetNs()};
    for (const StepPair& p : m_pairs)
        offsets.push_back(sa.step(p.baselineStep).window.startNs - sb.step(p.changedStep).window.startNs);
    const auto [lo, hi] = std::minmax_element(offsets.begin(), offsets.end());
    first = std::min(first, b->firstNs() + *lo);
    last = std::max(last, b->lastNs() + *hi);
    m_window->timeline()->zoom()->setBounds(first, last);
}

bool ComparisonController::showPair(int index)
{
    if (!isActive() || index < 0 || index >= int(m_pairs.size()))
        return false;
    return showSteps(m_pairs[size_t(index)].baselineStep, m_pairs[size_t(index)].changedStep);
}

bool ComparisonController::showSteps(size_t baselineStep, size_t changedStep)
{
    StepAnalyses& sa = *m_window->session()->analyses();
    if (!isActive() || baselineStep >= sa.stepCount() || changedStep >= m_changed->analyses()->stepCount())
        return false;
    const auto found = std::find(m_pairs.begin(), m_pairs.end(), StepPair{baselineStep, changedStep});
    // Two steps that are no pair of the list: `[` / `]` move on from their place (stepPair).
    m_current = found == m_pairs.end() ? -1 : int(found - m_pairs.begin());
    if (found != m_pairs.end())
        m_pairPanel->selectPair(m_pairRows[size_t(m_current)]);
    m_shown = StepPair{baselineStep, changedStep};
    const RecordWindow& a = sa.step(baselineStep);
    const RecordWindow& b = m_changed->analyses()->step(changedStep);
    // The changed run's clock is moved so that the pair starts together on the shared axis.
    const TimeNs offset = a.window.startNs - b.window.startNs;
    m_changed->setTimeOffsetNs(offset);
    m_changedTimeline->setTimeOffsetNs(offset);
    // Both steps highlighted; the step table (the run the panes follow) selects its step of the pair,
    // then both are framed.
    for (auto [timeline, step] : {std::pair{m_window->timeline(), &a}, std::pair{m_changedTimeline, &b}})
        timeline->setHighlightedInterval(
            step->window.startNs, step->window.endNs,
            tr("step %1 · %2").arg(step->window.forwardCt).arg(formatDuration(step->window.wallNs())));
    const int row = int(m_window->paneSession() == m_changed.get() ? b.row : a.row);
    m_window->stepPanel()->selectSourceRow(row);
    m_window->showStep(row, false);
    const TimeNs end = std::max(a.window.endNs, b.window.endNs + offset);
    m_window->timeline()->zoom()->zoomToInterval(a.window.startNs, end, 0.03);
    // (%1 … %4: the two steps; the pair's place in the list after them)
    const QString steps =
        (m_current >= 0 ? tr("Pair %5 of %6: baseline forward_ct %1 (%2), changed forward_ct %3 (%4)")
                        : tr("Baseline forward_ct %1 (%2), changed forward_ct %3 (%4): not one of the %6 pairs listed"))
            .arg(a.window.forwardCt)
            .arg(formatDuration(a.window.wallNs()))
            .arg(b.window.forwardCt)
            .arg(formatDuration(b.window.wallNs()));
    m_window->statusBar()->showMessage(m_current >= 0 ? steps.arg(m_current + 1).arg(m_pairs.size())
                                                      : steps.arg(m_pairs.size()));
    alignKernelsOfShownPair(baselineStep, changedStep);
    Q_EMIT pairChanged(m_current);
    return true;
}

void ComparisonController::stepPair(int delta)
{
    if (m_pairs.empty()) {
        // Said rather than nothing: the pairs come with the comparison, whose first pair is then shown.
        m_window->statusBar()->showMessage(
            m_result ? tr("No matched step pairs: the runs have no step class in common on both timelines")
                     : tr("Pairing the steps of the two runs… [ / ] walk the matched pairs once the comparison is "
                          "ready"),
            5000);
        return;
    }
    int next = m_current + delta;
    if (m_current < 0 && m_shown) {
        // The steps on show are no pair of the list (a class's median pair, then "All pairs"): from their
        // place in the baseline's time.
        const StepAnalyses& sa = *m_window->session()->analyses();
        const auto startOf = [&](size_t step) { return sa.step(step).window.startNs; };
        const TimeNs at = startOf(m_shown->baselineStep);
        const auto after = std::find_if(m_pairs.begin(), m_pairs.end(),
                                        [&](const StepPair& p) { return startOf(p.baselineStep) > at; });
        const auto from = std::find_if(m_pairs.begin(), m_pairs.end(),
                                       [&](const StepPair& p) { return startOf(p.baselineStep) >= at; });
        next = delta > 0 ? int(after - m_pairs.begin()) + delta - 1 : int(from - m_pairs.begin()) + delta;
    } else if (m_current < 0) {
        next = delta > 0 ? 0 : int(m_pairs.size()) - 1;
    }
    showPair(std::clamp(next, 0, int(m_pairs.size()) - 1));
}

QString ComparisonController::limitationsText() const
{
    if (!isActive())
        return {};
    QStringList lines;
    const Platform a = platformOf(m_window->profile().get()), b = platformOf(m_changed->profile().get());
    if (a != b && a != Platform::None && b != Platform::None)
        lines << tr("The baseline is %1 and the changed run %2: steps and kernel categories are compared; kernel "
                    "names, streams, stage bands and communication are not (the platforms differ).")
                     .arg(platformName(a), platformName(b));
    else if (a != b)
        lines << tr("The baseline is %1 and the changed run %2: only what the step records carry is compared.")
                     .arg(platformName(a), platformName(b));
    if (m_result && m_pairs.empty())
        lines << tr("No matched steps: the two runs are shown from their starts; steps line up when each run has "
                    "aligned DSpark step records.");
    return lines.join(QLatin1Char('\n'));
}

void ComparisonController::updateBanner()
{
    if (!isActive()) {
        m_banner->hide();
        return;
    }
    const QString a = QDir::toNativeSeparators(m_window->session()->path());
    const QString b = QDir::toNativeSeparators(m_changed->path());
    m_bannerText->setText(tr("Comparing: baseline (above) %1 — changed (below) %2 — %n matched step pair(s)", nullptr,
                             int(m_pairs.size()))
                              .arg(QFileInfo(a).fileName(), QFileInfo(b).fileName()));
    m_bannerText->setToolTip(tr("Baseline: %1\nChanged: %2").arg(a, b));
    m_baselineCaption->setText(tr("Baseline: %1").arg(a));
    m_changedCaption->setText(tr("Changed: %1").arg(b));
    m_baselineCaption->setToolTip(m_baselineCaption->text());
    m_changedCaption->setToolTip(m_changedCaption->text());
    const QString limits = limitationsText();
    m_limitations->setText(limits);
    m_limitations->setVisible(!limits.isEmpty());
}

void ComparisonController::updateActions()
{
    for (const char* name : {"swapComparison", "closeBaseline", "closeChanged", "exportComparisonFigure"})
        if (QAction* a = m_window->action(QString::fromLatin1(name)))
            a->setEnabled(isActive());
}

QString ComparisonController::exportFigure(const QString& path, int width) const
{
    const std::optional<ImageFormat> format = imageFormatForPath(path);
    if (!format)
        return tr("%1: unknown image type (use .png, .svg or .pdf)").arg(QDir::toNativeSeparators(path));
    if (!isActive() || m_pairs.empty())
        return tr("No matched step pair to draw: the runs need aligned DSpark steps");
    const StepPair pair = m_shown ? *m_shown : m_pairs.front();
    const ComparisonFigure figure(*m_window->sessions().front(), pair.baselineStep, *m_changed, pair.changedStep);
    return figure.exportTo(path, *format, QSize(width, 0));
}

void ComparisonController::swapSides()
{
    if (!isActive())
        return;
    std::shared_ptr<ProfileSession> baseline = m_window->sessions().front();
    std::shared_ptr<ProfileSession> changed = m_changed;
    m_window->removeSession(changed.get());
    m_changed.reset();
    baseline->setTimeOffsetNs(0);
    showSessions(changed, baseline);
    Q_EMIT comparisonOpened();
}

void ComparisonController::closeBaseline()
{
    if (!isActive())
        return;
    std::shared_ptr<ProfileSession> changed = m_changed;
    endComparison();
    changed->setTimeOffsetNs(0);
    m_window->setSession(changed);
}

void ComparisonController::closeChanged()
{
    if (!isActive())
        return;
    endComparison();
    m_window->timeline()->zoom()->setBounds(m_window->profile()->firstNs(), m_window->profile()->lastNs());
}

void ComparisonController::endComparison()
{
    if (!m_changed)
        return;
    m_window->removeSession(m_changed.get());
    m_changed.reset();
    m_pairs.clear();
    m_pairRows.clear();
    m_current = -1;
    m_shown.reset();
    ++m_generation;
    ++m_kernelGeneration;
    m_result.reset();
    m_sides = {};
    m_kernels.reset();
    m_configPanel->setComparison(nullptr);
    m_distributionPanel->setComparison(nullptr);
    m_pairPanel->setComparison(nullptr);
    m_kernelPanel->setAlignment(nullptr, {});
    for (QDockWidget* d : std::as_const(m_docks))
        d->hide();
    for (StepAnalysisOverlay* o : std::initializer_list<StepAnalysisOverlay*>{m_bands, m_comm, m_path})
        o->setAnalyses(nullptr);
    m_changedTimeline->setProfile(nullptr);
    m_changedTimeline->setTimeOffsetNs(0);
    m_changedPane->hide();
    m_baselineCaption->hide();
    m_banner->hide();
    updateActions();
    Q_EMIT comparisonClosed();
}

void ComparisonController::windowSessionChanged()
{
    if (m_settingSessions)
        return;
    m_earlySession.reset();
    m_earlySide.reset();
    abandonLoading(); // a comparison still loading would otherwise land on the new profile
    endComparison();
}

} // namespace dspark::ui
