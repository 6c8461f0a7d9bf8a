#pragma once

#include "model/Profile.h"

#include <QString>

#include <vector>

namespace dspark::ui {

// Finds events by name: a substring or a regular expression, matched once per distinct name (the
// string table), then every event whose name matches is collected and ordered by start time.
struct EventSearchResult {
    std::vector<uint8_t> nameHits; // per name id: 1 when the name matches
    std::vector<EventRef> hits;    // ordered by (start, lane, index); at most maxHits
    size_t total = 0;              // matching events (may exceed hits.size())
    size_t matchingNames = 0;
    QString error; // invalid regular expression
    bool truncated() const { return total > hits.size(); }
};

struct EventSearchQuery {
    QString pattern;
    bool regex = false;
    bool caseSensitive = false;
    size_t maxHits = 200'000;
};

EventSearchResult searchEvents(const Profile& profile, const EventSearchQuery& query);

} // namespace dspark::ui
