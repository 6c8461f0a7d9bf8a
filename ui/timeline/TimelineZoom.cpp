#include "timeline/TimelineZoom.h"

#include <algorithm>
#include <cmath>

namespace dspark::ui {

static constexpr int kGesturePauseMs = 600;
static constexpr size_t kMaxHistory = 200;

TimelineZoom::TimelineZoom(QObject* parent) : QObject(parent)
{
    m_gestureTimer.setSingleShot(true);
    m_gestureTimer.setInterval(kGesturePauseMs);
    connect(&m_gestureTimer, &QTimer::timeout, this, &TimelineZoom::endGesture);
}

void TimelineZoom::setBounds(TimeNs firstNs, TimeNs lastNs)
{
    // Held within ±2^61 ns, so that the pads, spans and centres below fit in int64 (a damaged file's
    // times reach the model's limit, ±2^62).
    constexpr TimeNs kLimit = TimeNs(1) << 61;
    firstNs = std::clamp(firstNs, -kLimit, kLimit);
    lastNs = std::clamp(lastNs, -kLimit, kLimit);
    m_boundsStart = firstNs;
    m_boundsEnd = std::max(lastNs, firstNs + 1000);
    m_fitStart = m_boundsStart;
    m_fitEnd = m_boundsEnd;
    m_back.clear();
    m_forward.clear();
    m_inGesture = false;
    m_gestureTimer.stop();
    apply(clamped({m_boundsStart, m_boundsEnd}));
    Q_EMIT historyChanged();
}

TimelineZoom::Range TimelineZoom::scrollLimits() const
{
    const TimeNs pad = std::max<TimeNs>((m_boundsEnd - m_boundsStart) / 50, 1000);
    return {m_boundsStart - pad, m_boundsEnd + pad};
}

TimelineZoom::Range TimelineZoom::clamped(Range r) const
{
    const Range limits = scrollLimits();
    if (r.endNs < r.startNs)
        std::swap(r.startNs, r.endNs);
    TimeNs span = std::clamp<TimeNs>(r.spanNs(), kMinSpanNs, limits.spanNs());
    // Keep the centre when the span was clamped.
    if (span != r.spanNs()) {
        const TimeNs centre = r.startNs + r.spanNs() / 2;
        r.startNs = centre - span / 2;
    }
    r.startNs = std::clamp(r.startNs, limits.startNs, limits.endNs - span);
    r.endNs = r.startNs + span;
    return r;
}

void TimelineZoom::apply(Range r)
{
    if (r == m_range)
        return;
    m_range = r;
    Q_EMIT rangeChanged(m_range.startNs, m_range.endNs);
}

void TimelineZoom::setRange(TimeNs startNs, TimeNs endNs, Change change)
{
    const Range next = clamped({startNs, endNs});
    if (next == m_range)
        return;
    bool recordedEntry = false;
    if (change == Change::Commit) {
        endGesture();
        m_back.push_back(m_range);
        m_forward.clear();
        recordedEntry = true;
    } else {
        if (!m_inGesture) {
            m_inGesture = true;
            m_back.push_back(m_range);
            m_forward.clear();
            recordedEntry = true;
        }
        m_gestureTimer.start();
    }
    if (m_back.size() > kMaxHistory)
        m_back.erase(m_back.begin());
    apply(next);
    if (recordedEntry)
        Q_EMIT recorded();
    Q_EMIT historyChanged();
}

void TimelineZoom::endGesture()
{
    m_gestureTimer.stop();
    m_inGesture = false;
}

void TimelineZoom::zoomAround(TimeNs anchorNs, double factor, Change change)
{
    if (!(factor > 0))
        return;
    const double span = double(spanNs());
    const double newSpan = std::max(double(kMinSpanNs), span * factor);
    const double leftShare = span > 0 ? double(anchorNs - m_range.startNs) / span : 0.5;
    const TimeNs start = anchorNs - TimeNs(std::llround(newSpan * leftShare));
    setRange(start, start + TimeNs(std::llround(newSpan)), change);
}

void TimelineZoom::panBy(TimeNs deltaNs, Change change)
{
    const Range limits = scrollLimits();
    const TimeNs span = spanNs();
    const TimeNs start = std::clamp(m_range.startNs + deltaNs, limits.startNs, limits.endNs - span);
    setRange(start, start + span, change);
}

void TimelineZoom::setFitRange(TimeNs startNs, TimeNs endNs)
{
    m_fitStart = std::clamp(startNs, m_boundsStart, m_boundsEnd);
    m_fitEnd = std::clamp(std::max(endNs, m_fitStart + 1000), m_boundsStart, m_boundsEnd);
    apply(clamped({m_fitStart, m_fitEnd}));
}

void TimelineZoom::fitAll()
{
    setRange(m_fitStart, m_fitEnd, Change::Commit);
}

void TimelineZoom::zoomToInterval(TimeNs a, TimeNs b, double padFraction)
{
    if (b < a)
        std::swap(a, b);
    const TimeNs span = std::max<TimeNs>(b - a, kMinSpanNs);
    const TimeNs pad = TimeNs(double(span) * padFraction);
    setRange(a - pad, a + span + pad, Change::Commit);
}

void TimelineZoom::reveal(TimeNs a, TimeNs b)
{
    if (b < a)
        std::swap(a, b);
    if (a >= m_range.startNs && b <= m_range.endNs)
        return;
    const TimeNs span = spanNs();
    if (b - a > span * 9 / 10) {
        zoomToInterval(a, b);
        return;
    }
    const TimeNs centre = a + (b - a) / 2;
    setRange(centre - span / 2, centre - span / 2 + span, Change::Commit);
}

bool TimelineZoom::canGoBack() const
{
    return !m_back.empty();
}

bool TimelineZoom::canGoForward() const
{
    return !m_forward.empty();
}

void TimelineZoom::goBack()
{
    endGesture();
    if (m_back.empty())
        return;
    m_forward.push_back(m_range);
    const Range r = m_back.back();
    m_back.pop_back();
    apply(clamped(r));
    Q_EMIT historyChanged();
    Q_EMIT revisited();
}

void TimelineZoom::goForward()
{
    endGesture();
    if (m_forward.empty())
        return;
    m_back.push_back(m_range);
    const Range r = m_forward.back();
    m_forward.pop_back();
    apply(clamped(r));
    Q_EMIT historyChanged();
    Q_EMIT revisited();
}

} // namespace dspark::ui
