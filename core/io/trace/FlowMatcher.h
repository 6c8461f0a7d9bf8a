#pragma once

// Chrome-trace flows: binding a flow point to the slice it belongs to, and matching starts with
// steps/finishes by (cat, id) (by point index, before any slice is placed). A start may have many
// finishes; finishes without a start (trimmed traces) are counted, not linked.
#include "model/Profile.h"
#include "util/LargeAlloc.h"

#include <cstdint>
#include <vector>

namespace dspark::trace {

// The slices of each track, as a contiguous range of rows in its lane (before finalize), searchable
// by time. Ranges already in (start, longer first) order are searched in place; others get a sorted
// index built on first use.
class SliceLocator {
public:
    void setTrack(uint32_t track, uint32_t lane, uint32_t first, uint32_t count);
    // Checks every range's order (and sorts an index where needed), on both cores when `parallel`;
    // after it bind() only reads, so several threads may bind at once.
    void prepare(const Profile& profile, bool parallel = false);
    // Chrome binding rules: `enclosing` (ph s, t, and f with "bp":"e") binds to the deepest slice
    // containing ts; otherwise to the first slice starting at or after ts. Invalid ref when none.
    // `hints` (one per track, zero-initialised, owned by the calling thread) speeds up points that
    // come in time order; results are the same with or without.
    EventRef bind(const Profile& profile, uint32_t track, int64_t ts, bool enclosing,
                  std::vector<uint32_t>* hints = nullptr) const;

private:
    struct Range {
        uint32_t lane = UINT32_MAX;
        uint32_t first = 0;
        uint32_t count = 0;
        LargeVector<uint32_t> order; // empty when the range is already sorted
    };
    std::vector<Range> m_ranges;
};

// Matches one run of flow points (one part of a file) by (cat, id), in file order.
class FlowMatcher {
public:
    static constexpr uint64_t kNoStart = UINT64_MAX;
    // Limits of what a table entry holds (16 bytes: the table is the largest fresh memory a load
    // touches before its lanes): point indices below kMaxPoints, categories below kMaxCategories
    // (the caller numbers its categories densely).
    static constexpr uint64_t kMaxPoints = UINT32_MAX;
    static constexpr uint32_t kMaxCategories = 1u << 29;

    // `idShifts`: per category, the shift that makes its ids count up by about one (idShift()).
    explicit FlowMatcher(size_t expectedStarts, std::vector<uint8_t> idShifts = {});

    // Feeds one flow point in file order; `point` is its index among all points. Returns the point
    // its flow continues from (the start, or the last step of the flow), or kNoStart: a start, or a
    // finish/step whose (cat, id) has not started in this run yet (it waits: takeWaiting()).
    uint64_t add(char ph, uint32_t category, uint8_t idKind, uint64_t id, uint64_t point);
    // A finish or step that found no start, in the order fed.
    struct Waiting {
        uint64_t id;
        uint32_t category;
        uint8_t idKind;
        char ph;
        uint64_t point;
    };
    std::vector<Waiting> takeWaiting() { return std::move(m_waiting); }
    // Where the flow of (cat, id) ends after everything fed: its start or last step, or kNoStart.
    uint64_t lookup(uint32_t category, uint8_t idKind, uint64_t id) const;
    // A category's ids step: from its first start ids in file order, the shift that makes them count
    // up by about one. 0 for counters, connection ids and anything not counting up steadily (random,
    // decreasing, fewer than kMinSamples); ~14 for torch_npu's async_npu ids (each op's start in ns).
    static constexpr size_t kMinSamples = 16;
    static uint8_t idShift(const std::vector<uint64_t>& startIds);

private:
    static constexpr uint32_t kEmpty = UINT32_MAX;
    struct Entry {
        uint64_t id = 0;
        uint32_t key = 0;        // category << 3 | idKind
        uint32_t point = kEmpty; // the flow's start, or its last step; kEmpty: a free slot
    };
    static_assert(sizeof(Entry) == 16);
    static uint32_t keyOf(uint32_t category, uint8_t idKind) { return category << 3 | (idKind & 7u); }
    static uint64_t hash(uint32_t category, uint8_t idKind, uint64_t id, uint8_t shift);
    Entry* find(uint32_t category, uint8_t idKind, uint64_t id, bool insert);
    void grow();
    uint8_t shiftOf(uint32_t category) const { return category < m_shifts.size() ? m_shifts[category] : 0; }
    LargeVector<Entry> m_table;
    std::vector<uint8_t> m_shifts;
    size_t m_used = 0;
    std::vector<Waiting> m_waiting;
};

} // namespace dspark::trace
