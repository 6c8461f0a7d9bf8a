#pragma once

#include "cluster/ClusterAnalysis.h"

#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QSplitter;
class QTabWidget;
class QTableView;
class QTableWidget;
class QUndoStack;

namespace dspark::ui {

class ClusterStepTableModel;
class CommMatrixTable;
class CrossRankPathTable;

// A cluster's figures: the ranks with their clock offsets (each editable: the user's offset replaces
// the estimate, undoable) and slow-rank verdicts, and the steps × ranks heat map of a chosen quantity.
// Activating a cell asks to show that rank's step on the timeline (stepActivated).
class ClusterView : public QWidget {
    Q_OBJECT
public:
    explicit ClusterView(QWidget* parent = nullptr);
    ~ClusterView() override;

    void setRanks(std::vector<RankSummary> ranks);
    const std::vector<RankSummary>& ranks() const { return m_ranks; }
    const ClusterAnalysis& analysis() const { return m_analysis; }
    // The user's offset of a rank (index into ranks()), nullopt: the estimate. Pushed on the undo stack.
    void setOffsetOverride(size_t rank, std::optional<TimeNs> offsetNs);
    std::optional<TimeNs> offsetOverride(size_t rank) const { return m_options.offsetOverrides.at(rank); }

    QUndoStack* undoStack() const { return m_undo; }
    QTableView* stepTable() const { return m_stepTable; }
    QTableWidget* rankTable() const { return m_rankTable; }
    // The rank table as tall as its rows (at most half the view), the tabs below the rest.
    void fitRankTable();
    QComboBox* quantityBox() const { return m_quantity; }
    ClusterStepTableModel* stepModel() const { return m_model; }
    // The lower tabs: steps × ranks, the clicked step's cross-rank critical path, the communication matrix.
    QTabWidget* tabs() const { return m_tabs; }
    CrossRankPathTable* pathTable() const { return m_pathTable; }
    QLabel* pathSummary() const { return m_pathSummary; }
    CommMatrixTable* commMatrix() const { return m_commMatrix; }

    // Each rank's clock offset in force (the user's or the estimate): cluster time = rank time + offset.
    std::vector<TimeNs> offsets() const;

Q_SIGNALS:
    // A cell clicked (rank index into ranks(), step id), and activated (double-click, Enter).
    void stepActivated(int rankNumber, qint64 stepId);
    void stepClicked(size_t rank, qint64 stepId);
    // A row of the cross-rank critical path clicked: its segment (rank index into ranks(), cluster
    // clock), what it names (a kernel, a collective; empty for a gap) and whether it is a collective.
    void segmentClicked(size_t rank, qint64 startNs, qint64 endNs, const QString& what, bool collective);
    // The analyses were redone (new ranks, an offset changed).
    void analysed();

private:
    friend class OffsetCommand;
    void applyOverride(size_t rank, std::optional<TimeNs> offsetNs); // no undo entry
    void reanalyse();
    // The user's offsets are kept with each rank's annotations (AnnotationSet::clockOffsetNs).
    void restoreOverrides();
    void saveOverride(size_t rank) const;
    void fillRankTable();
    void rankCellEdited(int row, int column);
    void showPath(int64_t stepId);

    std::vector<RankSummary> m_ranks;
    ClusterOptions m_options;
    ClusterAnalysis m_analysis;
    QUndoStack* m_undo;
    QComboBox* m_quantity;
    QTableView* m_stepTable;
    QTableWidget* m_rankTable;
    QSplitter* m_split;
    QLabel* m_summary;
    ClusterStepTableModel* m_model;
    QTabWidget* m_tabs;
    CrossRankPathTable* m_pathTable;
    QLabel* m_pathSummary;
    CommMatrixTable* m_commMatrix;
    bool m_filling = false;
};

} // namespace dspark::ui
