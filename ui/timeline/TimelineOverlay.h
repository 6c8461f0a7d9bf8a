#pragma once

#include "timeline/TimeScale.h"
#include "timeline/TimelineContext.h"

#include <QObject>
#include <QRectF>

#include <functional>
#include <optional>

class QPainter;

namespace dspark::ui {

// What an overlay gets to paint with, in the painter's coordinates: the visible time range and its
// time→x mapping, the area the lanes' events occupy, and where each lane and event is. The same
// context is built for the window and for exports, so an overlay never knows which one it paints.
struct OverlayContext {
    const TimelineContext& timeline; // profile, style, palette, selection, search state
    const TimeScale& scale;          // time → x
    QRectF eventArea;                // lanes' event area (right of the name column, below the ruler)
    TimeNs visibleStartNs = 0;
    TimeNs visibleEndNs = 0;
    bool exporting = false; // painting an image/PDF rather than the window
    // The row of a lane when it is shown as its own row; nullopt when hidden, collapsed or scrolled
    // out of the painted area.
    std::function<std::optional<QRectF>(uint32_t lane)> laneRect;
    // Where a lane is visible at all: its own row or the header of the collapsed group holding it.
    std::function<std::optional<QRectF>(uint32_t lane)> displayRect;
    // The rectangle of one event (inside its lane row, or across the collapsed group's header).
    std::function<std::optional<QRectF>(EventRef event)> eventRect;
    // Painting the pinned lanes' strip: with pinned lanes overlays are painted twice, once over the
    // pinned strip and once over the scrolling rows; one-off marks (labels) go in the scrolling part.
    bool pinnedRegion = false;

    const Profile* profile() const { return timeline.profile(); }
    double x(TimeNs t) const { return scale.x(t); }
};

// A layer painted above the lanes (stage bands, communication brackets, critical path, flows,
// markers...). Add it with TimelineWidget::addOverlay(); emit changed() when its content changes.
// paint() is called for every frame of the window and for every export, after the lanes, in the
// order the overlays were added; it must only paint inside ctx.eventArea (the painter is clipped
// there) and should touch only what lies in [visibleStartNs, visibleEndNs).
class TimelineOverlay : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    ~TimelineOverlay() override = default;

    virtual void paint(QPainter& painter, const OverlayContext& ctx) = 0;

    bool isVisible() const { return m_visible; }
    void setVisible(bool visible)
    {
        if (visible == m_visible)
            return;
        m_visible = visible;
        Q_EMIT changed();
    }

Q_SIGNALS:
    void changed();

private:
    bool m_visible = true;
};

} // namespace dspark::ui
