#include "summary/SummaryTable.h"

#include "common/ListTable.h"
#include "common/Teardown.h"
#include "report/TableExport.h"

#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdlib>

namespace dspark::ui {

void SummaryTableModel::setHeaders(const QStringList& headers, const std::vector<bool>& numeric)
{
    if (headers.size() != m_headers.size()) {
        beginResetModel();
        m_headers = headers;
        m_numeric = numeric;
        endResetModel();
        return;
    }
    m_headers = headers;
    m_numeric = numeric;
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, int(m_headers.size()) - 1);
}

void SummaryTableModel::setRows(std::vector<std::vector<Cell>> rows, std::vector<int> keys)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_keys = std::move(keys);
    endResetModel();
}

int SummaryTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SummaryTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_headers.size());
}

QVariant SummaryTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || size_t(index.row()) >= m_rows.size())
        return {};
    const auto& row = m_rows[size_t(index.row())];
    if (role == KeyRole)
        return size_t(index.row()) < m_keys.size() ? m_keys[size_t(index.row())] : -1;
    if (size_t(index.column()) >= row.size())
        return {};
    const Cell& cell = row[size_t(index.column())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole: return cell.text;
    case SortRole: return cell.sort.isValid() ? cell.sort : QVariant(cell.text);
    case Qt::TextAlignmentRole:
        return size_t(index.column()) < m_numeric.size() && m_numeric[size_t(index.column())]
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    default: return {};
    }
}

QVariant SummaryTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 && section < m_headers.size())
        return m_headers.at(section);
    return {};
}

SummaryPanel::SummaryPanel(QWidget* parent) : QWidget(parent)
{
    m_title = makePanelTitle(this);
    // The title wraps (makePanelTitle) rather than setting the dock's minimum width (a kernel summary's
    // asked for 600 px); 400 px keep it to two lines beside the filter, and the figures readable.
    setMinimumWidth(400);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_filter = makeFilterField(this, 240);
    m_copy = new QPushButton(this);
    m_model = new SummaryTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_table = makeListTable(this, m_proxy, SummaryTableModel::SortRole, 0);
    m_table->setWordWrap(false);

    auto* top = new QHBoxLayout;
    top->setContentsMargins(4, 2, 4, 2);
    top->addWidget(m_title, 1);
    top->addWidget(m_filter);
    top->addWidget(m_copy);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    box->addLayout(top);
    box->addWidget(m_note);
    box->addWidget(m_table, 1);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_model, &QAbstractItemModel::modelReset, this, &SummaryPanel::fitColumns);
    connect(m_model, &QAbstractItemModel::headerDataChanged, this, &SummaryPanel::fitColumns);
    // A column resized outside fitColumns() is the user's doing, but for the last one (it stretches).
    connect(m_table->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column, int, int size) {
        const QHeaderView* header = m_table->horizontalHeader();
        if (!m_fitting && size > 0 && header->visualIndex(column) < header->count() - 1 - header->hiddenSectionCount())
            m_userSized.insert(column);
    });
    connect(m_copy, &QPushButton::clicked, this, [this]() { QApplication::clipboard()->setText(csv()); });
    connect(m_table, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { Q_EMIT rowActivated(keyAtRow(index.row())); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    Q_EMIT rowClicked(keyAtRow(current.row()));
            });
    retranslate();
}

SummaryPanel::~SummaryPanel()
{
    // The table's selection model, losing its model later in QWidget's destructor, must not emit
    // rowClicked into the derived panels (whose members are gone by then): the table goes first.
    disconnectChildren(this);
    delete m_table;
}

void SummaryPanel::retranslate()
{
    m_filter->setPlaceholderText(tr("Filter by name…"));
    m_copy->setText(tr("Copy CSV"));
    m_copy->setToolTip(tr("Copy the shown rows, sorted and filtered, as CSV"));
}

void SummaryPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void SummaryPanel::fitColumns()
{
    // Each column as wide as its header and contents, up to a bound (a long kernel name is elided, whole
    // in its tooltip); a column empty in every row is hidden (a profile without anomalies: no empty
    // Anomaly column stretching), so the last stretching column is one with figures or names.
    // (at most 360 px, and less than half the table: the figures beside a long name stay in view)
    m_fittedWidth = m_table->viewport()->width();
    const int widest = std::clamp(m_fittedWidth * 45 / 100, 140, 360);
    const QScopedValueRollback<bool> fitting(m_fitting, true);
    for (int c = 0; c < m_model->columnCount(); ++c) {
        bool empty = m_model->rowCount() > 0 && c > 0;
        for (int r = 0; empty && r < m_model->rowCount(); ++r)
            empty = m_model->index(r, c).data().toString().isEmpty();
        m_table->setColumnHidden(c, empty);
        if (empty || m_userSized.contains(c))
            continue;
        m_table->resizeColumnToContents(c); // (the header's text counted)
        m_table->setColumnWidth(c, std::min(widest, m_table->columnWidth(c)));
    }
}

void SummaryPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Fitted before the dock was laid out, or the dock much resized since: fitted again (a user's column
    // widths survive a small resize).
    const int width = m_table->viewport()->width();
    if (std::abs(width - m_fittedWidth) > width / 4)
        fitColumns();
}

void SummaryPanel::setTitle(const QString& title)
{
    m_title->setText(title);
}

QString SummaryPanel::title() const
{
    return m_title->text();
}

void SummaryPanel::setNote(const QString& note)
{
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
}

QString SummaryPanel::note() const
{
    return m_note->text();
}

int SummaryPanel::rowCount() const
{
    return m_proxy->rowCount();
}

int SummaryPanel::keyAtRow(int row) const
{
    return m_proxy->index(row, 0).data(SummaryTableModel::KeyRole).toInt();
}

QString SummaryPanel::csv() const
{
    return exportTable(*m_proxy, TableFormat::Csv);
}

bool SummaryPanel::isEmpty() const
{
    return m_model->rowCount() == 0;
}

} // namespace dspark::ui
