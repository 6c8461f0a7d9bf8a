#pragma once

#include "compare/KernelAlignment.h"
#include "compare/RunComparison.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QHeaderView;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;
class QTableWidget;
class QTreeWidget;

namespace dspark::ui {

// The docks of a comparison (issue 23), each fed by the core's RunComparison (core/compare). Each has a
// note line above its table that says what it shows, or why it is empty (no comparison, still comparing).
class ComparisonPanelBase : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonPanelBase(QWidget* parent = nullptr);
    ~ComparisonPanelBase() override;
    // Empties the panel and says why.
    void setPlaceholder(const QString& text);
    QLabel* noteLabel() const { return m_note; }

protected:
    void changeEvent(QEvent* event) override; // retranslates: rebuild()
    // Forgets what the panel shows (then rebuild() shows nothing).
    virtual void clear() = 0;
    // Fills the panel (texts included) from what it holds.
    virtual void rebuild() = 0;
    QLabel* m_note = nullptr;
};

// Is it a controlled experiment? The configuration diff grouped by experiment variable, each group and
// field marked same / different / unknown, the one-line warning when more than one group differs, and
// what cannot be compared between the runs.
class ConfigDiffPanel : public ComparisonPanelBase {
    Q_OBJECT
public:
    explicit ConfigDiffPanel(QWidget* parent = nullptr);
    void setComparison(std::shared_ptr<const RunComparison> comparison);
    QTreeWidget* tree() const { return m_tree; }
    QLabel* warningLabel() const { return m_note; }

protected:
    void clear() override { m_comparison.reset(); }
    void rebuild() override;

private:
    std::shared_ptr<const RunComparison> m_comparison;
    QTreeWidget* m_tree = nullptr;
};

// Per workload class (and the whole stable window): both runs' distributions of every quantity
// (median, p10, p90, n) and the change of the median with its bootstrap interval; an interval that
// contains zero is said to be within the noise.
class DistributionPanel : public ComparisonPanelBase {
    Q_OBJECT
public:
    explicit DistributionPanel(QWidget* parent = nullptr);
    void setComparison(std::shared_ptr<const RunComparison> comparison);
    QComboBox* classBox() const { return m_class; }
    QTableWidget* table() const { return m_table; }
    // The row of `q` in the table, -1 when the class has no values of it.
    int rowOf(Quantity q) const;

protected:
    void clear() override { m_comparison.reset(); }
    void rebuild() override; // the class list, then the class shown

private:
    void showClass(int index);
    std::shared_ptr<const RunComparison> m_comparison;
    QComboBox* m_class = nullptr;
    QTableWidget* m_table = nullptr;
    std::vector<Quantity> m_rows;
};

// The cost-and-output table: one row per matched step pair, both runs' figures and their deltas. The
// pairs are the core's (RunComparison::allPairs): the median pair of each class (the default) or, with
// "All pairs", every step paired within its class. Sort by any column, filter by class, copy / CSV /
// Markdown / JSON of the rows as shown. Activating a row shows that pair on both timelines.
class PairTablePanel : public ComparisonPanelBase {
    Q_OBJECT
public:
    explicit PairTablePanel(QWidget* parent = nullptr);
    void setComparison(std::shared_ptr<const RunComparison> comparison);
    QTableView* table() const { return m_view; }
    QLineEdit* filterEdit() const { return m_filter; }
    QCheckBox* allPairsToggle() const { return m_allPairs; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    // Every pair, or only the median pair of each class (the default).
    bool showsAllPairs() const;
    void setShowAllPairs(bool all);
    // The RunComparison::allPairs index of a shown row, -1 when none.
    int pairOfRow(int row) const;
    // The shown row of an allPairs index, -1 when it is not shown (another mode, filtered out).
    int rowOfPair(int pairIndex) const;
    // Selects and reveals the row of an allPairs index (no pairActivated: the pair is already on show).
    void selectPair(int pairIndex);
    // The rows as shown: CSV / Markdown / JSON by the file's suffix. An error naming the file, or empty.
    QString exportTo(const QString& path) const;
    QString jsonText() const;
    void copyToClipboard() const;

Q_SIGNALS:
    void pairActivated(int pairIndex); // RunComparison::allPairs index
    void pairSetChanged();             // median pairs ↔ all pairs

protected:
    void clear() override { m_comparison.reset(); }
    void rebuild() override;

private:
    void askExport();
    std::shared_ptr<const RunComparison> m_comparison;
    QLineEdit* m_filter = nullptr;
    QCheckBox* m_allPairs = nullptr;
    QPushButton* m_copy = nullptr;
    QPushButton* m_export = nullptr;
    QStandardItemModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_view = nullptr;
};

// The kernels of the shown step pair aligned per stream: matched tasks with their duration change, the
// largest regressions first, then the tasks of one run only. Activating a row takes both timelines to
// its tasks.
class KernelDiffPanel : public ComparisonPanelBase {
    Q_OBJECT
public:
    explicit KernelDiffPanel(QWidget* parent = nullptr);
    void setAlignment(std::shared_ptr<const KernelAlignment> alignment, const QString& pairText);
    QTableWidget* table() const { return m_table; }
    const AlignedTask* taskOfRow(int row) const;

Q_SIGNALS:
    void taskActivated(dspark::EventRef baseline, dspark::EventRef changed);

protected:
    void clear() override { m_alignment.reset(); }
    void rebuild() override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitNameColumn();

    std::shared_ptr<const KernelAlignment> m_alignment;
    std::vector<const AlignedTask*> m_rows;
    QString m_pairText;
    QTableWidget* m_table = nullptr;
    int m_nameWidth = 0; // the kernel names' column at its contents' width
};

// Moves `columns` (logical indices) right after the first one in the view, in that order; the model's
// order (what is copied and exported) is kept.
void showColumnsAfterFirst(QHeaderView* header, const std::vector<int>& columns);

// A quantity's value as the tables print it (unit by quantity; "–" for NaN).
QString formatQuantity(Quantity q, double value, bool signedValue = false);

} // namespace dspark::ui
