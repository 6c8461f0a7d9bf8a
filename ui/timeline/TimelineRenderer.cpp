#include "timeline/TimelineRenderer.h"

#include "timeline/LanePainter.h"
#include "timeline/TimeFormat.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace dspark::ui {

// "552", "12.3k", "4.56M": event counts in the name column.
static QString shortCount(size_t n)
{
    if (n < 10'000)
        return QString::number(n);
    if (n < 1'000'000)
        return QString::number(double(n) / 1e3, 'f', n < 100'000 ? 1 : 0) + QLatin1Char('k');
    return QString::number(double(n) / 1e6, 'f', n < 100'000'000 ? 2 : 0) + QLatin1Char('M');
}

static QString shortValue(double v)
{
    const double a = std::fabs(v);
    if (a >= 1e9)
        return QString::number(v / 1e9, 'f', 2) + QLatin1Char('G');
    if (a >= 1e6)
        return QString::number(v / 1e6, 'f', 2) + QLatin1Char('M');
    if (a >= 1e4)
        return QString::number(v / 1e3, 'f', 1) + QLatin1Char('k');
    return QString::number(v, 'g', 4);
}

static void drawTriangle(QPainter& p, QPointF centre, bool collapsed, const QColor& color)
{
    QPainterPath path;
    if (collapsed) { // ▸
        path.moveTo(centre + QPointF(-2.5, -4.5));
        path.lineTo(centre + QPointF(3.5, 0));
        path.lineTo(centre + QPointF(-2.5, 4.5));
    } else { // ▾
        path.moveTo(centre + QPointF(-4.5, -2.5));
        path.lineTo(centre + QPointF(4.5, -2.5));
        path.lineTo(centre + QPointF(0, 3.5));
    }
    path.closeSubpath();
    const bool aa = p.testRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.fillPath(path, color);
    p.setRenderHint(QPainter::Antialiasing, aa);
}

TimeNs TimelineRenderer::majorTickStep(double nsPerPx, double minSpacingPx)
{
    const double target = std::max(1.0, nsPerPx * minSpacingPx);
    TimeNs magnitude = 1;
    while (magnitude <= TimeNs(4e17) && double(magnitude) * 10 <= target)
        magnitude *= 10;
    for (TimeNs m : {TimeNs(1), TimeNs(2), TimeNs(5), TimeNs(10)})
        if (double(magnitude * m) >= target)
            return magnitude * m;
    return magnitude * 10;
}

void TimelineRenderer::paintGrid(QPainter& p, const QRectF& rect, const TimeScale& scale) const
{
    const TimeNs step = majorTickStep(scale.nsPerPx());
    const TimeNs origin = m_ctx.absoluteTime ? 0 : (m_ctx.profile() ? m_ctx.profile()->firstNs() : 0);
    TimeNs rel = scale.timeAt(rect.left()) - origin;
    TimeNs t = origin + (rel >= 0 ? rel / step : (rel - step + 1) / step) * step;
    p.setPen(QPen(m_ctx.style.gridLine, 1));
    for (; t <= scale.timeAtOrAfter(rect.right()); t += step) {
        const double x = std::floor(scale.x(t)) + 0.5;
        if (x >= rect.left() && x <= rect.right())
            p.drawLine(QPointF(x, rect.top()), QPointF(x, rect.bottom()));
    }
}

void TimelineRenderer::paintRow(QPainter& p, int rowIndex, const QRectF& rect, const TimeScale& scale, double clipLeft,
                                double clipRight) const
{
    if (rowIndex < 0 || rowIndex >= int(m_layout.rows().size()))
        return;
    const LaneLayout::Row& row = m_layout.rows()[rowIndex];
    const TimelineStyle& st = m_ctx.style;
    const double labelRight = rect.left() + st.labelWidth;
    if (row.kind != LaneLayout::RowKind::Lane) {
        paintHeaderRow(p, row, rect, scale);
        return;
    }
    // Events area: background (alternating per lane), grid, events.
    const QRectF events(std::max(labelRight, clipLeft), rect.top(),
                        std::min(rect.right(), clipRight) - std::max(labelRight, clipLeft), rect.height());
    if (events.width() > 0) {
        p.fillRect(events, (rowIndex % 2) ? st.laneAltBackground : st.background);
        paintGrid(p, events, scale);
        LanePainter(m_ctx, scale).paint(p, row.lane, rect, events.left(), events.right());
    }
    p.setPen(QPen(st.gridLine, 1));
    p.drawLine(QPointF(rect.left(), rect.bottom() - 0.5), QPointF(rect.right(), rect.bottom() - 0.5));
    if (clipLeft < labelRight)
        paintLaneLabel(p, row, QRectF(rect.left(), rect.top(), st.labelWidth, rect.height()));
}

void TimelineRenderer::paintLaneLabel(QPainter& p, const LaneLayout::Row& row, const QRectF& r) const
{
    const TimelineStyle& st = m_ctx.style;
    const Lane& lane = m_ctx.profile()->lanes[row.lane];
    p.fillRect(r, st.labelBackground);
    p.setPen(QPen(st.gridLine, 1));
    p.drawLine(QPointF(r.right() - 0.5, r.top()), QPointF(r.right() - 0.5, r.bottom()));
    p.drawLine(QPointF(r.left(), r.bottom() - 0.5), QPointF(r.right(), r.bottom() - 0.5));

    const bool foldable = m_layout.isFoldable(row.lane);
    const double indent = foldable ? 26 : (row.pinned ? 12 : 24);
    if (row.pinned) {
        // A small accent bar marks a pinned lane.
        p.fillRect(QRectF(r.left() + 3, r.top() + 3, 3, r.height() - 6), st.cursorLine);
    }
    // Secondary text on the right: event count, or the value range of a counter.
    QString extra;
    if (lane.info.kind == LaneKind::Counter) {
        const CounterLevels& levels = m_ctx.counterLevels(row.lane);
        extra = lane.empty()
                    ? QString()
                    : QCoreApplication::translate("TimelineRenderer", "max %1").arg(shortValue(levels.maxValue()));
    } else {
        extra = shortCount(lane.size());
    }
    QFont small = st.labelFont;
    small.setPixelSize(std::max(8, st.labelFont.pixelSize() - 2));
    const QFontMetricsF fmSmall(small);
    const double extraWidth = fmSmall.horizontalAdvance(extra);
    const double firstRowCentre = r.top() + st.lanePadding + std::min(st.depthRowHeight, r.height()) / 2.0;
    const QFontMetricsF fm(st.labelFont);
    const double baseline = firstRowCentre + (fm.ascent() - fm.descent()) / 2.0;
    p.setFont(small);
    p.setPen(st.mutedText);
    p.drawText(QPointF(r.right() - 6 - extraWidth, baseline), extra);
    p.setFont(st.labelFont);
    p.setPen(st.text);
    const double room = r.width() - indent - extraWidth - 14;
    p.drawText(QPointF(r.left() + indent, baseline), fm.elidedText(m_layout.rowTitle(row), Qt::ElideMiddle, room));
    if (foldable)
        paintFoldMark(p, row, r, firstRowCentre, small);
}

// The fold triangle of a deep lane and, when folded, how many levels are left out.
void TimelineRenderer::paintFoldMark(QPainter& p, const LaneLayout::Row& row, const QRectF& r, double firstRowCentre,
                                     const QFont& small) const
{
    const TimelineStyle& st = m_ctx.style;
    const bool folded = m_layout.isFolded(row.lane);
    drawTriangle(p, QPointF(r.left() + 15, firstRowCentre), folded, st.mutedText);
    if (!folded || r.height() < st.lanePadding + 2 * st.depthRowHeight)
        return;
    const QFontMetricsF fm(small);
    p.setFont(small);
    p.setPen(st.mutedText);
    p.drawText(QPointF(r.left() + 26, firstRowCentre + st.depthRowHeight + (fm.ascent() - fm.descent()) / 2.0),
               m_layout.foldedText(row.lane));
}

void TimelineRenderer::paintHeaderRow(QPainter& p, const LaneLayout::Row& row, const QRectF& rect,
                                      const TimeScale& scale) const
{
    const TimelineStyle& st = m_ctx.style;
    const bool rank = row.kind == LaneLayout::RowKind::Rank;
    const QColor bg = rank ? st.rankHeaderBackground : st.processHeaderBackground;
    const QColor fg = rank ? st.rankHeaderText : st.text;
    p.fillRect(rect, bg);
    const double indent = rank ? 8 : 16;
    drawTriangle(p, QPointF(rect.left() + indent + 4, rect.center().y()), row.collapsed, fg);
    p.setFont(st.headerFont);
    p.setPen(fg);
    const QFontMetricsF fm(st.headerFont);
    const double baseline = rect.center().y() + (fm.ascent() - fm.descent()) / 2.0;
    // Lane count (process groups) or lane total (ranks), muted, on the right of the name column.
    QFont small = st.labelFont;
    small.setPixelSize(std::max(8, st.labelFont.pixelSize() - 2));
    const QString count = QString::number(m_layout.lanesUnder(row)); // the header's tooltip says "N lanes"
    const double countWidth = QFontMetricsF(small).horizontalAdvance(count);
    const double room = st.labelWidth - indent - 14 - countWidth - 12;
    p.drawText(QPointF(rect.left() + indent + 14, baseline),
               fm.elidedText(m_layout.rowTitle(row), Qt::ElideRight, room));
    p.setFont(small);
    QColor muted = rank ? st.rankHeaderText : st.mutedText;
    muted.setAlpha(rank ? 170 : 255);
    p.setPen(muted);
    p.drawText(QPointF(rect.left() + st.labelWidth - 6 - countWidth, baseline), count);

    // A collapsed process group shows the busy intervals of its lanes as a thin summary strip.
    if (!rank && row.collapsed && m_ctx.profile()) {
        const double left = rect.left() + st.labelWidth;
        const QRectF strip(left, rect.top() + 4, rect.right() - left, rect.height() - 8);
        p.fillRect(strip, st.background);
        const LanePainter painter(m_ctx, scale);
        for (uint32_t lane : m_layout.groups()[row.group].lanes)
            if (!m_layout.isHidden(lane))
                painter.paintSummary(p, lane, strip, strip.left(), strip.right());
    }
    p.setPen(QPen(rank ? bg.darker(140) : st.gridLine, 1));
    p.drawLine(QPointF(rect.left(), rect.bottom() - 0.5), QPointF(rect.right(), rect.bottom() - 0.5));
}

void TimelineRenderer::paintRuler(QPainter& p, const QRectF& rect, const TimeScale& scale,
                                  std::optional<TimeNs> cursorNs) const
{
    const TimelineStyle& st = m_ctx.style;
    p.fillRect(rect, st.rulerBackground);
    p.setPen(QPen(st.gridLine, 1));
    p.drawLine(QPointF(rect.left(), rect.bottom() - 0.5), QPointF(rect.right(), rect.bottom() - 0.5));
    const double eventsLeft = rect.left() + st.labelWidth;
    const QRectF ticksArea(eventsLeft, rect.top(), rect.right() - eventsLeft, rect.height());

    const TimeNs step = majorTickStep(scale.nsPerPx());
    TimeNs declaredUnit = 0;
    if (const Profile* profile = m_ctx.profile())
        if (const auto it = profile->metadata.find("trace.displayTimeUnit"); it != profile->metadata.end())
            declaredUnit = displayUnitNs(it->second);
    const TimeNs unit = rulerUnit(step, declaredUnit);
    const int decimals = decimalsForStep(step, unit);
    const bool absolute = m_ctx.absoluteTime;
    const TimeNs origin = absolute ? 0 : (m_ctx.profile() ? m_ctx.profile()->firstNs() : 0);
    const TimeNs startRel = scale.timeAt(ticksArea.left()) - origin;
    const TimeNs endRel = scale.timeAtOrAfter(ticksArea.right()) - origin;
    auto floorTo = [](TimeNs v, TimeNs m) { return (v >= 0 ? v / m : (v - m + 1) / m) * m; };

    // Labels stay short: when a tick would need many digits, ticks count from a base shown in the
    // name column ("+1.5 µs" after "12.340 000 s").
    const QString endLabel = formatInUnit(endRel, unit, decimals);
    const bool useBase = absolute || endLabel.size() > 10;
    const TimeNs base = useBase ? floorTo(startRel, step * 10) : 0;

    p.setFont(st.rulerFont);
    const QFontMetricsF fm(st.rulerFont);
    const double baseline = rect.bottom() - 7;
    p.save();
    p.setClipRect(ticksArea);
    const TimeNs minor = step / 5 > 0 ? step / 5 : step;
    for (TimeNs t = floorTo(startRel, minor); t <= endRel; t += minor) {
        const double x = std::floor(scale.x(origin + t)) + 0.5;
        const bool major = t % step == 0;
        p.setPen(QPen(st.tick, 1));
        p.drawLine(QPointF(x, rect.bottom() - (major ? 10 : 4)), QPointF(x, rect.bottom()));
        if (major) {
            QString label = useBase ? formatInUnit(t - base, unit, decimals) : formatInUnit(t, unit, decimals);
            if (useBase && t != base)
                label.prepend(QLatin1Char('+'));
            p.setPen(st.text);
            p.drawText(QPointF(x + 3, baseline - 4), label);
        }
    }
    if (cursorNs) {
        const double x = std::floor(scale.x(*cursorNs)) + 0.5;
        const TimeNs rel = *cursorNs - (absolute ? 0 : origin);
        const QString text =
            absolute ? formatClockTime(*cursorNs) : formatInUnit(rel, unit, unit == 1 ? 0 : std::min(9, decimals + 3));
        const double w = fm.horizontalAdvance(text) + 10;
        const double left = std::clamp(x - w / 2, ticksArea.left(), ticksArea.right() - w);
        const QRectF box(left, rect.top() + 2, w, fm.height() + 3);
        p.fillRect(box, st.cursorLine);
        p.setPen(Qt::white);
        p.drawText(box, Qt::AlignCenter, text);
        p.setPen(QPen(st.cursorLine, 1));
        p.drawLine(QPointF(x, box.bottom()), QPointF(x, rect.bottom()));
    }
    p.restore();

    // Name column: the visible span, and the base of the tick labels (or the time origin).
    const QRectF label(rect.left(), rect.top(), st.labelWidth, rect.height());
    p.fillRect(label, st.labelBackground);
    p.setPen(QPen(st.gridLine, 1));
    p.drawLine(QPointF(label.right() - 0.5, label.top()), QPointF(label.right() - 0.5, label.bottom()));
    p.setPen(st.text);
    QString top = QCoreApplication::translate("TimelineRenderer", "Span %1").arg(formatDuration(scale.spanNs()));
    QString bottom;
    if (useBase)
        bottom = absolute ? formatClockTime(origin + base)
                          : QCoreApplication::translate("TimelineRenderer", "+%1 from start")
                                .arg(formatInUnit(base, unit, unit == 1 ? 0 : std::max(decimals, 3)));
    else
        bottom = absolute ? QCoreApplication::translate("TimelineRenderer", "clock time")
                          : QCoreApplication::translate("TimelineRenderer", "from profile start");
    p.drawText(QPointF(label.left() + 8, label.top() + fm.ascent() + 2), top);
    p.setPen(st.mutedText);
    p.drawText(QPointF(label.left() + 8, label.bottom() - fm.descent() - 2),
               fm.elidedText(bottom, Qt::ElideRight, label.width() - 12));
}

OverlayContext TimelineRenderer::overlayContext(const TimeScale& scale, const QRectF& eventArea,
                                                std::function<std::optional<double>(int row)> rowTop, bool exporting,
                                                bool pinnedRegion) const
{
    OverlayContext ctx{m_ctx, scale, eventArea, scale.startNs, scale.endNs, exporting, {}, {}, {}};
    ctx.pinnedRegion = pinnedRegion;
    const LaneLayout* layout = &m_layout;
    const TimelineContext* tc = &m_ctx;
    const double left = eventArea.left() - m_ctx.style.labelWidth;
    const double width = eventArea.right() - left;
    auto rowRect = [layout, rowTop, left, width](int row) -> std::optional<QRectF> {
        if (row < 0)
            return std::nullopt;
        const std::optional<double> top = rowTop(row);
        if (!top)
            return std::nullopt;
        return QRectF(left, *top, width, layout->rows()[row].height);
    };
    ctx.laneRect = [layout, rowRect](uint32_t lane) { return rowRect(layout->rowOfLane(lane)); };
    ctx.displayRect = [layout, rowRect](uint32_t lane) { return rowRect(layout->displayRowOfLane(lane)); };
    const TimeScale* s = &scale;
    ctx.eventRect = [layout, rowRect, tc, s](EventRef e) -> std::optional<QRectF> {
        if (!e.valid() || !tc->profile() || e.lane >= tc->profile()->lanes.size())
            return std::nullopt;
        const int own = layout->rowOfLane(e.lane);
        if (own >= 0) {
            const std::optional<QRectF> r = rowRect(own);
            if (!r)
                return std::nullopt;
            return LanePainter(*tc, *s).eventRect(e, *r);
        }
        const std::optional<QRectF> header = rowRect(layout->displayRowOfLane(e.lane));
        if (!header)
            return std::nullopt;
        const double xa = s->x(tc->profile()->startNs(e));
        const double xb = std::max(xa + 1, s->x(tc->profile()->endNs(e)));
        return QRectF(xa, header->top() + 4, xb - xa, header->height() - 8);
    };
    return ctx;
}

std::vector<TimelineRenderer::StickyHeader> TimelineRenderer::stickyHeaders(double scroll) const
{
    std::vector<StickyHeader> out;
    const LaneLayout& layout = m_layout;
    const auto& rows = layout.rows();
    const double top = layout.pinnedHeight(); // where the scrolling rows begin
    const int first = layout.rowAt(scroll + top);
    if (first < layout.pinnedRowCount() || scroll <= 0)
        return out;
    // The headers above the row at the top: its rank's, then its process group's (a lane row).
    const LaneLayout::Row& at = rows[first];
    int rankRow = -1, groupRow = -1;
    for (int i = first; i >= layout.pinnedRowCount(); --i) {
        const LaneLayout::Row& r = rows[i];
        if (groupRow < 0 && r.kind == LaneLayout::RowKind::Process && at.kind == LaneLayout::RowKind::Lane &&
            r.group == at.group)
            groupRow = i;
        if (r.kind == LaneLayout::RowKind::Rank && r.rankIndex == at.rankIndex) {
            rankRow = i;
            break;
        }
    }
    double y = top;
    for (const int row : {rankRow, groupRow}) {
        if (row < 0)
            continue;
        const LaneLayout::Row& r = rows[row];
        if (r.y >= scroll + y)
            continue; // on screen where it is
        // Pushed up by the next header of the same kind as it comes in.
        double stickTop = y;
        for (int i = row + 1; i < int(rows.size()); ++i)
            if (rows[i].kind == r.kind || rows[i].kind == LaneLayout::RowKind::Rank) {
                stickTop = std::min(stickTop, rows[i].y - scroll - r.height);
                break;
            }
        out.push_back({row, QRectF(0, stickTop, std::floor(m_ctx.style.labelWidth), r.height)});
        y = stickTop + r.height;
    }
    return out;
}

void TimelineRenderer::paintStickyHeaders(QPainter& p, double scrollY, double rowsTop, const TimeScale& scale) const
{
    const std::vector<StickyHeader> headers = stickyHeaders(scrollY);
    if (headers.empty())
        return;
    const double left = scale.x0 - m_ctx.style.labelWidth;
    const double width = scale.right() - left;
    p.save();
    p.setClipRect(QRectF(left, rowsTop + m_layout.pinnedHeight(), m_ctx.style.labelWidth, 1e7), Qt::IntersectClip);
    for (const StickyHeader& h : headers) {
        // Only the name cell: the events under a held header stay visible.
        const QRectF rect = h.rect.translated(left, rowsTop);
        p.save();
        p.setClipRect(rect, Qt::IntersectClip);
        paintRow(p, h.row, QRectF(left, rect.top(), width, rect.height()), scale, left, rect.right());
        p.restore();
    }
    p.restore();
}

void TimelineRenderer::paintOverlays(QPainter& p, const OverlayContext& ctx,
                                     const std::vector<TimelineOverlay*>& overlays) const
{
    for (TimelineOverlay* overlay : overlays) {
        if (!overlay || !overlay->isVisible())
            continue;
        p.save();
        p.setClipRect(ctx.eventArea, Qt::IntersectClip);
        overlay->paint(p, ctx);
        p.restore();
    }
}

double TimelineRenderer::fullHeight() const
{
    return m_ctx.style.rulerHeight + m_layout.contentHeight();
}

void TimelineRenderer::render(QPainter& p, const QRectF& target, const RenderOptions& options,
                              const std::vector<TimelineOverlay*>& overlays) const
{
    const TimelineStyle& st = m_ctx.style;
    p.save();
    p.setClipRect(target);
    p.fillRect(target, st.background);
    const TimeScale scale(options.startNs, options.endNs, target.left() + st.labelWidth,
                          target.width() - st.labelWidth);
    paintRuler(p, QRectF(target.left(), target.top(), target.width(), st.rulerHeight), scale, options.cursorNs);

    const double rowsTop = target.top() + st.rulerHeight;
    const double pinnedBottom = rowsTop + m_layout.pinnedHeight();
    const double scrollY = options.allRows ? 0 : options.scrollY;
    const auto& rows = m_layout.rows();
    auto rowTop = [&](int row) -> std::optional<double> {
        const LaneLayout::Row& r = rows[row];
        if (r.pinned)
            return rowsTop + r.y;
        const double top = rowsTop + r.y - scrollY;
        if (top + r.height <= pinnedBottom || top >= target.bottom())
            return std::nullopt;
        return top;
    };
    const double eventsLeft = target.left() + st.labelWidth;
    // Scrolling rows, then the pinned rows above them, each followed by their overlays.
    const QRectF mainArea(target.left(), pinnedBottom, target.width(), target.bottom() - pinnedBottom);
    p.save();
    p.setClipRect(mainArea, Qt::IntersectClip);
    for (int i = m_layout.pinnedRowCount(); i < int(rows.size()); ++i)
        if (const std::optional<double> top = rowTop(i))
            paintRow(p, i, QRectF(target.left(), *top, target.width(), rows[i].height), scale, target.left(),
                     target.right());
    if (options.withOverlays) {
        const QRectF area(eventsLeft, pinnedBottom, target.right() - eventsLeft, mainArea.height());
        paintOverlays(p, overlayContext(scale, area, rowTop, true), overlays);
    }
    if (!options.allRows) // the headers the window holds at the top of the scrolling rows
        paintStickyHeaders(p, scrollY, rowsTop, scale);
    p.restore();
    if (m_layout.pinnedRowCount() > 0) {
        for (int i = 0; i < m_layout.pinnedRowCount(); ++i)
            paintRow(p, i, QRectF(target.left(), rowsTop + rows[i].y, target.width(), rows[i].height), scale,
                     target.left(), target.right());
        if (options.withOverlays) {
            const QRectF area(eventsLeft, rowsTop, target.right() - eventsLeft, m_layout.pinnedHeight());
            paintOverlays(p, overlayContext(scale, area, rowTop, true, true), overlays);
        }
        p.setPen(QPen(st.rankHeaderBackground, 2));
        p.drawLine(QPointF(target.left(), pinnedBottom - 1), QPointF(target.right(), pinnedBottom - 1));
    }
    p.restore();
}

} // namespace dspark::ui
