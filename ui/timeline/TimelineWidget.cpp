#include "timeline/TimelineWidget.h"

#include "timeline/FlowOverlay.h"
#include "timeline/LaneFilter.h"
#include "timeline/LanePainter.h"
#include "timeline/MarkerOverlay.h"
#include "timeline/MeasureOverlay.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimeRuler.h"
#include "timeline/TimelineOverlay.h"
#include "timeline/TimelineRowItem.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineView.h"
#include "timeline/UndoHistory.h"

#include <QEvent>
#include <QGraphicsScene>
#include <QScrollBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace dspark::ui {

static constexpr int kScrollUnits = 1'000'000; // resolution of the horizontal scroll bar

TimelineWidget::TimelineWidget(QWidget* parent, TimelineZoom* zoom)
    : QWidget(parent), m_zoom(zoom ? zoom : new TimelineZoom(this)), m_ownsZoom(zoom == nullptr),
      m_history(new UndoHistory(m_zoom, this)), m_selection(new TimelineSelection(this)),
      m_layout(new LaneLayout(this)), m_renderer(m_ctx, *m_layout)
{
    m_ctx.selection = m_selection;
    m_scene = new QGraphicsScene(this);
    m_scene->setItemIndexMethod(QGraphicsScene::NoIndex); // few items, moved on every layout change
    m_view = new TimelineView(m_scene, this);
    m_ruler = new TimeRuler(this);
    m_hbar = new QScrollBar(Qt::Horizontal, this);
    m_hbar->setRange(0, 0);

    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    m_filterBar = new LaneFilterBar(m_layout, this);
    box->addWidget(m_filterBar);
    box->addWidget(m_ruler);
    box->addWidget(m_view, 1);
    box->addWidget(m_hbar);

    m_markers = new MarkerOverlay(this);
    m_flows = new FlowOverlay(this);
    m_measure = new MeasureOverlay(this);
    m_mainOverlay = new TimelineOverlayItem(this, false);
    m_mainOverlay->setZValue(10);
    m_pinnedOverlay = new TimelineOverlayItem(this, true);
    m_pinnedOverlay->setZValue(30);
    m_scene->addItem(m_mainOverlay);
    m_scene->addItem(m_pinnedOverlay);

    connect(m_zoom, &TimelineZoom::rangeChanged, this, [this]() {
        updateScale();
        syncScrollBar();
        m_view->refreshHover();
        refresh();
    });
    connect(m_layout, &LaneLayout::changed, this, &TimelineWidget::relayoutItems);
    connect(m_selection, &TimelineSelection::eventChanged, this, &TimelineWidget::refresh);
    connect(m_selection, &TimelineSelection::hoveredChanged, this, [this]() { m_view->viewport()->update(); });
    connect(m_selection, &TimelineSelection::timeRangeChanged, this, &TimelineWidget::updateSelectionMarkers);
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, &TimelineWidget::positionPinned);
    connect(m_hbar, &QScrollBar::valueChanged, this, &TimelineWidget::onScrollBar);
    connect(m_view, &TimelineView::frameTimeMeasured, this, &TimelineWidget::onFrameTime);
    for (TimelineOverlay* o : std::initializer_list<TimelineOverlay*>{m_markers, m_flows, m_measure})
        connect(o, &TimelineOverlay::changed, this, &TimelineWidget::refresh);
    setFocusProxy(m_view);
    updateScale();
}

TimelineWidget::~TimelineWidget()
{
    // The view and the scene are torn down first, without calling back into this widget: the
    // scene deletes the row and overlay items.
    disconnect(m_view->verticalScrollBar(), nullptr, this, nullptr);
    delete m_view;
    m_view = nullptr;
    delete m_scene;
    m_scene = nullptr;
    m_items.clear();
    m_mainOverlay = m_pinnedOverlay = nullptr;
}

void TimelineWidget::setProfile(std::shared_ptr<const Profile> profile)
{
    m_selection->clear();
    m_measure->clear();
    m_highlight.reset();
    m_ctx.reset(std::move(profile));
    m_layout->reset(m_ctx.profile(), &m_ctx.style);
    m_filterBar->apply(); // a filter typed for the last profile filters this one too
    const Profile* p = m_ctx.profile();
    if (m_ownsZoom)
        m_zoom->setBounds(p ? p->firstNs() : 0, p ? p->lastNs() : 1000);
    m_view->verticalScrollBar()->setValue(0);
    updateSelectionMarkers();
    updateScale();
    refresh();
}

