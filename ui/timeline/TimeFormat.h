#pragma once

#include "model/Lane.h"

#include <QString>

#include <string_view>

namespace dspark::ui {

// Durations with a unit chosen by magnitude and about four significant digits: "523 ns", "12.35 µs",
// "1.235 ms", "2.346 s".
QString formatDuration(TimeNs ns);
// A value with `decimals` digits after the point in the unit that suits `unitNs` (1, 1e3, 1e6 or 1e9).
QString formatInUnit(TimeNs ns, TimeNs unitNs, int decimals);
// The unit (1, 1e3, 1e6, 1e9 ns) in which a ruler step of `stepNs` reads best.
TimeNs unitForStep(TimeNs stepNs);
// The unit of the ruler's labels: the one a trace declares (its displayTimeUnit: 1 for "ns", 1e6 for
// "ms", 0 when none), else the one that suits the step.
TimeNs rulerUnit(TimeNs stepNs, TimeNs displayUnitNs);
TimeNs displayUnitNs(std::string_view declared);
// Decimals needed to show multiples of `stepNs` in `unitNs` exactly.
int decimalsForStep(TimeNs stepNs, TimeNs unitNs);
// A profile timestamp on the wall clock when it looks like Unix-epoch ns ("15:21:23.700 059 821"),
// else as seconds on the profile's own clock.
QString formatClockTime(TimeNs ns);
// Whether timestamps look like Unix-epoch ns (after 2001-09-09): absolute time is shown as a clock.
bool looksLikeEpochNs(TimeNs ns);

} // namespace dspark::ui
