#include "overlays/StepAnalysisOverlay.h"

#include <algorithm>
#include <cmath>

namespace dspark::ui {

StepAnalysisOverlay::StepAnalysisOverlay(StepAnalyses* analyses, QObject* parent) : TimelineOverlay(parent)
{
    setAnalyses(analyses);
}

void StepAnalysisOverlay::setAnalyses(StepAnalyses* analyses)
{
    if (m_analyses)
        disconnect(m_analyses, nullptr, this, nullptr);
    m_analyses = analyses;
    m_focus.clear();
    if (analyses) {
        connect(analyses, &StepAnalyses::analysesReady, this, &TimelineOverlay::changed);
        connect(analyses, &StepAnalyses::profileChanged, this, [this]() {
            m_focus.clear();
            Q_EMIT changed();
        });
    }
    Q_EMIT changed();
}

void StepAnalysisOverlay::setFocusSteps(std::vector<size_t> steps)
{
    if (steps == m_focus)
        return;
    m_focus = std::move(steps);
    Q_EMIT changed();
}

std::vector<size_t> StepAnalysisOverlay::stepsToDraw(const OverlayContext& ctx, double minStepPx) const
{
    std::vector<size_t> out;
    if (!m_analyses || m_analyses->profile() != ctx.profile())
        return out;
    const std::vector<size_t> candidates =
        m_focus.empty() ? m_analyses->stepsOverlapping(-1, ctx.visibleStartNs, ctx.visibleEndNs) : m_focus;
    for (size_t i : candidates) {
        if (i >= m_analyses->stepCount() || !m_analyses->analysis(i))
            continue;
        const StepWindow& w = m_analyses->step(i).window;
        if (w.startNs >= ctx.visibleEndNs || w.horizonNs() <= ctx.visibleStartNs)
            continue;
        if (ctx.x(w.endNs) - ctx.x(w.startNs) < minStepPx)
            continue;
        out.push_back(i);
        if (out.size() >= kMaxSteps)
            break;
    }
    return out;
}

std::vector<QRectF> StepAnalysisOverlay::deviceRuns(const OverlayContext& ctx, int traceRank)
{
    const Profile* profile = ctx.profile();
    std::vector<QRectF> rects;
    if (!profile)
        return rects;
    for (uint32_t lane = 0; lane < profile->lanes.size(); ++lane) {
        const LaneInfo& info = profile->lanes[lane].info;
        if (info.rankIndex != traceRank || !(isDeviceLane(info.kind) || info.kind == LaneKind::Comm))
            continue;
        if (const std::optional<QRectF> r = ctx.displayRect(lane))
            rects.push_back(*r);
    }
    std::sort(rects.begin(), rects.end(), [](const QRectF& a, const QRectF& b) { return a.top() < b.top(); });
    std::vector<QRectF> runs;
    for (const QRectF& r : rects) {
        if (!runs.empty() && r.top() <= runs.back().bottom() + 0.5) {
            runs.back().setBottom(std::max(runs.back().bottom(), r.bottom()));
            continue;
        }
        runs.push_back(r);
    }
    return runs;
}

} // namespace dspark::ui
