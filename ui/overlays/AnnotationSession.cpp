#include "overlays/AnnotationSession.h"

#include "overlays/AnnotationOverlay.h"

#include <QFileInfo>

namespace dspark::ui {

AnnotationSession::AnnotationSession(AnnotationOverlay* overlay, QObject* parent) : QObject(parent), m_overlay(overlay)
{
    connect(overlay, &AnnotationOverlay::edited, this, [this]() {
        const QString error = save();
        if (!error.isEmpty())
            Q_EMIT saveFailed(error);
    });
}

QString AnnotationSession::open(const Profile* profile)
{
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
    return save();
}

} // namespace dspark::ui
