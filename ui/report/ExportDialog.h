#pragma once

#include "report/ImageExport.h"
#include "report/ReportContent.h"

#include <QDialog>
#include <QPointer>

#include <optional>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace dspark {
class StepAnalyses;
}

namespace dspark::ui {

class AnnotationOverlay;
class TimelineWidget;

// File › Export…: the current view or a chosen step to PNG / SVG / PDF (or the clipboard), with the
// header, lane names, analysis layers, legend, time axis and the user's annotations; size, scale
// (high-DPI) and, for a step, a lane name pattern. Shows a preview of what will be written.
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    ExportDialog(TimelineWidget* timeline, StepAnalyses* analyses, AnnotationOverlay* annotations,
                 QWidget* parent = nullptr);

    enum class Source { CurrentView, Step };
    void setSource(Source source);
    // Selects a step (StepAnalyses index) in the step list and switches to it.
    void setStep(size_t step);
    void setPath(const QString& path);
    void setImageSize(int width, int height); // height 0: fit every lane
    void setScale(double scale);
    void setLanePattern(const QString& pattern);
    void setParts(const ReportParts& parts);

    // Where exports are proposed: the last folder written to, else Pictures (created when missing),
    // else the first writable of home, the current and the temporary folder.
    static QString defaultFolder();
    // Records the folder of a file just written, for the next proposal.
    static void rememberFolderOf(const QString& file);

    // Writes the file with the current choices; empty on success, else the error (also shown).
    QString exportNow();
    // The image the current choices produce (preview, clipboard).
    QImage image(double scale) const;
    QString path() const;
    QLabel* previewLabel() const { return m_preview; }

    // Puts the image of the current view on the clipboard (Edit › Copy Image).
    static void copyViewToClipboard(const TimelineWidget& timeline, const StepAnalyses* analyses, double scale);

private:
    void updateControls();
    void updatePreview();
    void browse();
    ReportParts parts() const;

    QPointer<TimelineWidget> m_timeline;
    QPointer<StepAnalyses> m_analyses;
    QPointer<AnnotationOverlay> m_annotations;

    QRadioButton* m_viewButton = nullptr;
    QRadioButton* m_stepButton = nullptr;
    QComboBox* m_stepBox = nullptr;
    QCheckBox* m_allLanes = nullptr;
    QLineEdit* m_lanes = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
    QDoubleSpinBox* m_scale = nullptr;
    QCheckBox* m_bands = nullptr;
    QCheckBox* m_comm = nullptr;
    QCheckBox* m_path = nullptr;
    QCheckBox* m_notes = nullptr;
    QCheckBox* m_legend = nullptr;
    QLineEdit* m_file = nullptr;
    QLabel* m_preview = nullptr;
    QLabel* m_status = nullptr;
};

} // namespace dspark::ui
