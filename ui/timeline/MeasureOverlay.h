#pragma once

#include "timeline/TimelineOverlay.h"

#include <optional>

namespace dspark::ui {

// A two-point measurement (Shift+click twice on the timeline): lines at both points and a bracket
// between them labelled with the duration in the ruler's unit. A third Shift+click starts a new one;
// Esc clears it. Times are profile ns.
class MeasureOverlay : public TimelineOverlay {
    Q_OBJECT
public:
    using TimelineOverlay::TimelineOverlay;

    // The first point, then the second; a point after the second starts a new measurement.
    void addPoint(TimeNs t);
    void clear();
    bool isEmpty() const { return !m_first; }
    bool isComplete() const { return m_first && m_second; }
    std::optional<TimeNs> first() const { return m_first; }
    std::optional<TimeNs> second() const { return m_second; }
    // |second - first| once both are placed.
    std::optional<TimeNs> durationNs() const;
    // The bracket's label as last painted in the window (tests; empty before).
    QString lastLabel() const { return m_lastLabel; }

    // The duration in the unit of a ruler drawn at `nsPerPx` ("Δ 1.2345 ms"), to about a pixel.
    static QString label(TimeNs durationNs, double nsPerPx, TimeNs declaredUnitNs);

    void paint(QPainter& painter, const OverlayContext& ctx) override;

private:
    std::optional<TimeNs> m_first, m_second;
    QString m_lastLabel;
};

} // namespace dspark::ui
