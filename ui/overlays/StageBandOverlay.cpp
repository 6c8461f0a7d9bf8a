#include "overlays/StageBandOverlay.h"

#include "overlays/AnalysisPalette.h"
#include "overlays/CaptionPainter.h"
#include "overlays/Hatch.h"
#include "timeline/TimeFormat.h"

#include <QCoreApplication>
#include <QPainter>

#include <algorithm>

namespace dspark::ui {

void StageBandOverlay::paint(QPainter& p, const OverlayContext& ctx)
{
    m_lastBands = 0;
    m_lastReplayGaps = 0;
    const std::vector<size_t> steps = stepsToDraw(ctx);
    if (steps.empty())
        return;
    QFont font = ctx.timeline.style.rulerFont;
    font.setBold(true);
    CaptionPainter captions(font, 3);
    const QRectF area = ctx.eventArea;

    for (size_t i : steps) {
        const StepAnalysis& a = *analyses()->analysis(i);
        const std::vector<QRectF> runs = deviceRuns(ctx, a.window.rankIndex);
        if (runs.empty())
            continue;
        const StepBands& b = a.bands;
        auto xRange = [&](const Interval& in) {
            const double xa = std::max(area.left() - 2, ctx.x(in.startNs));
            const double xb = std::min(area.right() + 2, std::max(xa + 1, ctx.x(in.endNs)));
            return std::pair{xa, xb};
        };

        // Gaps first (hatched), then the bands above them.
        auto paintGap = [&](const Interval& gap, const QColor& color, const QString& label) {
            if (gap.lengthNs() <= 0 || gap.endNs < ctx.visibleStartNs || gap.startNs > ctx.visibleEndNs)
                return;
            const auto [xa, xb] = xRange(gap);
            QColor hatch = color;
            hatch.setAlpha(90);
            for (const QRectF& run : runs)
                fillHatched(p, QRectF(xa, run.top(), xb - xa, run.height()), hatch, true);
            if (xb - xa >= captions.width(label))
                captions.paint(p, label, xa, runs.front().top() + 2, xa, xb, color, Qt::white);
        };
        paintGap(b.plannerGap, AnalysisPalette::plannerGap(),
                 QCoreApplication::translate("StageBandOverlay", "Planner gap %1").arg(formatDuration(b.plannerGapNs)));
        paintGap(b.hostGap, AnalysisPalette::hostGap(),
                 QCoreApplication::translate("StageBandOverlay", "Host gap %1").arg(formatDuration(b.hostGapNs)));

        // The verify stream idling before each graph replay (issue 7 §4), on that stream's row.
        for (const ReplayGap& rg : a.replay.replays) {
            if (rg.gap.lengthNs() <= 0 || !rg.firstTask.valid() || rg.gap.endNs < ctx.visibleStartNs ||
                rg.gap.startNs > ctx.visibleEndNs)
                continue;
            const std::optional<QRectF> row = ctx.displayRect(rg.firstTask.lane);
            if (!row)
                continue;
            const auto [xa, xb] = xRange(rg.gap);
            const QColor color = AnalysisPalette::replayGap();
            QColor hatch = color;
            hatch.setAlpha(150);
            fillHatched(p, QRectF(xa, row->top() + 1, xb - xa, row->height() - 2), hatch, false);
            p.setPen(QPen(color, 1));
            p.drawRect(QRectF(xa, row->top() + 1, xb - xa, row->height() - 2));
            ++m_lastReplayGaps;
            const QString label = QCoreApplication::translate("StageBandOverlay", "Pre-replay gap %1")
                                      .arg(formatDuration(rg.gap.lengthNs()));
            if (xb - xa >= captions.width(label))
                captions.paint(p, label, xa + 1, row->bottom() - captions.height() - 1, xa, xb, color, Qt::white);
        }

        for (const std::optional<StageBand>* band : {&b.draft, &b.planner, &b.verify, &b.accept, &b.commit}) {
            if (!band->has_value())
                continue;
            const StageBand& sb = **band;
            if (sb.extent.lengthNs() <= 0 || sb.extent.endNs < ctx.visibleStartNs ||
                sb.extent.startNs > ctx.visibleEndNs)
                continue;
            ++m_lastBands;
            const QColor color = AnalysisPalette::stage(sb.stage);
            const auto [xa, xb] = xRange(sb.extent);
            QColor fill = color;
            fill.setAlpha(34);
            QColor edge = color;
            edge.setAlpha(190);
            for (const QRectF& run : runs) {
                p.fillRect(QRectF(xa, run.top(), xb - xa, run.height()), fill);
                p.setPen(QPen(edge, 1.2));
                p.drawLine(QPointF(xa, run.top()), QPointF(xa, run.bottom()));
                p.drawLine(QPointF(xb, run.top()), QPointF(xb, run.bottom()));
            }
            // Caption at the top of the first run: the full text when it fits in the band, else the
            // name alone; nothing when even that does not fit (the legend names the colours).
            const QString name = sb.label.isEmpty() ? stageLabel(sb.stage) : sb.label;
            const QString full = name + QLatin1Char(' ') + formatDuration(sb.extent.lengthNs());
            const QString text = xb - xa >= captions.width(full) ? full : name;
            if (xb - xa >= captions.width(text))
                captions.paint(p, text, xa + 1, runs.front().top() + 2, xa, xb, color.darker(115), Qt::white);
        }
    }
}

} // namespace dspark::ui
