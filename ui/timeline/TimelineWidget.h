#pragma once

#include "model/Profile.h"
#include "timeline/LaneLayout.h"
#include "timeline/TimeScale.h"
#include "timeline/TimelineContext.h"
#include "timeline/TimelineRenderer.h"
#include "timeline/TimelineZoom.h"

#include <QPointer>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QGraphicsScene;
class QScrollBar;

namespace dspark::ui {

class FlowOverlay;
class LaneFilterBar;
class MarkerOverlay;
class MeasureOverlay;
class TimeRuler;
class TimelineOverlay;
class TimelineOverlayItem;
class TimelineRowItem;
class TimelineSelection;
class TimelineView;
class UndoHistory;

// The timeline: a time ruler, the lanes (a QGraphicsView with one item per row) and a horizontal
// scroll bar, all driven by one TimelineZoom. Owns the layout (groups, hidden/pinned lanes), the
// selection, the overlays, and the render entry point that exports reuse.
//
// The zoom's range is on a shared axis: shared time = profile time + timeOffsetNs(). A timeline made
// with its own zoom (offset 0) shows its profile's clock; timelines given one zoom (a comparison, the
// ranks of a cluster) move together, each offset so that what should line up does.
class TimelineWidget : public QWidget {
    Q_OBJECT
public:
    // `zoom` null: the widget makes its own and sets its bounds to the profile's. Given a zoom, the
    // caller owns it, sets its bounds and keeps it alive as long as the widget.
    explicit TimelineWidget(QWidget* parent = nullptr, TimelineZoom* zoom = nullptr);
    ~TimelineWidget() override;

    void setProfile(std::shared_ptr<const Profile> profile);
    const Profile* profile() const { return m_ctx.profile(); }

    TimelineZoom* zoom() const { return m_zoom; }
    bool ownsZoom() const { return m_ownsZoom; }
    // Shared-axis time = profile time + offset (ns).
    void setTimeOffsetNs(TimeNs offsetNs);
    TimeNs timeOffsetNs() const { return m_offsetNs; }
    TimeNs toSharedNs(TimeNs profileNs) const { return profileNs + m_offsetNs; }
    TimeNs toProfileNs(TimeNs sharedNs) const { return sharedNs - m_offsetNs; }
    // The visible range in this profile's time.
    TimeNs visibleStartNs() const { return toProfileNs(m_zoom->startNs()); }
    TimeNs visibleEndNs() const { return toProfileNs(m_zoom->endNs()); }
    // Ctrl+Z / Ctrl+Shift+Z: view changes and the edits of the stacks added to it (annotations).
    UndoHistory* history() const { return m_history; }
    TimelineSelection* selection() const { return m_selection; }
    LaneLayout* layout() const { return m_layout; }
    const TimelineContext& context() const { return m_ctx; }
    const TimelineRenderer& renderer() const { return m_renderer; }
    TimelineView* view() const { return m_view; }
    TimeRuler* ruler() const { return m_ruler; }
    QScrollBar* horizontalBar() const { return m_hbar; }
    FlowOverlay* flowOverlay() const { return m_flows; }
    MarkerOverlay* markerOverlay() const { return m_markers; }
    // The two-point measurement (Shift+click, Esc clears).
    MeasureOverlay* measurement() const { return m_measure; }
    // The lane filter field above the ruler (hidden until View › Filter Lanes…).
    LaneFilterBar* laneFilterBar() const { return m_filterBar; }

    // ---- overlays (stage bands, communication, critical path...) ----
    // Paints `overlay` above the lanes, after the overlays added before it. The widget does not take
    // ownership unless the overlay has no parent (then it becomes a child of the widget).
    void addOverlay(TimelineOverlay* overlay);
    void removeOverlay(TimelineOverlay* overlay);
    std::vector<TimelineOverlay*> overlays() const;

    // ---- rendering (window and exports share this code) ----
    // The options that reproduce what the window shows now (range, vertical scroll).
    TimelineRenderer::RenderOptions currentViewOptions() const;
    // Paints ruler, lanes with their names and overlays into `target` on any paint device.
    void render(QPainter& painter, const QRectF& target, const TimelineRenderer::RenderOptions& options) const;
    // Size that shows every row at the given width (for "export all lanes").
    QSize fullContentSize(int width) const;

