#pragma once

#include "cluster/ClusterAnalysis.h"

#include <QAbstractTableModel>

#include <map>
#include <vector>

namespace dspark::ui {

// The cluster step table: one row per step of the window (the first step every rank has, on), one
// column per opened rank; each cell one chosen quantity of that rank's step, coloured as a heat map
// from the table's smallest (pale) to largest (deep red) value.
class ClusterStepTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Quantity { StepWall, StepGpu, ExposedComm, WaitForPeers, PreReplayGap, PathCategory };
    static constexpr int kQuantityCount = 6;
    static QString quantityLabel(Quantity q);

    explicit ClusterStepTableModel(QObject* parent = nullptr);

    // Both must live as long as the model shows them (the view owns them).
    void setCluster(const std::vector<RankSummary>* ranks, const ClusterAnalysis* analysis);
    void setQuantity(Quantity q);
    Quantity quantity() const { return m_quantity; }

    int64_t stepAt(int row) const { return m_steps.at(static_cast<size_t>(row)); }
    // The value of a cell (ns; step GPU in ns too), nullopt when the rank has no such step.
    std::optional<double> value(int row, int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    void rebuild();
    const RankStep* stepOf(size_t rank, int64_t stepId) const;

    const std::vector<RankSummary>* m_ranks = nullptr;
    const ClusterAnalysis* m_analysis = nullptr;
    Quantity m_quantity = Quantity::StepWall;
    std::vector<int64_t> m_steps;
    std::vector<std::map<int64_t, size_t>> m_stepIndex; // per rank: step id → index into its steps
    std::vector<std::map<int64_t, TimeNs>> m_wait;      // per rank: step id → Σ wait for late peers
    double m_min = 0, m_max = 0;
};

} // namespace dspark::ui
