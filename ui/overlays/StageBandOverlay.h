#pragma once

#include "overlays/StepAnalysisOverlay.h"

namespace dspark::ui {

// The stage bands of each step (issue 7 §1): translucent, labelled regions across the step's device
// lanes — Draft, Planner, Target Verify, Accept / Finalize, Commit — from each band's first task start
// to its last task end; the planner gap and the host gap before the next step as hatched regions; and
// on the verify stream the idle time before each graph replay (issue 7 §4). Captions carry the band's device elapsed
// time ("Target Verify 6.012 ms").
class StageBandOverlay : public StepAnalysisOverlay {
    Q_OBJECT
public:
    using StepAnalysisOverlay::StepAnalysisOverlay;

    void paint(QPainter& painter, const OverlayContext& ctx) override;

    // Bands painted in the last frame (tests).
    int lastBandCount() const { return m_lastBands; }
    int lastReplayGapCount() const { return m_lastReplayGaps; }

private:
    int m_lastBands = 0;
    int m_lastReplayGaps = 0;
};

} // namespace dspark::ui
