#include "compare/ComparisonFigure.h"

#include "report/ReportContent.h"
#include "report/ReportPainter.h"
#include "report/TimelineReport.h"
#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"
#include "steps/StepTable.h"
#include "timeline/TimeFormat.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

namespace dspark::ui {

namespace {

constexpr double kMargin = 14;

std::optional<double> recordValue(const ProfileSession& s, const RecordWindow& step, StepColumn column)
{
    const StepRecordSet* set = s.profile()->stepRecords.get();
    if (!set || step.row >= set->size())
        return std::nullopt;
    return stepColumnNumber(*set, step.row, column);
}

// "label: a → b (+d, +p %)"; values in `unit` formatted by `fmt`.
QString deltaLine(const QString& label, std::optional<double> a, std::optional<double> b,
                  const std::function<QString(double)>& fmt)
{
    if (!a || !b)
        return QCoreApplication::translate("ComparisonFigure", "%1: %2 → %3 (not in both runs)")
            .arg(label, a ? fmt(*a) : QStringLiteral("–"), b ? fmt(*b) : QStringLiteral("–"));
    const double d = *b - *a;
    const QString sign = d > 0 ? QStringLiteral("+") : d < 0 ? QStringLiteral("−") : QString();
    const QString pct =
        *a != 0 ? QStringLiteral(", %1%2 %").arg(sign).arg(std::abs(100.0 * d / *a), 0, 'f', 1) : QString();
    return QStringLiteral("%1: %2 → %3 (%4%5%6)").arg(label, fmt(*a), fmt(*b), sign, fmt(std::abs(d)), pct);
}

} // namespace

ComparisonFigure::ComparisonFigure(ProfileSession& baseline, size_t baselineStep, ProfileSession& changed,
                                   size_t changedStep)
    : m_baseline(std::make_unique<TimelineReport>(baseline.analyses())),
      m_changed(std::make_unique<TimelineReport>(changed.analyses()))
{
    StepAnalyses& sa = *baseline.analyses();
    StepAnalyses& sb = *changed.analyses();
    const StepAnalysis& a = sa.ensure(baselineStep);
    const StepAnalysis& b = sb.ensure(changedStep);
    const RecordWindow& wa = sa.step(baselineStep);
    const RecordWindow& wb = sb.step(changedStep);

    // One legend (under the changed run), both figures from their step's start over the longer span.
    ReportParts parts;
    parts.legend = false;
    m_baseline->setParts(parts);
    m_baseline->setAnnotations(baseline.annotations());
    m_changed->setAnnotations(changed.annotations());
    m_baseline->showStep(baselineStep);
    m_changed->showStep(changedStep);
    const TimeNs span = std::max(wa.window.wallNs(), wb.window.wallNs());
    const TimeNs margin = std::max<TimeNs>(span / 40, 1);
    m_baseline->setShownRange(wa.window.startNs - margin, wa.window.startNs + span + margin);
    m_changed->setShownRange(wb.window.startNs - margin, wb.window.startNs + span + margin);

    m_title = QCoreApplication::translate("ComparisonFigure",
                                          "Comparison: baseline %1 forward_ct %2  vs  changed %3 forward_ct %4")
                  .arg(profileDisplayName(*baseline.profile()))
                  .arg(wa.window.forwardCt)
                  .arg(profileDisplayName(*changed.profile()))
                  .arg(wb.window.forwardCt);
    const auto ms = [](double v) { return formatDuration(TimeNs(std::llround(v * 1e6))); };
    const auto ns = [](double v) { return formatDuration(TimeNs(std::llround(v))); };
    const auto plain = [](double v) { return QString::number(v, 'f', 3); };
    m_deltas << deltaLine(QCoreApplication::translate("ComparisonFigure", "step wall"), double(wa.window.wallNs()),
                          double(wb.window.wallNs()), ns)
             << deltaLine(QCoreApplication::translate("ComparisonFigure", "effective TPOT"),
                          recordValue(baseline, wa, StepColumn::EffectiveTpotMs),
                          recordValue(changed, wb, StepColumn::EffectiveTpotMs), ms)
             << deltaLine(QCoreApplication::translate("ComparisonFigure", "mean commit length"),
                          recordValue(baseline, wa, StepColumn::MeanCommitLen),
                          recordValue(changed, wb, StepColumn::MeanCommitLen), plain)
             << deltaLine(QCoreApplication::translate("ComparisonFigure", "exposed communication"),
                          double(a.comm.exposedNs), double(b.comm.exposedNs), ns);
    QStringList path;
    for (size_t c = 0; c < kPathCategoryCount; ++c) {
        const TimeNs x = a.criticalPath.byCategory[c], y = b.criticalPath.byCategory[c];
        if (x > 0 || y > 0)
            path << deltaLine(pathCategoryLabel(PathCategory(c)), double(x), double(y), ns);
    }
    if (!path.isEmpty())
        m_deltas << QCoreApplication::translate("ComparisonFigure", "critical path — %1")
                        .arg(path.join(QStringLiteral("  ·  ")));
}

ComparisonFigure::~ComparisonFigure() = default;

double ComparisonFigure::headerHeight(double width) const
{
    const QFontMetricsF title(ReportPainter::reportFont(16, true));
    const QFontMetricsF body(ReportPainter::reportFont(12));
    double h = kMargin + title.height() + 4;
    for (const QString& line : m_deltas)
        h += body.boundingRect(QRectF(0, 0, width - 2 * kMargin, 1e6), Qt::TextWordWrap, line).height() + 2;
    return std::ceil(h + kMargin / 2);
}

QSize ComparisonFigure::preferredSize(int width) const
{
    const double h =
        headerHeight(width) + m_baseline->preferredSize(width).height() + m_changed->preferredSize(width).height();
    return {width, int(std::ceil(h))};
}

void ComparisonFigure::paint(QPainter& p, const QSizeF& size) const
{
    p.fillRect(QRectF(QPointF(0, 0), size), Qt::white);
    double y = kMargin;
    p.setPen(QColor(0x11, 0x18, 0x27));
    p.setFont(ReportPainter::reportFont(16, true));
    const QFontMetricsF tm(p.font());
    p.drawText(QRectF(kMargin, y, size.width() - 2 * kMargin, tm.height()), Qt::AlignLeft | Qt::AlignVCenter, m_title);
    y += tm.height() + 4;
    p.setFont(ReportPainter::reportFont(12));
    p.setPen(QColor(0x37, 0x41, 0x51));
    for (const QString& line : m_deltas) {
        const QRectF r = p.boundingRect(QRectF(kMargin, y, size.width() - 2 * kMargin, 1e6), Qt::TextWordWrap, line);
        p.drawText(r, Qt::TextWordWrap, line);
        y += r.height() + 2;
    }
    y = headerHeight(size.width());
    // The rest of the page is split in proportion to what each step needs.
    const double ha = m_baseline->preferredSize(int(size.width())).height();
    const double hb = m_changed->preferredSize(int(size.width())).height();
    const double rest = std::max(0.0, size.height() - y);
    const double shareA = ha + hb > 0 ? rest * ha / (ha + hb) : rest / 2;
    p.save();
    p.translate(0, y);
    p.setClipRect(QRectF(0, 0, size.width(), shareA));
    m_baseline->paint(p, QSizeF(size.width(), shareA));
    p.restore();
    p.save();
    p.translate(0, y + shareA);
    p.setClipRect(QRectF(0, 0, size.width(), rest - shareA));
    m_changed->paint(p, QSizeF(size.width(), rest - shareA));
    p.restore();
    p.setPen(QPen(QColor(0x9c, 0xa3, 0xaf), 1));
    p.drawLine(QPointF(0, y + shareA), QPointF(size.width(), y + shareA));
}

QString ComparisonFigure::exportTo(const QString& path, ImageFormat format, QSize size, double scale) const
{
    if (size.height() <= 0)
        size = preferredSize(size.width());
    return writeImage(
        path, format, size, scale, [this](QPainter& p, const QSizeF& s) { paint(p, s); }, m_title);
}

} // namespace dspark::ui
