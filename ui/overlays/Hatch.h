#pragma once

#include <QColor>
#include <QRectF>

class QPainter;

namespace dspark::ui {

// Diagonal hatching drawn as lines (not a pattern brush: SVG viewers, QtSvg included, do not all
// resolve the <pattern> fills QSvgGenerator writes for Qt::BDiagPattern). `rising`: lines go up to
// the right (/), else down (\).
void fillHatched(QPainter& painter, const QRectF& rect, const QColor& color, bool rising = true, double spacing = 6.0);

} // namespace dspark::ui
