#pragma once

#include "timeline/LaneLayout.h"
#include "timeline/TimeScale.h"
#include "timeline/TimelineContext.h"
#include "timeline/TimelineOverlay.h"

#include <QRectF>

#include <functional>
#include <optional>
#include <vector>

class QPainter;

namespace dspark::ui {

// Paints the timeline's parts — rows (background, events, name column), the time ruler, overlays —
// for a given time scale into any QPainter. The window's graphics items paint through it, and
// render() paints a whole view into an image, SVG or PDF with exactly the same code.
class TimelineRenderer {
public:
    TimelineRenderer(const TimelineContext& context, const LaneLayout& layout) : m_ctx(context), m_layout(layout) {}

    // One row of the layout in `rect` (full width: name column then events). Events are painted only
    // between clipLeft and clipRight.
    void paintRow(QPainter& p, int row, const QRectF& rect, const TimeScale& scale, double clipLeft,
                  double clipRight) const;
    // The time ruler: adaptive ticks, labels (relative to the profile start or on the clock), the
    // visible span in the name column, and a cursor readout at `cursorNs`.
    void paintRuler(QPainter& p, const QRectF& rect, const TimeScale& scale, std::optional<TimeNs> cursorNs) const;
    // Vertical grid lines at the ruler's major ticks.
    void paintGrid(QPainter& p, const QRectF& rect, const TimeScale& scale) const;

    // Overlay context for rows whose top edge (painter coordinates) is rowTop(row); rows for which
    // rowTop returns nullopt are not shown.
    OverlayContext overlayContext(const TimeScale& scale, const QRectF& eventArea,
                                  std::function<std::optional<double>(int row)> rowTop, bool exporting,
                                  bool pinnedRegion = false) const;
    void paintOverlays(QPainter& p, const OverlayContext& ctx, const std::vector<TimelineOverlay*>& overlays) const;

    // Rank and process headers held at the top of the scrolling rows while their lanes scroll under
    // them: (row index, rectangle of its name cell with y 0 at the top of the pinned rows), outermost
    // first. The window and render() (exports) both draw them.
    struct StickyHeader {
        int row = -1;
        QRectF rect;
    };
    std::vector<StickyHeader> stickyHeaders(double scrollY) const;
    // The name cells of stickyHeaders(scrollY), with y 0 of their rectangles at `rowsTop`.
    void paintStickyHeaders(QPainter& p, double scrollY, double rowsTop, const TimeScale& scale) const;

    struct RenderOptions {
        TimeNs startNs = 0;
        TimeNs endNs = 1;
        double scrollY = 0;   // content y at the top of the scrolling rows
        bool allRows = false; // every row from the top (ignores scrollY); see contentHeight()
        bool withOverlays = true;
        std::optional<TimeNs> cursorNs;
    };
    // Paints ruler, pinned rows, scrolling rows and overlays into `target`, at its size.
    void render(QPainter& p, const QRectF& target, const RenderOptions& options,
                const std::vector<TimelineOverlay*>& overlays) const;
    // Height render() needs to show every row (ruler included).
    double fullHeight() const;

    // Step between labelled ticks: 1, 2 or 5 × 10^k ns, at least `minSpacingPx` apart.
    static TimeNs majorTickStep(double nsPerPx, double minSpacingPx = 90);

private:
    void paintHeaderRow(QPainter& p, const LaneLayout::Row& row, const QRectF& rect, const TimeScale& scale) const;
    void paintLaneLabel(QPainter& p, const LaneLayout::Row& row, const QRectF& labelRect) const;
    void paintFoldMark(QPainter& p, const LaneLayout::Row& row, const QRectF& labelRect, double firstRowCentre,
                       const QFont& small) const;

    const TimelineContext& m_ctx;
    const LaneLayout& m_layout;
};

} // namespace dspark::ui
