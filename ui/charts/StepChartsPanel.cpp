#include "charts/StepChartsPanel.h"

#include "charts/StepBreakdownView.h"
#include "overlays/AnalysisPalette.h"
#include "report/ExportDialog.h"
#include "report/ImageExport.h"
#include "report/ReportPainter.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"

#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMessageBox>
#include <QPainter>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace dspark::ui {

StepChartsPanel::StepChartsPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* bar = new QHBoxLayout;
    m_rankLabel = new QLabel(this);
    m_rankBox = new QComboBox(this);
    m_exportButton = new QToolButton(this);
    bar->addWidget(m_rankLabel);
    bar->addWidget(m_rankBox);
    bar->addStretch(1);
    bar->addWidget(m_exportButton);
    layout->addLayout(bar);
    m_tabs = new QTabWidget(this);
    for (int i = 0; i < 5; ++i) {
        m_views[i] = new QChartView(m_tabs);
        m_views[i]->setRenderHint(QPainter::Antialiasing);
        m_views[i]->setMinimumHeight(150); // (a 900-pixel screen holds the window with the charts docked)
        m_tabs->addTab(m_views[i], QString());
    }
    m_breakdown = new StepBreakdownView(m_tabs);
    m_tabs->addTab(m_breakdown, QString());
    layout->addWidget(m_tabs, 1);
    retranslate();

    connect(m_rankBox, &QComboBox::activated, this, [this](int i) { setDpRank(m_rankBox->itemData(i).toInt()); });
    connect(m_exportButton, &QToolButton::clicked, this, &StepChartsPanel::exportDialog);
    rebuild();
}

StepChartsPanel::~StepChartsPanel() = default;

void StepChartsPanel::retranslate()
{
    m_rankLabel->setText(tr("Rank:"));
    m_exportButton->setText(tr("Export Chart…"));
    m_exportButton->setToolTip(tr("Save the shown chart as PNG, SVG or PDF"));
    const QString titles[6] = {tr("Step time"), tr("TPOT / commit length"), tr("Communication"), tr("Critical path"),
                               tr("Histogram"), tr("Selected step")};
    for (int i = 0; i < 6; ++i)
        m_tabs->setTabText(i, titles[i]);
}

void StepChartsPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange && m_tabs) {
        retranslate();
        m_breakdown->retranslate();
        rebuild(); // titles, axes and legends are made with the charts
    }
}

void StepChartsPanel::setData(std::shared_ptr<const StepRecordSet> records, StepAnalyses* analyses)
{
    if (m_analyses)
        disconnect(m_analyses, nullptr, this, nullptr);
    m_records = std::move(records);
    m_analyses = analyses;
    m_current.reset();
    if (analyses)
        connect(analyses, &StepAnalyses::analysesReady, this, &StepChartsPanel::rebuild);
    m_data = StepChartData::build(m_records.get(), m_analyses, -1);
    rebuild();
}

void StepChartsPanel::setDpRank(int dpRank)
{
    if (dpRank == m_data.dpRank)
        return;
    m_data = StepChartData::build(m_records.get(), m_analyses, dpRank);
    rebuild();
}

void StepChartsPanel::showChart(Chart chart)
{
    m_tabs->setCurrentIndex(int(chart));
}

StepChartsPanel::Chart StepChartsPanel::currentChart() const
{
    return Chart(m_tabs->currentIndex());
}

QChartView* StepChartsPanel::chartView(Chart chart) const
{
    return int(chart) < 5 ? m_views[int(chart)] : m_breakdown->chartView();
}

QString StepChartsPanel::titleSuffix() const
{
    return m_data.dpRanks.size() > 1 ? tr(" — rank %1").arg(m_data.dpRank) : QString();
}

QChart* StepChartsPanel::freshChart(Chart which, const QString& title, size_t stepsPerBar)
{
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setTitle(title + (stepsPerBar > 1 ? tr(" (mean of %n steps each)", nullptr, int(stepsPerBar)) : QString()) +
                    titleSuffix());
    chart->setTitleFont(ReportPainter::reportFont(13, true));
    chart->setFont(ReportPainter::reportFont(11));
    chart->legend()->setFont(ReportPainter::reportFont(11));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    QChartView* view = m_views[int(which)];
    QChart* old = view->chart();
    view->setChart(chart);
    delete old;
    return chart;
}

