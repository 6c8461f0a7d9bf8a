#pragma once

#include "report/ImageExport.h"
#include "report/ReportContent.h"
#include "report/ReportPainter.h"

#include <QImage>

#include <memory>

namespace dspark {
class StepAnalyses;
}

namespace dspark::ui {

class TimelineWidget;

// A report of what the window's timeline shows now: its range, vertical scroll, hidden / pinned /
// collapsed lanes and its overlays (filtered by ReportParts), with a header for the step the view is
// on (a step window covering most of the view) or for the plain range.
class ViewReport {
public:
    ViewReport(const TimelineWidget& timeline, const StepAnalyses* analyses, const ReportParts& parts, bool allLanes);

    // Logical size: the timeline's width, and its height (or every lane with allLanes) plus header
    // and legend.
    QSize preferredSize() const;
    void paint(QPainter& painter, const QSizeF& size) const;
    QString exportTo(const QString& path, ImageFormat format, QSize size, double scale) const;
    QImage toImage(QSize size, double scale) const;
    const ReportHeader& header() const { return m_painter->header; }

private:
    const TimelineWidget& m_timeline;
    std::unique_ptr<ReportPainter> m_painter;
    bool m_allLanes;
};

} // namespace dspark::ui
