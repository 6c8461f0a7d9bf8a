#include "charts/StepBreakdownView.h"

#include "overlays/AnalysisPalette.h"
#include "report/ReportContent.h"
#include "report/ReportPainter.h"
#include "timeline/TimeFormat.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QHeaderView>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLegend>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>

namespace dspark::ui {

StepBreakdownView::StepBreakdownView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::PlainText);
    m_title->setFont(ReportPainter::reportFont(13, true));
    m_chart = new QChartView(this);
    m_chart->setRenderHint(QPainter::Antialiasing);
    // Room for the bar, its tick labels and the axis title under it (the legend stands on the right).
    m_chart->setMinimumHeight(130); // (lower: the docked charts no longer fit a 900-pixel screen)
    m_chart->setMaximumHeight(240);
    m_table = new QTreeWidget(this);
    m_table->setColumnCount(3);
    retranslate();
    m_table->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->setRootIsDecorated(true);
    layout->addWidget(m_title);
    layout->addWidget(m_chart);
    layout->addWidget(m_table, 1);
    setStep(nullptr, nullptr, nullptr);
}

void StepBreakdownView::retranslate()
{
    m_table->setHeaderLabels({tr("Item"), tr("Time"), tr("Share of wall / difference")});
}

QString StepBreakdownView::caption() const
{
    return m_title->text();
}

void StepBreakdownView::setStep(const Profile* profile, const StepAnalysis* a, const RecordWindow* step)
{
    m_table->clear();
    QChart* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setFont(ReportPainter::reportFont(11));
    chart->legend()->setFont(ReportPainter::reportFont(11));
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->setMargins(QMargins(4, 4, 4, 4));
    QChart* old = m_chart->chart();
    m_chart->setChart(chart);
    delete old;
    if (!profile || !a || !step) {
        m_title->setText(tr("Select an aligned step (step table, chart or timeline) to see where its time went."));
        return;
    }
    const ReportHeader header = stepReportHeader(*profile, *a, *step);
    m_title->setText(header.title);

    // One bar: the wall time split by critical-path category.
    const double wallMs = double(a->window.wallNs()) / 1e6;
    auto* series = new QHorizontalStackedBarSeries;
    for (size_t c = 0; c < kPathCategoryCount; ++c) {
        const double ms = double(a->criticalPath.byCategory[c]) / 1e6;
        if (ms <= 0)
            continue;
        auto* set = new QBarSet(pathCategoryLabel(PathCategory(c)));
        set->setColor(AnalysisPalette::category(PathCategory(c)));
        set->setBorderColor(Qt::white);
        *set << ms;
        series->append(set);
    }
    series->setBarWidth(0.6);
    chart->addSeries(series);
    auto* y = new QBarCategoryAxis;
    y->append(tr("critical path"));
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    auto* x = new QValueAxis;
    x->setRange(0, std::max(wallMs, 1e-3));
    // Few ticks, with as many decimals as the wall needs: each label fits its share of the axis.
    x->setTickCount(6);
    x->setLabelFormat(wallMs >= 10  ? QStringLiteral("%.0f")
                      : wallMs >= 1 ? QStringLiteral("%.1f")
                                    : QStringLiteral("%.3f"));
    x->setLabelsFont(ReportPainter::reportFont(10));
    x->setTitleFont(ReportPainter::reportFont(11));
    x->setTitleText(tr("ms of the step wall (%1)").arg(formatDuration(a->window.wallNs())));
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);

    auto share = [&](TimeNs ns) {
        return QStringLiteral("%1 %").arg(100.0 * double(ns) / double(std::max<TimeNs>(1, a->window.wallNs())), 0, 'f',
                                          1);
    };
    auto* path = new QTreeWidgetItem(
        m_table, {tr("Critical path"), formatDuration(a->criticalPath.totalNs()), share(a->criticalPath.totalNs())});
    for (size_t c = 0; c < kPathCategoryCount; ++c) {
        const TimeNs ns = a->criticalPath.byCategory[c];
        auto* item = new QTreeWidgetItem(path, {pathCategoryLabel(PathCategory(c)), formatDuration(ns), share(ns)});
        item->setData(1, Qt::UserRole, QVariant::fromValue<qlonglong>(ns));
        item->setForeground(0, AnalysisPalette::category(PathCategory(c)).darker(120));
    }
    path->setExpanded(true);

    auto* bands = new QTreeWidgetItem(m_table, {tr("Stage bands (device elapsed)")});
    auto diff = [](const std::optional<TimeNs>& d) {
        return d ? QCoreApplication::translate("StepBreakdownView", "%1 vs record").arg(formatDuration(*d)) : QString();
    };
    const StepBands& b = a->bands;
    auto bandRow = [&](const std::optional<StageBand>& band, const std::optional<TimeNs>& vsRecord) {
        if (!band)
            return;
        new QTreeWidgetItem(bands, {stageLabel(band->stage), formatDuration(band->extent.lengthNs()), diff(vsRecord)});
    };
    bandRow(b.draft, b.draftVsRecordNs);
    bandRow(b.planner, std::nullopt);
    bandRow(b.verify, b.verifyVsRecordNs);
    bandRow(b.accept, std::nullopt);
    bandRow(b.commit, std::nullopt);
    new QTreeWidgetItem(bands, {tr("Planner gap"), formatDuration(b.plannerGapNs), QString()});
    const StepWindow& w = a->window;
    if (b.tailVsRecordNs && w.stepGpuMs && w.draftGpuMs && w.targetVerifyGpuMs) {
        // Out of segment on the timeline = the record's unattributed_ms + the difference found.
        const TimeNs unattributed = TimeNs(std::llround((*w.stepGpuMs - *w.draftGpuMs - *w.targetVerifyGpuMs) * 1e6));
        new QTreeWidgetItem(bands, {tr("Planner gap + accept/commit tail"),
                                    formatDuration(unattributed + *b.tailVsRecordNs), diff(b.tailVsRecordNs)});
    }
    new QTreeWidgetItem(bands, {tr("Host gap before next step"), formatDuration(b.hostGapNs), QString()});
    bands->setExpanded(true);

    auto* comm = new QTreeWidgetItem(m_table, {tr("Communication"), formatDuration(a->comm.totalNs), QString()});
    TimeNs hidden = 0;
    for (const CommOperation& op : a->comm.operations)
        hidden += op.hiddenNs;
    new QTreeWidgetItem(comm,
                        {tr("Exposed (consumer waited)"), formatDuration(a->comm.exposedNs), share(a->comm.exposedNs)});
    new QTreeWidgetItem(comm, {tr("Hidden"), formatDuration(hidden), QString()});
    new QTreeWidgetItem(comm, {tr("Operations"), QString::number(a->comm.operations.size()), QString()});
    if (!a->replay.replays.empty())
        new QTreeWidgetItem(comm, {tr("Pre-replay host gap"), formatDuration(a->replay.preReplayGapNs), QString()});
    comm->setExpanded(true);
    if (!header.warning.isEmpty()) {
        auto* warn = new QTreeWidgetItem(m_table, {header.warning});
        warn->setForeground(0, AnalysisPalette::anomaly());
        warn->setFirstColumnSpanned(true);
    }
    for (int c = 1; c < 3; ++c)
        m_table->resizeColumnToContents(c);
}

} // namespace dspark::ui