// X axis of per-step bars: bars sit at indices 0..n-1; about a dozen of them are labelled with their
// forward_ct (every label of a QCategoryAxis must be unique, forward_cts are).
static QCategoryAxis* forwardCtAxis(const std::vector<int64_t>& forwardCts)
{
    auto* axis = new QCategoryAxis;
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    const int n = int(forwardCts.size());
    axis->setStartValue(-0.5);
    axis->setRange(-0.5, std::max(0.5, n - 0.5));
    const int every = std::max(1, int(std::ceil(n / 12.0)));
    for (int i = 0; i < n; i += every)
        axis->append(QString::number(forwardCts[i]), i);
    axis->setTitleText(QCoreApplication::translate("StepChartsPanel", "forward_ct"));
    axis->setLabelsFont(ReportPainter::reportFont(10));
    return axis;
}

static QValueAxis* msAxis(const QString& title, double maxValue)
{
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setRange(0, maxValue > 0 ? maxValue * 1.12 : 1.0);
    axis->setLabelFormat(QStringLiteral("%.2f"));
    axis->applyNiceNumbers();
    axis->setLabelsFont(ReportPainter::reportFont(10));
    return axis;
}

static QBarSet* barSet(const QString& name, const QColor& color)
{
    auto* set = new QBarSet(name);
    set->setColor(color);
    set->setBorderColor(color.darker(115));
    set->setSelectedColor(color.darker(190));
    return set;
}

static QScatterSeries* anomalyMarkers(const QString& name)
{
    auto* s = new QScatterSeries;
    s->setName(name);
    s->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    s->setMarkerSize(11);
    s->setColor(AnalysisPalette::anomaly());
    s->setBorderColor(Qt::white);
    return s;
}

void StepChartsPanel::rebuild()
{
    if (!m_records)
        m_data = {};
    else if (m_analyses && m_data.analysed.empty() && m_analyses->ready())
        m_data = StepChartData::build(m_records.get(), m_analyses, m_data.dpRank);
    m_rankBox->clear();
    for (int r : m_data.dpRanks)
        m_rankBox->addItem(QString::number(r), r);
    m_rankBox->setCurrentIndex(std::max(0, m_rankBox->findData(m_data.dpRank)));
    m_rankBox->setVisible(m_data.dpRanks.size() > 1);
    m_rankLabel->setVisible(m_data.dpRanks.size() > 1);
    buildStepTimes();
    buildTpotCommit();
    buildCommunication();
    buildCriticalPath();
    buildHistogram();
    updateSelection();
}

void StepChartsPanel::finishStepBars(QChart* chart, QStackedBarSeries* bars, const std::vector<int64_t>& forwardCts,
                                     double maxMs, std::vector<size_t> recordRows)
{
    QCategoryAxis* x = forwardCtAxis(forwardCts);
    QValueAxis* y = msAxis(tr("ms"), maxMs);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    connect(bars, &QStackedBarSeries::clicked, this, [this, rows = std::move(recordRows)](int index, QBarSet*) {
        if (index >= 0 && size_t(index) < rows.size())
            Q_EMIT recordRowActivated(rows[size_t(index)]);
    });
}

static std::vector<size_t> analysedRows(const std::vector<StepChartAnalysis>& steps)
{
    std::vector<size_t> rows;
    for (const StepChartAnalysis& s : steps)
        rows.push_back(s.recordRow);
    return rows;
}

