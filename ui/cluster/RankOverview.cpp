#include "cluster/RankOverview.h"

#include "common/Teardown.h"
#include "session/ProfileSession.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimelineWidget.h"
#include "timeline/TimelineZoom.h"

#include <QEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <optional>

namespace dspark::ui {

namespace {
constexpr int kHeaderWidth = 220; // the rank's button, left of its strip: the timelines' label column
constexpr int kStripHeight = 22;
constexpr int kTimelineHeight = 260;
const QColor kBusy(0x2f, 0x6f, 0xb5);
const QColor kComm(0xe0, 0x8a, 0x1e);
const QColor kIdle(0xe9, 0xeb, 0xee);
const QColor kStep(0x1f, 0x6f, 0xd0);

// The event named `what` that overlaps [a, b) (rank clock) the most, of the kind a path segment names:
// a collective (CommOp, where a rank's wait is charged too) or a device task; invalid when none.
EventRef segmentEvent(const Profile& profile, TimeNs a, TimeNs b, const std::string& what, bool collective)
{
    EventRef best;
    TimeNs bestOverlap = -1;
    for (uint32_t l = 0; l < profile.lanes.size(); ++l) {
        const Lane& lane = profile.lanes[l];
        const bool device = isDeviceLane(lane.info.kind);
        for (uint32_t i = 0; i < lane.size() && lane.startNs[i] < b; ++i) { // by start
            const bool op = lane.kind[i] == EventKind::CommOp;
            if (collective ? !op : !(device || op))
                continue;
            const EventRef e{l, i};
            const TimeNs overlap = std::min(b, lane.endNs(i)) - std::max(a, lane.startNs[i]);
            if (overlap >= 0 && overlap > bestOverlap && profile.name(e) == what) {
                best = e;
                bestOverlap = overlap;
            }
        }
    }
    return best;
}
} // namespace

struct RankOverview::Row {
    RankSummary summary; // its steps (the highlight) and time range (the bounds)
    RankActivity activity;
    std::shared_ptr<ProfileSession> session;
    TimeNs offsetNs = 0;
    bool expanded = false;
    QWidget* box = nullptr;
    QToolButton* header = nullptr;
    Strip* strip = nullptr;
    TimelineWidget* timeline = nullptr;
    struct Reveal {
        TimeNs startNs = 0, endNs = 0; // cluster clock
        std::string what;
        bool collective = false;
    };
    std::optional<Reveal> reveal; // asked for before the rank's events arrived
};

// The folded row: per pixel column (RankActivity), the communicating share from the bottom and the busy
// share above it.
// Wheel zooms the shared range, a drag pans it, a double-click fits everything.
class RankOverview::Strip : public QWidget {
public:
    Strip(RankOverview* owner, size_t rank, QWidget* parent) : QWidget(parent), m_owner(owner), m_rank(rank)
    {
        setFixedHeight(kStripHeight);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        setCursor(Qt::OpenHandCursor);
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.fillRect(rect(), kIdle);
        const int h = height();
        for (int x = 0; x < width(); ++x) {
            const RankActivity::Share s = m_owner->shareAt(m_rank, x);
            const int comm = int(std::lround(s.comm * h));
            const int busy = int(std::lround(s.busy * h));
            if (comm > 0)
                p.fillRect(x, h - comm, 1, comm, kComm);
            if (busy > 0)
                p.fillRect(x, h - comm - busy, 1, busy, kBusy);
        }
        const Row& row = *m_owner->m_rows[m_rank];
        for (const RankStep& s : row.summary.steps)
            if (s.stepId == m_owner->m_step) {
                const double a = xAt(s.startNs + row.offsetNs), b = xAt(s.endNs + row.offsetNs);
                p.setPen(QPen(kStep, 2));
                p.setBrush(QColor(kStep.red(), kStep.green(), kStep.blue(), 40));
                p.drawRect(QRectF(a, 1, std::max(2.0, b - a), h - 2));
            }
    }
    void wheelEvent(QWheelEvent* e) override
    {
        const double steps = e->angleDelta().y() / 120.0;
        if (steps != 0)
            m_owner->m_zoom->zoomAround(timeAt(e->position().x()), std::pow(0.8, steps));
        e->accept();
    }
    void mousePressEvent(QMouseEvent* e) override
    {
        m_dragX = e->position().x();
        setCursor(Qt::ClosedHandCursor);
    }
    void mouseMoveEvent(QMouseEvent* e) override
    {
        if (!(e->buttons() & Qt::LeftButton))
            return;
        const double dx = e->position().x() - m_dragX;
        m_dragX = e->position().x();
        m_owner->m_zoom->panBy(TimeNs(std::llround(-dx * nsPerPixel())));
    }
    void mouseReleaseEvent(QMouseEvent*) override
    {
        setCursor(Qt::OpenHandCursor);
        m_owner->m_zoom->endGesture();
    }
    void mouseDoubleClickEvent(QMouseEvent*) override { m_owner->m_zoom->fitAll(); }

private:
    double nsPerPixel() const { return double(m_owner->m_zoom->spanNs()) / std::max(1, width()); }
    double xAt(TimeNs sharedNs) const { return double(sharedNs - m_owner->m_zoom->startNs()) / nsPerPixel(); }
    TimeNs timeAt(double x) const { return m_owner->m_zoom->startNs() + TimeNs(std::llround(x * nsPerPixel())); }

