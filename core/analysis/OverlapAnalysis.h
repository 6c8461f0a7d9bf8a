#pragma once

#include "analysis/IntervalSet.h"
#include "model/Profile.h"

#include <vector>

namespace dspark {

// msprof's Overlap Analysis of one device, computed from the raw tasks (not copied from the
// profiler's own "Overlap Analysis" track, so it also works where that track is absent):
//   Computing                      = union of compute-kernel intervals (EventKind::Kernel on device lanes)
//   Communication                  = union of communication-op intervals (EventKind::CommOp)
//   Communication(Not Overlapped)  = Communication − Computing
//   Free                           = [first, last) compute-or-communication task − (Computing ∪ Communication)
struct DeviceOverlap {
    int rankIndex = 0; // Profile::ranks index
    int deviceId = -1;
    IntervalSet computing;
    IntervalSet communication;
    IntervalSet communicationNotOverlapped;
    IntervalSet free;
    Interval span; // first to last compute-or-communication task ({0,0} when none)

    TimeNs computingNs() const { return computing.totalNs(); }
    TimeNs communicationNs() const { return communication.totalNs(); }
    TimeNs communicationNotOverlappedNs() const { return communicationNotOverlapped.totalNs(); }
    TimeNs freeNs() const { return free.totalNs(); }
    TimeNs overlappedNs() const { return communicationNs() - communicationNotOverlappedNs(); }
};

// The compute and communication intervals of one device, gathered once; figures for any window are
// then clips of these sets.
struct DeviceActivity {
    int rankIndex = 0; // Profile::ranks index
    int deviceId = -1;
    IntervalSet computing;
    IntervalSet communication;
};

// One entry per (rank, device) that has device lanes, in rank then device order. Comm lanes without
// a device id belong to their rank's device.
std::vector<DeviceActivity> collectDeviceActivity(const Profile& profile);

// The overlap figures of a device over [t0, t1) (intervals clipped to the window).
DeviceOverlap overlapOf(const DeviceActivity& activity, TimeNs t0, TimeNs t1);
// ... over the whole profile.
DeviceOverlap overlapOf(const DeviceActivity& activity);

// Every device of the profile, over the whole profile.
std::vector<DeviceOverlap> computeOverlap(const Profile& profile);

} // namespace dspark
