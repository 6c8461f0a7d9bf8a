#pragma once

#include "analysis/AnalysisRules.h"
#include "model/Profile.h"
#include "session/AnnotationSet.h"

#include <QObject>
#include <QString>

#include <memory>

namespace dspark {

class StepAnalyses;
struct StepRecordSet;

// Names one ProfileSession for the life of the process; never reused, never 0.
using SessionId = uint64_t;

// An event of one session: what a selection carries from panel to panel. An EventRef alone is only
// an address inside one profile; the session id says which.
struct SessionEvent {
    SessionId session = 0;
    EventRef event;
    bool valid() const { return session != 0 && event.valid(); }
    friend bool operator==(const SessionEvent&, const SessionEvent&) = default;
};

// One opened profile and what is derived from it: the immutable model (with its step records and
// their alignment), the analyses of its steps, the user's annotations, and the offset that places
// its clock on a shared time axis (a comparison's second run, a cluster's other ranks). A window holds
// a list of these and binds its panels to one.
class ProfileSession : public QObject {
    Q_OBJECT
public:
    // `path` is what the user opened (a folder or a file); empty: the profile's root.
    explicit ProfileSession(std::shared_ptr<const Profile> profile, QString path = {},
                            AnalysisRules rules = AnalysisRules::defaults(), QObject* parent = nullptr);
    ~ProfileSession() override;

    SessionId id() const { return m_id; }
    const std::shared_ptr<const Profile>& profile() const { return m_profile; }
    const QString& path() const { return m_path; }
    // The step records (with their alignment), sharing the profile's lifetime; null when none.
    std::shared_ptr<const StepRecordSet> stepRecords() const;
    // The step windows and their analyses (computed on demand or in the background).
    StepAnalyses* analyses() const { return m_analyses.get(); }

    // The user's annotations of this profile. The window's annotation layer edits them in place.
    AnnotationSet& annotations() { return m_annotations; }
    const AnnotationSet& annotations() const { return m_annotations; }

    // Shared-axis time = profile time + offset (ns). Zero for a window's only session.
    TimeNs timeOffsetNs() const { return m_offsetNs; }
    void setTimeOffsetNs(TimeNs offsetNs);
    TimeNs toSharedNs(TimeNs profileNs) const { return profileNs + m_offsetNs; }
    TimeNs toProfileNs(TimeNs sharedNs) const { return sharedNs - m_offsetNs; }

    SessionEvent tag(EventRef e) const { return {m_id, e}; }
    // The event `e` names when it was made in this session and exists in its profile; an invalid
    // EventRef otherwise (another session's event never resolves here).
    EventRef resolve(const SessionEvent& e) const;

Q_SIGNALS:
    void timeOffsetChanged(dspark::TimeNs offsetNs);

private:
    SessionId m_id;
    std::shared_ptr<const Profile> m_profile;
    QString m_path;
    std::unique_ptr<StepAnalyses> m_analyses;
    AnnotationSet m_annotations;
    TimeNs m_offsetNs = 0;
};

} // namespace dspark
