#pragma once

#include "model/Profile.h"

#include <QObject>
#include <QPointer>
#include <QString>

namespace dspark {
class ProfileSession;
}

namespace dspark::ui {

class AnnotationOverlay;

// Keeps the annotations of the open profile on disk: loads them when the profile opens (from
// annotationSessionPath(): the user's config folder, never the profile folder) and saves after every
// edit. The user can also save them to / load them from a file of their choice (next to a report).
class AnnotationSession : public QObject {
    Q_OBJECT
public:
    explicit AnnotationSession(AnnotationOverlay* overlay, QObject* parent = nullptr);

    // Shows the annotations saved for `profile` (none yet: empty). Returns an error naming the session
    // file when it exists but cannot be read (the overlay is then empty and the file is left alone).
    QString open(const Profile* profile);
    // The same for a session, whose annotation set then follows every edit (the session owns them).
    QString open(ProfileSession* session);
    void close();
    QString path() const { return m_path; }

    QString save() const;
    QString saveAs(const QString& file) const;
    // Replaces the annotations with those of `file` (and saves them to the session).
    QString loadFrom(const QString& file);

Q_SIGNALS:
    void saveFailed(const QString& error);

private:
    void syncSession();

    QPointer<AnnotationOverlay> m_overlay;
    QPointer<ProfileSession> m_profileSession;
    QString m_path;
    bool m_readOnly = false; // the session file was unreadable: do not overwrite it
};

} // namespace dspark::ui
