#pragma once

#include "session/AnnotationSet.h"

#include <QObject>
#include <QPoint>
#include <QPointer>
#include <QString>

#include <functional>
#include <optional>

class QWidget;

namespace dspark::ui {

class AnnotationOverlay;
class TimelineWidget;

// Placing and editing annotations with the mouse and keyboard on the timeline (an event filter on
// its view; the view keeps every other gesture):
// - Note mode: a click places a note on the lane under the mouse and asks for its text.
// - Arrow mode: drag from the tail to the head (lanes and times under the mouse), then the text.
// - Range mode: drag over an interval; across every lane, or only the pressed lane with Shift.
// A placement ends the mode (Esc cancels). In any mode a click on an annotation selects it, dragging a
// selected note/arrow/range moves it in time, a double-click edits its text, Delete removes it, the
// context menu offers Edit text / Colour / Delete.
class AnnotationTool : public QObject {
    Q_OBJECT
public:
    enum class Mode { Off, Note, Arrow, Range };
    // Asks the user for a text; nullopt = cancelled. The default shows a QInputDialog; tests replace it.
    using TextPrompt = std::function<std::optional<QString>(QWidget* parent, const QString& title, const QString& label,
                                                            const QString& initial)>;

    AnnotationTool(TimelineWidget* timeline, AnnotationOverlay* overlay, QObject* parent = nullptr);

    Mode mode() const { return m_mode; }
    void setMode(Mode mode);
    void setTextPrompt(TextPrompt prompt) { m_prompt = std::move(prompt); }
    // Colour of new annotations (#rrggbb).
    void setColor(const QString& color) { m_color = color; }
    QString color() const { return m_color; }

    // Edits the text of / removes the selected annotation (menu actions).
    void editSelected();
    void removeSelected();

Q_SIGNALS:
    void modeChanged(dspark::ui::AnnotationTool::Mode mode);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool mousePress(QPoint pos, Qt::MouseButton button, Qt::KeyboardModifiers modifiers);
    bool mouseMove(QPoint pos);
    bool mouseRelease(QPoint pos);
    bool contextMenu(QPoint pos, QPoint globalPos);
    // Time and lane key under a viewport position (key empty outside lane rows).
    std::pair<TimeNs, QString> locate(QPoint pos) const;
    std::optional<QString> askText(const QString& title, const QString& initial);

    QPointer<TimelineWidget> m_timeline;
    QPointer<AnnotationOverlay> m_overlay;
    Mode m_mode = Mode::Off;
    TextPrompt m_prompt;
    QString m_color = QStringLiteral("#e11d48");

    enum class Drag { None, Draw, Move };
    Drag m_drag = Drag::None;
    Annotation m_draft; // arrow / range being drawn, or the moved annotation at press time
    int m_moving = -1;  // index of the annotation being moved
    TimeNs m_pressNs = 0;
    QPoint m_pressPos;
    bool m_rangeOnLane = false;
};

} // namespace dspark::ui
