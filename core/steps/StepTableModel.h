#pragma once

#include "analysis/StepAnalysis.h"
#include "steps/StepTable.h"

#include <QAbstractTableModel>

#include <memory>

namespace dspark {

// The step table as a Qt item model (QtCore only), meant to sit behind a QSortFilterProxyModel:
// - Qt::DisplayRole: text with units ("12.345 ms", "72.5 %"); empty when not recorded.
// - SortRole: the raw number (or text); an invalid QVariant when not recorded, which the proxy sorts last.
// - AnomalousRole: true on every cell of an anomalous row; Qt::ToolTipRole: the reason.
// - RankRole / ForwardCtRole / WindowStartNsRole / WindowEndNsRole: to jump to the step on the timeline.
// Columns: the StepColumn columns, then "Timeline" (the alignment status of the step), then — once
// setAnalysis() gave the analyses of the profile — the analyses' columns (AnalysisColumn: communication
// total / exposed, pre-replay gap, and the critical path's time per category), empty for a step that is
// not on the timeline.
// How a record matched the trace, as shown to users ("match", "not in trace", …; translated).
QString stepMatchText(StepMatch m);

class StepTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        SortRole = Qt::UserRole + 1,
        AnomalousRole,       // bool
        AnomalyReasonRole,   // QString, empty when ordinary
        RankRole,            // int
        ForwardCtRole,       // qlonglong
        WindowStartNsRole,   // qlonglong, invalid when the step has no timeline window
        WindowEndNsRole,     // qlonglong
        AlignmentStatusRole, // QString: stepMatchName()
        InStableWindowRole,  // bool: the row lies in its rank's proposed stable window
    };
    static constexpr int TimelineColumn = kStepColumnCount;
    // The analyses' columns, after TimelineColumn (present only after setAnalysis()).
    enum AnalysisColumn { CommTotalColumn, CommExposedColumn, PreReplayGapColumn, FirstPathColumn };
    static constexpr int kAnalysisColumnCount = FirstPathColumn + static_cast<int>(kPathCategoryCount);
    static constexpr int FirstAnalysisColumn = TimelineColumn + 1;

    explicit StepTableModel(QObject* parent = nullptr);

    void setStepRecords(std::shared_ptr<const StepRecordSet> set);
    const StepRecordSet* stepRecords() const { return m_set.get(); }
    // Recomputes the anomaly flags with other thresholds (the set keeps its load-time defaults).
    void setAnomalyOptions(const AnomalyOptions& options);
    AnomalyOptions anomalyOptions() const { return m_options; }
    // The analyses of the same profile (analyzeProfile); adds the analyses' columns. Null removes them.
    void setAnalysis(std::shared_ptr<const ProfileAnalysis> analysis);
    const ProfileAnalysis* analysis() const { return m_analysis.get(); }
    // The analysis of a row, or null when the step is not on the timeline / no analysis is set.
    const StepAnalysis* analysisOfRow(int row) const;
    // The analyses of the rows (null: not on the timeline) for the anomaly causes only (no columns):
    // the flags then name what the timeline measured (explainStepAnomalies). Pointers must outlive the
    // model's records. setAnalysis() does the same with its own analyses.
    void setAnomalyAnalyses(std::vector<const StepAnalysis*> analysisOfRow);
    // Row of (rank, forward_ct), or -1.
    int rowForStep(int dpRank, qint64 forwardCt) const;
    size_t anomalyCount() const;
    QString anomalyText(int row) const; // "" = not anomalous

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Display text of a numeric column value, as in the table (also used by the CLI's human table).
    static QString formatValue(StepColumn column, double value);

private:
    QVariant displayData(int row, int column) const;
    QVariant sortData(int row, int column) const;
    std::optional<TimeNs> analysisValue(int row, int column) const;
    void mapAnalysis();
    void recomputeAnomalies();

    std::shared_ptr<const StepRecordSet> m_set;
    AnomalyOptions m_options;
    std::vector<QString> m_anomalies;
    std::vector<bool> m_inStableWindow;
    std::shared_ptr<const ProfileAnalysis> m_analysis;
    std::vector<const StepAnalysis*> m_analysisOfRow;
    std::vector<const StepAnalysis*> m_anomalyAnalyses; // setAnomalyAnalyses()
};

} // namespace dspark
