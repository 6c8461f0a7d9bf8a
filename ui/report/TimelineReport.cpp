#include "report/TimelineReport.h"

#include "overlays/AnnotationOverlay.h"
#include "overlays/CommBracketOverlay.h"
#include "overlays/CriticalPathOverlay.h"
#include "overlays/StageBandOverlay.h"
#include "session/StepAnalyses.h"

#include <QCoreApplication>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace dspark::ui {

TimelineReport::TimelineReport(StepAnalyses* analyses, QObject* parent)
    : QObject(parent), m_analyses(analyses), m_layout(new LaneLayout(this)),
      m_bands(new StageBandOverlay(analyses, this)), m_comm(new CommBracketOverlay(analyses, this)),
      m_path(new CriticalPathOverlay(analyses, this)), m_annotations(new AnnotationOverlay(this))
{
    // Report fonts: the timeline's sizes in CJK-capable families.
    for (QFont* f : {&m_ctx.style.eventFont, &m_ctx.style.labelFont, &m_ctx.style.headerFont, &m_ctx.style.rulerFont})
        f->setFamilies(ReportPainter::reportFont(f->pixelSize()).families());
    m_painter = std::make_unique<ReportPainter>(m_ctx, *m_layout);
    resetProfile();
    applyParts();
}

TimelineReport::~TimelineReport() = default;

void TimelineReport::setStyle(const TimelineStyle& style)
{
    m_ctx.style = style;
    m_layout->relayout();
}

void TimelineReport::resetProfile()
{
    m_profileSeen = m_analyses ? m_analyses->profile() : nullptr;
    m_ctx.reset(m_analyses ? m_analyses->profilePtr() : nullptr);
    m_layout->reset(m_profileSeen, &m_ctx.style);
    m_annotations->setProfile(m_profileSeen);
}

void TimelineReport::applyParts()
{
    m_bands->setVisible(m_parts.stageBands);
    m_comm->setVisible(m_parts.commBrackets);
    m_path->setVisible(m_parts.criticalPath);
    m_annotations->setVisible(m_parts.annotations);
    // Bands last among the analyses: their captions stay readable over brackets and the path.
    m_painter->overlays = {m_comm, m_path, m_bands, m_annotations};
    // The legend names what is drawn: the focused step, or the analysed steps of a plain range.
    std::vector<const StepAnalysis*> shown;
    if (m_analyses && m_analyses->profile() == m_profileSeen) {
        if (m_step) {
            if (const StepAnalysis* a = m_analyses->analysis(*m_step))
                shown.push_back(a);
        } else {
            for (size_t i : m_analyses->stepsOverlapping(m_rank, m_painter->startNs, m_painter->endNs))
                if (const StepAnalysis* a = m_analyses->analysis(i))
                    shown.push_back(a);
        }
    }
    m_painter->legend = analysisLegend(m_parts, shown);
    m_painter->summary.clear();
    if (m_step && !shown.empty())
        m_painter->summary = stepSummaryRows(*shown.front(), m_parts);
}

void TimelineReport::setParts(const ReportParts& parts)
{
    m_parts = parts;
    applyParts();
}

QString TimelineReport::setLanePattern(const QString& pattern)
{
    QRegularExpression re(pattern, QRegularExpression::CaseInsensitiveOption);
    if (!pattern.isEmpty() && !re.isValid())
        return QCoreApplication::translate("TimelineReport", "lane pattern \"%1\": %2").arg(pattern, re.errorString());
    m_lanePattern = pattern.isEmpty() ? QRegularExpression() : re;
    if (m_profileSeen)
        selectLanes(m_rank);
    return {};
}

void TimelineReport::setAnnotations(const AnnotationSet& annotations)
{
    m_annotations->setAnnotations(annotations);
}

