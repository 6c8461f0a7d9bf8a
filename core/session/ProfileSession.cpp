#include "session/ProfileSession.h"

#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"

#include <atomic>

namespace dspark {

static SessionId nextSessionId()
{
    static std::atomic<SessionId> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

ProfileSession::ProfileSession(std::shared_ptr<const Profile> profile, QString path, AnalysisRules rules,
                               QObject* parent)
    : QObject(parent), m_id(nextSessionId()), m_profile(std::move(profile)), m_path(std::move(path)),
      m_analyses(std::make_unique<StepAnalyses>())
{
    if (m_path.isEmpty() && m_profile)
        m_path = QString::fromStdString(m_profile->rootPath);
    m_analyses->setProfile(m_profile, std::move(rules));
}

ProfileSession::~ProfileSession() = default;

std::shared_ptr<const StepRecordSet> ProfileSession::stepRecords() const
{
    if (!m_profile || !m_profile->stepRecords)
        return nullptr;
    return std::shared_ptr<const StepRecordSet>(m_profile, m_profile->stepRecords.get());
}

void ProfileSession::setTimeOffsetNs(TimeNs offsetNs)
{
    if (offsetNs == m_offsetNs)
        return;
    m_offsetNs = offsetNs;
    Q_EMIT timeOffsetChanged(offsetNs);
}

EventRef ProfileSession::resolve(const SessionEvent& e) const
{
    if (e.session != m_id || !m_profile || !e.event.valid() || e.event.lane >= m_profile->lanes.size() ||
        e.event.index >= m_profile->lanes[e.event.lane].size())
        return {};
    return e.event;
}

} // namespace dspark
