#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

#include <vector>

class QUndoStack;

namespace dspark::ui {

class TimelineZoom;

// The window's one undo/redo (Ctrl+Z / Ctrl+Shift+Z): view changes (TimelineZoom's history) and the
// commands of edit stacks (the annotations' QUndoStack), in the order the user made them. Undo takes
// back the latest of either; redo brings back the latest undone. Back / Forward (Alt+Left/Right)
// stay view-only. When the ordered record has nothing left (e.g. after Back), undo and redo fall back
// to the view history.
class UndoHistory : public QObject {
    Q_OBJECT
public:
    explicit UndoHistory(TimelineZoom* zoom, QObject* parent = nullptr);

    // Records the commands pushed onto `stack` from now on (the caller keeps owning it).
    void addStack(QUndoStack* stack);

    bool canUndo() const;
    bool canRedo() const;
    // What undo() / redo() will take back: the command's text, or empty for a view change.
    QString undoText() const;
    QString redoText() const;
    void undo();
    void redo();

Q_SIGNALS:
    void changed();

private:
    using Entry = QUndoStack*; // nullptr: a view change
    bool available(Entry e, bool undo) const;
    // Index in m_undo / m_redo of the entry undo() / redo() would apply, or -1.
    int next(bool undo) const;
    void step(bool undo);
    void onIndexChanged(QUndoStack* stack, int index);
    void prune();

    QPointer<TimelineZoom> m_zoom;
    std::vector<QUndoStack*> m_stacks;
    std::vector<int> m_index; // last seen index of each stack
    std::vector<Entry> m_undo, m_redo;
    bool m_applying = false;
};

} // namespace dspark::ui