void StepChartsPanel::buildStepTimes()
{
    const auto& recs = m_data.records;
    bool anyTimes = false;
    for (const StepChartRecord& r : recs)
        anyTimes = anyTimes || r.draftMs || r.verifyMs;
    QChart* chart = freshChart(Chart::StepTimes,
                               anyTimes       ? tr("Step time by segment (record GPU times)")
                               : recs.empty() ? tr("Step time by segment: no step records")
                                              : tr("Step time by segment: no GPU segment times recorded"),
                               m_data.stepsPerBar);
    if (recs.empty())
        return;
    auto* series = new QStackedBarSeries;
    QBarSet* draft = barSet(tr("Draft"), AnalysisPalette::stage(Stage::Draft));
    QBarSet* verify = barSet(tr("Target verify"), AnalysisPalette::stage(Stage::Verify));
    QBarSet* outside = barSet(tr("Out of segment"), AnalysisPalette::outOfSegment());
    auto* marks = anomalyMarkers(tr("Anomalous step"));
    double maxTotal = 0;
    std::vector<int64_t> fcts;
    for (size_t i = 0; i < recs.size(); ++i) {
        const StepChartRecord& r = recs[i];
        const double d = r.draftMs.value_or(0), v = r.verifyMs.value_or(0),
                     o = std::max(0.0, r.outOfSegmentMs.value_or(0));
        *draft << d;
        *verify << v;
        *outside << o;
        const double total = std::max(d + v + o, r.stepMs.value_or(0));
        maxTotal = std::max(maxTotal, total);
        fcts.push_back(r.forwardCt);
    }
    for (const StepChartRecord& r : recs) // (a bin's marker sits above its anomalous step, not its mean)
        if (!r.anomaly.isEmpty())
            maxTotal = std::max(maxTotal, r.anomalyStepMs.value_or(0));
    for (size_t i = 0; i < recs.size(); ++i)
        if (!recs[i].anomaly.isEmpty()) {
            const double total = m_data.stepsPerBar > 1 ? recs[i].anomalyStepMs.value_or(0)
                                                        : draft->at(int(i)) + verify->at(int(i)) + outside->at(int(i));
            marks->append(double(i), total + maxTotal * 0.04);
        }
    series->append(QList<QBarSet*>{draft, verify, outside});
    series->setBarWidth(0.8);
    chart->addSeries(series);
    chart->addSeries(marks);
    std::vector<size_t> rows;
    for (const StepChartRecord& r : recs)
        rows.push_back(r.recordRow);
    finishStepBars(chart, series, fcts, maxTotal, std::move(rows));
    if (marks->count() == 0)
        chart->legend()->markers(marks).value(0)->setVisible(false);
}

