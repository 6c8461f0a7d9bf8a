#pragma once

#include "session/StepAnalyses.h"
#include "timeline/TimelineOverlay.h"

#include <QPointer>
#include <QRectF>

#include <vector>

namespace dspark::ui {

// Base of the overlays that draw the analyses of steps (bands, communication brackets, critical
// path): which steps to draw in a frame, and where a step's device lanes are.
class StepAnalysisOverlay : public TimelineOverlay {
    Q_OBJECT
public:
    explicit StepAnalysisOverlay(StepAnalyses* analyses, QObject* parent = nullptr);

    StepAnalyses* analyses() const { return m_analyses; }
    // Binds the overlay to another session's analyses (null: draws nothing).
    void setAnalyses(StepAnalyses* analyses);
    // Only these steps (indices into StepAnalyses); empty = every analysed step in view. An export of
    // one step draws that step only.
    void setFocusSteps(std::vector<size_t> steps);
    const std::vector<size_t>& focusSteps() const { return m_focus; }

    // Steps narrower than this on screen are not drawn (nothing readable would be left).
    static constexpr double kMinStepPx = 24;
    // The per-operation layers (communication brackets, critical path) need a step this wide: zoomed
    // out over many steps they would cover the lanes with marks too small to read.
    static constexpr double kDetailMinStepPx = 240;
    // At most this many steps are drawn in one frame (zoomed far out).
    static constexpr size_t kMaxSteps = 64;

protected:
    // The analysed steps to draw in this frame, in time order.
    std::vector<size_t> stepsToDraw(const OverlayContext& ctx, double minStepPx = kMinStepPx) const;
    // Vertical runs of adjacent rows showing the device lanes (NPU/GPU streams, communication) of a
    // trace rank, top to bottom; bands are painted over these.
    static std::vector<QRectF> deviceRuns(const OverlayContext& ctx, int traceRank);

private:
    QPointer<StepAnalyses> m_analyses;
    std::vector<size_t> m_focus;
};

} // namespace dspark::ui
