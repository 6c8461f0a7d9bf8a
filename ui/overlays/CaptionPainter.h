#pragma once

#include <QColor>
#include <QFont>
#include <QRectF>
#include <QString>

#include <vector>

class QPainter;

namespace dspark::ui {

// Small filled caption boxes ("Draft 3.210 ms") that never overlap each other: a caption that would
// cover one placed before it in the same frame moves down a line, up to a few lines, else is dropped.
// One CaptionPainter per painted frame.
class CaptionPainter {
public:
    explicit CaptionPainter(const QFont& font, int maxLines = 3);

    // Paints `text` in a box whose left edge is at `left` (clamped into [minX, maxX − width]) and whose
    // top is `top` (or lower lines). Returns the box, or an empty rect when it did not fit.
    QRectF paint(QPainter& p, const QString& text, double left, double top, double minX, double maxX,
                 const QColor& fill, const QColor& textColor);
    // Width of a caption box for `text`.
    double width(const QString& text) const;
    double height() const { return m_height; }
    // Reserve a rectangle (e.g. something painted by other code) so captions avoid it.
    void reserve(const QRectF& rect) { m_placed.push_back(rect); }

private:
    QFont m_font;
    int m_maxLines;
    double m_height;
    std::vector<QRectF> m_placed;
};

} // namespace dspark::ui
