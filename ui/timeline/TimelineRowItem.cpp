#include "timeline/TimelineRowItem.h"

#include "timeline/TimelineWidget.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace dspark::ui {

TimelineRowItem::TimelineRowItem(const TimelineWidget* timeline) : m_timeline(timeline)
{
    setFlag(ItemUsesExtendedStyleOption, true); // exposedRect: paint only what is exposed
}

void TimelineRowItem::setRow(int row, double width, double height)
{
    if (width != m_width || height != m_height)
        prepareGeometryChange();
    m_row = row;
    m_width = width;
    m_height = height;
    update();
}

void TimelineRowItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const QRectF exposed = option->exposedRect;
    m_timeline->renderer().paintRow(*painter, m_row, boundingRect(), m_timeline->scale(), exposed.left(),
                                    exposed.right());
}

TimelineOverlayItem::TimelineOverlayItem(const TimelineWidget* timeline, bool pinnedRegion)
    : m_timeline(timeline), m_pinned(pinnedRegion)
{
    setFlag(ItemUsesExtendedStyleOption, true);
    setAcceptedMouseButtons(Qt::NoButton);
}

void TimelineOverlayItem::setSize(double width, double height)
{
    if (width == m_width && height == m_height)
        return;
    prepareGeometryChange();
    m_width = width;
    m_height = height;
}

void TimelineOverlayItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    // Overlays work in scene coordinates (the rows' coordinates): undo this item's offset.
    painter->save();
    painter->translate(-pos());
    m_timeline->paintOverlayRegion(*painter, m_pinned, option->exposedRect.translated(pos()));
    painter->restore();
}

} // namespace dspark::ui
