#pragma once

#include "overlays/StepAnalysisOverlay.h"

namespace dspark::ui {

// The critical path of each step (issue 7 §3): every task, wait or host call on the path outlined,
// consecutive hops joined by a line (an arrow where the path changes lane: a launch, a record → wait,
// a sync released by the device).
class CriticalPathOverlay : public StepAnalysisOverlay {
    Q_OBJECT
public:
    using StepAnalysisOverlay::StepAnalysisOverlay;

    void paint(QPainter& painter, const OverlayContext& ctx) override;

    // Pieces of the path drawn / of those outlined (wide enough) / lane changes, in the last frame.
    int lastPieceCount() const { return m_lastPieces; }
    int lastOutlineCount() const { return m_lastOutlines; }
    int lastJumpCount() const { return m_lastJumps; }

private:
    int m_lastPieces = 0;
    int m_lastOutlines = 0;
    int m_lastJumps = 0;
};

} // namespace dspark::ui
