#include "timeline/FlowOverlay.h"

#include "timeline/TimelineSelection.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace dspark::ui {

static QColor linkColor(LinkKind kind)
{
    switch (kind) {
    case LinkKind::HostToDevice: return QColor(0x1f, 0x4e, 0x9c);
    case LinkKind::OpToDevice: return QColor(0x7b, 0x3f, 0xa0);
    case LinkKind::CommOpToTask: return QColor(0x00, 0x79, 0x6b);
    case LinkKind::Flow: return QColor(0x55, 0x5f, 0x6b);
    }
    return Qt::darkGray;
}

void FlowOverlay::setShowAllInView(bool all)
{
    if (all == m_all)
        return;
    m_all = all;
    Q_EMIT changed();
}

static void drawArrow(QPainter& p, QPointF from, QPointF to, const QColor& color, double width)
{
    const double dx = std::max(24.0, std::fabs(to.x() - from.x()) * 0.4);
    QPainterPath path(from);
    path.cubicTo(from + QPointF(dx, 0), to - QPointF(dx, 0), to);
    p.setPen(QPen(color, width));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    // Arrowhead along the curve's final direction (horizontal by construction).
    const double size = 4 + width * 1.5;
    const QPointF head[3] = {to, to + QPointF(-size * 1.6, -size), to + QPointF(-size * 1.6, size)};
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawPolygon(head, 3);
}

void FlowOverlay::paint(QPainter& p, const OverlayContext& ctx)
{
    m_lastCount = 0;
    const Profile* profile = ctx.profile();
    if (!profile || profile->links.empty())
        return;
    p.setRenderHint(QPainter::Antialiasing, true);

    auto draw = [&](const Link& link, bool emphasised) {
        const std::optional<QRectF> a = ctx.eventRect(link.from);
        const std::optional<QRectF> b = ctx.eventRect(link.to);
        if (!a || !b)
            return;
        // From the end of the caller to the start of the callee.
        const QPointF from(std::min(a->right(), std::max(a->left(), b->left())), a->center().y());
        const QPointF to(b->left(), b->center().y());
        QColor color = linkColor(link.kind);
        if (!emphasised)
            color.setAlpha(120);
        drawArrow(p, from, to, color, emphasised ? 2.0 : 1.0);
        ++m_lastCount;
    };

    if (m_all) {
        for (uint32_t lane = 0; lane < profile->lanes.size() && m_lastCount < kMaxArrows; ++lane) {
            if (!ctx.displayRect(lane))
                continue;
            const auto [first, last] = profile->lanes[lane].overlapping(ctx.visibleStartNs, ctx.visibleEndNs);
            if (first >= last)
                continue;
            auto it = std::lower_bound(profile->links.begin(), profile->links.end(), EventRef{lane, uint32_t(first)},
                                       [](const Link& l, EventRef v) { return l.from < v; });
            for (; it != profile->links.end() && it->from.lane == lane && it->from.index < last &&
                   m_lastCount < kMaxArrows;
                 ++it)
                draw(*it, false);
        }
    }
    const EventRef selected = ctx.timeline.selection ? ctx.timeline.selection->event() : EventRef{};
    if (selected.valid() && selected.lane < profile->lanes.size()) {
        for (const Link* l : profile->linksFrom(selected))
            draw(*l, true);
        for (const Link* l : profile->linksTo(selected))
            draw(*l, true);
    }
}

} // namespace dspark::ui
