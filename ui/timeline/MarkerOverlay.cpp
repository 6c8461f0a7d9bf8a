#include "timeline/MarkerOverlay.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>

namespace dspark::ui {

void MarkerOverlay::setIntervals(std::vector<Interval> intervals)
{
    m_intervals = std::move(intervals);
    Q_EMIT changed();
}

void MarkerOverlay::paint(QPainter& p, const OverlayContext& ctx)
{
    const QRectF area = ctx.eventArea;
    for (const Interval& in : m_intervals) {
        if (in.endNs < ctx.visibleStartNs || in.startNs > ctx.visibleEndNs)
            continue;
        const double xa = std::max(area.left() - 1, ctx.x(in.startNs));
        const double xb = std::min(area.right() + 1, std::max(xa + 1, ctx.x(in.endNs)));
        QColor band = in.color;
        band.setAlpha(38);
        p.fillRect(QRectF(xa, area.top(), xb - xa, area.height()), band);
        QColor edge = in.color;
        edge.setAlpha(200);
        p.setPen(QPen(edge, 1, Qt::DashLine));
        p.drawLine(QPointF(xa, area.top()), QPointF(xa, area.bottom()));
        p.drawLine(QPointF(xb, area.top()), QPointF(xb, area.bottom()));
        if (!in.caption.isEmpty()) {
            QFont f = ctx.timeline.style.rulerFont;
            f.setBold(true);
            p.setFont(f);
            const QFontMetricsF fm(f);
            const double w = fm.horizontalAdvance(in.caption) + 10;
            const double left = std::clamp(xa + 2, area.left(), std::max(area.left(), area.right() - w));
            const QRectF box(left, area.top() + 2, w, fm.height() + 2);
            p.fillRect(box, edge);
            p.setPen(Qt::white);
            p.drawText(box, Qt::AlignCenter, in.caption);
        }
    }
}

} // namespace dspark::ui
