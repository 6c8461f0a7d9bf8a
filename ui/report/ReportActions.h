#pragma once

#include "model/Profile.h"
#include "report/ExportDialog.h" // complete type for QPointer<ExportDialog> in every TU (moc)

#include <QObject>
#include <QPointer>

#include <memory>

class QAction;
class QActionGroup;
class QDockWidget;

namespace dspark {
class ProfileSession;
class StepAnalyses;
} // namespace dspark

namespace dspark::ui {

class AnnotationOverlay;
class AnnotationSession;
class AnnotationTool;
class CommBracketOverlay;
class CriticalPathOverlay;
class MainWindow;
class StageBandOverlay;
class StepChartsPanel;

// What issues 7 and 8 add to the main window, wired through the window's public parts only:
// - the analyses of the open profile's steps (computed in the background) drawn on the timeline as
//   stage bands, communication brackets and the critical path (View menu toggles);
// - the user's annotations: Tools › Annotate (note, arrow, range; save / load / clear), kept per
//   profile and shown again when the profile is reopened;
// - File › Export Image…, Copy Image, Export Table (step table, kernel table: CSV / Markdown);
// - the Step Charts dock (per-step charts and the breakdown of the selected step), linked to the
//   step table both ways.
class ReportActions : public QObject {
    Q_OBJECT
public:
    explicit ReportActions(MainWindow* window);
    ~ReportActions() override;

    // The window shows another session (null: none). Its analyses are computed in the background.
    void setSession(std::shared_ptr<ProfileSession> session);

    // The analyses of the shown session (an empty set when none is shown).
    StepAnalyses* analyses() const { return m_analyses; }
    StageBandOverlay* stageBands() const { return m_bands; }
    CommBracketOverlay* commBrackets() const { return m_comm; }
    CriticalPathOverlay* criticalPath() const { return m_path; }
    AnnotationOverlay* annotations() const { return m_annotations; }
    AnnotationTool* annotationTool() const { return m_tool; }
    AnnotationSession* annotationSession() const { return m_session; }
    StepChartsPanel* charts() const { return m_charts; }
    QDockWidget* chartsDock() const { return m_chartsDock; }
    // The Export dialog opened by File › Export Image… (null when closed).
    ExportDialog* exportDialog() const { return m_dialog; }

    void openExportDialog();
    void copyImage();
    // Writes the step table / kernel table as shown (rows in their current order); an error or empty.
    QString exportStepTable(const QString& path) const;
    QString exportKernelTable(const QString& path) const;
    // The step table's anomaly causes from `analyses`, when the table shows that run's records (the
    // table follows the panes' session: MainWindow::paneSession).
    void nameAnomalyCausesFrom(const StepAnalyses* analyses);

private:
    void createActions();
    void retranslate();
    void selectStepFromChart(size_t row);
    void nameAnomalyCauses();
    void askTableFile(bool steps);
    bool eventFilter(QObject* watched, QEvent* event) override;

    QPointer<MainWindow> m_window;
    std::shared_ptr<ProfileSession> m_shown;
    StepAnalyses* m_noAnalyses = nullptr; // what analyses() gives while no session is shown
    StepAnalyses* m_analyses = nullptr;
    StageBandOverlay* m_bands = nullptr;
    CommBracketOverlay* m_comm = nullptr;
    CriticalPathOverlay* m_path = nullptr;
    AnnotationOverlay* m_annotations = nullptr;
    AnnotationTool* m_tool = nullptr;
    AnnotationSession* m_session = nullptr;
    StepChartsPanel* m_charts = nullptr;
    QDockWidget* m_chartsDock = nullptr;
    QPointer<ExportDialog> m_dialog;
    QActionGroup* m_toolGroup = nullptr;
};

} // namespace dspark::ui