// ---- geometry ----

double TimelineWidget::scrollY() const
{
    return m_view->verticalScrollBar()->value();
}

double TimelineWidget::eventAreaWidth() const
{
    return std::max(1.0, m_view->viewport()->width() - m_ctx.style.labelWidth);
}

void TimelineWidget::updateScale()
{
    m_zoom->setWidthPx(eventAreaWidth());
    m_scale = TimeScale(visibleStartNs(), visibleEndNs(), m_ctx.style.labelWidth, eventAreaWidth());
}

void TimelineWidget::setTimeOffsetNs(TimeNs offsetNs)
{
    if (offsetNs == m_offsetNs)
        return;
    m_offsetNs = offsetNs;
    updateScale();
    m_view->refreshHover();
    refresh();
}

void TimelineWidget::relayoutItems()
{
    const auto& rows = m_layout->rows();
    while (m_items.size() > rows.size()) {
        delete m_items.back();
        m_items.pop_back();
    }
    while (m_items.size() < rows.size()) {
        auto* item = new TimelineRowItem(this);
        m_scene->addItem(item);
        m_items.push_back(item);
    }
    const double width = m_view->viewport()->width();
    for (size_t i = 0; i < rows.size(); ++i) {
        m_items[i]->setRow(int(i), width, rows[i].height);
        m_items[i]->setZValue(rows[i].pinned ? 20 : 0);
        if (!rows[i].pinned)
            m_items[i]->setPos(0, rows[i].y);
    }
    m_scene->setSceneRect(0, 0, width, std::max(1.0, m_layout->contentHeight()));
    m_mainOverlay->setPos(0, 0);
    m_mainOverlay->setSize(width, std::max(1.0, m_layout->contentHeight()));
    positionPinned();
    updateScale();
    refresh();
}

void TimelineWidget::positionPinned()
{
    const double y = scrollY();
    const auto& rows = m_layout->rows();
    for (int i = 0; i < m_layout->pinnedRowCount() && i < int(m_items.size()); ++i)
        m_items[i]->setPos(0, y + rows[i].y);
    m_pinnedOverlay->setVisible(m_layout->pinnedRowCount() > 0);
    m_pinnedOverlay->setPos(0, y);
    m_pinnedOverlay->setSize(m_view->viewport()->width(), m_layout->pinnedHeight());
    if (m_layout->pinnedRowCount() > 0)
        m_view->viewport()->update();
}

void TimelineWidget::syncScrollBar()
{
    const TimelineZoom::Range limits = m_zoom->scrollLimits();
    const double total = double(limits.spanNs());
    const int page = std::clamp(int(std::llround(kScrollUnits * double(m_zoom->spanNs()) / total)), 1, kScrollUnits);
    m_syncingBar = true;
    m_hbar->setRange(0, kScrollUnits - page);
    m_hbar->setPageStep(page);
    m_hbar->setSingleStep(std::max(1, page / 10));
    m_hbar->setValue(int(std::llround(kScrollUnits * double(m_zoom->startNs() - limits.startNs) / total)));
    m_syncingBar = false;
}

void TimelineWidget::onScrollBar(int value)
{
    if (m_syncingBar)
        return;
    const TimelineZoom::Range limits = m_zoom->scrollLimits();
    const TimeNs start = limits.startNs + TimeNs(double(value) / kScrollUnits * double(limits.spanNs()));
    m_zoom->setRange(start, start + m_zoom->spanNs(), TimelineZoom::Change::Gesture);
}

// ---- overlays and rendering ----

void TimelineWidget::addOverlay(TimelineOverlay* overlay)
{
    if (!overlay)
        return;
    if (!overlay->parent())
        overlay->setParent(this);
    m_overlays.emplace_back(overlay);
    connect(overlay, &TimelineOverlay::changed, this, &TimelineWidget::refresh, Qt::UniqueConnection);
    refresh();
}

void TimelineWidget::removeOverlay(TimelineOverlay* overlay)
{
    std::erase_if(m_overlays, [&](const QPointer<TimelineOverlay>& o) { return o == overlay || !o; });
    if (overlay)
        disconnect(overlay, nullptr, this, nullptr);
    refresh();
}

