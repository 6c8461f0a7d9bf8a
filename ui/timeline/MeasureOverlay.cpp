#include "timeline/MeasureOverlay.h"

#include "timeline/TimeFormat.h"
#include "timeline/TimelineRenderer.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace dspark::ui {

static const QColor kMeasureColor(0x0f, 0x76, 0x6e); // teal: apart from selections and markers

void MeasureOverlay::addPoint(TimeNs t)
{
    if (m_first && !m_second)
        m_second = t;
    else {
        m_first = t;
        m_second.reset();
    }
    Q_EMIT changed();
}

void MeasureOverlay::clear()
{
    if (!m_first)
        return;
    m_first.reset();
    m_second.reset();
    m_lastLabel.clear();
    Q_EMIT changed();
}

std::optional<TimeNs> MeasureOverlay::durationNs() const
{
    if (!isComplete())
        return std::nullopt;
    return *m_second >= *m_first ? *m_second - *m_first : *m_first - *m_second;
}

QString MeasureOverlay::label(TimeNs durationNs, double nsPerPx, TimeNs declaredUnitNs)
{
    const TimeNs step = TimelineRenderer::majorTickStep(nsPerPx);
    const TimeNs unit = rulerUnit(step, declaredUnitNs);
    // Digits down to the power of ten just below one pixel: a click is no more precise than that.
    TimeNs resolution = 1;
    while (resolution * 10 <= TimeNs(std::max(1.0, nsPerPx)))
        resolution *= 10;
    return QCoreApplication::translate("MeasureOverlay", "Δ %1")
        .arg(formatInUnit(durationNs, unit, decimalsForStep(resolution, unit)));
}

void MeasureOverlay::paint(QPainter& p, const OverlayContext& ctx)
{
    if (!m_first)
        return;
    const QRectF area = ctx.eventArea;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(QPen(kMeasureColor, 1, Qt::DashLine));
    const double xa = std::round(ctx.x(*m_first)) + 0.5;
    p.drawLine(QPointF(xa, area.top()), QPointF(xa, area.bottom()));
    if (!m_second) {
        p.restore();
        return;
    }
    const double xb = std::round(ctx.x(*m_second)) + 0.5;
    p.drawLine(QPointF(xb, area.top()), QPointF(xb, area.bottom()));
    if (ctx.pinnedRegion) { // the dimension line and its label once, over the scrolling rows
        p.restore();
        return;
    }
    const double left = std::min(xa, xb), right = std::max(xa, xb);
    TimeNs declared = 0;
    if (const Profile* profile = ctx.profile())
        if (const auto it = profile->metadata.find("trace.displayTimeUnit"); it != profile->metadata.end())
            declared = displayUnitNs(it->second);
    const QString text = label(*durationNs(), ctx.scale.nsPerPx(), declared);
    if (!ctx.exporting)
        m_lastLabel = text;
    // A dimension line near the top of the visible lanes, |<—— Δ 1.234 ms ——>|, haloed in white so it
    // reads over headers and events alike; the label sits on it.
    QFont f = ctx.timeline.style.rulerFont;
    f.setBold(true);
    const QFontMetricsF fm(f);
    const double y = std::round(area.top() + fm.height() + 6) + 0.5;
    for (const auto& [color, width] : {std::pair{QColor(Qt::white), 4.0}, std::pair{kMeasureColor, 2.0}}) {
        p.setPen(QPen(color, width, Qt::SolidLine, Qt::FlatCap));
        p.drawLine(QPointF(left, y), QPointF(right, y));
        p.drawLine(QPointF(left, y - 6), QPointF(left, y + 6));
        p.drawLine(QPointF(right, y - 6), QPointF(right, y + 6));
    }
    const double w = fm.horizontalAdvance(text) + 12;
    const double cx = std::clamp((left + right) / 2, area.left() + w / 2, std::max(area.left(), area.right() - w / 2));
    const QRectF box(cx - w / 2, y - fm.height() / 2 - 2, w, fm.height() + 4);
    p.fillRect(box.adjusted(-1, -1, 1, 1), Qt::white);
    p.fillRect(box, kMeasureColor);
    p.setFont(f);
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, text);
    p.restore();
}

} // namespace dspark::ui
