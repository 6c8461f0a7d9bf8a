#include "timeline/TimelineContext.h"

namespace dspark::ui {

void TimelineContext::reset(std::shared_ptr<const Profile> profile)
{
    m_profile = std::move(profile);
    palette.reset(m_profile.get());
    const size_t names = m_profile ? m_profile->strings.size() : 0;
    m_names.assign(names, QString());
    m_nameReady.assign(names, false);
    m_counters.clear();
    m_counters.resize(m_profile ? m_profile->lanes.size() : 0);
    searchNameHits.clear();
    currentSearchHit = {};
}

const QString& TimelineContext::name(uint32_t nameId) const
{
    static const QString empty;
    if (nameId >= m_names.size())
        return empty;
    if (!m_nameReady[nameId]) {
        const std::string_view v = m_profile->strings.view(nameId);
        m_names[nameId] = QString::fromUtf8(v.data(), qsizetype(v.size()));
        m_nameReady[nameId] = true;
    }
    return m_names[nameId];
}

const CounterLevels& TimelineContext::counterLevels(uint32_t lane) const
{
    if (!m_counters[lane])
        m_counters[lane] = std::make_unique<CounterLevels>(m_profile->lanes[lane]);
    return *m_counters[lane];
}

} // namespace dspark::ui
