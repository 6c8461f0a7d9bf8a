#include "analysis/OverlapAnalysis.h"

#include <algorithm>
#include <limits>
#include <map>

namespace dspark {

std::vector<DeviceActivity> collectDeviceActivity(const Profile& profile)
{
    // (rank, device) → gathered intervals. std::map keeps the output in rank then device order.
    std::map<std::pair<int, int>, std::pair<std::vector<Interval>, std::vector<Interval>>> byDevice;
    std::map<int, int> deviceOfRank; // the device of a rank's device lanes (first seen)
    for (const Lane& lane : profile.lanes)
        if (isDeviceLane(lane.info.kind)) {
            byDevice[{lane.info.rankIndex, lane.info.deviceId}];
            deviceOfRank.emplace(lane.info.rankIndex, lane.info.deviceId);
        }

    for (const Lane& lane : profile.lanes) {
        const bool device = isDeviceLane(lane.info.kind);
        int deviceId = lane.info.deviceId;
        if (!device && deviceId < 0) {
            auto it = deviceOfRank.find(lane.info.rankIndex);
            if (it == deviceOfRank.end())
                continue;
            deviceId = it->second;
        }
        auto slot = byDevice.find({lane.info.rankIndex, deviceId});
        if (slot == byDevice.end())
            continue;
        for (size_t i = 0; i < lane.size(); ++i) {
            const EventKind k = lane.kind[i];
            if (k == EventKind::Kernel && device)
                slot->second.first.push_back({lane.startNs[i], lane.endNs(i)});
            else if (k == EventKind::CommOp)
                slot->second.second.push_back({lane.startNs[i], lane.endNs(i)});
        }
    }

    std::vector<DeviceActivity> out;
    out.reserve(byDevice.size());
    for (auto& [key, lists] : byDevice) {
        DeviceActivity a;
        a.rankIndex = key.first;
        a.deviceId = key.second;
        a.computing = IntervalSet::fromUnsorted(std::move(lists.first));
        a.communication = IntervalSet::fromUnsorted(std::move(lists.second));
        out.push_back(std::move(a));
    }
    return out;
}

DeviceOverlap overlapOf(const DeviceActivity& activity, TimeNs t0, TimeNs t1)
{
    DeviceOverlap o;
    o.rankIndex = activity.rankIndex;
    o.deviceId = activity.deviceId;
    o.computing = activity.computing.clipped(t0, t1);
    o.communication = activity.communication.clipped(t0, t1);
    o.communicationNotOverlapped = o.communication.minus(o.computing);
    const IntervalSet busy = o.computing.unitedWith(o.communication);
    if (!busy.empty()) {
        o.span = {busy.firstNs(), busy.lastNs()};
        IntervalSet whole;
        whole.addSorted(o.span.startNs, o.span.endNs);
        o.free = whole.minus(busy);
    }
    return o;
}

DeviceOverlap overlapOf(const DeviceActivity& activity)
{
    return overlapOf(activity, std::numeric_limits<TimeNs>::min(), std::numeric_limits<TimeNs>::max());
}

std::vector<DeviceOverlap> computeOverlap(const Profile& profile)
{
    std::vector<DeviceOverlap> out;
    for (const DeviceActivity& a : collectDeviceActivity(profile))
        out.push_back(overlapOf(a));
    return out;
}

} // namespace dspark