std::vector<TimelineOverlay*> TimelineWidget::overlays() const
{
    std::vector<TimelineOverlay*> out{m_markers};
    for (const QPointer<TimelineOverlay>& o : m_overlays)
        if (o)
            out.push_back(o.data());
    out.push_back(m_flows);
    out.push_back(m_measure);
    return out;
}

void TimelineWidget::paintOverlayRegion(QPainter& p, bool pinned, const QRectF& exposed) const
{
    if (!profile())
        return;
    const double y = scrollY();
    const auto& rows = m_layout->rows();
    const double label = m_ctx.style.labelWidth;
    const double width = m_view->viewport()->width();
    const double viewportHeight = m_view->viewport()->height();
    auto rowTop = [&rows, y](int row) -> std::optional<double> {
        return rows[row].pinned ? y + rows[row].y : rows[row].y;
    };
    QRectF area =
        pinned ? QRectF(label, y, width - label, m_layout->pinnedHeight())
               : QRectF(label, y + m_layout->pinnedHeight(), width - label, viewportHeight - m_layout->pinnedHeight());
    area = area.intersected(exposed.adjusted(-1, -1, 1, 1));
    if (area.isEmpty())
        return;
    m_renderer.paintOverlays(p, m_renderer.overlayContext(m_scale, area, rowTop, false, pinned), overlays());
}

TimelineRenderer::RenderOptions TimelineWidget::currentViewOptions() const
{
    TimelineRenderer::RenderOptions o;
    o.startNs = visibleStartNs();
    o.endNs = visibleEndNs();
    o.scrollY = scrollY();
    return o;
}

void TimelineWidget::render(QPainter& painter, const QRectF& target,
                            const TimelineRenderer::RenderOptions& options) const
{
    m_renderer.render(painter, target, options, overlays());
}

QSize TimelineWidget::fullContentSize(int width) const
{
    return {width, int(std::ceil(m_renderer.fullHeight()))};
}

// ---- state ----

void TimelineWidget::setCursorNs(std::optional<TimeNs> t)
{
    if (t == m_cursorNs)
        return;
    m_cursorNs = t;
    m_ruler->update();
    m_view->viewport()->update();
}

void TimelineWidget::refresh()
{
    m_view->viewport()->update();
    m_ruler->update();
}

void TimelineWidget::setAbsoluteTime(bool absolute)
{
    m_ctx.absoluteTime = absolute;
    refresh();
}

void TimelineWidget::setShowAllFlows(bool all)
{
    m_flows->setShowAllInView(all);
}

bool TimelineWidget::showAllFlows() const
{
    return m_flows->showAllInView();
}

void TimelineWidget::setLabelWidth(int width)
{
    m_ctx.style.labelWidth = std::clamp(width, 120, 600);
    updateScale();
    relayoutItems();
}

void TimelineWidget::setSearchHighlights(std::vector<uint8_t> nameHits, EventRef current)
{
    m_ctx.searchNameHits = std::move(nameHits);
    m_ctx.currentSearchHit = current;
    refresh();
}

void TimelineWidget::setHighlightedInterval(TimeNs startNs, TimeNs endNs, const QString& caption)
{
    m_highlight = std::make_pair(startNs, endNs);
    m_highlightCaption = caption;
    updateSelectionMarkers();
}

void TimelineWidget::clearHighlightedInterval()
{
    m_highlight.reset();
    updateSelectionMarkers();
}

void TimelineWidget::updateSelectionMarkers()
{
    std::vector<MarkerOverlay::Interval> intervals;
    if (m_highlight)
        intervals.push_back({m_highlight->first, m_highlight->second, m_highlightCaption, QColor(0x1f, 0x6f, 0xd0)});
    if (m_selection->hasTimeRange())
        intervals.push_back({m_selection->rangeStartNs(), m_selection->rangeEndNs(),
                             formatDuration(m_selection->rangeEndNs() - m_selection->rangeStartNs()),
                             QColor(0xd0, 0x6a, 0x1f)});
    m_markers->setIntervals(std::move(intervals));
}

void TimelineWidget::setFrameTimeVisible(bool visible)
{
    m_frameTimeVisible = visible;
    m_view->viewport()->update();
}

void TimelineWidget::onFrameTime(double ms)
{
    m_lastFrameMs = ms;
    Q_EMIT frameTimeMeasured(ms);
}

void TimelineWidget::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        m_ruler->setToolTip(tr("Drag to zoom to an interval; double-click to fit everything"));
        refresh();
    }
}

// ---- navigation ----

