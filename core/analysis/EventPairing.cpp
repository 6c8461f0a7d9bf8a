#include "analysis/EventPairing.h"

#include <algorithm>
#include <map>
#include <unordered_set>

namespace dspark {

const char* pairMethodName(PairMethod method)
{
    switch (method) {
    case PairMethod::None: return "none";
    case PairMethod::Timing: return "timing";
    case PairMethod::HostOrder: return "host_order";
    case PairMethod::StreamOrder: return "stream_order";
    }
    return "none";
}

namespace {

struct RecordEntry {
    TimeNs endNs;
    TimeNs callNs; // start of the record's host call, INT64_MIN when none
    EventRef record;
    EventRef call;
    int64_t corrId; // the source's connection / correlation id (issued in host call order), -1 if none
};

// How far back a search may scan past records that do not qualify (same stream, already consumed).
constexpr int kScanLimit = 256;

} // namespace

EventPairing::EventPairing(const TimelineIndex& index)
{
    const Profile& profile = index.profile();
    for (int rank = 0; rank < index.rankCount(); ++rank) {
        // Group the rank's streams by device.
        std::map<int, std::vector<uint32_t>> byDevice;
        for (uint32_t l : index.lanesOf(rank).device)
            byDevice[profile.lanes[l].info.deviceId].push_back(l);
        for (const auto& [device, lanes] : byDevice) {
            std::vector<RecordEntry> byEnd;
            const size_t firstPair = m_pairs.size();
            for (uint32_t l : lanes) {
                const Lane& lane = profile.lanes[l];
                for (uint32_t i = 0; i < lane.size(); ++i) {
                    const EventRef e{l, i};
                    if (lane.kind[i] == EventKind::EventRecord) {
                        const EventRef call = index.launchOf(e);
                        byEnd.push_back(
                            {lane.endNs(i), call.valid() ? index.start(call) : INT64_MIN, e, call, lane.corrId[i]});
                    } else if (lane.kind[i] == EventKind::EventWait) {
                        WaitPairing p;
                        p.wait = e;
                        TimeNs reached = index.launchReadyNs(e);
                        const EventRef prev = index.previousOnStream(e);
                        if (prev.valid())
                            reached = std::max(reached, index.end(prev));
                        if (reached == INT64_MIN)
                            reached = lane.startNs[i];
                        p.reachedNs = std::min(reached, lane.startNs[i]);
                        p.endNs = lane.endNs(i);
                        m_pairs.push_back(p);
                    }
                }
            }
            std::sort(byEnd.begin(), byEnd.end(), [](const RecordEntry& a, const RecordEntry& b) {
                return a.endNs != b.endNs ? a.endNs < b.endNs : a.record < b.record;
            });
            std::vector<RecordEntry> byCall;
            for (const RecordEntry& r : byEnd)
                if (r.call.valid())
                    byCall.push_back(r);
            std::stable_sort(byCall.begin(), byCall.end(),
                             [](const RecordEntry& a, const RecordEntry& b) { return a.callNs < b.callNs; });
            std::vector<RecordEntry> byCorr;
            for (const RecordEntry& r : byEnd)
                if (r.corrId >= 0)
                    byCorr.push_back(r);
            std::stable_sort(byCorr.begin(), byCorr.end(),
                             [](const RecordEntry& a, const RecordEntry& b) { return a.corrId < b.corrId; });
            std::sort(m_pairs.begin() + firstPair, m_pairs.end(), [&](const WaitPairing& a, const WaitPairing& b) {
                const TimeNs sa = index.start(a.wait), sb = index.start(b.wait);
                return sa != sb ? sa < sb : a.wait < b.wait;
            });

            // (record, waiting lane) pairs already used: a stream waits for one recording once.
            std::unordered_set<uint64_t> consumed;
            const auto consumedKey = [](EventRef record, uint32_t waitLane) {
                return (uint64_t(record.lane) << 44) ^ (uint64_t(record.index) << 12) ^ waitLane;
            };

            // 1. Blocked waits, by timing: the latest record on another stream that completed after
            //    the stream reached the wait and no more than kMaxWakeNs before the wait ended.
            for (size_t k = firstPair; k < m_pairs.size(); ++k) {
                WaitPairing& p = m_pairs[k];
                const TimeNs waitEnd = index.end(p.wait);
                auto it = std::upper_bound(byEnd.begin(), byEnd.end(), waitEnd,
                                           [](TimeNs t, const RecordEntry& r) { return t < r.endNs; });
                int candidates = 0;
                for (int scanned = 0; it != byEnd.begin() && scanned < kScanLimit; ++scanned) {
                    --it;
                    if (it->endNs <= p.reachedNs || waitEnd - it->endNs > kMaxWakeNs)
                        break;
                    if (it->record.lane == p.wait.lane)
                        continue;
                    if (candidates++ == 0) {
                        p.record = it->record;
                        p.method = PairMethod::Timing;
                        p.blocked = true;
                    } else if (it->record.lane != p.record.lane) {
                        p.ambiguous = true;
                    }
                }
                if (p.method == PairMethod::Timing)
                    consumed.insert(consumedKey(p.record, p.wait.lane));
            }

            // 2. The others in wait order: by host call order, else by stream order.
            for (size_t k = firstPair; k < m_pairs.size(); ++k) {
                WaitPairing& p = m_pairs[k];
                if (p.method != PairMethod::None)
                    continue;
                const TimeNs waitEnd = index.end(p.wait);
                const EventRef call = index.launchOf(p.wait);
                const int64_t corr = profile.lanes[p.wait.lane].corrId[p.wait.index];
                const auto eligible = [&](const RecordEntry& r) {
                    return r.record.lane != p.wait.lane && r.endNs <= waitEnd &&
                           !consumed.count(consumedKey(r.record, p.wait.lane));
                };
                if (call.valid()) {
                    const TimeNs callNs = index.start(call);
                    auto it = std::lower_bound(byCall.begin(), byCall.end(), callNs,
                                               [](const RecordEntry& r, TimeNs t) { return r.callNs < t; });
                    for (int scanned = 0; it != byCall.begin() && scanned < kScanLimit; ++scanned) {
                        --it;
                        if (it->call == call || !eligible(*it))
                            continue;
                        p.record = it->record;
                        p.method = PairMethod::HostOrder;
                        break;
                    }
                } else if (corr >= 0) {
                    // No launch link, but connection ids are handed out in host call order.
                    auto it = std::lower_bound(byCorr.begin(), byCorr.end(), corr,
                                               [](const RecordEntry& r, int64_t c) { return r.corrId < c; });
                    for (int scanned = 0; it != byCorr.begin() && scanned < kScanLimit; ++scanned) {
                        --it;
                        if (!eligible(*it))
                            continue;
                        p.record = it->record;
                        p.method = PairMethod::HostOrder;
                        break;
                    }
                }
                if (p.method == PairMethod::None) {
                    auto it = std::upper_bound(byEnd.begin(), byEnd.end(), waitEnd,
                                               [](TimeNs t, const RecordEntry& r) { return t < r.endNs; });
                    for (int scanned = 0; it != byEnd.begin() && scanned < kScanLimit; ++scanned) {
                        --it;
                        if (!eligible(*it))
                            continue;
                        p.record = it->record;
                        p.method = PairMethod::StreamOrder;
                        break;
                    }
                }
                if (p.method != PairMethod::None)
                    consumed.insert(consumedKey(p.record, p.wait.lane));
            }
        }
    }
    m_byWait.reserve(m_pairs.size());
    for (uint32_t k = 0; k < m_pairs.size(); ++k) {
        m_byWait.emplace(key(m_pairs[k].wait), k);
        if (m_pairs[k].record.valid())
            m_byRecord.emplace(key(m_pairs[k].record), k);
    }
}

const WaitPairing* EventPairing::pairingOf(EventRef wait) const
{
    auto it = m_byWait.find(key(wait));
    return it == m_byWait.end() ? nullptr : &m_pairs[it->second];
}

std::vector<const WaitPairing*> EventPairing::waitsFor(EventRef record) const
{
    std::vector<const WaitPairing*> out;
    auto [first, last] = m_byRecord.equal_range(key(record));
    for (auto it = first; it != last; ++it)
        out.push_back(&m_pairs[it->second]);
    std::sort(out.begin(), out.end()); // m_pairs is in wait start order per device
    return out;
}

} // namespace dspark
