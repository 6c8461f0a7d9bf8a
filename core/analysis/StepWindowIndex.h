#pragma once

#include "analysis/StepAnalysis.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace dspark {

// Look-ups over step windows sorted by (rank, startNs): by record row in O(1), by (rank, forward_ct)
// and by time range in O(log n) plus what they return. The windows are not held: pass the same
// vector the index was built from.
class StepWindowIndex {
public:
    void build(const std::vector<RecordWindow>& windows);
    void clear() { *this = StepWindowIndex(); }

    // The first window (in sorted order) of a record row / of (rank index, forward_ct), rank index -1 = any.
    std::optional<size_t> ofRecordRow(size_t row) const;
    std::optional<size_t> of(int rankIndex, int64_t forwardCt) const;
    // Windows of `rankIndex` (-1: any) whose [startNs, horizonNs()) overlaps [startNs, endNs), ascending.
    std::vector<size_t> overlapping(const std::vector<RecordWindow>& windows, int rankIndex, TimeNs startNs,
                                    TimeNs endNs) const;

private:
    struct ByForwardCt {
        int64_t forwardCt;
        int rankIndex;
        uint32_t window;
    };
    struct RankSegment {
        int rankIndex;
        uint32_t begin, end; // [begin, end) of the sorted windows
    };
    std::vector<uint32_t> m_windowOfRow; // row -> window + 1 (0: none)
    std::vector<ByForwardCt> m_byForwardCt;
    std::vector<RankSegment> m_ranks;
    std::vector<TimeNs> m_start;
    std::vector<TimeNs> m_maxHorizon; // running maximum of horizonNs() within each rank segment
};

} // namespace dspark
