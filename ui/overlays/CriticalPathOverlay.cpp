#include "overlays/CriticalPathOverlay.h"

#include "overlays/AnalysisPalette.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace dspark::ui {

static void arrowHead(QPainter& p, QPointF from, QPointF to, const QColor& color)
{
    const double dx = to.x() - from.x(), dy = to.y() - from.y();
    const double len = std::hypot(dx, dy);
    if (len < 1)
        return;
    const double ux = dx / len, uy = dy / len;
    const double size = 4.5;
    const QPointF head[3] = {to, to - QPointF(ux * size * 1.6 - uy * size, uy * size * 1.6 + ux * size),
                             to - QPointF(ux * size * 1.6 + uy * size, uy * size * 1.6 - ux * size)};
    p.save();
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawPolygon(head, 3);
    p.restore();
}

// The path reads like a route drawn over the lanes: a bold line along the top edge of every piece of
// work on it (so the events' own colours stay visible), thin joins across the gaps of a lane, arrows
// where it changes lane, and an outline around pieces wide enough to be told apart.
void CriticalPathOverlay::paint(QPainter& p, const OverlayContext& ctx)
{
    m_lastPieces = 0;
    m_lastOutlines = 0;
    m_lastJumps = 0;
    const std::vector<size_t> steps = stepsToDraw(ctx, kDetailMinStepPx);
    if (steps.empty())
        return;
    const QColor color = AnalysisPalette::criticalPath();
    QColor join = color;
    join.setAlpha(210);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setBrush(Qt::NoBrush);
    static constexpr double kOutlineMinPx = 6;

    for (size_t i : steps) {
        const StepAnalysis& a = *analyses()->analysis(i);
        bool havePrevious = false;
        QRectF previous;
        double lineRight = -1e9, lineY = -1e9; // the path line drawn last (merging per pixel)
        for (const PathHop& hop : a.criticalPath.hops) {
            if (!hop.event.valid())
                continue; // a plain gap: the join to the next piece crosses it
            if (hop.interval.endNs < ctx.visibleStartNs - 1 || hop.interval.startNs > ctx.visibleEndNs + 1) {
                havePrevious = false;
                continue;
            }
            const std::optional<QRectF> r = ctx.eventRect(hop.event);
            if (!r)
                continue;
            // The charged part of the event (a blocked wait only from when its stream reached it).
            const double xa = std::max(r->left(), ctx.x(hop.interval.startNs));
            const double xb = std::max(xa + 1, std::min(r->right(), ctx.x(hop.interval.endNs)));
            const QRectF box(xa, r->top(), xb - xa, r->height());
            const double y = box.top() + 1.5;
            ++m_lastPieces;
            if (havePrevious) {
                const QPointF from(previous.right(), previous.top() + 1.5);
                const QPointF to(box.left(), y);
                if (std::fabs(from.y() - to.y()) > 1) {
                    p.setPen(QPen(join, 1.4));
                    p.drawLine(from, to);
                    arrowHead(p, from, to, join);
                    ++m_lastJumps;
                } else if (to.x() - from.x() > 1.5) {
                    p.setPen(QPen(join, 1.2, Qt::DotLine));
                    p.drawLine(from, to);
                }
            }
            if (y != lineY || box.right() > lineRight + 0.5) {
                p.setPen(QPen(color, 3.0, Qt::SolidLine, Qt::FlatCap));
                p.drawLine(QPointF(std::max(box.left(), y == lineY ? lineRight : box.left()), y),
                           QPointF(box.right(), y));
                lineRight = box.right();
                lineY = y;
            }
            if (box.width() >= kOutlineMinPx) {
                p.setPen(QPen(color, 1.5));
                p.drawRect(box.adjusted(0.75, 0.75, -0.75, -0.75));
                ++m_lastOutlines;
            }
            previous = box;
            havePrevious = true;
        }
    }
}

} // namespace dspark::ui
