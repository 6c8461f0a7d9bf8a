#pragma once

#include "model/Profile.h"

#include <QObject>

namespace dspark::ui {

// What the user picked: one event, the event under the mouse, and a time range (Ctrl+drag). The
// timeline, the details pane, the tables and the overlays listen to it.
class TimelineSelection : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    EventRef event() const { return m_event; }
    void setEvent(EventRef e);
    EventRef hovered() const { return m_hovered; }
    void setHovered(EventRef e);

    bool hasTimeRange() const { return m_rangeEnd > m_rangeStart; }
    TimeNs rangeStartNs() const { return m_rangeStart; }
    TimeNs rangeEndNs() const { return m_rangeEnd; }
    void setTimeRange(TimeNs startNs, TimeNs endNs);
    void clearTimeRange() { setTimeRange(0, 0); }

    void clear();

Q_SIGNALS:
    void eventChanged(dspark::EventRef event);
    void hoveredChanged(dspark::EventRef event);
    void timeRangeChanged(dspark::TimeNs startNs, dspark::TimeNs endNs);

private:
    EventRef m_event;
    EventRef m_hovered;
    TimeNs m_rangeStart = 0;
    TimeNs m_rangeEnd = 0;
};

} // namespace dspark::ui
