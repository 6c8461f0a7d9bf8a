#pragma once

#include "model/Profile.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QLabel;
class QFrame;
class QLineEdit;
class QPushButton;
class QTableView;

namespace dspark {
class StepTableModel;
struct StepRecordSet;
} // namespace dspark

namespace dspark::ui {

class StepFilterProxy;

// The step table (core StepTableModel) behind a sort/filter proxy: sortable by any column, filtered
// by text and "anomalous only", anomalous rows highlighted. Selecting a row asks the window to zoom
// to the step; double-clicking asks to open the step (zoom + its device tasks in the kernel table).
class StepTablePanel : public QWidget {
    Q_OBJECT
public:
    explicit StepTablePanel(QWidget* parent = nullptr);
    ~StepTablePanel() override;

    void setStepRecords(std::shared_ptr<const StepRecordSet> records);
    const StepRecordSet* stepRecords() const;
    StepTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }

    // Source row (StepRecordSet::rows index) shown in a view row, and back (-1 when filtered out).
    int sourceRow(int viewRow) const;
    int viewRow(int sourceRow) const;
    int currentSourceRow() const;
    // Selects a step without emitting stepSelected (the timeline already shows it).
    void selectSourceRow(int sourceRow);
    void setAnomaliesOnly(bool only);
    void setFilterText(const QString& text);

Q_SIGNALS:
    void stepSelected(int sourceRow);
    void stepActivated(int sourceRow);
    // The user chose to place step records on the timeline although they do not match it.
    void attachRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void updateCount();
    // The columns in the user's order (saved when a column is dragged), else the default: the columns
    // a user sorts by first (forward_ct, step GPU and its segments, TPOT, the anomaly), the verify-token
    // inputs after them.
    void applyColumnOrder();
    void saveColumnOrder() const;
    void updateBanner();

    StepTableModel* m_model = nullptr;
    StepFilterProxy* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QLineEdit* m_filter = nullptr;
    QCheckBox* m_anomaliesOnly = nullptr;
    QLabel* m_count = nullptr;
    QLabel* m_empty = nullptr;
    QFrame* m_banner = nullptr; // records refused: why, and a way to attach them anyway
    QLabel* m_bannerText = nullptr;
    QPushButton* m_attach = nullptr;
    bool m_silent = false;
    bool m_ordering = false;
};

} // namespace dspark::ui
