#pragma once

#include "model/Lane.h"

#include <cmath>

namespace dspark::ui {

// Maps profile time (integer ns) to a horizontal pixel position and back for one painted frame.
// Differences are taken in integer ns before converting to double, so precision does not depend on
// how far the profile clock is from zero (Unix-epoch ns do not fit a double exactly).
struct TimeScale {
    TimeNs startNs = 0; // time at x0
    TimeNs endNs = 1;   // time at x0 + width
    double x0 = 0.0;    // left edge of the event area, in the target's coordinates
    double width = 1.0; // width of the event area in pixels
    double pxPerNs = 1.0;

    TimeScale() = default;
    TimeScale(TimeNs start, TimeNs end, double left, double widthPx)
        : startNs(start), endNs(end > start ? end : start + 1), x0(left), width(widthPx > 1 ? widthPx : 1),
          pxPerNs(width / double(endNs - startNs))
    {
    }

    double x(TimeNs t) const { return x0 + double(t - startNs) * pxPerNs; }
    // Time at a pixel position (rounded down), and the first time whose x is at or right of `xPos`.
    TimeNs timeAt(double xPos) const { return startNs + TimeNs(std::floor((xPos - x0) / pxPerNs)); }
    TimeNs timeAtOrAfter(double xPos) const { return startNs + TimeNs(std::ceil((xPos - x0) / pxPerNs)); }
    double right() const { return x0 + width; }
    TimeNs spanNs() const { return endNs - startNs; }
    double nsPerPx() const { return 1.0 / pxPerNs; }
};

} // namespace dspark::ui
