#pragma once

#include "model/Profile.h"
#include "timeline/CounterLevels.h"
#include "timeline/EventPalette.h"
#include "timeline/TimelineStyle.h"

#include <QString>

#include <memory>
#include <vector>

namespace dspark::ui {

class TimelineSelection;

// Everything the painters read: the profile, the style, colours, the selection and search state,
// and caches that live as long as the profile (names as QString, counter levels of detail).
class TimelineContext {
public:
    void reset(std::shared_ptr<const Profile> profile);

    const Profile* profile() const { return m_profile.get(); }
    const std::shared_ptr<const Profile>& profilePtr() const { return m_profile; }

    TimelineStyle style;
    EventPalette palette;
    TimelineSelection* selection = nullptr;
    bool absoluteTime = false;

    // Search: one flag per name id of the profile (empty = no search), and the current hit.
    std::vector<uint8_t> searchNameHits;
    EventRef currentSearchHit;
    bool isSearchHit(uint32_t nameId) const { return nameId < searchNameHits.size() && searchNameHits[nameId]; }

    const QString& name(uint32_t nameId) const;
    const CounterLevels& counterLevels(uint32_t lane) const;

private:
    std::shared_ptr<const Profile> m_profile;
    mutable std::vector<QString> m_names;
    mutable std::vector<bool> m_nameReady;
    mutable std::vector<std::unique_ptr<CounterLevels>> m_counters;
};

} // namespace dspark::ui
