#pragma once

#include "model/Profile.h"

#include <optional>

namespace dspark {

// One step to analyse: a rank and a wall window [startNs, endNs) on the profile's clock. The analyses
// take this instead of step records so that they can run on any window (and be tested without records);
// stepWindows() (StepAnalysis.h) builds them from the aligned DSpark step records.
struct StepWindow {
    int rankIndex = 0;      // Profile::ranks index
    int64_t forwardCt = -1; // -1 when unknown
    TimeNs startNs = 0;     // the step's wall window; the critical path's categories sum to its length
    TimeNs endNs = 0;
    // Device tasks launched inside the window may run after it ends (the device lags the host): they
    // are looked for up to this time. 0 = endNs.
    TimeNs deviceHorizonNs = 0;
    // The record's segment times, for the cross-check of the bands (ms; nullopt = not recorded).
    std::optional<double> stepGpuMs;
    std::optional<double> draftGpuMs;
    std::optional<double> targetVerifyGpuMs;

    TimeNs wallNs() const { return endNs - startNs; }
    TimeNs horizonNs() const { return deviceHorizonNs > endNs ? deviceHorizonNs : endNs; }
};

} // namespace dspark
