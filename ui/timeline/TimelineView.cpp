#include "timeline/TimelineView.h"

#include "common/KindNames.h"
#include "timeline/LanePainter.h"
#include "timeline/MeasureOverlay.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineWidget.h"
#include "timeline/UndoHistory.h"

#include <QElapsedTimer>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>

namespace dspark::ui {

static constexpr int kDragThresholdPx = 4;
static constexpr double kWheelZoomPerStep = 0.8;
static constexpr double kWheelPanPerStep = 0.1;

TimelineView::TimelineView(QGraphicsScene* scene, TimelineWidget* timeline)
    : QGraphicsView(scene, timeline), m_timeline(timeline)
{
    setFrameShape(QFrame::NoFrame);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // time is scrolled by the zoom, not the view
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    setOptimizationFlags(QGraphicsView::DontSavePainterState | QGraphicsView::DontAdjustForAntialiasing);
    setRenderHint(QPainter::Antialiasing, false);
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    // Right-drag is a rubber-band zoom: context menus are opened on release by hand.
    setContextMenuPolicy(Qt::PreventContextMenu);
    viewport()->setContextMenuPolicy(Qt::PreventContextMenu);
    verticalScrollBar()->setSingleStep(20);
}

void TimelineView::paintEvent(QPaintEvent* event)
{
    QElapsedTimer timer;
    timer.start();
    QGraphicsView::paintEvent(event);
    Q_EMIT frameTimeMeasured(double(timer.nsecsElapsed()) / 1e6);
}

void TimelineView::drawBackground(QPainter* painter, const QRectF& rect)
{
    painter->fillRect(rect, m_timeline->context().style.background);
}

void TimelineView::drawForeground(QPainter* painter, const QRectF&)
{
    const TimelineStyle& st = m_timeline->context().style;
    const double top = m_timeline->scrollY();
    const double bottom = top + viewport()->height();
    const double left = st.labelWidth;
    paintStickyHeaders(painter);
    paintReorderIndicator(painter);
    if (m_timeline->cursorNs() && m_timeline->profile()) {
        const double x = std::floor(m_timeline->scale().x(*m_timeline->cursorNs())) + 0.5;
        if (x >= left) {
            painter->setPen(QPen(st.cursorLine, 1));
            painter->drawLine(QPointF(x, top), QPointF(x, bottom));
        }
    }
    if (m_band) {
        const double a = std::max(left, std::min(m_band->first, m_band->second));
        const double b = std::max(left, std::max(m_band->first, m_band->second));
        const bool range = m_drag == Drag::RangeSelect;
        const QColor c = range ? QColor(0xd0, 0x6a, 0x1f) : QColor(0x1f, 0x6f, 0xd0);
        QColor fill = c;
        fill.setAlpha(50);
        painter->fillRect(QRectF(a, top, b - a, bottom - top), fill);
        painter->setPen(QPen(c, 1));
        painter->drawLine(QPointF(a, top), QPointF(a, bottom));
        painter->drawLine(QPointF(b, top), QPointF(b, bottom));
        const TimeNs span = m_timeline->scale().timeAt(b) - m_timeline->scale().timeAt(a);
        painter->setFont(st.rulerFont);
        painter->drawText(QPointF(a + 4, top + 14), formatDuration(span));
    }
    if (m_timeline->frameTimeVisible()) {
        const QString text = tr("frame %1 ms").arg(m_timeline->lastFrameMs(), 0, 'f', 2);
        painter->setFont(st.rulerFont);
        const QFontMetricsF fm(st.rulerFont);
        const QRectF box(viewport()->width() - fm.horizontalAdvance(text) - 16, bottom - fm.height() - 10,
                         fm.horizontalAdvance(text) + 10, fm.height() + 4);
        painter->fillRect(box, QColor(0, 0, 0, 170));
        painter->setPen(Qt::white);
        painter->drawText(box, Qt::AlignCenter, text);
    }
}

TimelineView::Hit TimelineView::hitAt(QPoint viewportPos) const
{
    Hit hit;
    const LaneLayout& layout = *m_timeline->layout();
    const double y = m_timeline->scrollY();
    for (const StickyHeader& h : stickyHeaders())
        if (h.rect.contains(viewportPos)) { // a click on a held header is a click on that header
            hit.row = h.row;
            hit.rowRect = QRectF(0, h.rect.top() + y, viewport()->width(), h.rect.height());
            hit.scenePos = QPointF(viewportPos.x(), viewportPos.y() + y);
            return hit;
        }
    // The pinned rows cover the top of the viewport; below them content y is scene y.
    const double vy = viewportPos.y();
    double contentY = vy < layout.pinnedHeight() ? vy : vy + y;
    hit.row = layout.rowAt(contentY);
    if (hit.row < 0 || (vy >= layout.pinnedHeight() && hit.row < layout.pinnedRowCount()))
        return Hit{};
    const LaneLayout::Row& row = layout.rows()[hit.row];
    const double rowTop = row.pinned ? y + row.y : row.y;
    hit.rowRect = QRectF(0, rowTop, viewport()->width(), row.height);
    hit.scenePos = QPointF(viewportPos.x(), viewportPos.y() + y);
    if (row.kind == LaneLayout::RowKind::Lane && viewportPos.x() >= m_timeline->labelWidth() && m_timeline->profile())
        hit.event =
            LanePainter(m_timeline->context(), m_timeline->scale()).hitTest(row.lane, hit.rowRect, hit.scenePos);
    return hit;
}

std::vector<TimelineView::StickyHeader> TimelineView::stickyHeaders() const
{
    return m_timeline->renderer().stickyHeaders(m_timeline->scrollY());
}

void TimelineView::paintStickyHeaders(QPainter* painter) const
{
    // Scene y of the viewport's top: the rows' painter coordinates.
    m_timeline->renderer().paintStickyHeaders(*painter, m_timeline->scrollY(), m_timeline->scrollY(),
                                              m_timeline->scale());
}

std::pair<int, int> TimelineView::reorderTarget(QPoint pos) const
{
    const LaneLayout& layout = *m_timeline->layout();
    if (m_pressRow < 0 || m_pressRow >= int(layout.rows().size()))
        return {-1, -1};
    const LaneLayout::Row& from = layout.rows()[m_pressRow];
    const Hit hit = hitAt(QPoint(std::min(pos.x(), m_timeline->labelWidth() - 4), pos.y()));
    if (hit.row < 0)
        return {-1, -1};
    const LaneLayout::Row& to = layout.rows()[hit.row];
    if (to.kind != LaneLayout::RowKind::Lane || to.pinned != from.pinned || (!to.pinned && to.group != from.group))
        return {-1, -1};
    return {hit.row, layout.orderIndexOf(to.lane)};
}

void TimelineView::paintReorderIndicator(QPainter* painter) const
{
    if (m_drag != Drag::LaneReorder)
        return;
    const auto [row, index] = reorderTarget(m_lastPos);
    if (row < 0)
        return;
    const LaneLayout& layout = *m_timeline->layout();
    const LaneLayout::Row& r = layout.rows()[row];
    const double scroll = m_timeline->scrollY();
    const double rowTop = r.pinned ? scroll + r.y : r.y;
    // The lane lands where the target is: above it when moving up, below it when moving down.
    const bool down = index > layout.orderIndexOf(layout.rows()[m_pressRow].lane);
    const double y = down ? rowTop + r.height - 1 : rowTop + 1;
    painter->setPen(QPen(m_timeline->context().style.cursorLine, 2));
    painter->drawLine(QPointF(0, y), QPointF(viewport()->width(), y));
}

TimeNs TimelineView::anchorTime() const
{
    if (m_mousePos && m_mousePos->x() >= m_timeline->labelWidth() && m_mousePos->x() < viewport()->width())
        return m_timeline->scale().timeAt(m_mousePos->x());
    return m_timeline->visibleStartNs() + m_timeline->zoom()->spanNs() / 2;
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    if (!m_timeline->profile())
        return QGraphicsView::wheelEvent(event);
    TimelineZoom* zoom = m_timeline->zoom();
    const QPoint delta = event->angleDelta();
    const Qt::KeyboardModifiers mods = event->modifiers();
    if (mods & (Qt::ControlModifier | Qt::AltModifier)) {
        // Alt swaps the wheel's axis on some platforms: accept either.
        const double steps = double(delta.y() != 0 ? delta.y() : delta.x()) / 120.0;
        const double x = event->position().x();
        const TimeNs anchor = x >= m_timeline->labelWidth() ? m_timeline->scale().timeAt(x) : anchorTime();
        zoom->zoomAround(m_timeline->toSharedNs(anchor), std::pow(kWheelZoomPerStep, steps),
                         TimelineZoom::Change::Gesture);
        event->accept();
        return;
    }
    if (mods & Qt::ShiftModifier || (delta.x() != 0 && std::abs(delta.x()) > std::abs(delta.y()))) {
        const double steps = double(delta.y() != 0 && (mods & Qt::ShiftModifier) ? delta.y() : delta.x()) / 120.0;
        zoom->panBy(-TimeNs(steps * kWheelPanPerStep * double(zoom->spanNs())), TimelineZoom::Change::Gesture);
        event->accept();
        return;
    }
    QGraphicsView::wheelEvent(event);
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    setFocus(Qt::MouseFocusReason);
    const QPoint pos = event->position().toPoint();
    m_pressPos = m_lastPos = pos;
    m_dragButton = event->button();
    m_dragModifiers = event->modifiers();
    m_pressLabelWidth = m_timeline->labelWidth();
    m_pressRow = -1;
    if (event->button() == Qt::LeftButton && event->modifiers() == Qt::NoModifier &&
        pos.x() < m_timeline->labelWidth() - 3) {
        const Hit hit = hitAt(pos);
        if (hit.row >= 0 && m_timeline->layout()->rows()[hit.row].kind == LaneLayout::RowKind::Lane)
            m_pressRow = hit.row;
    }
    if (event->button() == Qt::LeftButton && std::abs(pos.x() - m_timeline->labelWidth()) <= 3) {
        m_drag = Drag::LabelResize;
        return;
    }
    if (event->button() == Qt::LeftButton || event->button() == Qt::RightButton ||
        event->button() == Qt::MiddleButton) {
        m_drag = Drag::Pending;
        m_pressTime = m_timeline->scale().timeAt(pos.x());
    }
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    m_mousePos = pos;
    const double label = m_timeline->labelWidth();
    switch (m_drag) {
    case Drag::LabelResize: m_timeline->setLabelWidth(m_pressLabelWidth + pos.x() - m_pressPos.x()); return;
    case Drag::LaneReorder:
        m_lastPos = pos;
        viewport()->update();
        return;
    case Drag::Pending:
        if ((pos - m_pressPos).manhattanLength() < kDragThresholdPx)
            return;
        if (m_dragButton == Qt::RightButton ||
            (m_dragButton == Qt::LeftButton && (m_dragModifiers & Qt::ShiftModifier)))
            m_drag = Drag::RubberZoom;
        else if (m_dragButton == Qt::LeftButton && (m_dragModifiers & Qt::ControlModifier))
            m_drag = Drag::RangeSelect;
        else if (m_pressRow >= 0) { // dragging a lane by its name: reorder
            m_drag = Drag::LaneReorder;
            viewport()->setCursor(Qt::DragMoveCursor);
            viewport()->update();
            m_lastPos = pos;
            return;
        } else
            m_drag = Drag::Pan;
        if (m_drag == Drag::Pan)
            viewport()->setCursor(Qt::ClosedHandCursor);
        [[fallthrough]];
    case Drag::Pan:
    case Drag::RubberZoom:
    case Drag::RangeSelect:
        if (m_drag == Drag::Pan) {
            const double dx = pos.x() - m_lastPos.x();
            m_timeline->zoom()->panBy(-TimeNs(std::llround(dx * m_timeline->scale().nsPerPx())),
                                      TimelineZoom::Change::Gesture);
            verticalScrollBar()->setValue(verticalScrollBar()->value() - (pos.y() - m_lastPos.y()));
        } else {
            m_band = std::make_pair(std::max<double>(label, m_pressPos.x()), std::max<double>(label, pos.x()));
            viewport()->update();
        }
        m_lastPos = pos;
        return;
    case Drag::None: break;
    }
    updateHover(pos);
}

void TimelineView::refreshHover()
{
    if (m_mousePos && m_drag == Drag::None)
        updateHover(*m_mousePos);
}

void TimelineView::updateHover(QPoint pos)
{
    const double label = m_timeline->labelWidth();
    if (std::abs(pos.x() - label) <= 3)
        viewport()->setCursor(Qt::SplitHCursor);
    else
        viewport()->unsetCursor();
    if (!m_timeline->profile())
        return;
    m_timeline->setCursorNs(pos.x() >= label ? std::optional<TimeNs>(m_timeline->scale().timeAt(pos.x()))
                                             : std::nullopt);
    m_timeline->selection()->setHovered(hitAt(pos).event);
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    const Drag drag = m_drag;
    m_drag = Drag::None;
    viewport()->unsetCursor();
    const TimeScale& scale = m_timeline->scale();
    switch (drag) {
    case Drag::Pending: {
        const Hit hit = hitAt(pos);
        if (m_dragButton == Qt::RightButton) {
            Q_EMIT m_timeline->laneContextMenuRequested(hit.row, event->globalPosition().toPoint(), hit.event);
            break;
        }
        if (m_dragButton != Qt::LeftButton)
            break;
        if ((m_dragModifiers & Qt::ShiftModifier) && pos.x() >= m_timeline->labelWidth()) {
            m_timeline->measurement()->addPoint(scale.timeAt(pos.x())); // Shift+click: measure
            break;
        }
        if (hit.row >= 0 && m_timeline->layout()->rows()[hit.row].kind != LaneLayout::RowKind::Lane) {
            m_timeline->layout()->toggleRow(hit.row);
            break;
        }
        if (pos.x() < m_timeline->labelWidth()) {
            // A click on a deep lane's name folds or unfolds its deeper levels.
            if (hit.row >= 0)
                m_timeline->toggleLaneFold(m_timeline->layout()->rows()[hit.row].lane);
            break;
        }
        m_timeline->selection()->clearTimeRange();
        m_timeline->selection()->setEvent(hit.event);
        break;
    }
    case Drag::Pan: m_timeline->zoom()->endGesture(); break;
    case Drag::RubberZoom:
    case Drag::RangeSelect:
        if (m_band) {
            const double a = std::min(m_band->first, m_band->second), b = std::max(m_band->first, m_band->second);
            if (b - a >= kDragThresholdPx) {
                if (drag == Drag::RubberZoom)
                    m_timeline->zoom()->setRange(m_timeline->toSharedNs(scale.timeAt(a)),
                                                 m_timeline->toSharedNs(scale.timeAtOrAfter(b)));
                else
                    m_timeline->selection()->setTimeRange(scale.timeAt(a), scale.timeAtOrAfter(b));
            }
        }
        m_band.reset();
        viewport()->update();
        break;
    case Drag::LaneReorder: {
        const auto [row, index] = reorderTarget(pos);
        viewport()->update();
        if (row < 0 || m_pressRow < 0 || m_pressRow >= int(m_timeline->layout()->rows().size()))
            break;
        LaneLayout* layout = m_timeline->layout();
        const uint32_t lane = layout->rows()[m_pressRow].lane;
        layout->moveLane(lane, index - layout->orderIndexOf(lane));
        break;
    }
    case Drag::LabelResize:
    case Drag::None: break;
    }
    m_pressRow = -1;
    m_dragButton = Qt::NoButton;
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const Hit hit = hitAt(event->position().toPoint());
    if (hit.event.valid()) {
        m_timeline->selection()->setEvent(hit.event);
        m_timeline->zoomToEvent(hit.event);
        Q_EMIT m_timeline->eventActivated(hit.event);
    }
}

void TimelineView::zoomStep(bool in)
{
    m_timeline->zoom()->zoomAround(m_timeline->toSharedNs(anchorTime()), in ? kKeyZoomFactor : 1.0 / kKeyZoomFactor,
                                   TimelineZoom::Change::Gesture);
}

void TimelineView::panStep(int direction)
{
    TimelineZoom* zoom = m_timeline->zoom();
    zoom->panBy(direction * TimeNs(double(zoom->spanNs()) * kKeyPanFraction), TimelineZoom::Change::Gesture);
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    TimelineZoom* zoom = m_timeline->zoom();
    const Qt::KeyboardModifiers mods = event->modifiers() & ~Qt::KeypadModifier;
    if (mods == Qt::AltModifier && event->key() == Qt::Key_Left)
        return zoom->goBack();
    if (mods == Qt::AltModifier && event->key() == Qt::Key_Right)
        return zoom->goForward();
    if (event->matches(QKeySequence::Undo))
        return m_timeline->history()->undo(); // a view change or an annotation edit, the latest first
    if (event->matches(QKeySequence::Redo) ||
        (mods == (Qt::ControlModifier | Qt::ShiftModifier) && event->key() == Qt::Key_Z))
        return m_timeline->history()->redo();
    if (mods == Qt::NoModifier || mods == Qt::ShiftModifier) {
        switch (event->key()) {
        case Qt::Key_W:
        case Qt::Key_Plus:
        case Qt::Key_Equal: return zoomStep(true);
        case Qt::Key_S:
        case Qt::Key_Minus: return zoomStep(false);
        case Qt::Key_A:
        case Qt::Key_Left: return panStep(-1);
        case Qt::Key_D:
        case Qt::Key_Right: return panStep(1);
        case Qt::Key_Home:
        case Qt::Key_0: return zoom->fitAll();
        case Qt::Key_F: return m_timeline->zoomToSelection();
        case Qt::Key_Escape: m_timeline->measurement()->clear(); return m_timeline->selection()->clear();
        default: break;
        }
    }
    QGraphicsView::keyPressEvent(event);
}

void TimelineView::leaveEvent(QEvent* event)
{
    QGraphicsView::leaveEvent(event);
    m_mousePos.reset();
    m_timeline->setCursorNs(std::nullopt);
    m_timeline->selection()->setHovered({});
}

void TimelineView::contextMenuEvent(QContextMenuEvent* event)
{
    event->ignore(); // opened from mouseReleaseEvent
}

void TimelineView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    // Rows are as wide as the viewport and the time scale spans it: both follow its size.
    m_timeline->relayoutItems();
}