    // ---- the current frame ----
    const TimeScale& scale() const { return m_scale; }
    double scrollY() const;
    double eventAreaWidth() const;
    std::optional<TimeNs> cursorNs() const { return m_cursorNs; }
    void setCursorNs(std::optional<TimeNs> t);

    // ---- navigation ----
    enum class Reveal { None, Pan, Zoom };
    void selectEvent(EventRef e, Reveal reveal = Reveal::Pan);
    void zoomToSelection();
    void zoomToEvent(EventRef e);
    // Scrolls vertically so that the lane's row (or its collapsed group) is visible.
    void ensureLaneVisible(uint32_t lane);
    // Folds or unfolds a deep lane (LaneLayout::kFoldedDepths); false for another lane.
    bool toggleLaneFold(uint32_t lane);
    // The lane key E acts on: the selected event's, else the one under the mouse (or UINT32_MAX).
    uint32_t focusLane() const;
    // Centre of an event in the view's viewport coordinates (nullopt when not shown).
    std::optional<QPoint> eventCenterInViewport(EventRef e) const;
    // Viewport x of a time.
    double viewportX(TimeNs t) const { return m_scale.x(t); }

    // ---- options ----
    bool absoluteTime() const { return m_ctx.absoluteTime; }
    void setAbsoluteTime(bool absolute);
    void setShowAllFlows(bool all);
    bool showAllFlows() const;
    int labelWidth() const { return int(m_ctx.style.labelWidth); }
    void setLabelWidth(int width);
    void setSearchHighlights(std::vector<uint8_t> nameHits, EventRef current);
    // Highlighted intervals (e.g. the selected step's window) drawn by the marker overlay.
    void setHighlightedInterval(TimeNs startNs, TimeNs endNs, const QString& caption);
    void clearHighlightedInterval();

    // Frame time of the last repaint of the lanes, and the on-screen readout (Debug menu).
    double lastFrameMs() const { return m_lastFrameMs; }
    void setFrameTimeVisible(bool visible);
    bool frameTimeVisible() const { return m_frameTimeVisible; }

    // Repaints everything (after a style, search or overlay change).
    void refresh();

    // For the graphics items.
    void paintOverlayRegion(QPainter& p, bool pinned, const QRectF& exposed) const;

Q_SIGNALS:
    void eventActivated(dspark::EventRef event); // double-click
    void frameTimeMeasured(double ms);
    void laneContextMenuRequested(int row, const QPoint& globalPos, dspark::EventRef event);

protected:
    void changeEvent(QEvent* event) override;

private:
    friend class TimelineView;
    void rebuildItems();
    void relayoutItems();
    void updateScale();
    void positionPinned();
    void syncScrollBar();
    void onScrollBar(int value);
    void onFrameTime(double ms);
    void updateSelectionMarkers();

    TimelineContext m_ctx;
    TimelineZoom* m_zoom = nullptr;
    bool m_ownsZoom = true;
    TimeNs m_offsetNs = 0;
    UndoHistory* m_history = nullptr;
    TimelineSelection* m_selection = nullptr;
    LaneLayout* m_layout = nullptr;
    TimelineRenderer m_renderer;
    TimeScale m_scale;
    std::optional<TimeNs> m_cursorNs;

    QGraphicsScene* m_scene = nullptr;
    TimelineView* m_view = nullptr;
    TimeRuler* m_ruler = nullptr;
    QScrollBar* m_hbar = nullptr;
    std::vector<TimelineRowItem*> m_items; // one per row of the layout, in row order
    TimelineOverlayItem* m_mainOverlay = nullptr;
    TimelineOverlayItem* m_pinnedOverlay = nullptr;
    FlowOverlay* m_flows = nullptr;
    MarkerOverlay* m_markers = nullptr;
    MeasureOverlay* m_measure = nullptr;
    LaneFilterBar* m_filterBar = nullptr;
    std::vector<QPointer<TimelineOverlay>> m_overlays;
    std::optional<std::pair<TimeNs, TimeNs>> m_highlight;
    QString m_highlightCaption;
    bool m_syncingBar = false;
    double m_lastFrameMs = 0;
    bool m_frameTimeVisible = false;
};

} // namespace dspark::ui
