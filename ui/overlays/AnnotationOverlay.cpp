#include "overlays/AnnotationOverlay.h"

#include "timeline/TimeFormat.h"

#include <QDir>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <limits>

namespace dspark::ui {

static constexpr double kMaxTextWidth = 280;

QString annotationSessionPath(const Profile& profile)
{
    return AnnotationSet::sessionPathFor(QDir::cleanPath(QString::fromStdString(profile.rootPath)));
}

// One recorded edit: the annotations before and after it.
class AnnotationEditCommand : public QUndoCommand {
public:
    // `label`: an untranslated QT_TR_NOOP text of AnnotationOverlay, translated now and again on
    // a language change (retranslate()).
    AnnotationEditCommand(AnnotationOverlay* overlay, QVector<Annotation> before, QVector<Annotation> after,
                          const char* label)
        : m_overlay(overlay), m_before(std::move(before)), m_after(std::move(after)), m_label(label)
    {
        retranslate();
    }
    void retranslate() { setText(AnnotationOverlay::tr(m_label)); }
    void undo() override { m_overlay->restore(m_before); }
    void redo() override
    {
        if (m_pushed) { // QUndoStack::push() calls redo(): the edit is already shown
            m_pushed = false;
            return;
        }
        m_overlay->restore(m_after);
    }

private:
    AnnotationOverlay* m_overlay;
    QVector<Annotation> m_before, m_after;
    const char* m_label;
    bool m_pushed = true;
};

AnnotationOverlay::AnnotationOverlay(QObject* parent) : TimelineOverlay(parent), m_undo(new QUndoStack(this))
{
}

void AnnotationOverlay::setProfile(const Profile* profile)
{
    m_profile = profile;
    m_laneByKey.clear();
    if (profile)
        for (uint32_t i = 0; i < profile->lanes.size(); ++i) {
            const LaneInfo& info = profile->lanes[i].info;
            m_laneByKey.insert(AnnotationSet::laneKey(info.rankIndex, info.process, info.name), i);
        }
    m_selected = -1;
    m_preview.reset();
    m_last = {};
    Q_EMIT changed();
}

void AnnotationOverlay::setAnnotations(AnnotationSet set)
{
    m_set = std::move(set);
    m_recorded = m_set.items;
    m_undo->clear();
    m_selected = -1;
    Q_EMIT selectionChanged(-1);
    Q_EMIT changed();
}

void AnnotationOverlay::retranslateUndoTexts()
{
    // The stack owns its commands and hands them out const; only their text changes here.
    for (int i = 0; i < m_undo->count(); ++i)
        const_cast<AnnotationEditCommand*>(static_cast<const AnnotationEditCommand*>(m_undo->command(i)))
            ->retranslate();
}

void AnnotationOverlay::recordEdit(const char* label)
{
    if (m_set.items != m_recorded) {
        m_undo->push(new AnnotationEditCommand(this, m_recorded, m_set.items, label));
        m_recorded = m_set.items;
    }
    Q_EMIT edited();
}

void AnnotationOverlay::restore(const QVector<Annotation>& items)
{
    m_set.items = items;
    m_recorded = items;
    m_preview.reset();
    if (m_selected >= count())
        m_selected = -1;
    Q_EMIT selectionChanged(m_selected);
    Q_EMIT edited();
    Q_EMIT changed();
}

int AnnotationOverlay::add(const Annotation& annotation)
{
    m_set.items.push_back(annotation);
    recordEdit(annotation.kind == Annotation::Kind::Marker ? QT_TR_NOOP("Add Marker") : QT_TR_NOOP("Add Annotation"));
    Q_EMIT changed();
    return count() - 1;
}

void AnnotationOverlay::update(int index, const Annotation& annotation, bool notify)
{
    if (index < 0 || index >= count())
        return;
    const bool same = m_set.items[index] == annotation;
    m_set.items[index] = annotation;
    if (notify) {
        // Against the annotation as last recorded: a drag has already moved it (notify = false).
        const Annotation* before = index < m_recorded.size() ? &m_recorded[index] : nullptr;
        const bool text = before && before->text != annotation.text;
        const bool color = !text && before && before->color != annotation.color;
        if (annotation.kind == Annotation::Kind::Marker)
            recordEdit(text    ? QT_TR_NOOP("Rename Marker")
                       : color ? QT_TR_NOOP("Change Marker Colour")
                               : QT_TR_NOOP("Move Marker"));
        else
            recordEdit(text    ? QT_TR_NOOP("Edit Annotation Text")
                       : color ? QT_TR_NOOP("Change Annotation Colour")
                               : QT_TR_NOOP("Move Annotation"));
    }
    if (!same)
        Q_EMIT changed();
}

void AnnotationOverlay::remove(int index)
{
    if (index < 0 || index >= count())
        return;
    const bool marker = m_set.items[index].kind == Annotation::Kind::Marker;
    m_set.items.remove(index);
    if (m_selected == index)
        m_selected = -1;
    else if (m_selected > index)
        --m_selected;
    Q_EMIT selectionChanged(m_selected);
    recordEdit(marker ? QT_TR_NOOP("Delete Marker") : QT_TR_NOOP("Delete Annotation"));
    Q_EMIT changed();
}

void AnnotationOverlay::removeAll()
{
    if (m_set.items.isEmpty())
        return;
    m_set.items.clear();
    m_selected = -1;
    Q_EMIT selectionChanged(-1);
    recordEdit(QT_TR_NOOP("Clear Annotations"));
    Q_EMIT changed();
}

void AnnotationOverlay::setSelected(int index)
{
    if (index < -1 || index >= count())
        index = -1;
    if (index == m_selected)
        return;
    m_selected = index;
    Q_EMIT selectionChanged(index);
    Q_EMIT changed();
}

std::optional<uint32_t> AnnotationOverlay::laneOf(const QString& key) const
{
    const auto it = m_laneByKey.constFind(key);
    if (it == m_laneByKey.constEnd())
        return std::nullopt;
    return it.value();
}

QString AnnotationOverlay::keyOf(uint32_t lane) const
{
    if (!m_profile || lane >= m_profile->lanes.size())
        return {};
    const LaneInfo& info = m_profile->lanes[lane].info;
    return AnnotationSet::laneKey(info.rankIndex, info.process, info.name);
}

void AnnotationOverlay::setPreview(const Annotation& annotation)
{
    m_preview = annotation;
    Q_EMIT changed();
}

void AnnotationOverlay::clearPreview()
{
    if (!m_preview)
        return;
    m_preview.reset();
    Q_EMIT changed();
}

static QFont noteFont(const OverlayContext& ctx)
{
    QFont f = ctx.timeline.style.labelFont;
    f.setBold(true);
    return f;
}

static QColor colorOf(const Annotation& a)
{
    const QColor c(a.color);
    return c.isValid() ? c : QColor(0xe1, 0x1d, 0x48);
}

// Ranges and markers span every lane: painted first, picked last (by an edge or the caption).
static bool isBackground(const Annotation& a)
{
    return a.kind == Annotation::Kind::Range || a.kind == Annotation::Kind::Marker;
}

static bool isRangeMarker(const Annotation& a)
{
    return a.kind == Annotation::Kind::Marker && a.endNs > a.startNs;
}

// Text shown for an annotation: a range (and a range marker) adds its length.
static QString captionOf(const Annotation& a)
{
    if (a.kind != Annotation::Kind::Range && !isRangeMarker(a))
        return a.text;
    const QString length = formatDuration(a.endNs - a.startNs);
    return a.text.isEmpty() ? length : a.text + QStringLiteral(" (") + length + QLatin1Char(')');
}

// Top and bottom of the rows shown (content coordinates), for annotations that span every lane.
static double contentTop(const OverlayContext& ctx)
{
    double top = std::numeric_limits<double>::max();
    if (const Profile* profile = ctx.profile())
        for (uint32_t lane = 0; lane < profile->lanes.size(); ++lane)
            if (const std::optional<QRectF> r = ctx.displayRect(lane))
                top = std::min(top, r->top());
    return top == std::numeric_limits<double>::max() ? ctx.eventArea.top() : top;
}

static double contentBottom(const OverlayContext& ctx)
{
    double bottom = std::numeric_limits<double>::lowest();
    if (const Profile* profile = ctx.profile())
        for (uint32_t lane = 0; lane < profile->lanes.size(); ++lane)
            if (const std::optional<QRectF> r = ctx.displayRect(lane))
                bottom = std::max(bottom, r->bottom());
    return bottom == std::numeric_limits<double>::lowest() ? ctx.eventArea.bottom() : bottom;
}

double AnnotationOverlay::anchorY(const QString& laneKey, const OverlayContext& ctx) const
{
    if (!laneKey.isEmpty())
        if (const std::optional<uint32_t> lane = laneOf(laneKey))
            if (const std::optional<QRectF> r = ctx.displayRect(*lane))
                return r->top() + std::min(r->height() / 2, 9.0);
    return std::numeric_limits<double>::quiet_NaN();
}

AnnotationOverlay::Shape AnnotationOverlay::shapeOf(const Annotation& a, const OverlayContext& ctx) const
{
    Shape s;
    const QFontMetricsF fm(noteFont(ctx));
    const QString text = captionOf(a);
    QSizeF textSize;
    if (!text.isEmpty()) {
        const QRectF r = fm.boundingRect(QRectF(0, 0, kMaxTextWidth, 1e4), Qt::TextWordWrap, text);
        textSize = QSizeF(r.width() + 10, r.height() + 6);
    }
    // Geometry depends only on the time scale and the rows, never on the painted area (the window
    // repaints parts of the view; a caption must not move with the part being repainted).
    const double minX = ctx.scale.x0 + 1, maxX = ctx.scale.right() - 1;
    auto place = [&](double x, double y) {
        const double w = textSize.width();
        return QRectF(std::clamp(x, minX, std::max(minX, maxX - w)), y, w, textSize.height());
    };
    switch (a.kind) {
    case Annotation::Kind::Note: {
        const double x = ctx.x(a.startNs);
        double y = anchorY(a.laneKey, ctx);
        if (std::isnan(y)) {
            if (!a.laneKey.isEmpty())
                return s; // its lane is not shown
            y = contentTop(ctx) + 24;
        }
        const QRectF pin(x - 5, y - 5, 10, 10);
        s.hit = pin;
        if (!text.isEmpty()) {
            // Right of the pin, or left of it when the right edge is near.
            const bool left = x + 10 + textSize.width() > maxX;
            s.textBox = place(left ? x - 10 - textSize.width() : x + 10, y - textSize.height() / 2);
            s.hit = s.hit.united(s.textBox);
        }
        break;
    }
    case Annotation::Kind::Arrow: {
        double yt = anchorY(a.laneKey, ctx), yh = anchorY(a.endLaneKey.isEmpty() ? a.laneKey : a.endLaneKey, ctx);
        if (std::isnan(yt) || std::isnan(yh))
            return s;
        const QPointF tail(ctx.x(a.startNs), yt), head(ctx.x(a.endNs), yh);
        s.hit = QRectF(tail, head).normalized().adjusted(-5, -5, 5, 5);
        if (!text.isEmpty()) {
            const double above = head.y() >= tail.y() ? -textSize.height() - 6 : 6;
            s.textBox = place(tail.x() - textSize.width() / 2, tail.y() + above);
            s.hit = s.hit.united(s.textBox);
        }
        break;
    }
    case Annotation::Kind::Range: {
        double top = contentTop(ctx), bottom = contentBottom(ctx);
        if (!a.laneKey.isEmpty()) {
            const std::optional<uint32_t> lane = laneOf(a.laneKey);
            const std::optional<QRectF> r = lane ? ctx.displayRect(*lane) : std::nullopt;
            if (!r)
                return s;
            top = r->top();
            bottom = r->bottom();
        }
        const double xa = ctx.x(a.startNs), xb = std::max(xa + 2, ctx.x(a.endNs));
        s.hit = QRectF(xa, top, xb - xa, bottom - top);
        if (!text.isEmpty())
            s.textBox = place(xa + 3, top + 3);
        break;
    }
    case Annotation::Kind::Marker: {
        // A line (point) or band (range) across every lane, its name on a flag at the top.
        const double top = contentTop(ctx), bottom = contentBottom(ctx);
        const double xa = ctx.x(a.startNs), xb = isRangeMarker(a) ? std::max(xa + 2, ctx.x(a.endNs)) : xa;
        s.hit = QRectF(xa - 1, top, xb - xa + 2, bottom - top);
        if (!text.isEmpty())
            s.textBox = place(xa, top);
        break;
    }
    }
    return s;
}

static void drawArrowHead(QPainter& p, QPointF from, QPointF to, const QColor& color)
{
    const double dx = to.x() - from.x(), dy = to.y() - from.y();
    const double len = std::hypot(dx, dy);
    if (len < 1)
        return;
    const double ux = dx / len, uy = dy / len, size = 6;
    const QPointF head[3] = {to, to - QPointF(ux * size * 1.8 - uy * size, uy * size * 1.8 + ux * size),
                             to - QPointF(ux * size * 1.8 + uy * size, uy * size * 1.8 - ux * size)};
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawPolygon(head, 3);
}

void AnnotationOverlay::paintMarker(QPainter& p, const Annotation& a, const Shape& s, const OverlayContext& ctx,
                                    bool preview) const
{
    const QColor color = colorOf(a);
    p.save();
    p.setFont(noteFont(ctx));
    p.setRenderHint(QPainter::Antialiasing, false);
    const double xa = std::round(s.hit.left() + 1), xb = std::round(s.hit.right() - 1);
    if (isRangeMarker(a)) {
        QColor fill = color;
        fill.setAlpha(preview ? 20 : 30);
        p.fillRect(QRectF(xa, s.hit.top(), xb - xa, s.hit.height()), fill);
    }
    p.setPen(QPen(color, 2, preview ? Qt::DashLine : Qt::SolidLine, Qt::FlatCap));
    p.drawLine(QPointF(xa, s.hit.top()), QPointF(xa, s.hit.bottom()));
    if (isRangeMarker(a))
        p.drawLine(QPointF(xb, s.hit.top()), QPointF(xb, s.hit.bottom()));
    if (!s.textBox.isEmpty()) {
        // A flag in the marker's colour: its name reads as the marker's, not as a note.
        p.fillRect(s.textBox, color);
        p.setPen(color.lightnessF() > 0.7 ? QColor(0x1b, 0x1f, 0x23) : QColor(Qt::white));
        p.drawText(s.textBox.adjusted(5, 3, -5, -3), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, captionOf(a));
    }
    p.restore();
}

void AnnotationOverlay::paintOne(QPainter& p, const Annotation& a, const OverlayContext& ctx, bool selected,
                                 bool preview) const
{
    const Shape s = shapeOf(a, ctx);
    if (s.hit.isEmpty())
        return;
    const QColor color = colorOf(a);
    const Qt::PenStyle style = preview ? Qt::DashLine : Qt::SolidLine;
    switch (a.kind) {
    case Annotation::Kind::Note: {
        const double x = ctx.x(a.startNs);
        double y = anchorY(a.laneKey, ctx);
        if (std::isnan(y))
            y = contentTop(ctx) + 24;
        p.setPen(QPen(Qt::white, 1.5));
        p.setBrush(color);
        p.drawEllipse(QPointF(x, y), 4.5, 4.5);
        if (!s.textBox.isEmpty()) {
            p.setPen(QPen(color, 1.2, style));
            const double edge = s.textBox.left() > x ? s.textBox.left() : s.textBox.right();
            p.drawLine(QPointF(x + (edge > x ? 4.5 : -4.5), y), QPointF(edge, s.textBox.center().y()));
        }
        break;
    }
    case Annotation::Kind::Arrow: {
        const QPointF tail(ctx.x(a.startNs), anchorY(a.laneKey, ctx));
        const QPointF head(ctx.x(a.endNs), anchorY(a.endLaneKey.isEmpty() ? a.laneKey : a.endLaneKey, ctx));
        p.setPen(QPen(Qt::white, 4.5, Qt::SolidLine, Qt::RoundCap)); // halo: readable over events
        p.drawLine(tail, head);
        p.setPen(QPen(color, 2.2, style, Qt::RoundCap));
        p.drawLine(tail, head);
        drawArrowHead(p, tail, head, color);
        p.setPen(QPen(Qt::white, 1.2));
        p.setBrush(color);
        p.drawEllipse(tail, 3, 3);
        break;
    }
    case Annotation::Kind::Range: {
        // Crisp, pixel-aligned edges: a range marks exact times.
        p.save();
        p.setRenderHint(QPainter::Antialiasing, false);
        QColor fill = color;
        fill.setAlpha(preview ? 25 : 38);
        p.fillRect(s.hit, fill);
        p.setPen(QPen(color, 2, style, Qt::FlatCap));
        const double xa = std::round(s.hit.left()), xb = std::round(s.hit.right());
        p.drawLine(QPointF(xa, s.hit.top()), QPointF(xa, s.hit.bottom()));
        p.drawLine(QPointF(xb, s.hit.top()), QPointF(xb, s.hit.bottom()));
        p.restore();
        break;
    }
    case Annotation::Kind::Marker: paintMarker(p, a, s, ctx, preview); break;
    }
    if (!s.textBox.isEmpty() && a.kind != Annotation::Kind::Marker) {
        p.setPen(QPen(color, 1.2, style));
        p.setBrush(QColor(255, 255, 255, 238));
        p.drawRoundedRect(s.textBox, 3, 3);
        p.setFont(noteFont(ctx));
        p.setPen(QColor(0x1b, 0x1f, 0x23));
        p.drawText(s.textBox.adjusted(5, 3, -5, -3), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, captionOf(a));
    }
    if (selected) {
        p.setPen(QPen(QColor(0x10, 0x20, 0x40), 1.2, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(s.hit.adjusted(-3, -3, 3, 3));
    }
}

void AnnotationOverlay::paint(QPainter& p, const OverlayContext& ctx)
{
    if (!ctx.exporting) {
        m_last.timeline = &ctx.timeline;
        m_last.scale = ctx.scale;
        m_last.area = ctx.eventArea;
        m_last.startNs = ctx.visibleStartNs;
        m_last.endNs = ctx.visibleEndNs;
        m_last.laneRect = ctx.laneRect;
        m_last.displayRect = ctx.displayRect;
        m_last.eventRect = ctx.eventRect;
    }
    if (m_set.items.isEmpty() && !m_preview)
        return;
    p.setRenderHint(QPainter::Antialiasing, true);
    // Ranges first (they are backgrounds), then arrows and notes above them.
    for (int pass = 0; pass < 2; ++pass)
        for (int i = 0; i < count(); ++i) {
            const Annotation& a = m_set.items[i];
            if (isBackground(a) != (pass == 0))
                continue;
            if (std::max(a.startNs, a.endNs) < ctx.visibleStartNs && a.kind != Annotation::Kind::Note)
                continue;
            paintOne(p, a, ctx, i == m_selected && !ctx.exporting, false);
        }
    if (m_preview && !ctx.exporting)
        paintOne(p, *m_preview, ctx, false, true);
}

int AnnotationOverlay::annotationAt(QPointF pos) const
{
    if (!m_last.timeline)
        return -1;
    const OverlayContext ctx{*m_last.timeline, m_last.scale,       m_last.area,     m_last.startNs, m_last.endNs, false,
                             m_last.laneRect,  m_last.displayRect, m_last.eventRect};
    // Notes and arrows sit above ranges: test them first, the last painted first.
    for (int pass = 0; pass < 2; ++pass)
        for (int i = count() - 1; i >= 0; --i) {
            const Annotation& a = m_set.items[i];
            if (isBackground(a) != (pass == 1))
                continue;
            const Shape s = shapeOf(a, ctx);
            if (s.hit.isEmpty())
                continue;
            if (isBackground(a)) {
                // A range is picked by its caption or its edges, not by its inside (that is the timeline).
                const bool edge = std::fabs(pos.x() - s.hit.left()) <= 4 || std::fabs(pos.x() - s.hit.right()) <= 4;
                if ((edge && pos.y() >= s.hit.top() && pos.y() <= s.hit.bottom()) || s.textBox.contains(pos))
                    return i;
                continue;
            }
            if (s.hit.adjusted(-2, -2, 2, 2).contains(pos))
                return i;
        }
    return -1;
}

} // namespace dspark::ui
