#include "overlays/AnnotationTool.h"

#include "overlays/AnnotationOverlay.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QContextMenuEvent>
#include <QInputDialog>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>

#include <cmath>

namespace dspark::ui {

AnnotationTool::AnnotationTool(TimelineWidget* timeline, AnnotationOverlay* overlay, QObject* parent)
    : QObject(parent), m_timeline(timeline), m_overlay(overlay)
{
    timeline->view()->viewport()->installEventFilter(this);
    timeline->view()->installEventFilter(this);
}

void AnnotationTool::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    m_drag = Drag::None;
    if (m_overlay)
        m_overlay->clearPreview();
    if (m_timeline) {
        if (mode == Mode::Off)
            m_timeline->view()->viewport()->unsetCursor();
        else
            m_timeline->view()->viewport()->setCursor(Qt::CrossCursor);
    }
    Q_EMIT modeChanged(mode);
}

std::pair<TimeNs, QString> AnnotationTool::locate(QPoint pos) const
{
    const TimeNs t = m_timeline->scale().timeAt(pos.x());
    const TimelineView::Hit hit = m_timeline->view()->hitAt(pos);
    QString key;
    if (hit.row >= 0) {
        const LaneLayout::Row& row = m_timeline->layout()->rows()[hit.row];
        if (row.kind == LaneLayout::RowKind::Lane)
            key = m_overlay->keyOf(row.lane);
    }
    return {t, key};
}

std::optional<QString> AnnotationTool::askText(const QString& title, const QString& initial)
{
    const QString label = tr("Text:");
    if (m_prompt)
        return m_prompt(m_timeline, title, label, initial);
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(m_timeline, title, label, initial, &ok);
    if (!ok)
        return std::nullopt;
    return text;
}

bool AnnotationTool::mousePress(QPoint pos, Qt::MouseButton button, Qt::KeyboardModifiers modifiers)
{
    if (!m_timeline->profile() || pos.x() < m_timeline->labelWidth())
        return false;
    const QPointF scene(pos.x(), pos.y() + m_timeline->scrollY());
    const int hit = m_overlay->annotationAt(scene);
    m_pressPos = pos;
    m_pressNs = m_timeline->scale().timeAt(pos.x());
    if (button == Qt::RightButton)
        return hit >= 0; // the menu opens on release
    if (button != Qt::LeftButton)
        return false;
    if (m_mode == Mode::Off) {
        if (hit < 0) {
            m_overlay->setSelected(-1);
            return false;
        }
        m_overlay->setSelected(hit);
        m_drag = Drag::Move;
        m_moving = hit;
        m_draft = m_overlay->at(hit);
        return true;
    }
    const auto [t, key] = locate(pos);
    if (m_mode == Mode::Note) {
        Annotation a;
        a.kind = Annotation::Kind::Note;
        a.startNs = a.endNs = t;
        a.laneKey = key;
        a.color = m_color;
        setMode(Mode::Off);
        const std::optional<QString> text = askText(tr("Add Note"), {});
        if (text && !text->trimmed().isEmpty()) {
            a.text = text->trimmed();
            m_overlay->setSelected(m_overlay->add(a));
        }
        return true;
    }
    m_drag = Drag::Draw;
    m_draft = Annotation{};
    m_draft.kind = m_mode == Mode::Arrow ? Annotation::Kind::Arrow : Annotation::Kind::Range;
    m_draft.startNs = m_draft.endNs = t;
    m_draft.color = m_color;
    m_rangeOnLane = m_mode == Mode::Range && (modifiers & Qt::ShiftModifier);
    if (m_mode == Mode::Arrow || m_rangeOnLane)
        m_draft.laneKey = key;
    if (m_mode == Mode::Arrow)
        m_draft.endLaneKey = key;
    m_overlay->setPreview(m_draft);
    return true;
}

bool AnnotationTool::mouseMove(QPoint pos)
{
    if (m_drag == Drag::None)
        return false;
    const auto [t, key] = locate(pos);
    if (m_drag == Drag::Draw) {
        m_draft.endNs = t;
        if (m_draft.kind == Annotation::Kind::Arrow && !key.isEmpty())
            m_draft.endLaneKey = key;
        Annotation shown = m_draft;
        if (shown.kind == Annotation::Kind::Range && shown.endNs < shown.startNs)
            std::swap(shown.startNs, shown.endNs);
        m_overlay->setPreview(shown);
        return true;
    }
    // Move: shift in time by the drag distance (notes also follow the lane under the mouse).
    const TimeNs delta = t - m_pressNs;
    Annotation moved = m_draft;
    moved.startNs += delta;
    moved.endNs += delta;
    if (moved.kind == Annotation::Kind::Note && !key.isEmpty())
        moved.laneKey = key;
    m_overlay->update(m_moving, moved, false);
    return true;
}

