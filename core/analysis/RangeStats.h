#pragma once

#include "model/Profile.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace dspark {

// The kinds of lanes a range table keeps apart (one row per name and group).
enum class StatsGroup : uint8_t {
    Device, // NPU / GPU stream tasks
    Host,   // host calls (Python, CANN API, PyTorch ops, CPU threads)
    Comm,   // communication lanes (HCCL ops, planes)
    Other,  // the profiler's Overlap Analysis track
};
constexpr int kStatsGroupCount = 4;
StatsGroup statsGroupOf(LaneKind kind);      // counter lanes: Other (they are summed apart)
const char* statsGroupKey(StatsGroup group); // "device", "host", "comm", "other"
QString statsGroupLabel(StatsGroup group);   // translated

// A range of the timeline over some lanes. An event belongs to it when it overlaps [fromNs, toNs);
// every time figure counts only its part inside the range.
struct RangeQuery {
    TimeNs fromNs = 0;
    TimeNs toNs = 0;
    std::vector<uint32_t> lanes; // Profile::lanes indices; empty = every lane
    int rankIndex = -1;          // with `lanes` empty: only this rank's lanes (-1: all)
};

// One name of one lane group in the range (times in ns, clipped to the range).
struct RangeNameStats {
    uint32_t nameId = 0;
    StatsGroup group = StatsGroup::Host;
    uint64_t count = 0;
    TimeNs totalNs = 0;
    // total − the parts of its nested children (on the same lane) inside it; never below 0.
    TimeNs selfNs = 0;
    TimeNs minNs = 0;
    TimeNs maxNs = 0;
    double meanNs() const { return count ? static_cast<double>(totalNs) / static_cast<double>(count) : 0.0; }
};

// One series of a counter lane over the range. A sample's value holds until the series' next sample
// (the last one until the range's end).
struct RangeCounterStats {
    uint32_t lane = 0;
    uint32_t nameId = 0;
    uint64_t samples = 0; // samples in effect during the range (the one before it included)
    double min = 0, max = 0;
    double mean = 0;      // time-weighted over the covered part
    double integral = 0;  // Σ value × seconds
    TimeNs coveredNs = 0; // part of the range a value was in effect
};

struct RangeStats {
    TimeNs fromNs = 0, toNs = 0;
    std::vector<RangeNameStats> rows; // by group, then total descending
    std::vector<RangeCounterStats> counters;
    TimeNs rangeNs() const { return toNs > fromNs ? toNs - fromNs : 0; }
    // Share of the range's length (can pass 1 when instances run in parallel on several lanes).
    double shareOf(const RangeNameStats& row) const
    {
        return rangeNs() ? static_cast<double>(row.totalNs) / static_cast<double>(rangeNs()) : 0.0;
    }
};

// The first start and the last end of the profile's events, counter samples and the profiler's Overlap
// Analysis track left out (they can span a whole mostly empty session): what the first view fits.
// {0, 0} when there is no such event.
std::pair<TimeNs, TimeNs> eventExtentNs(const Profile& profile);

// Aggregates every event of the query's lanes in the range: one pass over each lane's events in
// the range (binary-searched), accumulated by interned name id into flat arrays.
RangeStats computeRangeStats(const Profile& profile, const RangeQuery& query);

// The events named `nameId` on lanes of `group` in the range, longest first (whole durations; ties
// in time order).
std::vector<EventRef> rangeInstances(const Profile& profile, const RangeQuery& query, uint32_t nameId,
                                     StatsGroup group);

} // namespace dspark
