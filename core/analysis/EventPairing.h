#pragma once

#include "analysis/TimelineIndex.h"

#include <unordered_map>
#include <vector>

namespace dspark {

// How the record a device EVENT_WAIT waited for was found. No profiler column names the event
// (formats.md §2), so every pair is inferred.
enum class PairMethod : uint8_t {
    None,       // no record fits
    Timing,     // the stream reached the wait before the record completed, and the wait ended right
                // after it: the wait was blocked by that record
    HostOrder,  // the wait was not blocked: the latest record whose host call precedes the wait's call
                // (by the calls' start, else by the tasks' connection ids, which follow call order)
    StreamOrder // neither timing nor host calls tell: the latest completed record not yet waited for
};
const char* pairMethodName(PairMethod method); // "none", "timing", "host_order", "stream_order"

struct WaitPairing {
    EventRef wait;
    EventRef record; // invalid when method == None
    PairMethod method = PairMethod::None;
    bool blocked = false;   // the waiting stream idled in this wait until `record` completed
    bool ambiguous = false; // another record fitted as well
    TimeNs reachedNs = 0;   // when the waiting stream reached the wait (previous task's end,
                            // or the wait's host call end when later; never after the wait)
    TimeNs endNs = 0;       // end of the wait task (the wait was satisfied)
    TimeNs blockedNs() const { return blocked ? endNs - reachedNs : 0; }
};

// Pairs every EVENT_WAIT with the EVENT_RECORD it waited for, per device, in linear time (after one
// sort): blocked waits by timing, the rest by host call order, else by stream order. A record may be
// waited for by several streams, but by each stream at most once.
class EventPairing {
public:
    explicit EventPairing(const TimelineIndex& index);

    // The pairing of a wait, nullptr when `wait` is not an EVENT_WAIT of a device stream.
    const WaitPairing* pairingOf(EventRef wait) const;
    // The waits paired with a record (any stream), in wait start order.
    std::vector<const WaitPairing*> waitsFor(EventRef record) const;
    const std::vector<WaitPairing>& all() const { return m_pairs; }

    // How close after its record a blocked wait must end to be paired by timing.
    static constexpr TimeNs kMaxWakeNs = 5000;

private:
    static uint64_t key(EventRef e) { return (uint64_t(e.lane) << 32) | e.index; }
    std::vector<WaitPairing> m_pairs;                // in (device, wait start) order
    std::unordered_map<uint64_t, uint32_t> m_byWait; // wait → index into m_pairs
    std::unordered_multimap<uint64_t, uint32_t> m_byRecord;
};

} // namespace dspark
