#include "report/ReportPainter.h"

#include "overlays/Hatch.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace dspark::ui {

static constexpr double kMargin = 10;
static constexpr double kLegendSwatch = 22;

ReportPainter::ReportPainter(const TimelineContext& context, const LaneLayout& layout)
    : m_ctx(context), m_layout(layout)
{
}

QFont ReportPainter::reportFont(int pixelSize, bool bold)
{
    QFont f;
    // DejaVu for Latin, Noto CJK for Chinese lane names / translations; Qt merges per glyph.
    f.setFamilies({QStringLiteral("DejaVu Sans"), QStringLiteral("Noto Sans CJK SC"), QStringLiteral("Sans Serif")});
    f.setPixelSize(pixelSize);
    f.setBold(bold);
    return f;
}

double ReportPainter::paintHeader(QPainter& p, double width, bool dryRun) const
{
    if (header.title.isEmpty() && header.details.isEmpty() && header.warning.isEmpty())
        return 0;
    double y = kMargin;
    const double textWidth = width - 2 * kMargin;
    auto line = [&](const QString& text, const QFont& font, const QColor& color) {
        if (text.isEmpty())
            return;
        const QFontMetricsF fm(font);
        // Long lines wrap at the separators rather than being cut.
        const QRectF box = fm.boundingRect(QRectF(kMargin, y, textWidth, 1e4), Qt::TextWordWrap, text);
        if (!dryRun) {
            p.setFont(font);
            p.setPen(color);
            p.drawText(QRectF(kMargin, y, textWidth, box.height() + 2), Qt::TextWordWrap | Qt::AlignLeft, text);
        }
        y += box.height() + 3;
    };
    line(header.title, reportFont(15, true), QColor(0x11, 0x18, 0x27));
    for (const QString& d : header.details)
        line(d, reportFont(12), QColor(0x37, 0x41, 0x51));
    line(header.warning, reportFont(12, true), QColor(0xb9, 0x1c, 0x1c));
    // Whole pixels: the rows below then sit on the pixel grid (crisp lines, exact colours).
    return std::ceil(y + kMargin / 2);
}

static void paintSwatch(QPainter& p, const LegendItem& item, const QRectF& r)
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    switch (item.swatch) {
    case LegendItem::Swatch::Band: {
        QColor fill = item.color;
        fill.setAlpha(60);
        p.fillRect(r, fill);
        p.setPen(QPen(item.color, 1.5));
        p.drawLine(r.topLeft(), r.bottomLeft());
        p.drawLine(r.topRight(), r.bottomRight());
        break;
    }
    case LegendItem::Swatch::Hatch:
    case LegendItem::Swatch::BackHatch: {
        QColor c = item.color;
        c.setAlpha(150);
        fillHatched(p, r, c, item.swatch == LegendItem::Swatch::Hatch, 4.0);
        p.setPen(QPen(item.color, 1));
        p.drawRect(r);
        break;
    }
    case LegendItem::Swatch::Bar:
        p.setPen(QPen(item.color, 4, Qt::SolidLine, Qt::FlatCap));
        p.drawLine(QPointF(r.left(), r.center().y()), QPointF(r.right(), r.center().y()));
        break;
    case LegendItem::Swatch::Outline:
        p.setPen(QPen(item.color, 2));
        p.setBrush(QColor(0xcb, 0xd5, 0xe1));
        p.drawRect(r.adjusted(2, 1, -2, -1));
        break;
    case LegendItem::Swatch::Dot:
        p.setPen(Qt::NoPen);
        p.setBrush(item.color);
        p.drawEllipse(r.center(), 4.5, 4.5);
        break;
    }
    p.restore();
}

double ReportPainter::paintLegend(QPainter& p, double top, double width, bool dryRun) const
{
    if (legend.empty())
        return 0;
    const QFont font = reportFont(12);
    const QFontMetricsF fm(font);
    const double rowH = std::max(fm.height(), 12.0) + 6;
    double x = kMargin, y = top + kMargin / 2;
    const QString heading = QCoreApplication::translate("ReportPainter", "Legend:");
    const QFont bold = reportFont(12, true);
    const double headingW = QFontMetricsF(bold).horizontalAdvance(heading) + 10;
    if (!dryRun) {
        p.setFont(bold);
        p.setPen(QColor(0x11, 0x18, 0x27));
        p.drawText(QPointF(x, y + (rowH + fm.ascent() - fm.descent()) / 2), heading);
    }
    x += headingW;
    for (const LegendItem& item : legend) {
        const double w = kLegendSwatch + 6 + fm.horizontalAdvance(item.label) + 16;
        if (x + w > width - kMargin && x > kMargin + headingW) {
            x = kMargin + headingW;
            y += rowH;
        }
        if (!dryRun) {
            paintSwatch(p, item, QRectF(x, y + 3, kLegendSwatch, rowH - 6));
            p.setFont(font);
            p.setPen(QColor(0x1f, 0x29, 0x37));
            p.drawText(QPointF(x + kLegendSwatch + 6, y + (rowH + fm.ascent() - fm.descent()) / 2), item.label);
        }
        x += w;
    }
    return std::ceil(y + rowH + kMargin / 2 - top);
}