void StepChartsPanel::buildTpotCommit()
{
    const auto& recs = m_data.records;
    QChart* chart = freshChart(Chart::TpotCommit,
                               m_data.gpuStepTimes ? tr("Effective TPOT (GPU) and mean commit length")
                                                   : tr("Effective TPOT (CPU) and mean commit length"),
                               m_data.stepsPerBar);
    if (recs.empty())
        return;
    auto* tpot = new QLineSeries;
    tpot->setName(tr("Effective TPOT (ms)"));
    tpot->setColor(AnalysisPalette::stage(Stage::Verify));
    tpot->setPointsVisible(true);
    auto* commit = new QLineSeries;
    commit->setName(tr("Mean commit length (tokens)"));
    commit->setColor(AnalysisPalette::stage(Stage::Draft));
    commit->setPointsVisible(true);
    auto* marks = anomalyMarkers(tr("Anomalous step"));
    auto* selected = new QScatterSeries;
    selected->setName(tr("Selected step"));
    selected->setObjectName(QStringLiteral("selected"));
    selected->setMarkerSize(16);
    selected->setColor(Qt::transparent);
    selected->setBorderColor(QColor(0x11, 0x18, 0x27));
    double maxTpot = 0, maxCommit = 0;
    int64_t lo = recs.front().forwardCt, hi = recs.back().forwardCt;
    for (const StepChartRecord& r : recs) {
        if (r.tpotMs) {
            tpot->append(double(r.forwardCt), *r.tpotMs);
            maxTpot = std::max(maxTpot, *r.tpotMs);
            if (!r.anomaly.isEmpty()) {
                const double mark = r.anomalyTpotMs.value_or(*r.tpotMs);
                marks->append(double(r.forwardCt), mark);
                maxTpot = std::max(maxTpot, mark);
            }
        }
        if (r.meanCommitLen) {
            commit->append(double(r.forwardCt), *r.meanCommitLen);
            maxCommit = std::max(maxCommit, *r.meanCommitLen);
        }
    }
    chart->addSeries(tpot);
    chart->addSeries(marks);
    chart->addSeries(selected);
    chart->addSeries(commit);
    auto* x = new QValueAxis;
    x->setTitleText(tr("forward_ct"));
    x->setLabelFormat(QStringLiteral("%d"));
    x->setRange(double(lo) - 0.5, double(hi) + 0.5);
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(double(lo));
    x->setTickInterval(std::max<double>(1.0, std::ceil(double(hi - lo + 1) / 10.0)));
    x->setLabelsFont(ReportPainter::reportFont(10));
    QValueAxis* yTpot = msAxis(tr("TPOT (ms)"), maxTpot);
    auto* yCommit = new QValueAxis;
    yCommit->setTitleText(tr("commit length (tokens)"));
    yCommit->setRange(0, std::max(1.0, maxCommit * 1.15));
    yCommit->setLabelFormat(QStringLiteral("%.1f"));
    yCommit->setLabelsFont(ReportPainter::reportFont(10));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(yTpot, Qt::AlignLeft);
    chart->addAxis(yCommit, Qt::AlignRight);
    for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(tpot), static_cast<QAbstractSeries*>(marks),
                               static_cast<QAbstractSeries*>(selected)}) {
        s->attachAxis(x);
        s->attachAxis(yTpot);
    }
    commit->attachAxis(x);
    commit->attachAxis(yCommit);
    auto pick = [this](const QPointF& p) {
        const StepChartRecord* best = nullptr;
        for (const StepChartRecord& r : m_data.records)
            if (!best || std::fabs(double(r.forwardCt) - p.x()) < std::fabs(double(best->forwardCt) - p.x()))
                best = &r;
        if (best)
            Q_EMIT recordRowActivated(best->recordRow);
    };
    connect(tpot, &QLineSeries::clicked, this, pick);
    connect(commit, &QLineSeries::clicked, this, pick);
    connect(marks, &QScatterSeries::clicked, this, pick);
}

void StepChartsPanel::buildCommunication()
{
    const auto& steps = m_data.analysed;
    const bool pending = m_analyses && !m_analyses->ready() && m_analyses->stepCount() > 0;
    QChart* chart = freshChart(Chart::Communication,
                               !steps.empty() ? tr("Communication per step: exposed vs hidden")
                               : pending      ? tr("Communication per step: analysing…")
                                              : tr("Communication per step: no step aligned to the timeline"),
                               m_data.analysedPerBar);
    if (steps.empty())
        return;
    auto* series = new QStackedBarSeries;
    QBarSet* exposed = barSet(tr("Exposed (consumer waited)"), AnalysisPalette::commExposed());
    QBarSet* hidden = barSet(tr("Hidden (overlapped)"), AnalysisPalette::commHidden());
    double maxTotal = 0;
    std::vector<int64_t> fcts;
    for (const StepChartAnalysis& s : steps) {
        *exposed << s.commExposedMs;
        *hidden << s.commHiddenMs;
        maxTotal = std::max(maxTotal, s.commExposedMs + s.commHiddenMs);
        fcts.push_back(s.forwardCt);
    }
    series->append(QList<QBarSet*>{exposed, hidden});
    series->setBarWidth(0.8);
    chart->addSeries(series);
    finishStepBars(chart, series, fcts, maxTotal, analysedRows(steps));
}

void StepChartsPanel::buildCriticalPath()
{
    const auto& steps = m_data.analysed;
    QChart* chart = freshChart(Chart::CriticalPath,
                               steps.empty() ? tr("Critical path by category: no analysed step")
                                             : tr("Critical path by category (sums to the step wall)"),
                               m_data.analysedPerBar);
    if (steps.empty())
        return;
    auto* series = new QStackedBarSeries;
    double maxWall = 0;
    std::vector<int64_t> fcts;
    for (const StepChartAnalysis& s : steps) {
        maxWall = std::max(maxWall, s.wallMs);
        fcts.push_back(s.forwardCt);
    }
    for (size_t c = 0; c < kPathCategoryCount; ++c) {
        QBarSet* set = barSet(pathCategoryLabel(PathCategory(c)), AnalysisPalette::category(PathCategory(c)));
        for (const StepChartAnalysis& s : steps)
            *set << s.pathMs[c];
        series->append(set);
    }
    series->setBarWidth(0.8);
    chart->addSeries(series);
    finishStepBars(chart, series, fcts, maxWall, analysedRows(steps));
}

