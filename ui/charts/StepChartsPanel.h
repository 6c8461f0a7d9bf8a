#pragma once

#include "charts/StepChartData.h"

#include <QPointer>
#include <QWidget>

#include <optional>

class QChart;
class QChartView;
class QStackedBarSeries;
class QComboBox;
class QLabel;
class QTabWidget;
class QToolButton;

namespace dspark {
class StepAnalyses;
}

namespace dspark::ui {

class StepBreakdownView;

// The step charts (Qt Charts), linked to the step table: per-step stacked bars of the record's GPU
// segment times (draft / verify / out of segment) over forward_ct with anomalies marked; effective
// TPOT and mean commit length over forward_ct; exposed vs hidden communication per analysed step;
// the critical path by category per step; a histogram of step times; and the breakdown of the
// selected step. Clicking a bar or a point selects that step (recordRowActivated); the window selects
// it in the step table, which zooms the timeline. Each chart exports like a screenshot.
class StepChartsPanel : public QWidget {
    Q_OBJECT
public:
    enum class Chart { StepTimes, TpotCommit, Communication, CriticalPath, Histogram, Breakdown };

    explicit StepChartsPanel(QWidget* parent = nullptr);
    ~StepChartsPanel() override;

    // The records (may be null: the charts say so) and the analyses of the same profile.
    void setData(std::shared_ptr<const StepRecordSet> records, StepAnalyses* analyses);
    // Shows another record rank (when the records have several).
    void setDpRank(int dpRank);
    int dpRank() const { return m_data.dpRank; }
    const StepChartData& data() const { return m_data; }

    // Highlights a step (a StepRecordSet row) in every chart; nullopt clears.
    void setCurrentRecordRow(std::optional<size_t> row);
    std::optional<size_t> currentRecordRow() const { return m_current; }

    void showChart(Chart chart);
    Chart currentChart() const;
    QChartView* chartView(Chart chart) const;
    StepBreakdownView* breakdownView() const { return m_breakdown; }

    // Paints the shown chart (logical size = its size on screen) and writes it; an error or empty.
    QString exportCurrentChart(const QString& path, double scale = 1.0) const;
    QImage currentChartImage(double scale = 1.0) const;

Q_SIGNALS:
    void recordRowActivated(size_t row);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void rebuild();
    void buildStepTimes();
    void buildTpotCommit();
    void buildCommunication();
    void buildCriticalPath();
    void buildHistogram();
    void updateSelection();
    void exportDialog();
    // `stepsPerBar` > 1: the chart shows bins of steps (StepChartData::kMaxBars); the title says so.
    QChart* freshChart(Chart which, const QString& title, size_t stepsPerBar = 1);
    // The common end of the per-step bar charts: a forward_ct axis and a ms axis up to `maxMs` on every
    // series of the chart, and a click on bar i activates record row `recordRows[i]`.
    void finishStepBars(QChart* chart, QStackedBarSeries* bars, const std::vector<int64_t>& forwardCts, double maxMs,
                        std::vector<size_t> recordRows);
    QString titleSuffix() const;

    std::shared_ptr<const StepRecordSet> m_records;
    QPointer<StepAnalyses> m_analyses;
    StepChartData m_data;
    std::optional<size_t> m_current;

    QComboBox* m_rankBox = nullptr;
    QLabel* m_rankLabel = nullptr;
    QToolButton* m_exportButton = nullptr;
    QTabWidget* m_tabs = nullptr;
    QChartView* m_views[5] = {};
    StepBreakdownView* m_breakdown = nullptr;
};

} // namespace dspark::ui