double ReportPainter::headerHeight(double width) const
{
    QImage scratch(1, 1, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&scratch);
    return paintHeader(p, width, true);
}

double ReportPainter::legendHeight(double width) const
{
    QImage scratch(1, 1, QImage::Format_ARGB32_Premultiplied);
    QPainter p(&scratch);
    return paintLegend(p, 0, width, true);
}

double ReportPainter::preferredHeight(double width) const
{
    const TimelineRenderer renderer(m_ctx, m_layout);
    return std::ceil(headerHeight(width) + renderer.fullHeight() + summaryHeight() + legendHeight(width) + 1);
}

static constexpr double kSummaryRowHeight = 32;

double ReportPainter::summaryHeight() const
{
    return summary.empty() ? 0 : std::ceil(summary.size() * kSummaryRowHeight + kMargin / 2);
}

double ReportPainter::timelineHeight(const QSizeF& size, double headerH) const
{
    const TimelineRenderer renderer(m_ctx, m_layout);
    const double h = std::max(0.0, size.height() - headerH - summaryHeight() - legendHeight(size.width()));
    // Every row from the top: when they do not fill the page, the rest follows the last row.
    return allRows ? std::min(h, std::ceil(renderer.fullHeight())) : h;
}

QRectF ReportPainter::summaryRowRect(const QSizeF& size, size_t i) const
{
    const double headerH = headerHeight(size.width());
    const double top = headerH + timelineHeight(size, headerH) + kMargin / 2 + double(i) * kSummaryRowHeight;
    return QRectF(0, top, size.width(), kSummaryRowHeight);
}

void ReportPainter::paintSummary(QPainter& p, double top, double width) const
{
    const double left = m_ctx.style.labelWidth;
    const double right = width - 1;
    const double nsPerPx = double(std::max<TimeNs>(1, endNs - startNs)) / std::max(1.0, right - left);
    auto x = [&](TimeNs t) { return std::clamp(left + double(t - startNs) / nsPerPx, left, right); };
    const QFont font = reportFont(11);
    const QFont bold = reportFont(11, true);
    const QFontMetricsF fm(font), fmBold(bold);
    for (size_t i = 0; i < summary.size(); ++i) {
        const SummaryRow& row = summary[i];
        const QRectF r(0, top + kMargin / 2 + double(i) * kSummaryRowHeight, width, kSummaryRowHeight);
        p.fillRect(QRectF(left, r.top() + 2, right - left, r.height() - 4), QColor(0xf3, 0xf4, 0xf6));
        // The name column: what the row is (bold), and its total under it.
        const double textW = left - 12;
        const double half = r.height() / 2;
        p.setFont(bold);
        p.setPen(QColor(0x11, 0x18, 0x27));
        p.drawText(QRectF(6, r.top(), textW, half), Qt::AlignBottom | Qt::AlignLeft,
                   fmBold.elidedText(row.label, Qt::ElideRight, textW));
        p.setFont(font);
        p.setPen(QColor(0x37, 0x41, 0x51));
        p.drawText(QRectF(6, r.top() + half, textW, half), Qt::AlignTop | Qt::AlignLeft,
                   fm.elidedText(row.total, Qt::ElideRight, textW));
        for (const SummaryRow::Piece& piece : row.pieces) {
            // At least a pixel: a short interval stays visible.
            const double a = x(piece.interval.startNs), b = std::max(x(piece.interval.endNs), a + 1);
            const QRectF box(a, r.top() + 4, b - a, r.height() - 8);
            p.fillRect(box, piece.color);
            if (!piece.caption.isEmpty() && fm.horizontalAdvance(piece.caption) + 6 < box.width()) {
                p.setFont(font);
                p.setPen(piece.color.lightness() > 150 ? QColor(0x11, 0x18, 0x27) : Qt::white);
                p.drawText(box, Qt::AlignCenter, piece.caption);
            }
        }
    }
}

void ReportPainter::paint(QPainter& p, const QSizeF& size) const
{
    p.save();
    p.fillRect(QRectF(QPointF(0, 0), size), Qt::white);
    const double headerH = paintHeader(p, size.width(), false);
    const double legendH = legendHeight(size.width());
    const TimelineRenderer renderer(m_ctx, m_layout);
    const double timelineH = timelineHeight(size, headerH);
    TimelineRenderer::RenderOptions options;
    options.startNs = startNs;
    options.endNs = endNs;
    options.allRows = allRows;
    options.scrollY = scrollY;
    const QRectF timelineRect(0, headerH, size.width(), timelineH);
    renderer.render(p, timelineRect, options, overlays);
    // A frame around the timeline so that it reads as one figure.
    p.setPen(QPen(QColor(0x9c, 0xa3, 0xaf), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(timelineRect.adjusted(0.5, 0.5, -0.5, -0.5));
    if (!summary.empty())
        paintSummary(p, timelineRect.bottom(), size.width());
    if (legendH > 0)
        paintLegend(p, timelineRect.bottom() + summaryHeight(), size.width(), false);
    p.restore();
}

} // namespace dspark::ui