void StepChartsPanel::buildHistogram()
{
    const auto& bins = m_data.histogram;
    QChart* chart = freshChart(Chart::Histogram, bins.empty()          ? tr("Histogram of step times: no step times")
                                                 : m_data.gpuStepTimes ? tr("Histogram of step times (step GPU)")
                                                                       : tr("Histogram of step times (step CPU)"));
    if (bins.empty())
        return;
    auto* series = new QStackedBarSeries;
    QBarSet* ordinary = barSet(tr("Steps"), AnalysisPalette::stage(Stage::Draft));
    QBarSet* anomalous = barSet(tr("Anomalous steps"), AnalysisPalette::anomaly());
    int maxCount = 0;
    for (const StepTimeBin& b : bins) {
        *ordinary << b.ordinary;
        *anomalous << b.anomalous;
        maxCount = std::max(maxCount, b.ordinary + b.anomalous);
    }
    series->append(QList<QBarSet*>{ordinary, anomalous});
    series->setBarWidth(0.95);
    chart->addSeries(series);
    // Bin edges as labels, with enough decimals to tell them apart.
    auto* x = new QCategoryAxis;
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    const int n = int(bins.size());
    x->setStartValue(-0.6);
    x->setRange(-0.6, n - 0.4);
    const double width = bins.front().hiMs - bins.front().loMs;
    const int decimals = width > 0 ? std::clamp(int(std::ceil(-std::log10(width))) + 1, 1, 4) : 2;
    const int every = std::max(1, int(std::ceil((n + 1) / 10.0)));
    QString last;
    for (int i = 0; i <= n; i += every) {
        const double edge = i < n ? bins[i].loMs : bins.back().hiMs;
        const QString label = QString::number(edge, 'f', decimals);
        if (label != last)
            x->append(label, i - 0.5);
        last = label;
    }
    x->setTitleText(tr("step time (ms)"));
    x->setLabelsFont(ReportPainter::reportFont(10));
    auto* y = new QValueAxis;
    y->setTitleText(tr("steps"));
    y->setLabelFormat(QStringLiteral("%d"));
    y->setRange(0, std::max(1, maxCount + 1));
    y->setTickType(QValueAxis::TicksDynamic);
    y->setTickAnchor(0);
    y->setTickInterval(std::max(1.0, std::ceil((maxCount + 1) / 8.0)));
    y->setLabelsFont(ReportPainter::reportFont(10));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    connect(series, &QStackedBarSeries::clicked, this, [this](int index, QBarSet*) {
        if (index >= 0 && size_t(index) < m_data.histogram.size() && !m_data.histogram[index].recordRows.empty())
            Q_EMIT recordRowActivated(m_data.histogram[index].recordRows.front());
    });
    connect(series, &QStackedBarSeries::hovered, this, [this](bool on, int index, QBarSet*) {
        if (!on || index < 0 || size_t(index) >= m_data.histogram.size()) {
            m_views[int(Chart::Histogram)]->setToolTip({});
            return;
        }
        const StepTimeBin& b = m_data.histogram[index];
        QStringList fcts;
        for (size_t row : b.recordRows)
            for (const StepChartRecord& r : m_data.records)
                if (r.recordRow == row)
                    fcts << QString::number(r.forwardCt);
        if (fcts.size() > 12)
            fcts = fcts.mid(0, 12) << QStringLiteral("…");
        m_views[int(Chart::Histogram)]->setToolTip(
            tr("%1–%2 ms: %n step(s)\nforward_ct %3", nullptr, int(b.recordRows.size()))
                .arg(b.loMs, 0, 'f', 3)
                .arg(b.hiMs, 0, 'f', 3)
                .arg(fcts.join(QStringLiteral(", "))));
    });
}

