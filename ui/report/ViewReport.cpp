#include "report/ViewReport.h"

#include "overlays/AnnotationOverlay.h"
#include "overlays/CommBracketOverlay.h"
#include "overlays/CriticalPathOverlay.h"
#include "overlays/StageBandOverlay.h"
#include "session/StepAnalyses.h"
#include "timeline/TimelineView.h"
#include "timeline/TimelineWidget.h"

#include <QPainter>

#include <cmath>

namespace dspark::ui {

ViewReport::ViewReport(const TimelineWidget& timeline, const StepAnalyses* analyses, const ReportParts& parts,
                       bool allLanes)
    : m_timeline(timeline), m_painter(std::make_unique<ReportPainter>(timeline.context(), *timeline.layout())),
      m_allLanes(allLanes)
{
    const TimelineRenderer::RenderOptions view = timeline.currentViewOptions();
    m_painter->startNs = view.startNs;
    m_painter->endNs = view.endNs;
    m_painter->scrollY = view.scrollY;
    m_painter->allRows = allLanes;
    for (TimelineOverlay* o : timeline.overlays()) {
        if ((qobject_cast<StageBandOverlay*>(o) && !parts.stageBands) ||
            (qobject_cast<CommBracketOverlay*>(o) && !parts.commBrackets) ||
            (qobject_cast<CriticalPathOverlay*>(o) && !parts.criticalPath) ||
            (qobject_cast<AnnotationOverlay*>(o) && !parts.annotations))
            continue;
        m_painter->overlays.push_back(o);
    }
    const Profile* profile = timeline.profile();
    std::vector<const StepAnalysis*> shown;
    if (profile && analyses && analyses->profile() == profile)
        for (size_t i : analyses->stepsOverlapping(-1, view.startNs, view.endNs))
            if (const StepAnalysis* a = analyses->analysis(i))
                shown.push_back(a);
    m_painter->legend = analysisLegend(parts, shown);
    if (!profile)
        return;
    // The step the view is on: the one whose window covers most of the view, if it covers half.
    const TimeNs span = std::max<TimeNs>(1, view.endNs - view.startNs);
    std::optional<size_t> best;
    TimeNs bestCover = 0;
    if (analyses && analyses->profile() == profile)
        for (size_t i : analyses->stepsOverlapping(-1, view.startNs, view.endNs)) {
            const StepWindow& w = analyses->step(i).window;
            const TimeNs cover = std::min(view.endNs, w.horizonNs()) - std::max(view.startNs, w.startNs);
            if (cover > bestCover && analyses->analysis(i)) {
                bestCover = cover;
                best = i;
            }
        }
    if (best && bestCover * 2 >= span)
        m_painter->header = stepReportHeader(*profile, *analyses->analysis(*best), analyses->step(*best));
    else
        m_painter->header = rangeReportHeader(*profile, view.startNs, view.endNs);
}

QSize ViewReport::preferredSize() const
{
    const int width = m_timeline.view()->viewport()->width();
    if (m_allLanes)
        return QSize(width, int(m_painter->preferredHeight(width)));
    const double rows = m_timeline.context().style.rulerHeight + m_timeline.view()->viewport()->height();
    return QSize(width, int(std::ceil(m_painter->headerHeight(width) + rows + m_painter->legendHeight(width))));
}

void ViewReport::paint(QPainter& painter, const QSizeF& size) const
{
    m_painter->paint(painter, size);
}

QString ViewReport::exportTo(const QString& path, ImageFormat format, QSize size, double scale) const
{
    if (size.isEmpty())
        size = preferredSize();
    return writeImage(
        path, format, size, scale, [this](QPainter& p, const QSizeF& s) { paint(p, s); }, m_painter->header.title);
}

QImage ViewReport::toImage(QSize size, double scale) const
{
    if (size.isEmpty())
        size = preferredSize();
    return renderImage(size, scale, [this](QPainter& p, const QSizeF& s) { paint(p, s); });
}

} // namespace dspark::ui
