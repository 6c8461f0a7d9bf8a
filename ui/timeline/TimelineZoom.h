#pragma once

#include "model/Lane.h"

#include <QObject>
#include <QTimer>

#include <vector>

namespace dspark::ui {

// The one source of truth for "where am I looking": the visible time range that the ruler, every
// lane, the overlays, the scroll bar and the tables listen to, plus the history of what the user
// looked at (Back/Forward, undo/redo of view changes). Continuous gestures (wheel, drag, held keys)
// are coalesced into one history entry.
class TimelineZoom : public QObject {
    Q_OBJECT
public:
    struct Range {
        TimeNs startNs = 0;
        TimeNs endNs = 1;
        TimeNs spanNs() const { return endNs - startNs; }
        friend bool operator==(const Range&, const Range&) = default;
    };
    // Commit: a discrete jump, recorded in the history at once. Gesture: part of a continuous
    // change; the range before the gesture is recorded once the gesture pauses.
    enum class Change { Commit, Gesture };

    static constexpr TimeNs kMinSpanNs = 20;

    explicit TimelineZoom(QObject* parent = nullptr);

    // The extent of the profile; clears the history and shows everything.
    void setBounds(TimeNs firstNs, TimeNs lastNs);
    TimeNs boundsStartNs() const { return m_boundsStart; }
    TimeNs boundsEndNs() const { return m_boundsEnd; }
    // What the first view and fitAll() show: the bounds, unless narrowed after setBounds() (to the
    // events, when counters span a mostly empty session). Shows it without a history entry.
    void setFitRange(TimeNs startNs, TimeNs endNs);
    // Range the view may scroll over (bounds with a small margin).
    Range scrollLimits() const;

    Range range() const { return m_range; }
    TimeNs startNs() const { return m_range.startNs; }
    TimeNs endNs() const { return m_range.endNs; }
    TimeNs spanNs() const { return m_range.spanNs(); }

    // Width in pixels of the event area the range is shown in (set by the view; used by keyboard
    // and scroll-bar steps that are defined in pixels).
    void setWidthPx(double widthPx) { m_widthPx = widthPx > 1 ? widthPx : 1; }
    double widthPx() const { return m_widthPx; }

    void setRange(TimeNs startNs, TimeNs endNs, Change change = Change::Commit);
    // factor < 1 zooms in; `anchorNs` stays at the same screen position.
    void zoomAround(TimeNs anchorNs, double factor, Change change = Change::Gesture);
    void panBy(TimeNs deltaNs, Change change = Change::Gesture);
    void fitAll();
    // Shows [a, b) with `padFraction` of the span free on each side.
    void zoomToInterval(TimeNs a, TimeNs b, double padFraction = 0.05);
    // Makes [a, b) visible: pans (keeping the zoom) when it fits, zooms out to it otherwise.
    void reveal(TimeNs a, TimeNs b);

    bool canGoBack() const;
    bool inGesture() const { return m_inGesture; } // a gesture runs (its start not yet in the history)
    bool canGoForward() const;
    void goBack();
    void goForward();
    // Ends a running gesture now (its start is then a history entry).
    void endGesture();

Q_SIGNALS:
    void rangeChanged(dspark::TimeNs startNs, dspark::TimeNs endNs);
    void historyChanged();
    // A new entry went into the history (a commit, or the start of a gesture); Back/Forward add none.
    void recorded();
    // The range came back from the history (Back / Forward, undo / redo of a view change).
    void revisited();

private:
    Range clamped(Range r) const;
    void apply(Range r);

    TimeNs m_boundsStart = 0;
    TimeNs m_boundsEnd = 1;
    TimeNs m_fitStart = 0;
    TimeNs m_fitEnd = 1;
    Range m_range;
    double m_widthPx = 1000;
    std::vector<Range> m_back;
    std::vector<Range> m_forward;
    bool m_inGesture = false;
    QTimer m_gestureTimer;
};

} // namespace dspark::ui
