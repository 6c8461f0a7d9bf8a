#include "report/ReportActions.h"

#include "MainWindow.h"
#include "charts/StepChartsPanel.h"
#include "overlays/AnnotationOverlay.h"
#include "overlays/AnnotationSession.h"
#include "overlays/AnnotationTool.h"
#include "overlays/CommBracketOverlay.h"
#include "overlays/CriticalPathOverlay.h"
#include "overlays/StageBandOverlay.h"
#include "panels/EventTablePanel.h"
#include "panels/StepTablePanel.h"
#include "report/ExportDialog.h"
#include "report/TableExport.h"
#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"
#include "steps/StepTableModel.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineWidget.h"
#include "timeline/UndoHistory.h"

#include <QAction>
#include <QActionGroup>
#include <QDir>
#include <QDockWidget>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>

namespace dspark::ui {

static const char* const kOverlaySettings[] = {"reports/stageBands", "reports/commBrackets", "reports/criticalPath",
                                               "reports/annotations"};

ReportActions::ReportActions(MainWindow* window) : QObject(window), m_window(window)
{
    TimelineWidget* timeline = window->timeline();
    m_noAnalyses = new StepAnalyses(this);
    m_analyses = m_noAnalyses;
    m_bands = new StageBandOverlay(m_analyses, timeline);
    m_comm = new CommBracketOverlay(m_analyses, timeline);
    m_path = new CriticalPathOverlay(m_analyses, timeline);
    m_annotations = new AnnotationOverlay(timeline);
    // Communication, the critical path, then the bands (translucent; their captions stay readable) and
    // the user's notes on top.
    for (TimelineOverlay* o : std::initializer_list<TimelineOverlay*>{m_comm, m_path, m_bands, m_annotations})
        timeline->addOverlay(o);
    timeline->history()->addStack(m_annotations->undoStack()); // Ctrl+Z takes back annotation edits too
    m_tool = new AnnotationTool(timeline, m_annotations, this);
    m_session = new AnnotationSession(m_annotations, this);
    connect(m_session, &AnnotationSession::saveFailed, this,
            [this](const QString& error) { m_window->statusBar()->showMessage(error, 8000); });

    m_charts = new StepChartsPanel(window);
    m_chartsDock = new QDockWidget(window);
    m_chartsDock->setObjectName(QStringLiteral("chartsDock"));
    m_chartsDock->setWidget(m_charts);
    m_chartsDock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                              QDockWidget::DockWidgetFloatable);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_chartsDock);
    if (auto* steps = window->findChild<QDockWidget*>(QStringLiteral("stepsDock")))
        window->tabifyDockWidget(steps, m_chartsDock);
    if (auto* steps = window->findChild<QDockWidget*>(QStringLiteral("stepsDock")))
        steps->raise();

    connect(m_charts, &StepChartsPanel::recordRowActivated, this, &ReportActions::selectStepFromChart);
    // The charts are the shown session's: a row of another run's step table (a comparison) is not theirs.
    const auto follow = [this](int row) {
        if (m_window->paneSession() == m_window->session())
            m_charts->setCurrentRecordRow(row >= 0 ? std::optional<size_t>(row) : std::nullopt);
    };
    connect(window->stepPanel(), &StepTablePanel::stepSelected, this, follow);
    connect(window->stepPanel(), &StepTablePanel::stepActivated, this, follow);

    createActions();
    window->installEventFilter(this);
    retranslate();
}

ReportActions::~ReportActions() = default;

