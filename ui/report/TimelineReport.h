#pragma once

#include "report/ImageExport.h"
#include "report/ReportContent.h"
#include "report/ReportPainter.h"
#include "session/AnnotationSet.h"
#include "session/StepAnalyses.h"
#include "timeline/LaneLayout.h"
#include "timeline/TimelineContext.h"

#include <QObject>
#include <QRegularExpression>

#include <memory>
#include <optional>

namespace dspark::ui {

class AnnotationOverlay;
class CommBracketOverlay;
class CriticalPathOverlay;
class StageBandOverlay;

// A report of one step (or of a time range) composed without any widget: its own timeline context,
// lane layout and analysis overlays, so it runs headless (`dspark-timeline export`) as well as from
// the Export dialog. Lanes shown: those of the step's rank that have events in the shown range (the
// name pattern narrows them further); counters only when the pattern asks for them.
class TimelineReport : public QObject {
    Q_OBJECT
public:
    explicit TimelineReport(StepAnalyses* analyses, QObject* parent = nullptr);
    ~TimelineReport() override;

    void setParts(const ReportParts& parts);
    const ReportParts& parts() const { return m_parts; }
    // Case-insensitive regular expression matched against "<process> / <lane name>" (e.g.
    // "Stream|Python"); empty = the default selection. Returns an error for a bad pattern.
    QString setLanePattern(const QString& pattern);
    void setAnnotations(const AnnotationSet& annotations);
    void setStyle(const TimelineStyle& style);

    // Shows step i of the analyses (computed now when needed): its window with a small margin.
    void showStep(size_t step);
    // Shows [startNs, endNs) of the whole profile (every rank); no step header.
    void showRange(TimeNs startNs, TimeNs endNs);

    // Narrows (or widens) the shown range after showStep / showRange, keeping the header and the
    // focused step: a detail of a step. Lanes are chosen again for the new range.
    void setShownRange(TimeNs startNs, TimeNs endNs);

    size_t shownLaneCount() const;
    TimeNs startNs() const { return m_painter->startNs; }
    TimeNs endNs() const { return m_painter->endNs; }
    const ReportHeader& header() const { return m_painter->header; }
    const std::vector<LegendItem>& legend() const { return m_painter->legend; }
    const std::vector<SummaryRow>& summary() const { return m_painter->summary; }
    QRectF summaryRowRect(const QSizeF& size, size_t i) const { return m_painter->summaryRowRect(size, i); }
    const LaneLayout& layout() const { return *m_layout; }
    // Size at `width` that shows every selected lane (height = header + rows + legend).
    QSize preferredSize(int width) const;

    void paint(QPainter& painter, const QSizeF& size) const;
    // Writes the report; a height of 0 fits every lane. Returns an error naming the file, or empty.
    QString exportTo(const QString& path, ImageFormat format, QSize size, double scale) const;
    QImage toImage(QSize size, double scale) const;

    StageBandOverlay* stageBands() const { return m_bands; }
    CommBracketOverlay* commBrackets() const { return m_comm; }
    CriticalPathOverlay* criticalPath() const { return m_path; }
    AnnotationOverlay* annotations() const { return m_annotations; }

private:
    void resetProfile();
    void selectLanes(int traceRank);
    void applyParts();

    StepAnalyses* m_analyses;
    TimelineContext m_ctx;
    LaneLayout* m_layout;
    std::unique_ptr<ReportPainter> m_painter;
    StageBandOverlay* m_bands;
    CommBracketOverlay* m_comm;
    CriticalPathOverlay* m_path;
    AnnotationOverlay* m_annotations;
    ReportParts m_parts;
    QRegularExpression m_lanePattern;
    std::optional<size_t> m_step;
    int m_rank = -1;
    const Profile* m_profileSeen = nullptr;
};

} // namespace dspark::ui