    RankOverview* m_owner;
    size_t m_rank;
    double m_dragX = 0;
};

RankOverview::RankOverview(QWidget* parent)
    : QWidget(parent), m_zoom(new TimelineZoom(this)), m_rangeLabel(new QLabel(this)), m_scroll(new QScrollArea(this))
{
    setObjectName(QStringLiteral("rankOverview"));
    m_rangeLabel->setObjectName(QStringLiteral("rankOverviewRange"));
    auto* inner = new QWidget(m_scroll);
    m_rowsLayout = new QVBoxLayout(inner);
    m_rowsLayout->setContentsMargins(0, 0, 0, 0);
    m_rowsLayout->setSpacing(2);
    m_rowsLayout->addStretch(1);
    m_scroll->setWidget(inner);
    m_scroll->setWidgetResizable(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_rangeLabel);
    layout->addWidget(m_scroll, 1);
    connect(m_zoom, &TimelineZoom::rangeChanged, this, [this] {
        for (const auto& row : m_rows)
            row->strip->update();
        updateRangeLabel();
    });
    updateRangeLabel();
}

RankOverview::~RankOverview()
{
    // The strips and timelines read the rows and the zoom: they go (and their signals stop) before
    // the rows do, not later in QWidget's destructor.
    disconnectChildren(this);
    delete m_scroll;
}

void RankOverview::setRanks(const std::vector<RankSummary>& ranks, std::vector<std::shared_ptr<const Profile>> profiles)
{
    for (const auto& row : m_rows)
        delete row->box;
    m_rows.clear();
    m_step = -1;
    profiles.resize(ranks.size());
    for (size_t r = 0; r < ranks.size(); ++r) {
        auto row = std::make_unique<Row>();
        row->summary = ranks[r];
        row->activity = RankActivity(ranks[r]);
        if (profiles[r])
            row->session = std::make_shared<ProfileSession>(profiles[r], QString::fromStdString(ranks[r].source));
        m_rows.push_back(std::move(row));
        buildRow(r);
    }
    updateBounds(false);
}

void RankOverview::buildRow(size_t rank)
{
    Row& row = *m_rows[rank];
    row.box = new QWidget;
    row.header = new QToolButton(row.box);
    row.header->setObjectName(QStringLiteral("rankHeader%1").arg(rank));
    row.header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    row.header->setAutoRaise(true);
    row.header->setFixedWidth(kHeaderWidth);
    row.header->setFocusPolicy(Qt::StrongFocus);
    row.header->installEventFilter(this);
    row.strip = new Strip(this, rank, row.box);
    auto* line = new QHBoxLayout;
    line->setContentsMargins(0, 0, 0, 0);
    line->setSpacing(0); // the strip starts where an unfolded timeline's events do
    line->addWidget(row.header);
    line->addWidget(row.strip, 1);
    auto* v = new QVBoxLayout(row.box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(0);
    v->addLayout(line);
    m_rowsLayout->insertWidget(m_rowsLayout->count() - 1, row.box);
    row.box->show(); // (a widget added to a shown parent is shown only later, queued)
    connect(row.header, &QToolButton::clicked, this, [this, rank] { setExpanded(rank, !isExpanded(rank)); });
    updateHeader(rank);
}

bool RankOverview::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter)
            for (size_t r = 0; r < m_rows.size(); ++r)
                if (m_rows[r]->header == watched) {
                    setExpanded(r, !isExpanded(r));
                    return true;
                }
    }
    return QWidget::eventFilter(watched, event);
}

void RankOverview::updateHeader(size_t rank)
{
    Row& row = *m_rows[rank];
    row.header->setArrowType(row.expanded ? Qt::DownArrow : Qt::RightArrow);
    // An older summary has no measured activity: its strip is the estimate, and says so.
    const bool estimated = row.activity.estimated();
    const QString name =
        estimated ? tr("Rank %1 (estimated)").arg(row.summary.rankNumber) : tr("Rank %1").arg(row.summary.rankNumber);
    row.header->setText(row.session || !row.expanded ? name : tr("%1 (loading…)").arg(name));
    const QString offset = QString::number(double(row.offsetNs) / 1e3, 'f', 3);
    QString tip = row.expanded ? tr("Rank %1, clock offset %2 µs: click or press Enter to fold its lanes")
                                     .arg(row.summary.rankNumber)
                                     .arg(offset)
                               : tr("Rank %1, clock offset %2 µs: click or press Enter to show its lanes")
                                     .arg(row.summary.rankNumber)
                                     .arg(offset);
    if (estimated)
        tip += QLatin1Char('\n') + tr("Its summary is older than version 3 and has no activity bins: the strip is "
                                      "estimated from its steps' critical paths and its collectives.");
    row.header->setToolTip(tip);
}

