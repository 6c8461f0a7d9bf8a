#include "overlays/CaptionPainter.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>

namespace dspark::ui {

CaptionPainter::CaptionPainter(const QFont& font, int maxLines) : m_font(font), m_maxLines(maxLines)
{
    m_height = QFontMetricsF(m_font).height() + 3;
}

double CaptionPainter::width(const QString& text) const
{
    return QFontMetricsF(m_font).horizontalAdvance(text) + 8;
}

QRectF CaptionPainter::paint(QPainter& p, const QString& text, double left, double top, double minX, double maxX,
                             const QColor& fill, const QColor& textColor)
{
    const double w = width(text);
    if (w > maxX - minX)
        return {};
    const double x = std::clamp(left, minX, maxX - w);
    for (int line = 0; line < m_maxLines; ++line) {
        const QRectF box(x, top + line * (m_height + 1), w, m_height);
        const bool free = std::none_of(m_placed.begin(), m_placed.end(),
                                       [&](const QRectF& r) { return r.intersects(box.adjusted(-2, 0, 2, 0)); });
        if (!free)
            continue;
        m_placed.push_back(box);
        p.save();
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawRoundedRect(box, 2.5, 2.5);
        p.setFont(m_font);
        p.setPen(textColor);
        p.drawText(box, Qt::AlignCenter, text);
        p.restore();
        return box;
    }
    return {};
}

} // namespace dspark::ui
