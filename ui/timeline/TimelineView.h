#pragma once

#include "model/Profile.h"
#include "timeline/TimelineRenderer.h"

#include <QGraphicsView>

#include <optional>
#include <vector>

namespace dspark::ui {

class TimelineWidget;

// The lanes' graphics view: mouse and keyboard navigation (Ctrl+wheel zoom, Shift+wheel pan, drag to
// pan, right- or Shift-drag rubber-band zoom, Shift+click measurement, Ctrl+drag time range, W/S zoom, A/D pan, F,
// Home...), hover tooltips, click selection, the cursor line and the frame-time readout.
class TimelineView : public QGraphicsView {
    Q_OBJECT
public:
    TimelineView(QGraphicsScene* scene, TimelineWidget* timeline);

    // Result of locating a viewport position: the row, the row's rectangle in scene coordinates and
    // the event under the position, if any.
    struct Hit {
        int row = -1;
        QRectF rowRect;
        QPointF scenePos;
        EventRef event;
    };
    Hit hitAt(QPoint viewportPos) const;

    // Rank and process headers held at the top of the scrolling rows while their lanes scroll under
    // them: (row index, rectangle of its name cell in viewport coordinates), outermost first.
    using StickyHeader = TimelineRenderer::StickyHeader;
    std::vector<StickyHeader> stickyHeaders() const;

    // One W/S step (around the mouse when it is over the lanes, else the centre) and one A/D step.
    void zoomStep(bool in);
    void panStep(int direction);

    // Zoom factor of one W/S press and pan fraction of one A/D press.
    static constexpr double kKeyZoomFactor = 0.75;
    static constexpr double kKeyPanFraction = 0.15;

    // The cursor readout and the hovered event again for a mouse that stayed where it was while the
    // range changed (keys, undo, a step picked in the table).
    void refreshHover();

Q_SIGNALS:
    void frameTimeMeasured(double ms);

protected:
    void paintEvent(QPaintEvent* event) override;
    void drawBackground(QPainter* painter, const QRectF& rect) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    enum class Drag { None, Pending, Pan, RubberZoom, RangeSelect, LabelResize, LaneReorder };
    TimeNs anchorTime() const;
    // The lane a reorder drag over `pos` would land before/after: (target lane row, new order index),
    // or row -1 when the lane cannot go there (another group).
    std::pair<int, int> reorderTarget(QPoint pos) const;
    void paintStickyHeaders(QPainter* painter) const;
    void paintReorderIndicator(QPainter* painter) const;
    void updateHover(QPoint pos);
    QString tooltipFor(const Hit& hit) const;

    TimelineWidget* m_timeline;
    Drag m_drag = Drag::None;
    Qt::MouseButton m_dragButton = Qt::NoButton;
    Qt::KeyboardModifiers m_dragModifiers;
    QPoint m_pressPos;
    QPoint m_lastPos;
    TimeNs m_pressTime = 0;
    int m_pressLabelWidth = 0;
    int m_pressRow = -1; // the lane row whose name was pressed (a reorder drag), else -1
    std::optional<QPoint> m_mousePos;
    std::optional<std::pair<double, double>> m_band; // rubber band / range in viewport x
};

} // namespace dspark::ui