QString TimelineView::tooltipFor(const Hit& hit) const
{
    const Profile* p = m_timeline->profile();
    if (!p || hit.row < 0)
        return {};
    const LaneLayout& layout = *m_timeline->layout();
    const LaneLayout::Row& row = layout.rows()[hit.row];
    if (row.kind != LaneLayout::RowKind::Lane)
        return tr("<b>%1</b><br>%2 lanes — click to collapse or expand")
            .arg(layout.rowTitle(row).toHtmlEscaped())
            .arg(layout.lanesUnder(row));
    const Lane& lane = p->lanes[row.lane];
    if (!hit.event.valid()) {
        if (hit.scenePos.x() >= m_timeline->labelWidth())
            return {};
        return tr("<b>%1</b><br>%2 · %3<br>%4 events, nesting depth %5")
            .arg(layout.rowTitle(row).toHtmlEscaped(), QString::fromStdString(lane.info.process).toHtmlEscaped(),
                 laneKindDisplayName(lane.info.kind).toHtmlEscaped())
            .arg(lane.size())
            .arg(lane.maxDepth + 1);
    }
    const EventRef e = hit.event;
    const auto esc = [](const std::string_view s) {
        return QString::fromUtf8(s.data(), qsizetype(s.size())).toHtmlEscaped();
    };
    QString html = QStringLiteral("<b>%1</b>").arg(esc(p->name(e)));
    if (lane.info.kind == LaneKind::Counter) {
        html += tr("<br>value %1 at %2").arg(lane.value[e.index]).arg(formatDuration(p->startNs(e) - p->firstNs()));
        return html;
    }
    html += tr("<br>%1 · starts at %2 · %3")
                .arg(formatDuration(lane.durationNs[e.index]), formatDuration(p->startNs(e) - p->firstNs()),
                     eventKindDisplayName(lane.kind[e.index]).toHtmlEscaped());
    QString where = QString::fromStdString(lane.info.process + " / " + lane.info.name).toHtmlEscaped();
    if (lane.info.streamId >= 0 && isDeviceLane(lane.info.kind))
        where += tr(" (stream %1)").arg(lane.info.streamId);
    html += QStringLiteral("<br>") + where;
    const LanePainter painter(m_timeline->context(), m_timeline->scale());
    const size_t merged = painter.eventsInColumn(row.lane, lane.depthOf(e.index), hit.scenePos.x());
    if (merged > 1)
        html += tr("<br><i>%1 events share this pixel — zoom in to see them</i>").arg(merged);
    const std::vector<EventArg> args = p->args(e);
    int shown = 0;
    for (const EventArg& a : args) {
        if (shown++ == 6) {
            html += tr("<br>… %1 more in the details pane").arg(args.size() - 6);
            break;
        }
        QString value = QString::fromStdString(a.value);
        if (value.size() > 80)
            value = value.left(77) + QStringLiteral("…");
        html += QStringLiteral("<br><span style='color:#5f6b7a'>%1:</span> %2")
                    .arg(QString::fromStdString(a.key).toHtmlEscaped(), value.toHtmlEscaped());
    }
    const size_t out = p->linksFrom(e).size(), in = p->linksTo(e).size();
    if (out + in > 0)
        html += tr("<br>links: %1 outgoing, %2 incoming").arg(out).arg(in);
    return html;
}

bool TimelineView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = tooltipFor(hitAt(help->pos()));
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, viewport());
        return true;
    }
    return QGraphicsView::viewportEvent(event);
}

} // namespace dspark::ui
