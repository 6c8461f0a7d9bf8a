#include "timeline/LanePainter.h"

#include "timeline/TimelineSelection.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPolygonF>

#include <algorithm>
#include <cmath>
#include <limits>

namespace dspark::ui {

// Fills of one lane, batched per colour: one drawRects() call per colour instead of one fillRect()
// per mark, and adjacent one-pixel marks of the same colour merge into one rectangle. Labels are
// drawn after the fills. The buffers are reused from frame to frame (no allocation while painting).
struct LaneFillBatch {
    struct Bucket {
        QRgb color = 0;
        std::vector<QRect> rects;
    };
    std::vector<Bucket> buckets;
    size_t used = 0;
    size_t last = 0;

    struct Label {
        QPointF at;
        double room;
        uint32_t nameId;
        QRgb fill;
    };
    std::vector<Label> labels;
    std::vector<QRect> hits; // search-hit outlines

    void clear()
    {
        for (size_t i = 0; i < used; ++i)
            buckets[i].rects.clear();
        used = 0;
        last = 0;
        labels.clear();
        hits.clear();
    }
    std::vector<QRect>& bucket(QRgb color)
    {
        if (last < used && buckets[last].color == color)
            return buckets[last].rects;
        for (size_t i = 0; i < used; ++i)
            if (buckets[i].color == color) {
                last = i;
                return buckets[i].rects;
            }
        if (used == buckets.size())
            buckets.emplace_back();
        buckets[used].color = color;
        last = used++;
        return buckets[last].rects;
    }
    void add(const QRect& r, QRgb color)
    {
        std::vector<QRect>& rects = bucket(color);
        if (!rects.empty()) {
            QRect& prev = rects.back();
            if (prev.top() == r.top() && prev.height() == r.height() && r.left() <= prev.right() + 1 &&
                r.left() >= prev.left()) {
                prev.setRight(std::max(prev.right(), r.right()));
                return;
            }
        }
        rects.push_back(r);
    }
    void flush(QPainter& p)
    {
        p.setPen(Qt::NoPen);
        for (size_t i = 0; i < used; ++i) {
            if (buckets[i].rects.empty())
                continue;
            p.setBrush(QColor::fromRgb(buckets[i].color));
            p.drawRects(buckets[i].rects.data(), int(buckets[i].rects.size()));
        }
    }
};

static LaneFillBatch& scratchBatch()
{
    static thread_local LaneFillBatch batch;
    return batch;
}

namespace {

struct Identity {
    size_t operator()(size_t k) const { return k; }
};
struct ByDepth {
    const LargeVector<uint32_t>& ids;
    size_t operator()(size_t k) const { return ids[k]; }
};

// First k in [lo, hi) with pred(k) false, for a predicate true on a prefix.
template <typename Pred> size_t firstFalse(size_t lo, size_t hi, Pred pred)
{
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (pred(mid))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// The same answer, searched outwards from a guess (exponential, then binary search). Consecutive
// pixel columns hold similar numbers of events, so the guess is usually right and the search
// touches one or two cache lines instead of a dozen scattered ones.
template <typename Pred> size_t firstFalseNear(size_t lo, size_t hi, size_t guess, Pred pred)
{
    guess = std::clamp(guess, lo, hi);
    if (guess < hi && pred(guess)) {
        size_t known = guess, step = 1;
        for (;;) {
            const size_t probe = known + step;
            if (probe >= hi)
                return firstFalse(known + 1, hi, pred);
            if (!pred(probe))
                return firstFalse(known + 1, probe, pred);
            known = probe;
            step *= 2;
        }
    }
    size_t known = guess, step = 1; // pred(known) is false, or known == hi
    for (;;) {
        if (known == lo)
            return lo;
        const size_t probe = known - lo > step ? known - step : lo;
        if (pred(probe))
            return firstFalse(probe + 1, known, pred);
        known = probe;
        step *= 2;
    }
}

} // namespace

double LanePainter::depthTop(const QRectF& row, int depth) const
{
    const int d = std::min(depth, m_ctx.style.maxVisibleDepth - 1);
    return row.top() + m_ctx.style.lanePadding + d * m_ctx.style.depthRowHeight;
}

int LanePainter::depthRows(const Lane& lane, const QRectF& row) const
{
    const TimelineStyle& st = m_ctx.style;
    const int all = std::min<int>(lane.maxDepth, st.maxVisibleDepth - 1) + 1;
    const int fit = int(std::lround((row.height() - 2 * st.lanePadding) / st.depthRowHeight));
    return std::clamp(fit, 1, all);
}

int LanePainter::paintedDepths(const Lane& lane, const QRectF& row) const
{
    // A folded lane (LaneLayout) leaves out its deeper levels; an unfolded one draws them all, those
    // past maxVisibleDepth in its last row.
    const int rows = depthRows(lane, row);
    return rows < std::min<int>(lane.maxDepth + 1, m_ctx.style.maxVisibleDepth) ? rows : int(lane.maxDepth) + 1;
}

int LanePainter::depthAt(uint32_t lane, const QRectF& row, double y) const
{
    const Lane& l = m_ctx.profile()->lanes[lane];
    const double rel = y - row.top() - m_ctx.style.lanePadding;
    if (rel < 0)
        return -1;
    const int d = int(rel / m_ctx.style.depthRowHeight);
    return d < depthRows(l, row) ? d : -1;
}

void LanePainter::paint(QPainter& p, uint32_t laneIndex, const QRectF& row, double clipLeft, double clipRight) const
{
    const Profile* profile = m_ctx.profile();
    if (!profile || laneIndex >= profile->lanes.size())
        return;
    const Lane& lane = profile->lanes[laneIndex];
    if (lane.empty() || clipRight <= clipLeft)
        return;
    if (lane.info.kind == LaneKind::Counter) {
        paintCounter(p, laneIndex, row, clipLeft, clipRight);
        return;
    }
    // One extra ns each side so that events touching the edges are included.
    const TimeNs t0 = m_scale.timeAt(clipLeft) - 1;
    const TimeNs t1 = m_scale.timeAtOrAfter(clipRight) + 1;
    p.setFont(m_ctx.style.eventFont);
    LaneFillBatch& batch = scratchBatch();
    batch.clear();
    if (lane.maxDepth == 0) {
        // Depth 0 only: no event overlaps another, so ends ascend with starts.
        const auto [first, last] = lane.overlapping(t0, t1);
        paintDepth(batch, lane, Identity{}, first, last, depthTop(row, 0), depthHeight(), clipLeft, clipRight);
    } else {
        const int depths = paintedDepths(lane, row);
        for (int d = 0; d < depths; ++d) {
            const LargeVector<uint32_t>& ids = lane.byDepth[d];
            const size_t first = firstFalse(0, ids.size(), [&](size_t k) { return lane.endNs(ids[k]) < t0; });
            const size_t last = firstFalse(first, ids.size(), [&](size_t k) { return lane.startNs[ids[k]] < t1; });
            paintDepth(batch, lane, ByDepth{ids}, first, last, depthTop(row, d), depthHeight(), clipLeft, clipRight);
        }
    }
    batch.flush(p);
    if (!batch.hits.empty()) {
        p.setPen(QPen(m_ctx.style.searchHit.darker(115), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRects(batch.hits.data(), int(batch.hits.size()));
    }
    if (!batch.labels.empty()) {
        const QFontMetricsF fm(m_ctx.style.eventFont);
        for (const LaneFillBatch::Label& l : batch.labels) {
            const QString& text = m_ctx.name(l.nameId);
            p.setPen(QColor::fromRgb(EventPalette::textOn(l.fill)));
            if (fm.horizontalAdvance(text) <= l.room)
                p.drawText(l.at, text);
            else
                p.drawText(l.at, fm.elidedText(text, Qt::ElideRight, l.room));
        }
    }

    // Hover and selection outlines on top of everything in the lane.
    auto outline = [&](EventRef e, const QColor& color, int width) {
        if (!e.valid() || e.lane != laneIndex || e.index >= lane.size())
            return;
        QRectF r = eventRect(e, row);
        if (r.right() < clipLeft || r.left() > clipRight)
            return;
        r.setLeft(std::max(r.left(), clipLeft - 2));
        r.setRight(std::min(r.right(), clipRight + 2));
        if (r.width() < 3)
            r.adjust(-(3 - r.width()) / 2, 0, (3 - r.width()) / 2, 0);
        QPen pen(color, width);
        pen.setJoinStyle(Qt::MiterJoin);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(width / 2.0, width / 2.0, -width / 2.0, -width / 2.0));
    };
    outline(m_ctx.currentSearchHit, m_ctx.style.searchHit.darker(130), 2);
    if (m_ctx.selection) {
        outline(m_ctx.selection->hovered(), m_ctx.style.hover, 1);
        outline(m_ctx.selection->event(), m_ctx.style.selection, 2);
    }
}

template <typename Ids>
void LanePainter::paintDepth(LaneFillBatch& batch, const Lane& lane, const Ids& ids, size_t kBegin, size_t kEnd,
                             double y, double h, double clipLeft, double clipRight, bool labels) const
{
    const TimelineStyle& st = m_ctx.style;
    const int iy = int(std::lround(y));
    const int ih = std::max(1, int(h));
    const int left = int(std::floor(clipLeft));
    const int right = int(std::ceil(clipRight));
    const QFontMetricsF fm(st.eventFont);
    const double baseline = iy + (ih + fm.ascent() - fm.descent()) / 2.0;
    const bool searching = !m_ctx.searchNameHits.empty();
    const TimeNs* starts = lane.startNs.data();
    const DurationColumn& durations = lane.durationNs;

    size_t k = kBegin;
    size_t advance = 1; // events per merged column, to guess where the next column starts
    while (k < kEnd) {
        const size_t i = ids(k);
        const double xa = m_scale.x(starts[i]);
        const double xb = m_scale.x(starts[i] + durations[i]);
        const QRgb fill = m_ctx.palette.fill(lane.nameId[i], lane.kind[i]);
        if (xb - xa >= st.minBoxPx) {
            const int a = std::max(left, int(std::floor(xa)));
            const int b = std::min(right, int(std::floor(xb)));
            // A one-pixel gap at the right end separates neighbours of the same colour.
            const int w = b - a >= 4 ? b - a - 1 : std::max(1, b - a);
            batch.add(QRect(a, iy, w, ih), fill);
            if (searching && m_ctx.isSearchHit(lane.nameId[i]))
                batch.hits.push_back(QRect(a + 1, iy + 1, std::max(1, w - 2), ih - 2));
            if (labels && w >= st.minLabelPx)
                batch.labels.push_back({QPointF(a + 3, baseline), double(w - 6), lane.nameId[i], fill});
            ++k;
            continue;
        }
        // Sub-pixel event: every event starting in this pixel column becomes one mark.
        const double column = std::floor(xa);
        const TimeNs nextColumnNs = m_scale.timeAtOrAfter(column + 1.0);
        size_t next =
            firstFalseNear(k + 1, kEnd, k + advance, [&](size_t kk) { return starts[ids(kk)] < nextColumnNs; });
        advance = std::max<size_t>(1, next - k);
        // The column's last event may start here and reach far: it is drawn as a box of its own.
        size_t lastId = ids(next - 1);
        if (next - 1 > k && m_scale.x(starts[lastId] + durations[lastId]) - m_scale.x(starts[lastId]) >= st.minBoxPx) {
            --next;
            lastId = ids(next - 1);
        }
        const double markEnd = std::max(column + 1.0, m_scale.x(starts[lastId] + durations[lastId]));
        const int a = std::max(left, int(column));
        const int b = std::min(right, std::max(a + 1, int(std::ceil(markEnd))));
        if (next - k == 1 && lane.kind[i] == EventKind::Instant) {
            // Instants: a small triangle, drawn as a 3-step pyramid of rectangles.
            const int cx = int(std::lround(xa));
            const int third = std::max(1, ih / 3);
            batch.add(QRect(cx - 3, iy, 7, third), fill);
            batch.add(QRect(cx - 2, iy + third, 5, third), fill);
            batch.add(QRect(cx - 1, iy + 2 * third, 3, ih - 2 * third), fill);
        } else {
            batch.add(QRect(a, iy, b - a, ih), fill);
        }
        k = next;
    }
}

void LanePainter::paintSummary(QPainter& p, uint32_t laneIndex, const QRectF& strip, double clipLeft,
                               double clipRight) const
{
    const Profile* profile = m_ctx.profile();
    if (!profile || laneIndex >= profile->lanes.size())
        return;
    const Lane& lane = profile->lanes[laneIndex];
    if (lane.empty() || lane.info.kind == LaneKind::Counter || clipRight <= clipLeft)
        return;
    const TimeNs t0 = m_scale.timeAt(clipLeft) - 1;
    const TimeNs t1 = m_scale.timeAtOrAfter(clipRight) + 1;
    LaneFillBatch& batch = scratchBatch();
    batch.clear();
    if (lane.maxDepth == 0) {
        const auto [first, last] = lane.overlapping(t0, t1);
        paintDepth(batch, lane, Identity{}, first, last, strip.top(), strip.height(), clipLeft, clipRight, false);
        batch.flush(p);
        return;
    }
    const LargeVector<uint32_t>& ids = lane.byDepth[0];
    const size_t first = firstFalse(0, ids.size(), [&](size_t k) { return lane.endNs(ids[k]) < t0; });
    const size_t last = firstFalse(first, ids.size(), [&](size_t k) { return lane.startNs[ids[k]] < t1; });
    paintDepth(batch, lane, ByDepth{ids}, first, last, strip.top(), strip.height(), clipLeft, clipRight, false);
    batch.flush(p);
}

void LanePainter::paintCounter(QPainter& p, uint32_t laneIndex, const QRectF& row, double clipLeft,
                               double clipRight) const
{
    const Lane& lane = m_ctx.profile()->lanes[laneIndex];
    if (lane.value.size() != lane.size())
        return;
    const CounterLevels& levels = m_ctx.counterLevels(laneIndex);
    const double vmin = std::min(0.0, levels.minValue());
    const double vmax = std::max(levels.maxValue(), vmin + 1e-12);
    const double top = row.top() + 3;
    const double bottom = row.bottom() - 2;
    auto yOf = [&](double v) { return bottom - (v - vmin) / (vmax - vmin) * (bottom - top); };

    const int colL = int(std::floor(clipLeft));
    const int colR = int(std::ceil(clipRight));
    QPolygonF area;
    area.reserve(2 * (colR - colL) + 4);
    area << QPointF(colL, bottom);
    // The sample in force at a time is the last one starting at or before it.
    const TimeNs tLeft = m_scale.timeAt(colL);
    long long carried =
        (long long)(std::upper_bound(lane.startNs.begin(), lane.startNs.end(), tLeft) - lane.startNs.begin()) - 1;
    for (int c = colL; c < colR; ++c) {
        const TimeNs tEnd = m_scale.timeAtOrAfter(c + 1.0);
        const size_t from = size_t(carried + 1);
        const size_t next =
            size_t(std::lower_bound(lane.startNs.begin() + from, lane.startNs.end(), tEnd) - lane.startNs.begin());
        double y = bottom;
        if (carried >= 0 || next > from) {
            const size_t a = carried >= 0 ? size_t(carried) : from;
            y = yOf(levels.range(a, next).second);
        }
        area << QPointF(c, y) << QPointF(c + 1, y);
        carried = (long long)next - 1;
    }
    area << QPointF(colR, bottom);
    const QColor color = QColor::fromRgb(m_ctx.palette.counterColor(lane.info.name));
    QColor fill = color;
    fill.setAlpha(90);
    p.setPen(Qt::NoPen);
    p.setBrush(fill);
    p.drawPolygon(area);
    p.setPen(QPen(color, 1));
    p.setBrush(Qt::NoBrush);
    p.drawPolyline(area.constData() + 1, area.size() - 2);
}

QRectF LanePainter::eventRect(EventRef e, const QRectF& row) const
{
    const Lane& lane = m_ctx.profile()->lanes[e.lane];
    const double xa = m_scale.x(lane.startNs[e.index]);
    const double xb = std::max(xa + 1, m_scale.x(lane.endNs(e.index)));
    if (lane.info.kind == LaneKind::Counter)
        return QRectF(xa, row.top() + 2, std::max(1.0, xb - xa), row.height() - 4);
    const int d = lane.depthOf(e.index);
    return QRectF(xa, depthTop(row, d), xb - xa, depthHeight());
}

EventRef LanePainter::hitTest(uint32_t laneIndex, const QRectF& row, QPointF pos) const
{
    const Profile* profile = m_ctx.profile();
    if (!profile || laneIndex >= profile->lanes.size())
        return {};
    const Lane& lane = profile->lanes[laneIndex];
    if (lane.empty())
        return {};
    const TimeNs t = m_scale.timeAt(pos.x());
    if (lane.info.kind == LaneKind::Counter) {
        const auto it = std::upper_bound(lane.startNs.begin(), lane.startNs.end(), t);
        if (it == lane.startNs.begin())
            return {};
        return {laneIndex, uint32_t(it - lane.startNs.begin() - 1)};
    }
    const int d = depthAt(laneIndex, row, pos.y());
    if (d < 0)
        return {};
    const TimeNs tolerance = TimeNs(std::ceil(3.0 * m_scale.nsPerPx()));
    const int lastDepth = paintedDepths(lane, row) - 1;
    const int lastRow = m_ctx.style.maxVisibleDepth - 1;
    size_t best = lane.size();
    TimeNs bestDistance = std::numeric_limits<TimeNs>::max();
    for (int depth = d; depth <= (d == lastRow ? lastDepth : d); ++depth) {
        lane.forEachAtDepth(depth, t - tolerance, t + tolerance + 1, [&](size_t i) {
            const TimeNs start = lane.startNs[i], end = lane.endNs(i);
            const TimeNs distance = t < start ? start - t : (t >= end ? t - end : 0);
            if (distance > tolerance)
                return;
            if (distance < bestDistance ||
                (distance == bestDistance && best < lane.size() && lane.durationNs[i] > lane.durationNs[best])) {
                best = i;
                bestDistance = distance;
            }
        });
    }
    if (best == lane.size())
        return {};
    return {laneIndex, uint32_t(best)};
}

size_t LanePainter::eventsInColumn(uint32_t laneIndex, int depth, double x) const
{
    const Lane& lane = m_ctx.profile()->lanes[laneIndex];
    const double column = std::floor(x);
    const TimeNs a = m_scale.timeAtOrAfter(column), b = m_scale.timeAtOrAfter(column + 1);
    size_t count = 0;
    lane.forEachAtDepth(depth, a, b, [&](size_t i) { count += lane.startNs[i] >= a && lane.startNs[i] < b; });
    return count;
}

} // namespace dspark::ui
