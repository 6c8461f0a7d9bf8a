#include "timeline/TimeRuler.h"

#include "timeline/TimelineWidget.h"

#include <QMouseEvent>
#include <QPainter>

#include <cmath>

namespace dspark::ui {

TimeRuler::TimeRuler(TimelineWidget* timeline) : QWidget(timeline), m_timeline(timeline)
{
    setMouseTracking(true);
    setFixedHeight(int(timeline->context().style.rulerHeight));
    setToolTip(tr("Drag to zoom to an interval; double-click to fit everything"));
}

QSize TimeRuler::sizeHint() const
{
    return {400, int(m_timeline->context().style.rulerHeight)};
}

void TimeRuler::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QRectF r(0, 0, width(), height());
    p.fillRect(r, m_timeline->context().style.rulerBackground);
    if (!m_timeline->profile())
        return;
    m_timeline->renderer().paintRuler(p, r, m_timeline->scale(), m_timeline->cursorNs());
    if (m_pressX) {
        const double a = std::min(*m_pressX, m_currentX), b = std::max(*m_pressX, m_currentX);
        p.fillRect(QRectF(a, 0, b - a, height()), QColor(0x1f, 0x6f, 0xd0, 60));
    }
}

void TimeRuler::mouseMoveEvent(QMouseEvent* event)
{
    const double x = event->position().x();
    m_currentX = x;
    if (x >= m_timeline->labelWidth())
        m_timeline->setCursorNs(m_timeline->scale().timeAt(x));
    else
        m_timeline->setCursorNs(std::nullopt);
    if (m_pressX)
        update();
}

void TimeRuler::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && event->position().x() >= m_timeline->labelWidth()) {
        m_pressX = event->position().x();
        m_currentX = *m_pressX;
    }
}

void TimeRuler::mouseReleaseEvent(QMouseEvent* event)
{
    if (!m_pressX)
        return;
    const double a = std::min(*m_pressX, event->position().x());
    const double b = std::max(*m_pressX, event->position().x());
    m_pressX.reset();
    if (b - a >= 4)
        m_timeline->zoom()->setRange(m_timeline->toSharedNs(m_timeline->scale().timeAt(a)),
                                     m_timeline->toSharedNs(m_timeline->scale().timeAtOrAfter(b)));
    update();
}

void TimeRuler::mouseDoubleClickEvent(QMouseEvent*)
{
    m_timeline->zoom()->fitAll();
}

void TimeRuler::leaveEvent(QEvent*)
{
    m_timeline->setCursorNs(std::nullopt);
}

} // namespace dspark::ui
