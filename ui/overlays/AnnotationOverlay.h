#pragma once

#include "session/AnnotationSet.h"
#include "timeline/TimelineOverlay.h"

#include <QHash>
#include <QPointF>
#include <QVector>

#include <optional>

class QUndoStack;

namespace dspark::ui {

// The user's own notes, arrows and range highlights (core/session/AnnotationSet), painted above the
// lanes in the window and in every export. Annotations are kept in profile time and lane keys, so they
// stay on their events at any zoom and re-appear when the profile is reopened. Editing goes through
// add/update/remove, which emit edited() (the window saves the session then); AnnotationTool is the
// mouse/keyboard interaction. Every edit is a step of undoStack() (add, move, text, colour, delete);
// undoing or redoing one emits edited() as well, so the session is saved.
// Where the annotations of a profile are saved: AnnotationSet::sessionPathFor() of its cleaned root
// path, so the window and `dspark-timeline export` find the same file.
QString annotationSessionPath(const Profile& profile);

class AnnotationOverlay : public TimelineOverlay {
    Q_OBJECT
public:
    explicit AnnotationOverlay(QObject* parent = nullptr);

    // The profile whose lanes the keys refer to (builds the key → lane map).
    void setProfile(const Profile* profile);
    const Profile* profile() const { return m_profile; }
    const AnnotationSet& annotations() const { return m_set; }
    // Replaces every annotation (a loaded session) and starts a new undo history; does not emit edited().
    void setAnnotations(AnnotationSet set);

    int add(const Annotation& annotation);
    // notify = false while a drag is still moving it (edited() is emitted once, at the end).
    void update(int index, const Annotation& annotation, bool notify = true);
    void remove(int index);
    void removeAll(); // one edit (one undo step)
    // Undo/redo of the edits above (the window's UndoHistory orders them with view changes).
    QUndoStack* undoStack() const { return m_undo; }
    // Re-translates the undo stack's labels (after a language change; they are made when recorded).
    void retranslateUndoTexts();
    int count() const { return int(m_set.items.size()); }
    const Annotation& at(int index) const { return m_set.items[index]; }

    int selected() const { return m_selected; }
    void setSelected(int index);

    // Lane of a key (nullopt when the profile has no such lane) and key of a lane.
    std::optional<uint32_t> laneOf(const QString& key) const;
    QString keyOf(uint32_t lane) const;

    // An arrow / range being drawn with the mouse (painted dashed); cleared with clearPreview().
    void setPreview(const Annotation& annotation);
    void clearPreview();

    // The annotation under a point in the coordinates of the last frame painted in the window
    // (scene coordinates of the timeline view), or -1.
    int annotationAt(QPointF pos) const;

    void paint(QPainter& painter, const OverlayContext& ctx) override;

Q_SIGNALS:
    void edited(); // the user added, changed or removed an annotation
    void selectionChanged(int index);

private:
    friend class AnnotationEditCommand;
    // After an edit: records it (before = the last recorded state) and emits edited().
    void recordEdit(const char* label); // a QT_TR_NOOP text
    // Undo / redo of a recorded edit: shows `items` and emits edited(), recording nothing.
    void restore(const QVector<Annotation>& items);

    struct Shape {
        QRectF hit;     // the box / band the user can click
        QRectF textBox; // caption box (empty when none)
    };
    Shape shapeOf(const Annotation& a, const OverlayContext& ctx) const;
    void paintOne(QPainter& p, const Annotation& a, const OverlayContext& ctx, bool selected, bool preview) const;
    void paintMarker(QPainter& p, const Annotation& a, const Shape& s, const OverlayContext& ctx, bool preview) const;
    double anchorY(const QString& laneKey, const OverlayContext& ctx) const;

    const Profile* m_profile = nullptr;
    AnnotationSet m_set;
    QHash<QString, uint32_t> m_laneByKey;
    int m_selected = -1;
    std::optional<Annotation> m_preview;
    QUndoStack* m_undo = nullptr;
    QVector<Annotation> m_recorded; // the annotations as of the last recorded edit

    // What the last window frame needs to recompute shapes for hit tests.
    struct LastFrame {
        const TimelineContext* timeline = nullptr;
        TimeScale scale;
        QRectF area;
        TimeNs startNs = 0, endNs = 0;
        std::function<std::optional<QRectF>(uint32_t)> laneRect, displayRect;
        std::function<std::optional<QRectF>(EventRef)> eventRect;
    };
    LastFrame m_last;
};

} // namespace dspark::ui
