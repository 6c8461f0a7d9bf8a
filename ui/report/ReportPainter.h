#pragma once

#include "analysis/IntervalSet.h"
#include "timeline/LaneLayout.h"
#include "timeline/TimelineContext.h"
#include "timeline/TimelineOverlay.h"
#include "timeline/TimelineRenderer.h"

#include <QColor>
#include <QFont>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <vector>

class QPainter;

namespace dspark::ui {

// The text block above an exported timeline: a title line (profile, rank, forward_ct, bs, verify
// tokens, step wall, effective TPOT), detail lines, and a warning line (the step's anomaly).
struct ReportHeader {
    QString title;
    QStringList details;
    QString warning;
};

// One entry of the legend under an exported timeline.
struct LegendItem {
    enum class Swatch { Band, Hatch, BackHatch, Bar, Outline, Dot }; // BackHatch: lines falling (\\)
    Swatch swatch = Swatch::Band;
    QColor color;
    QString label;
};

// One row under the timeline of a figure, on the timeline's time axis: coloured intervals (with an
// optional caption inside each), a label in the name column and a total at the right.
struct SummaryRow {
    struct Piece {
        Interval interval;
        QColor color;
        QString caption;
    };
    QString label;
    QString total;
    std::vector<Piece> pieces;
    TimeNs totalNs = 0;
};

// Paints a report page: header, the timeline (time axis, lane names, lanes, overlays — through the
// same TimelineRenderer as the window) and a legend, into any paint device (image, SVG, PDF). It
// reads the context, layout and overlays it is given and owns none of them.
class ReportPainter {
public:
    ReportPainter(const TimelineContext& context, const LaneLayout& layout);

    ReportHeader header;
    std::vector<LegendItem> legend;
    std::vector<SummaryRow> summary;
    std::vector<TimelineOverlay*> overlays;
    TimeNs startNs = 0;
    TimeNs endNs = 1;
    bool allRows = true; // every row from the top; false: from `scrollY` (the window's current view)
    double scrollY = 0;

    // Fonts of the header and legend (CJK-capable families, so translated and Chinese names render).
    static QFont reportFont(int pixelSize, bool bold = false);

    double headerHeight(double width) const;
    double legendHeight(double width) const;
    double summaryHeight() const;
    // Where summary row i is painted on a page of `size` (tests read the figure's pixels there).
    QRectF summaryRowRect(const QSizeF& size, size_t i) const;
    // Height that shows header, every row of the layout and the legend at `width`.
    double preferredHeight(double width) const;
    void paint(QPainter& p, const QSizeF& size) const;

private:
    double paintHeader(QPainter& p, double width, bool dryRun) const;
    double paintLegend(QPainter& p, double top, double width, bool dryRun) const;
    void paintSummary(QPainter& p, double top, double width) const;
    double timelineHeight(const QSizeF& size, double headerH) const;

    const TimelineContext& m_ctx;
    const LaneLayout& m_layout;
};

} // namespace dspark::ui
