#pragma once

#include "timeline/TimelineOverlay.h"

namespace dspark::ui {

// Arrows for links between events (host call → device task, framework op → task, HCCL op → sub-task,
// other flows): always for the selected event, and optionally for every link leaving a visible event.
class FlowOverlay : public TimelineOverlay {
    Q_OBJECT
public:
    using TimelineOverlay::TimelineOverlay;

    void paint(QPainter& painter, const OverlayContext& ctx) override;

    bool showAllInView() const { return m_all; }
    void setShowAllInView(bool all);
    // Arrows drawn in the last frame (tests, frame-time readout).
    int lastArrowCount() const { return m_lastCount; }

    static constexpr int kMaxArrows = 4000;

private:
    bool m_all = false;
    int m_lastCount = 0;
};

} // namespace dspark::ui
