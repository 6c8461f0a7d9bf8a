#pragma once

#include "steps/StepTable.h"

#include <QAbstractTableModel>

#include <memory>

namespace dspark {

// The step table as a Qt item model (QtCore only), meant to sit behind a QSortFilterProxyModel:
// - Qt::DisplayRole: text with units ("12.345 ms", "72.5 %"); empty when not recorded.
// - SortRole: the raw number (or text); an invalid QVariant when not recorded, which the proxy sorts last.
// - AnomalousRole: true on every cell of an anomalous row; Qt::ToolTipRole: the reason.
// - RankRole / ForwardCtRole / WindowStartNsRole / WindowEndNsRole: to jump to the step on the timeline.
// Columns: the StepColumn columns, then "Timeline" (the alignment status of the step).
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

    explicit StepTableModel(QObject* parent = nullptr);

    void setStepRecords(std::shared_ptr<const StepRecordSet> set);
    const StepRecordSet* stepRecords() const { return m_set.get(); }
    // Recomputes the anomaly flags with other thresholds (the set keeps its load-time defaults).
    void setAnomalyOptions(const AnomalyOptions& options);
    AnomalyOptions anomalyOptions() const { return m_options; }
    // Row of (rank, forward_ct), or -1.
    int rowForStep(int rank, qint64 forwardCt) const;
    size_t anomalyCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Display text of a numeric column value, as in the table (also used by the CLI's human table).
    static QString formatValue(StepColumn column, double value);

private:
    QVariant displayData(int row, int column) const;
    QVariant sortData(int row, int column) const;

    std::shared_ptr<const StepRecordSet> m_set;
    AnomalyOptions m_options;
    std::vector<QString> m_anomalies;
    std::vector<bool> m_inStableWindow;
};

} // namespace dspark
