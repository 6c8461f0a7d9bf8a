#pragma once

#include <QAbstractTableModel>
#include <QVariant>
#include <QWidget>

#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace dspark::ui {

// Rows of display text with a sort value per cell: the range statistics and the kernel summary.
// Each row carries a key (an index into what its owner holds).
class SummaryTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role { SortRole = Qt::UserRole, KeyRole };
    struct Cell {
        QString text;
        QVariant sort; // invalid: the text
    };
    using QAbstractTableModel::QAbstractTableModel;

    void setHeaders(const QStringList& headers, const std::vector<bool>& numeric);
    void setRows(std::vector<std::vector<Cell>> rows, std::vector<int> keys);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QStringList m_headers;
    std::vector<bool> m_numeric;
    std::vector<std::vector<Cell>> m_rows;
    std::vector<int> m_keys;
};

// A titled, sortable, filterable table with "Copy CSV"; double-clicking (or Enter on) a row emits
// rowActivated with the row's key.
class SummaryPanel : public QWidget {
    Q_OBJECT
public:
    explicit SummaryPanel(QWidget* parent = nullptr);
    ~SummaryPanel() override;

    void setTitle(const QString& title);
    QString title() const;
    void setNote(const QString& note); // a second line under the title (the source of the figures)
    QString note() const;
    SummaryTableModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* table() const { return m_table; }
    QLineEdit* filter() const { return m_filter; }
    int rowCount() const; // after filtering
    int keyAtRow(int row) const;
    // The shown rows (sorted, filtered) as CSV, what "Copy CSV" puts on the clipboard.
    QString csv() const;
    bool isEmpty() const;

Q_SIGNALS:
    void rowActivated(int key);
    void rowClicked(int key);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    QLabel* m_title = nullptr;
    QLabel* m_note = nullptr;
    QLineEdit* m_filter = nullptr;
    QPushButton* m_copy = nullptr;
    QTableView* m_table = nullptr;
    SummaryTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
};

} // namespace dspark::ui