bool AnnotationTool::mouseRelease(QPoint pos)
{
    if (m_drag != Drag::None)
        mouseMove(pos); // the release position counts
    const Drag drag = m_drag;
    m_drag = Drag::None;
    if (drag == Drag::Move) {
        // A drag of a pixel or two is a click: the note goes back where it was (nothing to undo).
        if ((pos - m_pressPos).manhattanLength() >= 3)
            m_overlay->update(m_moving, m_overlay->at(m_moving), true);
        else
            m_overlay->update(m_moving, m_draft, false);
        m_moving = -1;
        return true;
    }
    if (drag != Drag::Draw)
        return false;
    m_overlay->clearPreview();
    Annotation a = m_draft;
    if (a.kind == Annotation::Kind::Range && a.endNs < a.startNs)
        std::swap(a.startNs, a.endNs);
    setMode(Mode::Off);
    // A click without a drag places nothing.
    if ((pos - m_pressPos).manhattanLength() < 4)
        return true;
    const std::optional<QString> text =
        askText(a.kind == Annotation::Kind::Arrow ? tr("Add Arrow") : tr("Highlight Range"), {});
    if (!text)
        return true;
    a.text = text->trimmed();
    m_overlay->setSelected(m_overlay->add(a));
    return true;
}

void AnnotationTool::editSelected()
{
    const int i = m_overlay->selected();
    if (i < 0)
        return;
    const std::optional<QString> text = askText(tr("Edit Annotation"), m_overlay->at(i).text);
    if (!text)
        return;
    Annotation a = m_overlay->at(i);
    a.text = text->trimmed();
    m_overlay->update(i, a);
}

void AnnotationTool::removeSelected()
{
    m_overlay->remove(m_overlay->selected());
}

bool AnnotationTool::contextMenu(QPoint pos, QPoint globalPos)
{
    const int hit = m_overlay->annotationAt(QPointF(pos.x(), pos.y() + m_timeline->scrollY()));
    if (hit < 0)
        return false;
    m_overlay->setSelected(hit);
    QMenu menu(m_timeline);
    menu.addAction(tr("Edit Text…"), this, &AnnotationTool::editSelected);
    QMenu* colors = menu.addMenu(tr("Colour"));
    const std::pair<const char*, const char*> palette[] = {
        {QT_TR_NOOP("Red"), "#e11d48"},  {QT_TR_NOOP("Orange"), "#ea580c"}, {QT_TR_NOOP("Green"), "#059669"},
        {QT_TR_NOOP("Blue"), "#2563eb"}, {QT_TR_NOOP("Purple"), "#7c3aed"}, {QT_TR_NOOP("Black"), "#111827"},
    };
    for (const auto& [name, hex] : palette) {
        const QString color = QString::fromLatin1(hex);
        colors->addAction(tr(name), this, [this, hit, color]() {
            if (hit >= m_overlay->count())
                return;
            Annotation a = m_overlay->at(hit);
            a.color = color;
            m_overlay->update(hit, a);
            m_color = color;
        });
    }
    menu.addSeparator();
    menu.addAction(tr("Delete Annotation"), this, &AnnotationTool::removeSelected);
    menu.exec(globalPos);
    return true;
}

bool AnnotationTool::eventFilter(QObject* watched, QEvent* event)
{
    if (!m_timeline || !m_overlay)
        return false;
    const bool viewport = watched == m_timeline->view()->viewport();
    switch (event->type()) {
    case QEvent::MouseButtonPress:
        if (viewport) {
            auto* e = static_cast<QMouseEvent*>(event);
            return mousePress(e->position().toPoint(), e->button(), e->modifiers());
        }
        break;
    case QEvent::MouseMove:
        if (viewport)
            return mouseMove(static_cast<QMouseEvent*>(event)->position().toPoint());
        break;
    case QEvent::MouseButtonRelease:
        if (viewport) {
            auto* e = static_cast<QMouseEvent*>(event);
            if (e->button() == Qt::RightButton)
                return contextMenu(e->position().toPoint(), e->globalPosition().toPoint());
            return mouseRelease(e->position().toPoint());
        }
        break;
    case QEvent::MouseButtonDblClick:
        if (viewport) {
            auto* e = static_cast<QMouseEvent*>(event);
            const QPoint pos = e->position().toPoint();
            const int hit = m_overlay->annotationAt(QPointF(pos.x(), pos.y() + m_timeline->scrollY()));
            if (hit < 0 || e->button() != Qt::LeftButton)
                return false;
            m_drag = Drag::None;
            m_overlay->setSelected(hit);
            editSelected();
            return true;
        }
        break;
    case QEvent::KeyPress:
        if (!viewport) {
            auto* e = static_cast<QKeyEvent*>(event);
            if (e->key() == Qt::Key_Escape && m_mode != Mode::Off) {
                setMode(Mode::Off);
                return true;
            }
            if (e->key() == Qt::Key_Escape && m_overlay->selected() >= 0) {
                m_overlay->setSelected(-1);
                return true;
            }
            if ((e->key() == Qt::Key_Delete || e->key() == Qt::Key_Backspace) && m_overlay->selected() >= 0) {
                removeSelected();
                return true;
            }
        }
        break;
    default: break;
    }
    return false;
}

} // namespace dspark::ui