void TimelineReport::selectLanes(int traceRank)
{
    const Profile* profile = m_profileSeen;
    if (!profile)
        return;
    const TimeNs a = m_painter->startNs, b = m_painter->endNs;
    const bool patterned = !m_lanePattern.pattern().isEmpty();
    for (uint32_t lane = 0; lane < profile->lanes.size(); ++lane) {
        const Lane& l = profile->lanes[lane];
        bool show = traceRank < 0 || l.info.rankIndex == traceRank;
        if (show && l.info.kind == LaneKind::Counter && !patterned)
            show = false;
        if (show) {
            // Lanes with nothing in the shown range carry nothing for the reader.
            const auto [first, last] = l.overlapping(a, b);
            bool any = false;
            for (size_t k = first; k < last && !any; ++k)
                any = l.endNs(k) >= a;
            show = any;
        }
        if (show && patterned) {
            const QString name = QString::fromStdString(l.info.process + " / " + l.info.name);
            show = m_lanePattern.match(name).hasMatch();
        }
        m_layout->setHidden(lane, !show);
    }
    for (size_t r = 0; r < profile->ranks.size(); ++r)
        m_layout->setRankCollapsed(int(r), traceRank >= 0 && int(r) != traceRank);
}

void TimelineReport::showStep(size_t step)
{
    if (m_analyses->profile() != m_profileSeen)
        resetProfile();
    const StepAnalysis& analysis = m_analyses->ensure(step);
    const RecordWindow& w = m_analyses->step(step);
    m_step = step;
    m_rank = w.window.rankIndex;
    // The window and the device work launched in it, with a margin so the edges read as edges.
    const TimeNs start = w.window.startNs;
    const TimeNs end = std::max(w.window.endNs, analysis.bands.lastTaskEndNs);
    const TimeNs pad = std::max<TimeNs>(1000, (end - start) / 60);
    m_painter->startNs = start - pad;
    m_painter->endNs = end + pad;
    m_painter->header = stepReportHeader(*m_profileSeen, analysis, w);
    for (StepAnalysisOverlay* o : std::initializer_list<StepAnalysisOverlay*>{m_bands, m_comm, m_path})
        o->setFocusSteps({step});
    selectLanes(m_rank);
    applyParts();
}

void TimelineReport::showRange(TimeNs startNs, TimeNs endNs)
{
    if (m_analyses->profile() != m_profileSeen)
        resetProfile();
    m_step.reset();
    m_rank = -1;
    m_painter->startNs = startNs;
    m_painter->endNs = std::max(endNs, startNs + 1);
    m_painter->header = rangeReportHeader(*m_profileSeen, startNs, endNs);
    for (StepAnalysisOverlay* o : std::initializer_list<StepAnalysisOverlay*>{m_bands, m_comm, m_path})
        o->setFocusSteps({});
    // The analyses of the steps in the range are drawn too: compute them now (headless).
    for (size_t i : m_analyses->stepsOverlapping(-1, startNs, endNs))
        m_analyses->ensure(i);
    selectLanes(-1);
    applyParts();
}

void TimelineReport::setShownRange(TimeNs startNs, TimeNs endNs)
{
    m_painter->startNs = startNs;
    m_painter->endNs = std::max(endNs, startNs + 1);
    selectLanes(m_rank);
}

size_t TimelineReport::shownLaneCount() const
{
    size_t n = 0;
    for (const LaneLayout::Row& r : m_layout->rows())
        n += r.kind == LaneLayout::RowKind::Lane;
    return n;
}

QSize TimelineReport::preferredSize(int width) const
{
    return QSize(width, int(m_painter->preferredHeight(width)));
}

void TimelineReport::paint(QPainter& painter, const QSizeF& size) const
{
    m_painter->paint(painter, size);
}

QString TimelineReport::exportTo(const QString& path, ImageFormat format, QSize size, double scale) const
{
    if (size.height() <= 0)
        size = preferredSize(size.width());
    const QString title = m_painter->header.title;
    return writeImage(
        path, format, size, scale, [this](QPainter& p, const QSizeF& s) { paint(p, s); }, title);
}

QImage TimelineReport::toImage(QSize size, double scale) const
{
    if (size.height() <= 0)
        size = preferredSize(size.width());
    return renderImage(size, scale, [this](QPainter& p, const QSizeF& s) { paint(p, s); });
}

} // namespace dspark::ui
