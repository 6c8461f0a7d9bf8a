#pragma once

#include <QAbstractTableModel>
#include <QCoreApplication>
#include <QPointer>
#include <QSet>
#include <QThread>
#include <QVariant>
#include <QWidget>

#include <functional>
#include <memory>
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
    // A computation runs on a worker thread (runInBackground) and its figures are not shown yet.
    bool busy() const { return m_busy; }

Q_SIGNALS:
    void rowActivated(int key);
    void rowClicked(int key);
    // The panel shows the figures of its latest request (a background result arrived, or it was cleared).
    void computed();

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

    // Runs `work` on a worker thread and `deliver` with its result on the UI thread, then computed();
    // a later runInBackground() or dropPending() drops this result (a new selection, a new profile).
    // busy() until then. `work` must own what it reads (a shared profile, copies of the query).
    template <typename Result> void runInBackground(std::function<Result()> work, std::function<void(Result&&)> deliver)
    {
        const uint64_t generation = ++m_generation;
        m_busy = true;
        QPointer<SummaryPanel> self(this);
        QThread* thread = QThread::create([self, generation, work = std::move(work), deliver = std::move(deliver)]() {
            auto result = std::make_shared<Result>(work());
            QMetaObject::invokeMethod(
                qApp,
                [self, generation, result, deliver]() {
                    if (!self || generation != self->m_generation)
                        return; // superseded, or the panel is gone
                    self->m_busy = false;
                    deliver(std::move(*result));
                    Q_EMIT self->computed();
                },
                Qt::QueuedConnection);
        });
        QObject::connect(thread, &QThread::finished, thread, &QObject::deleteLater);
        thread->start(QThread::LowPriority);
    }
    void dropPending()
    {
        ++m_generation;
        m_busy = false;
    }

private:
    void retranslate();
    void fitColumns();     // after the rows or the headers change
    int m_fittedWidth = 0; // the table's viewport width at the last fitColumns(), px
    bool m_fitting = false;
    QSet<int> m_userSized; // columns the user sized by hand: fitColumns() leaves them as they are

    QLabel* m_title = nullptr;
    QLabel* m_note = nullptr;
    QLineEdit* m_filter = nullptr;
    QPushButton* m_copy = nullptr;
    QTableView* m_table = nullptr;
    SummaryTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    uint64_t m_generation = 0; // of the latest background request
    bool m_busy = false;
};

} // namespace dspark::ui