void RankOverview::updateTimeline(size_t rank)
{
    Row& row = *m_rows[rank];
    const bool show = row.expanded && row.session;
    if (!show) {
        delete row.timeline; // a folded rank keeps no lanes on screen
        row.timeline = nullptr;
        updateStretch();
        return;
    }
    if (!row.timeline) {
        row.timeline = new TimelineWidget(row.box, m_zoom);
        row.timeline->setObjectName(QStringLiteral("rankTimeline%1").arg(rank));
        row.timeline->setMinimumHeight(kTimelineHeight);
        row.timeline->setLabelWidth(kHeaderWidth);
        row.timeline->setProfile(row.session->profile());
        static_cast<QVBoxLayout*>(row.box->layout())->addWidget(row.timeline);
        row.timeline->show();
        updateStretch();
    }
    row.timeline->setTimeOffsetNs(row.offsetNs);
    highlightStep(m_step); // the step's interval on the new timeline
}

void RankOverview::updateStretch()
{
    // An unfolded rank's lanes take the room left below the rows; with none unfolded the room stays
    // below the last row.
    bool any = false;
    for (const auto& row : m_rows) {
        m_rowsLayout->setStretchFactor(row->box, row->timeline ? 1 : 0);
        any = any || row->timeline;
    }
    m_rowsLayout->setStretch(m_rowsLayout->count() - 1, any ? 0 : 1);
}

int RankOverview::wantedHeight() const
{
    const int margins = layout()->spacing() + 2 * m_scroll->frameWidth();
    return m_rangeLabel->sizeHint().height() + margins + m_scroll->widget()->minimumSizeHint().height();
}

void RankOverview::setExpanded(size_t rank, bool expanded)
{
    Row& row = *m_rows.at(rank);
    if (row.expanded == expanded)
        return;
    row.expanded = expanded;
    if (!expanded)
        row.reveal.reset(); // folded before its events came: nothing to select any more
    updateTimeline(rank);
    updateHeader(rank);
    if (expanded && !row.session)
        Q_EMIT profileWanted(rank);
    Q_EMIT expansionChanged(rank, expanded);
}

bool RankOverview::isExpanded(size_t rank) const
{
    return m_rows.at(rank)->expanded;
}

void RankOverview::setProfile(size_t rank, std::shared_ptr<const Profile> profile)
{
    Row& row = *m_rows.at(rank);
    if (row.session && row.session->profile() == profile)
        return;
    delete row.timeline;
    row.timeline = nullptr;
    row.session =
        profile ? std::make_shared<ProfileSession>(profile, QString::fromStdString(row.summary.source)) : nullptr;
    if (row.session)
        row.session->setTimeOffsetNs(row.offsetNs);
    if (profile && row.activity.estimated())
        measureActivity(row, *profile);
    updateTimeline(rank);
    updateHeader(rank);
    if (row.session && row.reveal)
        applyReveal(rank);
}

void RankOverview::measureActivity(Row& row, const Profile& profile)
{
    // An older summary's row was the estimate: with the rank's events here, its bins are measured now
    // (and kept when the events are dropped again).
    int rankIndex = 0;
    for (size_t i = 0; i < profile.ranks.size(); ++i)
        if (profile.ranks[i].rankNumber == row.summary.rankNumber)
            rankIndex = static_cast<int>(i);
    row.summary.activity = measureRankActivity(profile, rankIndex, row.summary.firstNs, row.summary.lastNs);
    row.activity = RankActivity(row.summary);
    row.strip->update();
}

void RankOverview::revealSegment(size_t rank, TimeNs startNs, TimeNs endNs, const std::string& what, bool collective)
{
    if (rank >= m_rows.size())
        return;
    Row& row = *m_rows[rank];
    row.reveal = Row::Reveal{startNs, endNs, what, collective};
    m_zoom->zoomToInterval(startNs, std::max(endNs, startNs + 1), 0.1);
    setExpanded(rank, true); // asks for the rank's events when they are not loaded
    m_scroll->ensureWidgetVisible(row.box, 0, 0);
    if (row.session)
        applyReveal(rank);
}

