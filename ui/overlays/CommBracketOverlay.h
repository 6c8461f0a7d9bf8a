#pragma once

#include "overlays/StepAnalysisOverlay.h"

namespace dspark::ui {

// Every communication operation of a step as an issue → wait bracket (issue 7 §2, primer §4.5): on
// the transfer's stream a tick at the issue, a thin line to the in-flight interval, a thick bar while
// in flight; on the consumer's stream the wait that consumed it, joined to the transfer's end. The
// part of the transfer the consumer was blocked on (exposed) is painted in a warning colour on both
// lanes; the hidden part stays blue.
class CommBracketOverlay : public StepAnalysisOverlay {
    Q_OBJECT
public:
    using StepAnalysisOverlay::StepAnalysisOverlay;

    void paint(QPainter& painter, const OverlayContext& ctx) override;

    // Operations drawn / of those with an exposed part, in the last frame (tests).
    int lastBracketCount() const { return m_lastBrackets; }
    int lastExposedCount() const { return m_lastExposed; }

    static constexpr int kMaxBrackets = 6000;

private:
    int m_lastBrackets = 0;
    int m_lastExposed = 0;
};

} // namespace dspark::ui
