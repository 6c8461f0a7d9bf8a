#include "timeline/TimelineSelection.h"

#include <utility>

namespace dspark::ui {

void TimelineSelection::setEvent(EventRef e)
{
    if (e == m_event)
        return;
    m_event = e;
    Q_EMIT eventChanged(e);
}

void TimelineSelection::setHovered(EventRef e)
{
    if (e == m_hovered)
        return;
    m_hovered = e;
    Q_EMIT hoveredChanged(e);
}

void TimelineSelection::setTimeRange(TimeNs startNs, TimeNs endNs)
{
    if (endNs < startNs)
        std::swap(startNs, endNs);
    if (startNs == m_rangeStart && endNs == m_rangeEnd)
        return;
    m_rangeStart = startNs;
    m_rangeEnd = endNs;
    Q_EMIT timeRangeChanged(startNs, endNs);
}

void TimelineSelection::clear()
{
    setEvent({});
    setHovered({});
    clearTimeRange();
}

} // namespace dspark::ui