void StepChartsPanel::setCurrentRecordRow(std::optional<size_t> row)
{
    m_current = row;
    updateSelection();
}

void StepChartsPanel::updateSelection()
{
    auto selectIn = [](QChartView* view, int index) {
        for (QAbstractSeries* s : view->chart()->series())
            if (auto* bars = qobject_cast<QAbstractBarSeries*>(s))
                for (QBarSet* set : bars->barSets()) {
                    set->deselectAllBars();
                    if (index >= 0)
                        set->selectBar(index);
                }
    };
    // The bar of the step (of a bin: the one whose rows hold it).
    const auto holds = [this](const auto& bar) {
        return bar.recordRow == *m_current || (bar.firstRecordRow <= *m_current && *m_current <= bar.lastRecordRow);
    };
    int recIndex = -1, stepIndex = -1;
    for (size_t i = 0; m_current && i < m_data.records.size() && recIndex < 0; ++i)
        if (holds(m_data.records[i]))
            recIndex = int(i);
    for (size_t i = 0; m_current && i < m_data.analysed.size() && stepIndex < 0; ++i)
        if (holds(m_data.analysed[i]))
            stepIndex = int(i);
    selectIn(m_views[int(Chart::StepTimes)], recIndex);
    selectIn(m_views[int(Chart::Communication)], stepIndex);
    selectIn(m_views[int(Chart::CriticalPath)], stepIndex);
    for (QAbstractSeries* s : m_views[int(Chart::TpotCommit)]->chart()->series())
        if (s->objectName() == QLatin1String("selected")) {
            auto* sel = static_cast<QScatterSeries*>(s);
            sel->clear();
            if (recIndex >= 0 && m_data.records[recIndex].tpotMs)
                sel->append(double(m_data.records[recIndex].forwardCt), *m_data.records[recIndex].tpotMs);
        }
    const StepAnalysis* a = nullptr;
    const RecordWindow* w = nullptr;
    if (m_analyses && m_current)
        if (const std::optional<size_t> step = m_analyses->stepOfRecordRow(*m_current)) {
            a = m_analyses->analysis(*step);
            w = &m_analyses->step(*step);
        }
    m_breakdown->setStep(m_analyses ? m_analyses->profile() : nullptr, a, w);
}

QImage StepChartsPanel::currentChartImage(double scale) const
{
    QWidget* page = m_tabs->currentWidget();
    const QSize size = page->size();
    return renderImage(size, scale, [page](QPainter& p, const QSizeF&) { page->render(&p); });
}

QString StepChartsPanel::exportCurrentChart(const QString& path, double scale) const
{
    const std::optional<ImageFormat> format = imageFormatForPath(path);
    if (!format)
        return tr("%1: unknown image type (use .png, .svg or .pdf)").arg(path);
    QWidget* page = m_tabs->currentWidget();
    const QString title = m_tabs->tabText(m_tabs->currentIndex());
    if (auto* view = qobject_cast<QChartView*>(page)) {
        // Charts paint as vectors into SVG / PDF.
        return writeImage(
            path, *format, view->size(), scale,
            [view](QPainter& p, const QSizeF& s) {
                view->render(&p, QRectF(QPointF(0, 0), s), view->viewport()->rect());
            },
            title);
    }
    return writeImage(
        path, *format, page->size(), scale, [page](QPainter& p, const QSizeF&) { page->render(&p); }, title);
}

void StepChartsPanel::exportDialog()
{
    const QString proposed =
        QDir(ExportDialog::defaultFolder()).filePath(m_tabs->tabText(m_tabs->currentIndex()) + QStringLiteral(".png"));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"), proposed,
                                                      tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    const QString error = exportCurrentChart(path, devicePixelRatioF() > 1 ? devicePixelRatioF() : 2.0);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export Chart"), error);
    else
        ExportDialog::rememberFolderOf(path);
}

} // namespace dspark::ui