void RankOverview::applyReveal(size_t rank)
{
    Row& row = *m_rows[rank];
    const Row::Reveal r = *row.reveal;
    row.reveal.reset();
    if (!row.expanded)
        setExpanded(rank, true);
    EventRef e;
    if (row.timeline && !r.what.empty())
        e = segmentEvent(*row.session->profile(), r.startNs - row.offsetNs, r.endNs - row.offsetNs, r.what,
                         r.collective);
    if (e.valid())
        row.timeline->selectEvent(e, TimelineWidget::Reveal::Pan);
    m_zoom->zoomToInterval(r.startNs, std::max(r.endNs, r.startNs + 1), 0.1);
    Q_EMIT eventRevealed(rank, e);
}

void RankOverview::setOffsets(const std::vector<TimeNs>& offsetsNs)
{
    for (size_t r = 0; r < m_rows.size() && r < offsetsNs.size(); ++r) {
        Row& row = *m_rows[r];
        row.offsetNs = offsetsNs[r];
        if (row.session)
            row.session->setTimeOffsetNs(row.offsetNs);
        if (row.timeline)
            row.timeline->setTimeOffsetNs(row.offsetNs);
        row.strip->update();
        updateHeader(r);
    }
    updateBounds(true);
}

void RankOverview::updateBounds(bool keepRange)
{
    TimeNs first = INT64_MAX, last = INT64_MIN;
    for (const auto& row : m_rows) {
        first = std::min(first, row->summary.firstNs + row->offsetNs);
        last = std::max(last, row->summary.lastNs + row->offsetNs);
    }
    if (first >= last)
        first = 0, last = 1000;
    if (keepRange && first == m_zoom->boundsStartNs() && last == m_zoom->boundsEndNs())
        return;
    // New bounds reset the history and the range; an offset edit keeps what the user looks at.
    const TimelineZoom::Range shown = m_zoom->range();
    m_zoom->setBounds(first, last);
    if (keepRange)
        m_zoom->setRange(shown.startNs, shown.endNs);
}

bool RankOverview::showStep(size_t rank, int64_t stepId)
{
    if (rank >= m_rows.size())
        return false;
    const Row& row = *m_rows[rank];
    const auto it = std::find_if(row.summary.steps.begin(), row.summary.steps.end(),
                                 [stepId](const RankStep& s) { return s.stepId == stepId; });
    if (it == row.summary.steps.end())
        return false;
    setExpanded(rank, true);
    highlightStep(stepId);
    m_zoom->zoomToInterval(it->startNs + row.offsetNs, it->endNs + row.offsetNs, 0.03);
    m_scroll->ensureWidgetVisible(row.box, 0, 0);
    return true;
}

void RankOverview::highlightStep(int64_t stepId)
{
    m_step = stepId;
    for (const auto& row : m_rows) {
        row->strip->update();
        if (!row->timeline)
            continue;
        row->timeline->clearHighlightedInterval();
        for (const RankStep& s : row->summary.steps)
            if (s.stepId == stepId)
                row->timeline->setHighlightedInterval(s.startNs, s.endNs, tr("Step %1").arg(stepId));
    }
}

TimeNs RankOverview::offsetNs(size_t rank) const
{
    return m_rows.at(rank)->offsetNs;
}

ProfileSession* RankOverview::session(size_t rank) const
{
    return m_rows.at(rank)->session.get();
}

TimelineWidget* RankOverview::timeline(size_t rank) const
{
    return m_rows.at(rank)->timeline;
}

QToolButton* RankOverview::header(size_t rank) const
{
    return m_rows.at(rank)->header;
}

QWidget* RankOverview::strip(size_t rank) const
{
    return m_rows.at(rank)->strip;
}

RankActivity::Share RankOverview::shareAt(size_t rank, int x) const
{
    const Row& row = *m_rows.at(rank);
    const double nsPerPx = double(m_zoom->spanNs()) / std::max(1, row.strip->width());
    const TimeNs a = m_zoom->startNs() + TimeNs(std::llround(x * nsPerPx)) - row.offsetNs;
    const TimeNs b = m_zoom->startNs() + TimeNs(std::llround((x + 1) * nsPerPx)) - row.offsetNs;
    return row.activity.share(a, std::max(b, a + 1));
}

void RankOverview::updateRangeLabel()
{
    m_rangeLabel->setText(
        tr("Ranks on one clock: %1 shown from %2. Blue: computing, orange: communicating (not overlapped by "
           "compute), grey: idle; click a rank to show its lanes.")
            .arg(formatDuration(m_zoom->spanNs()), formatDuration(m_zoom->startNs() - m_zoom->boundsStartNs())));
}

void RankOverview::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        updateRangeLabel();
        for (size_t r = 0; r < m_rows.size(); ++r)
            updateHeader(r);
    }
}

} // namespace dspark::ui
