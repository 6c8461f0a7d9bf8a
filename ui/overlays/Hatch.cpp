#include "overlays/Hatch.h"

#include <QPainter>

#include <cmath>

namespace dspark::ui {

void fillHatched(QPainter& p, const QRectF& rect, const QColor& color, bool rising, double spacing)
{
    if (rect.width() <= 0 || rect.height() <= 0)
        return;
    p.save();
    p.setClipRect(rect, Qt::IntersectClip);
    p.setPen(QPen(color, 1));
    const double h = rect.height();
    // Lines at 45°, anchored to multiples of `spacing` in x so adjacent rects continue the pattern.
    const double first = std::floor((rect.left() - h) / spacing) * spacing;
    for (double x = first; x <= rect.right(); x += spacing) {
        if (rising)
            p.drawLine(QPointF(x, rect.bottom()), QPointF(x + h, rect.top()));
        else
            p.drawLine(QPointF(x, rect.top()), QPointF(x + h, rect.bottom()));
    }
    p.restore();
}

} // namespace dspark::ui
