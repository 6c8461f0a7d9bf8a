#pragma once

#include "timeline/TimelineOverlay.h"

#include <QColor>
#include <QString>

#include <vector>

namespace dspark::ui {

// Marked time intervals (the selected step's window, the user's Ctrl+drag range): a translucent
// band across all lanes with edges and a caption at the top.
class MarkerOverlay : public TimelineOverlay {
    Q_OBJECT
public:
    struct Interval {
        TimeNs startNs = 0;
        TimeNs endNs = 0;
        QString caption;
        QColor color;
    };
    using TimelineOverlay::TimelineOverlay;

    void paint(QPainter& painter, const OverlayContext& ctx) override;
    void setIntervals(std::vector<Interval> intervals);
    const std::vector<Interval>& intervals() const { return m_intervals; }

private:
    std::vector<Interval> m_intervals;
};

} // namespace dspark::ui
