#pragma once

#include <QGraphicsItem>

namespace dspark::ui {

class TimelineWidget;

// The one graphics item of a lane (or of a group header row). It owns no event data: paint() asks
// the renderer to draw the row's visible time range for the current scale, so there is never one
// QGraphicsItem per event.
class TimelineRowItem : public QGraphicsItem {
public:
    explicit TimelineRowItem(const TimelineWidget* timeline);

    void setRow(int row, double width, double height);
    int row() const { return m_row; }

    QRectF boundingRect() const override { return QRectF(0, 0, m_width, m_height); }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    const TimelineWidget* m_timeline;
    int m_row = -1;
    double m_width = 0;
    double m_height = 0;
};

// The overlays of one region (scrolling rows or pinned rows), painted above that region's rows.
class TimelineOverlayItem : public QGraphicsItem {
public:
    TimelineOverlayItem(const TimelineWidget* timeline, bool pinnedRegion);

    void setSize(double width, double height);
    QRectF boundingRect() const override { return QRectF(0, 0, m_width, m_height); }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    const TimelineWidget* m_timeline;
    bool m_pinned;
    double m_width = 0;
    double m_height = 0;
};

} // namespace dspark::ui