void TimelineWidget::selectEvent(EventRef e, Reveal reveal)
{
    const Profile* p = profile();
    if (!p || !e.valid() || e.lane >= p->lanes.size() || e.index >= p->lanes[e.lane].size()) {
        m_selection->setEvent({});
        return;
    }
    // An event picked from a table or a search must be visible: open its collapsed groups.
    if (m_layout->rowOfLane(e.lane) < 0 && !m_layout->isHidden(e.lane)) {
        const LaneInfo& info = p->lanes[e.lane].info;
        m_layout->setRankCollapsed(info.rankIndex, false);
        for (int g = 0; g < int(m_layout->groups().size()); ++g) {
            const auto& group = m_layout->groups()[g];
            if (std::find(group.lanes.begin(), group.lanes.end(), e.lane) != group.lanes.end())
                m_layout->setGroupCollapsed(g, false);
        }
    }
    if (m_layout->isFolded(e.lane) && p->lanes[e.lane].depthOf(e.index) >= LaneLayout::kFoldedDepths)
        m_layout->setUnfolded(e.lane, true); // the event sits in a folded level
    m_selection->setEvent(e);
    if (reveal == Reveal::Zoom)
        zoomToEvent(e);
    else if (reveal == Reveal::Pan)
        m_zoom->reveal(toSharedNs(p->startNs(e)), toSharedNs(std::max(p->endNs(e), p->startNs(e) + 1)));
    if (reveal != Reveal::None)
        ensureLaneVisible(e.lane);
}

void TimelineWidget::zoomToEvent(EventRef e)
{
    const Profile* p = profile();
    if (!p || !e.valid())
        return;
    const TimeNs a = p->startNs(e), b = std::max(p->endNs(e), a + TimelineZoom::kMinSpanNs);
    m_zoom->zoomToInterval(toSharedNs(a), toSharedNs(b), 0.25);
}

void TimelineWidget::zoomToSelection()
{
    if (m_selection->event().valid())
        zoomToEvent(m_selection->event());
    else if (m_selection->hasTimeRange())
        m_zoom->zoomToInterval(toSharedNs(m_selection->rangeStartNs()), toSharedNs(m_selection->rangeEndNs()), 0.02);
}

bool TimelineWidget::toggleLaneFold(uint32_t lane)
{
    if (!m_layout->isFoldable(lane))
        return false;
    m_layout->setUnfolded(lane, !m_layout->isUnfolded(lane));
    return true;
}

uint32_t TimelineWidget::focusLane() const
{
    if (const EventRef e = m_selection->event(); e.valid())
        return e.lane;
    if (const EventRef e = m_selection->hovered(); e.valid())
        return e.lane;
    return UINT32_MAX;
}

void TimelineWidget::ensureLaneVisible(uint32_t lane)
{
    const int row = m_layout->displayRowOfLane(lane);
    if (row < 0)
        return;
    const LaneLayout::Row& r = m_layout->rows()[row];
    if (r.pinned)
        return;
    QScrollBar* bar = m_view->verticalScrollBar();
    const double top = scrollY() + m_layout->pinnedHeight();
    const double bottom = scrollY() + m_view->viewport()->height();
    if (r.y < top)
        bar->setValue(int(r.y - m_layout->pinnedHeight() - 20));
    else if (r.bottom() > bottom)
        bar->setValue(
            int(std::min(r.y - m_layout->pinnedHeight() - 20, r.bottom() - m_view->viewport()->height() + 20)));
}

std::optional<QPoint> TimelineWidget::eventCenterInViewport(EventRef e) const
{
    const Profile* p = profile();
    if (!p || !e.valid() || e.lane >= p->lanes.size())
        return std::nullopt;
    const int row = m_layout->rowOfLane(e.lane);
    if (row < 0)
        return std::nullopt;
    const LaneLayout::Row& r = m_layout->rows()[row];
    const double top = r.pinned ? scrollY() + r.y : r.y;
    const QRectF rowRect(0, top, m_view->viewport()->width(), r.height);
    QRectF er = LanePainter(m_ctx, m_scale).eventRect(e, rowRect);
    er = er.intersected(QRectF(m_ctx.style.labelWidth, top, eventAreaWidth(), r.height));
    if (er.isEmpty())
        return std::nullopt;
    const QPoint pos = m_view->mapFromScene(er.center());
    if (!m_view->viewport()->rect().contains(pos))
        return std::nullopt;
    return pos;
}

} // namespace dspark::ui
