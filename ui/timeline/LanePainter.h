#pragma once

#include "timeline/TimeScale.h"
#include "timeline/TimelineContext.h"

#include <QPointF>
#include <QRectF>

class QPainter;

namespace dspark::ui {

struct LaneFillBatch; // fills and labels of one lane, batched per colour (LanePainter.cpp)

// Paints the events of one lane for one time scale, touching only the visible range: two binary
// searches per nesting depth find the first and last visible event, and events narrower than a
// pixel are merged into one mark per pixel column by jumping (binary search again) to the first
// event of the next column. A lane of ten million events therefore costs about as much as one of a
// hundred: the work is bounded by the number of pixel columns, not by the number of events.
// Used by the on-screen lane items and by the exporter alike.
class LanePainter {
public:
    LanePainter(const TimelineContext& context, const TimeScale& scale) : m_ctx(context), m_scale(scale) {}

    // `row` is the lane's row; events are drawn between clipLeft and clipRight only.
    void paint(QPainter& p, uint32_t lane, const QRectF& row, double clipLeft, double clipRight) const;

    // Depth-0 events of a lane squeezed into `strip` without labels (summary of a collapsed group).
    void paintSummary(QPainter& p, uint32_t lane, const QRectF& strip, double clipLeft, double clipRight) const;

    // Top of the event row of nesting `depth` in a lane row, and its height.
    double depthTop(const QRectF& row, int depth) const;
    double depthHeight() const { return m_ctx.style.depthRowHeight - 1; }
    // Rectangle of an event (at least 1 px wide) in the coordinates of `row`.
    QRectF eventRect(EventRef e, const QRectF& row) const;
    // The event under `pos` (within a few pixels for events too small to hit), or an invalid ref.
    EventRef hitTest(uint32_t lane, const QRectF& row, QPointF pos) const;
    // How many events of `lane` at `depth` start inside the pixel column at x (a merged mark).
    size_t eventsInColumn(uint32_t lane, int depth, double x) const;
    // Nesting depth under a y position of a lane row.
    int depthAt(uint32_t lane, const QRectF& row, double y) const;

private:
    // Nesting rows a lane row has room for (LaneLayout sizes folded lanes smaller), and the depths it
    // draws: those rows when folded, else all (the deepest in the last row).
    int depthRows(const Lane& lane, const QRectF& row) const;
    int paintedDepths(const Lane& lane, const QRectF& row) const;
    void paintCounter(QPainter& p, uint32_t lane, const QRectF& row, double clipLeft, double clipRight) const;
    template <typename Ids>
    void paintDepth(LaneFillBatch& batch, const Lane& lane, const Ids& ids, size_t kBegin, size_t kEnd, double y,
                    double h, double clipLeft, double clipRight, bool labels = true) const;

    const TimelineContext& m_ctx;
    const TimeScale m_scale; // a copy: painters are often built from a temporary scale
};

} // namespace dspark::ui
