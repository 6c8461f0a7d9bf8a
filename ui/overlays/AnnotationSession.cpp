#include "overlays/AnnotationSession.h"

#include "overlays/AnnotationOverlay.h"
#include "session/ProfileSession.h"

#include <QFileInfo>

namespace dspark::ui {

AnnotationSession::AnnotationSession(AnnotationOverlay* overlay, QObject* parent) : QObject(parent), m_overlay(overlay)
{
    connect(overlay, &AnnotationOverlay::edited, this, [this]() {
        syncSession();
        const QString error = save();
        if (!error.isEmpty())
            Q_EMIT saveFailed(error);
    });
}

QString AnnotationSession::open(ProfileSession* session)
{
    const QString error = open(session ? session->profile().get() : nullptr);
    m_profileSession = session;
    syncSession();
    return error;
}

void AnnotationSession::syncSession()
{
    if (m_profileSession && m_overlay)
        m_profileSession->annotations() = m_overlay->annotations();
}

QString AnnotationSession::open(const Profile* profile)
{
    m_profileSession.clear();
    m_overlay->setProfile(profile);
    m_readOnly = false;
    m_path = profile ? annotationSessionPath(*profile) : QString();
    AnnotationSet set;
    QString error;
    if (!m_path.isEmpty() && QFileInfo::exists(m_path)) {
        error = set.load(m_path);
        if (!error.isEmpty()) {
            set = {};
            m_readOnly = true;
        }
    }
    m_overlay->setAnnotations(std::move(set));
    return error;
}

void AnnotationSession::close()
{
    m_profileSession.clear();
    m_path.clear();
    m_overlay->setProfile(nullptr);
    m_overlay->setAnnotations({});
}

QString AnnotationSession::save() const
{
    if (m_path.isEmpty() || m_readOnly)
        return {};
    return m_overlay->annotations().save(m_path);
}

QString AnnotationSession::saveAs(const QString& file) const
{
    return m_overlay->annotations().save(file);
}

QString AnnotationSession::loadFrom(const QString& file)
{
    AnnotationSet set;
    if (const QString error = set.load(file); !error.isEmpty())
        return error;
    m_overlay->setAnnotations(std::move(set));
    m_readOnly = false;
    syncSession();
    return save();
}

} // namespace dspark::ui