void ReportActions::createActions()
{
    MainWindow* w = m_window;
    auto make = [w](const char* name, const QKeySequence& key) {
        auto* a = new QAction(w);
        a->setObjectName(QString::fromLatin1(name));
        a->setShortcut(key);
        return a;
    };
    QAction* exportImage = make("exportImage", QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction* copyImage = make("copyImage", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    QAction* exportSteps = make("exportStepTable", QKeySequence());
    QAction* exportKernels = make("exportKernelTable", QKeySequence());
    connect(exportImage, &QAction::triggered, this, &ReportActions::openExportDialog);
    connect(copyImage, &QAction::triggered, this, &ReportActions::copyImage);
    connect(exportSteps, &QAction::triggered, this, [this]() { askTableFile(true); });
    connect(exportKernels, &QAction::triggered, this, [this]() { askTableFile(false); });

    // File menu: after the open actions, before Quit.
    QMenu* file = w->fileMenu();
    QAction* quit = w->action(QStringLiteral("quit"));
    QAction* first = file->insertSeparator(quit);
    file->insertAction(first, exportImage);
    file->insertAction(first, copyImage);
    auto* tables = new QMenu(file);
    tables->setObjectName(QStringLiteral("exportTableMenu"));
    tables->addAction(exportSteps);
    tables->addAction(exportKernels);
    file->insertMenu(first, tables);

    // View: the analysis layers and the charts dock.
    QMenu* view = w->viewMenu();
    view->addSeparator();
    QSettings settings;
    const char* names[] = {"showStageBands", "showCommBrackets", "showCriticalPath", "showAnnotations"};
    TimelineOverlay* overlays[] = {m_bands, m_comm, m_path, m_annotations};
    for (int i = 0; i < 4; ++i) {
        QAction* a = make(names[i], QKeySequence());
        a->setCheckable(true);
        const bool on = settings.value(QLatin1String(kOverlaySettings[i]), true).toBool();
        a->setChecked(on);
        overlays[i]->setVisible(on);
        TimelineOverlay* o = overlays[i];
        const char* key = kOverlaySettings[i];
        connect(a, &QAction::toggled, this, [o, key](bool checked) {
            o->setVisible(checked);
            QSettings().setValue(QLatin1String(key), checked);
        });
        view->addAction(a);
    }
    QAction* chartsToggle = m_chartsDock->toggleViewAction();
    chartsToggle->setObjectName(QStringLiteral("showStepCharts"));
    view->addAction(chartsToggle);

    // Tools › Annotate.
    auto* annotate = new QMenu(w->toolsMenu());
    annotate->setObjectName(QStringLiteral("annotateMenu"));
    w->toolsMenu()->addMenu(annotate);
    m_toolGroup = new QActionGroup(this);
    m_toolGroup->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
    const std::pair<const char*, AnnotationTool::Mode> modes[] = {{"annotateNote", AnnotationTool::Mode::Note},
                                                                  {"annotateArrow", AnnotationTool::Mode::Arrow},
                                                                  {"annotateRange", AnnotationTool::Mode::Range}};
    // Single keys while the timeline has the focus (N note, Shift+A arrow, R range; Esc leaves the tool).
    const QKeySequence keys[] = {QKeySequence(Qt::Key_N), QKeySequence(Qt::SHIFT | Qt::Key_A), QKeySequence(Qt::Key_R)};
    int k = 0;
    for (const auto& [name, mode] : modes) {
        QAction* a = make(name, keys[k++]);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        w->timeline()->addAction(a);
        a->setCheckable(true);
        a->setData(int(mode));
        m_toolGroup->addAction(a);
        annotate->addAction(a);
        const AnnotationTool::Mode m = mode;
        connect(a, &QAction::toggled, this, [this, m](bool on) {
            if (on)
                m_tool->setMode(m);
            else if (m_tool->mode() == m)
                m_tool->setMode(AnnotationTool::Mode::Off);
        });
    }
    connect(m_tool, &AnnotationTool::modeChanged, this, [this](AnnotationTool::Mode mode) {
        for (QAction* a : m_toolGroup->actions())
            a->setChecked(a->data().toInt() == int(mode));
    });
    annotate->addSeparator();
    QAction* edit = make("annotationEdit", QKeySequence());
    QAction* remove = make("annotationDelete", QKeySequence());
    QAction* saveAs = make("annotationsSaveAs", QKeySequence());
    QAction* load = make("annotationsLoad", QKeySequence());
    QAction* clear = make("annotationsClear", QKeySequence());
    connect(edit, &QAction::triggered, m_tool, &AnnotationTool::editSelected);
    connect(remove, &QAction::triggered, m_tool, &AnnotationTool::removeSelected);
    connect(saveAs, &QAction::triggered, this, [this]() {
        const QString file =
            QFileDialog::getSaveFileName(m_window, tr("Save Annotations"), QString(), tr("Annotations (*.json)"));
        if (file.isEmpty())
            return;
        if (const QString error = m_session->saveAs(file); !error.isEmpty())
            QMessageBox::warning(m_window, tr("Save Annotations"), error);
    });
    connect(load, &QAction::triggered, this, [this]() {
        const QString file =
            QFileDialog::getOpenFileName(m_window, tr("Load Annotations"), QString(), tr("Annotations (*.json)"));
        if (file.isEmpty())
            return;
        if (const QString error = m_session->loadFrom(file); !error.isEmpty())
            QMessageBox::warning(m_window, tr("Load Annotations"), error);
    });
    connect(clear, &QAction::triggered, this, [this]() {
        if (m_annotations->count() == 0)
            return;
        if (QMessageBox::question(m_window, tr("Clear Annotations"),
                                  tr("Remove all %n annotation(s) of this profile?", nullptr,
                                     m_annotations->count())) != QMessageBox::Yes)
            return;
        m_annotations->removeAll(); // one step of Ctrl+Z
    });
    for (QAction* a : {edit, remove, saveAs, load, clear})
        annotate->addAction(a);
    w->toolsMenu()->menuAction()->setVisible(true);
}

void ReportActions::retranslate()
{
    auto set = [this](const char* name, const QString& text, const QString& tip = {}) {
        if (QAction* a = m_window->action(QString::fromLatin1(name))) {
            a->setText(text);
            a->setStatusTip(tip);
            a->setToolTip(tip.isEmpty() ? QString(text).remove(QLatin1Char('&')) : tip);
        }
    };
    set("exportImage", tr("&Export Image…"),
        tr("Save the current view or a step as PNG, SVG or PDF with its analyses, legend and annotations"));
    set("copyImage", tr("Copy &Image"), tr("Copy the current view as an image to the clipboard"));
    set("exportStepTable", tr("&Step Table…"), tr("Save the step table as shown (CSV or Markdown)"));
    set("exportKernelTable", tr("&Kernel Table…"), tr("Save the kernel/event table as shown (CSV or Markdown)"));
    set("showStageBands", tr("Stage &Bands"), tr("Draft, verify, accept and commit bands of each step"));
    set("showCommBrackets", tr("&Communication Brackets"),
        tr("Each communication operation from issue to wait; the exposed wait in red"));
    set("showCriticalPath", tr("Critical &Path"), tr("Outline the critical path of each step"));
    set("showAnnotations", tr("&Annotations"), tr("Your notes, arrows and highlighted ranges"));
    set("annotateNote", tr("Add &Note"), tr("Click on a lane to place a note"));
    set("annotateArrow", tr("Add &Arrow"), tr("Drag from one place to another to draw an arrow"));
    set("annotateRange", tr("Highlight &Range"), tr("Drag over a time range (Shift: only the lane)"));
    set("annotationEdit", tr("&Edit Selected Annotation…"));
    set("annotationDelete", tr("&Delete Selected Annotation"));
    set("annotationsSaveAs", tr("&Save Annotations As…"));
    set("annotationsLoad", tr("&Load Annotations…"));
    set("annotationsClear", tr("&Clear All Annotations…"));
    if (auto* menu = m_window->findChild<QMenu*>(QStringLiteral("exportTableMenu")))
        menu->setTitle(tr("Export &Table"));
    if (auto* menu = m_window->findChild<QMenu*>(QStringLiteral("annotateMenu")))
        menu->setTitle(tr("&Annotate"));
    m_chartsDock->setWindowTitle(tr("Step Charts"));
}

bool ReportActions::eventFilter(QObject* watched, QEvent* event)
{
    // (The type first: QPointer<MainWindow>::data() casts, and from ~MainWindow the object is no longer one.)
    if (event->type() == QEvent::LanguageChange && watched == static_cast<QObject*>(m_window.data()))
        retranslate();
    return false;
}

void ReportActions::setSession(std::shared_ptr<ProfileSession> session)
{
    if (m_dialog)
        m_dialog->close();
    disconnect(m_analyses, nullptr, this, nullptr);
    m_shown = std::move(session);
    m_analyses = m_shown ? m_shown->analyses() : m_noAnalyses;
    for (StepAnalysisOverlay* o : std::initializer_list<StepAnalysisOverlay*>{m_bands, m_comm, m_path})
        o->setAnalyses(m_analyses);
    // Once the steps are analysed the step table's anomaly flags name what the timeline measured.
    connect(m_analyses, &StepAnalyses::analysesReady, this, &ReportActions::nameAnomalyCauses);
    if (m_analyses->ready())
        nameAnomalyCauses();
    else
        m_analyses->computeInBackground();
    if (const QString error = m_session->open(m_shown.get()); !error.isEmpty())
        m_window->statusBar()->showMessage(error, 10000);
    m_charts->setData(m_shown ? m_shown->stepRecords() : nullptr, m_analyses);
    m_tool->setMode(AnnotationTool::Mode::Off);
}

void ReportActions::nameAnomalyCauses()
{
    nameAnomalyCausesFrom(m_analyses);
}

void ReportActions::nameAnomalyCausesFrom(const StepAnalyses* analyses)
{
    StepTableModel* model = m_window->stepPanel()->model();
    const StepRecordSet* set = model->stepRecords();
    if (!set || !analyses || analyses->profile() == nullptr || analyses->profile()->stepRecords.get() != set)
        return;
    std::vector<const StepAnalysis*> byRow(set->rows.size(), nullptr);
    for (size_t i = 0; i < analyses->stepCount(); ++i)
        if (analyses->step(i).row < byRow.size())
            byRow[analyses->step(i).row] = analyses->analysis(i);
    model->setAnomalyAnalyses(std::move(byRow));
}

void ReportActions::selectStepFromChart(size_t row)
{
    m_window->stepPanel()->selectSourceRow(int(row));
    m_window->showStep(int(row), false);
    m_charts->setCurrentRecordRow(row);
}

void ReportActions::openExportDialog()
{
    if (!m_window->profile())
        return;
    if (m_dialog)
        m_dialog->close();
    m_dialog = new ExportDialog(m_window->timeline(), m_analyses, m_annotations, m_window);
    m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog->setObjectName(QStringLiteral("exportDialog"));
    // A step selected in the table is offered first.
    const int row = m_window->stepPanel()->currentSourceRow();
    if (row >= 0)
        if (const std::optional<size_t> step = m_analyses->stepOfRecordRow(size_t(row)))
            m_dialog->setStep(*step);
    m_dialog->setSource(ExportDialog::Source::CurrentView);
    m_dialog->open();
}

void ReportActions::copyImage()
{
    if (!m_window->profile())
        return;
    m_window->timeline()->selection()->setHovered({});
    const double dpr = m_window->devicePixelRatioF();
    ExportDialog::copyViewToClipboard(*m_window->timeline(), m_analyses, dpr > 1 ? dpr : 2.0);
    m_window->statusBar()->showMessage(tr("Copied the view to the clipboard"), 4000);
}

QString ReportActions::exportStepTable(const QString& path) const
{
    return exportTableToFile(*m_window->stepPanel()->table()->model(), tableFormatForPath(path), path);
}

QString ReportActions::exportKernelTable(const QString& path) const
{
    return exportTableToFile(*m_window->eventTable()->table()->model(), tableFormatForPath(path), path);
}

void ReportActions::askTableFile(bool steps)
{
    const QString title = steps ? tr("Export Step Table") : tr("Export Kernel Table");
    const QString file =
        QFileDialog::getSaveFileName(m_window, title,
                                     QDir(ExportDialog::defaultFolder())
                                         .filePath(steps ? QStringLiteral("steps.csv") : QStringLiteral("kernels.csv")),
                                     tr("CSV (*.csv);;Markdown (*.md)"));
    if (file.isEmpty())
        return;
    const QString error = steps ? exportStepTable(file) : exportKernelTable(file);
    if (!error.isEmpty())
        QMessageBox::warning(m_window, title, error);
    else {
        ExportDialog::rememberFolderOf(file);
        m_window->statusBar()->showMessage(tr("Wrote %1").arg(file), 4000);
    }
}

} // namespace dspark::ui
