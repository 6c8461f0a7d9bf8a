#include "overlays/CommBracketOverlay.h"

#include "overlays/AnalysisPalette.h"
#include "overlays/CaptionPainter.h"
#include "timeline/TimeFormat.h"

#include <QCoreApplication>
#include <QPainter>

#include <algorithm>

namespace dspark::ui {

void CommBracketOverlay::paint(QPainter& p, const OverlayContext& ctx)
{
    m_lastBrackets = 0;
    m_lastExposed = 0;
    const std::vector<size_t> steps = stepsToDraw(ctx, kDetailMinStepPx);
    if (steps.empty())
        return;
    const Profile* profile = ctx.profile();
    const QColor inflight = AnalysisPalette::commInflight();
    const QColor exposed = AnalysisPalette::commExposed();
    QFont font = ctx.timeline.style.rulerFont;
    font.setPixelSize(std::max(9, font.pixelSize() - 1));
    CaptionPainter captions(font, 1);
    p.setRenderHint(QPainter::Antialiasing, true);

    for (size_t i : steps) {
        const StepAnalysis& a = *analyses()->analysis(i);
        for (const CommOperation& op : a.comm.operations) {
            if (m_lastBrackets >= kMaxBrackets)
                return;
            const TimeNs first = std::min(op.issueNs, op.inflight.startNs);
            const TimeNs last = std::max(op.inflight.endNs, op.waitInterval.endNs);
            if (last < ctx.visibleStartNs || first > ctx.visibleEndNs)
                continue;
            uint32_t lane = op.lane;
            if (lane == UINT32_MAX && op.firstTask.valid())
                lane = op.firstTask.lane;
            if (lane == UINT32_MAX || lane >= profile->lanes.size())
                continue;
            const std::optional<QRectF> row = ctx.displayRect(lane);
            if (!row)
                continue;
            ++m_lastBrackets;
            // The bracket runs along the bottom of the transfer's lane row.
            const double y = row->bottom() - 3.5;
            const double xIssue = ctx.x(op.issueNs);
            const double xa = ctx.x(op.inflight.startNs);
            const double xb = std::max(xa + 1.5, ctx.x(op.inflight.endNs));
            p.setPen(QPen(inflight, 1.0, Qt::DotLine));
            if (xa - xIssue > 1)
                p.drawLine(QPointF(xIssue, y), QPointF(xa, y));
            p.setPen(QPen(inflight, 1.2));
            p.drawLine(QPointF(xIssue, y - 4), QPointF(xIssue, y + 2)); // issue tick
            p.setPen(QPen(inflight, 3.0, Qt::SolidLine, Qt::FlatCap));
            p.drawLine(QPointF(xa, y), QPointF(xb, y));

            const TimeNs exposedStart = op.inflight.endNs - op.exposedNs;
            if (op.exposedNs > 0) {
                ++m_lastExposed;
                const double xe = std::clamp(ctx.x(exposedStart), xa, xb - 1);
                p.setPen(QPen(exposed, 4.0, Qt::SolidLine, Qt::FlatCap));
                p.drawLine(QPointF(xe, y), QPointF(xb, y));
            }

            // The consumer's wait: joined to the end of the transfer, exposed part shaded on its lane.
            if (op.wait.valid()) {
                const std::optional<QRectF> waitRow = ctx.displayRect(op.wait.lane);
                const double xw = ctx.x(op.waitInterval.endNs);
                if (waitRow) {
                    const double yw = waitRow->top() + std::min(waitRow->height() / 2, 10.0);
                    QColor join = op.exposedNs > 0 ? exposed : inflight;
                    join.setAlpha(170);
                    p.setPen(QPen(join, 1.0, op.inferred ? Qt::DashLine : Qt::SolidLine));
                    p.drawLine(QPointF(xb, y), QPointF(xw, yw));
                    p.setPen(QPen(join, 1.4));
                    p.drawLine(QPointF(xw, yw - 5), QPointF(xw, yw + 5)); // wait tick
                    if (op.exposedNs > 0) {
                        QColor shade = exposed;
                        shade.setAlpha(70);
                        const double xs = ctx.x(std::max(op.waitInterval.startNs, exposedStart));
                        p.fillRect(QRectF(xs, waitRow->top() + 1, std::max(1.5, xw - xs), waitRow->height() - 2),
                                   shade);
                    }
                }
            }
            // Caption for operations the consumer waited on, when there is room.
            if (op.exposedNs > 0 && xb - xIssue > 60) {
                const QString text =
                    QCoreApplication::translate("CommBracketOverlay", "exposed %1").arg(formatDuration(op.exposedNs));
                QColor fill = exposed;
                fill.setAlpha(225);
                captions.paint(p, text, xb - captions.width(text), y - 5 - captions.height(), xIssue, xb, fill,
                               Qt::white);
            }
        }
    }
}

} // namespace dspark::ui
