#pragma once

// Chrome-trace flows: binding a flow point to the slice it belongs to, and matching starts with
// steps/finishes by (cat, id). A start may have many finishes; finishes without a start (trimmed
// traces) are counted, not linked.
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
    // Checks every range's order (and sorts an index where needed); after it bind() only reads, so
    // several threads may bind at once.
    void prepare(const Profile& profile);
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
        std::vector<uint32_t> order; // empty when the range is already sorted
    };
    std::vector<Range> m_ranges;
};

class FlowMatcher {
public:
    explicit FlowMatcher(size_t expectedStarts);

    // Feeds one flow point in file order; `at` is the slice it binds to (invalid if none). Links
    // are appended to `out`.
    void add(LargeVector<Link>& out, char ph, uint32_t category, uint8_t idKind, uint64_t id, EventRef at,
             LinkKind kind);
    // Resolves finishes that came before their start in the file.
    void finish(LargeVector<Link>& out);
    // The hash of a flow key: matchers that each take the keys of one value of its top bit see
    // every point of their keys and none of the others'.
    static uint64_t hash(uint32_t category, uint8_t idKind, uint64_t id);

    uint64_t resolved = 0;      // finishes/steps linked to their start
    uint64_t withoutStart = 0;  // finishes/steps whose (cat, id) never started
    uint64_t unboundPoints = 0; // points not on any slice (no link possible)

private:
    struct Entry {
        uint64_t id = 0;
        uint32_t category = 0;
        uint8_t idKind = 0;
        bool used = false;
        EventRef at;
    };
    struct Pending {
        uint64_t id;
        uint32_t category;
        uint8_t idKind;
        LinkKind kind;
        EventRef at;
    };
    Entry* find(uint32_t category, uint8_t idKind, uint64_t id, bool insert);
    void grow();
    LargeVector<Entry> m_table;
    size_t m_used = 0;
    std::vector<Pending> m_pending;
};

} // namespace dspark::trace
