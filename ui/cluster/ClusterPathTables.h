#pragma once

#include "cluster/ClusterAnalysis.h"
#include "cluster/CrossRankPath.h"

#include <QTableWidget>

#include <vector>

namespace dspark::ui {

// The cross-rank critical path of one step (core/cluster/CrossRankPath): a row per segment, in time
// order, times in µs from the path's start; summary() says its length and its largest share.
class CrossRankPathTable : public QTableWidget {
    Q_OBJECT
public:
    explicit CrossRankPathTable(QWidget* parent = nullptr);
    void showStep(const std::vector<RankSummary>& ranks, const ClusterAnalysis& analysis, int64_t stepId);
    int64_t stepId() const { return m_stepId; }
    const QString& summary() const { return m_summary; }
    // The segment shown in `row` (null outside the table).
    const CrossRankSegment* segmentAt(int row) const;

private:
    int64_t m_stepId = -1;
    QString m_summary;
    std::vector<CrossRankSegment> m_segments; // the rows, in order
};

// The communication matrix of every group (core/cluster/CommMatrix): source → destination rows where
// the ranks carry COMMUNICATION_TASK_INFO, else each member's time in the group's collectives.
class CommMatrixTable : public QTableWidget {
    Q_OBJECT
public:
    explicit CommMatrixTable(QWidget* parent = nullptr);
    void showMatrices(const std::vector<RankSummary>& ranks, const ClusterAnalysis& analysis);
};

} // namespace dspark::ui
