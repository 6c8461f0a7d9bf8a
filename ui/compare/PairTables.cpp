// The two tables of a comparison that go from steps to kernels: the cost-and-output table of matched
// step pairs and the kernel diff of the shown pair (ComparisonPanels.h).
#include "compare/ComparisonPanels.h"

#include "report/ExportDialog.h"
#include "report/TableExport.h"
#include "timeline/TimeFormat.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace dspark::ui {

static constexpr int kSortRole = Qt::UserRole + 1; // the number behind a cell (NaN sorts first)
static constexpr int kPairRole = Qt::UserRole + 2; // RunComparison::allPairs index (column 0)

PairTablePanel::PairTablePanel(QWidget* parent) : ComparisonPanelBase(parent)
{
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("pairFilter"));
    m_filter->setClearButtonEnabled(true);
    m_allPairs = new QCheckBox(this);
    m_allPairs->setObjectName(QStringLiteral("allPairsToggle"));
    m_copy = new QPushButton(this);
    m_copy->setObjectName(QStringLiteral("copyPairTable"));
    m_export = new QPushButton(this);
    m_export->setObjectName(QStringLiteral("exportPairTable"));
    m_model = new QStandardItemModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(kSortRole);
    m_proxy->setFilterKeyColumn(0);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("pairTable"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_allPairs);
    bar->addWidget(m_copy);
    bar->addWidget(m_export);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_note);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_allPairs, &QCheckBox::toggled, this, [this]() {
        rebuild();
        Q_EMIT pairSetChanged();
    });
    connect(m_copy, &QPushButton::clicked, this, &PairTablePanel::copyToClipboard);
    connect(m_export, &QPushButton::clicked, this, &PairTablePanel::askExport);
    connect(m_view, &QTableView::clicked, this, [this](const QModelIndex& i) {
        if (const int pair = pairOfRow(i.row()); pair >= 0)
            Q_EMIT pairActivated(pair);
    });
    rebuild();
}

void PairTablePanel::setComparison(std::shared_ptr<const RunComparison> comparison)
{
    m_comparison = std::move(comparison);
    rebuild();
}

bool PairTablePanel::showsAllPairs() const
{
    return m_allPairs->isChecked();
}

void PairTablePanel::setShowAllPairs(bool all)
{
    m_allPairs->setChecked(all);
}

int PairTablePanel::pairOfRow(int row) const
{
    const QModelIndex i = m_proxy->index(row, 0);
    return i.isValid() ? i.data(kPairRole).toInt() : -1;
}

int PairTablePanel::rowOfPair(int pairIndex) const
{
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        if (pairOfRow(row) == pairIndex)
            return row;
    return -1;
}

void PairTablePanel::selectPair(int pairIndex)
{
    const int row = rowOfPair(pairIndex);
    if (row < 0) {
        m_view->clearSelection();
        return;
    }
    const QModelIndex i = m_proxy->index(row, 0);
    m_view->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(i);
}

void PairTablePanel::rebuild()
{
    m_filter->setPlaceholderText(tr("Filter by class (mode:bs:verify tokens)"));
    m_allPairs->setText(tr("All pairs"));
    m_allPairs->setToolTip(tr("Every step paired within its class (the k-th with the k-th, in time order); "
                              "unchecked: the median pair of each class"));
    m_copy->setText(tr("Copy"));
    m_export->setText(tr("Export…"));
    m_model->clear();
    m_copy->setEnabled(m_comparison != nullptr);
    m_export->setEnabled(m_comparison != nullptr);
    if (!m_comparison) {
        m_note->setText(tr("Open a comparison to see its matched step pairs."));
        return;
    }
    const bool all = showsAllPairs();
    m_note->setText(all ? tr("Every step paired within its workload class: the k-th step of a class in the baseline "
                             "with the k-th in the changed run, in time order. Click a row, or press [ / ], to show "
                             "a pair on both timelines.")
                        : tr("One row per workload class in both runs: its median step in each run, their figures "
                             "and the change. Click a row, or press [ / ], to show the pair on both timelines."));
    const RunComparison& c = *m_comparison;
    std::vector<size_t> rows; // allPairs indices shown
    for (size_t i = 0; i < c.allPairs.size(); ++i)
        if (all ? !c.allPairs[i].extraMedian : c.allPairs[i].median)
            rows.push_back(i);
    // Every quantity either run has for some pair: baseline, changed and Δ columns.
    std::vector<Quantity> shown;
    for (size_t q = 0; q < kQuantityCount; ++q)
        for (size_t i : rows)
            if (!std::isnan(c.allPairs[i].baseline[q]) || !std::isnan(c.allPairs[i].changed[q])) {
                shown.push_back(Quantity(q));
                break;
            }
    QStringList headers = {tr("Class"), tr("Baseline forward_ct"), tr("Changed forward_ct")};
    for (Quantity q : shown)
        headers << tr("%1 (baseline)").arg(quantityLabel(q)) << tr("%1 (changed)").arg(quantityLabel(q))
                << tr("Δ %1").arg(quantityLabel(q));
    m_model->setHorizontalHeaderLabels(headers);
    for (size_t i : rows) {
        const MatchedPair& p = c.allPairs[i];
        QList<QStandardItem*> row;
        auto cell = [&row](const QString& text, double sortValue) {
            auto* item = new QStandardItem(text);
            item->setData(sortValue, kSortRole);
            if (row.size() > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            row << item;
        };
        auto* cls = new QStandardItem(QString::fromStdString(p.cls.label()));
        cls->setData(cls->text(), kSortRole);
        cls->setData(int(i), kPairRole);
        row << cls;
        cell(QString::number(p.baselineForwardCt), double(p.baselineForwardCt));
        cell(QString::number(p.changedForwardCt), double(p.changedForwardCt));
        for (Quantity q : shown) {
            const size_t k = size_t(q);
            cell(formatQuantity(q, p.baseline[k]), p.baseline[k]);
            cell(formatQuantity(q, p.changed[k]), p.changed[k]);
            cell(formatQuantity(q, p.delta(q), true), p.delta(q));
        }
        m_model->appendRow(row);
    }
    m_view->resizeColumnsToContents();
    // The Δ columns, read first, follow the class in the view; the model (what is copied and exported)
    // keeps each quantity's baseline, changed, Δ together: column 3 + 3q + 2 is quantity q's Δ.
    std::vector<int> deltas;
    for (int q = 0; q < int(shown.size()); ++q)
        deltas.push_back(3 + 3 * q + 2);
    showColumnsAfterFirst(m_view->horizontalHeader(), deltas);
}

void showColumnsAfterFirst(QHeaderView* header, const std::vector<int>& columns)
{
    for (int logical = 0; logical < header->count(); ++logical) // (an earlier order undone)
        header->moveSection(header->visualIndex(logical), logical);
    for (size_t i = 0; i < columns.size(); ++i)
        header->moveSection(header->visualIndex(columns[i]), 1 + int(i));
}

QString PairTablePanel::jsonText() const
{
    QJsonArray rows;
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        QJsonObject o;
        for (int c = 0; c < m_proxy->columnCount(); ++c) {
            const QString key = m_proxy->headerData(c, Qt::Horizontal).toString();
            const QVariant v = m_proxy->index(r, c).data(kSortRole);
            if (c == 0)
                o.insert(key, v.toString());
            else if (v.typeId() == QMetaType::Double && !std::isnan(v.toDouble()))
                o.insert(key, v.toDouble());
            else
                o.insert(key, QJsonValue::Null);
        }
        rows.append(o);
    }
    return QString::fromUtf8(QJsonDocument(rows).toJson(QJsonDocument::Indented));
}

QString PairTablePanel::exportTo(const QString& path) const
{
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return exportTableToFile(*m_proxy, tableFormatForPath(path), path);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(jsonText().toUtf8()) < 0)
        return tr("%1: cannot be written (%2)").arg(QDir::toNativeSeparators(path), f.errorString());
    return {};
}

void PairTablePanel::copyToClipboard() const
{
    QGuiApplication::clipboard()->setText(exportTable(*m_proxy, TableFormat::Csv));
}

void PairTablePanel::askExport()
{
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Export Matched Pairs"), QDir(ExportDialog::defaultFolder()).filePath(QStringLiteral("pairs.csv")),
        tr("CSV (*.csv);;Markdown (*.md);;JSON (*.json)"));
    if (file.isEmpty())
        return;
    if (const QString error = exportTo(file); !error.isEmpty())
        QMessageBox::warning(this, tr("Export Matched Pairs"), error);
    else
        ExportDialog::rememberFolderOf(file);
}

// ---------------------------------------------------------------------------------------------

static constexpr int kMaxKernelRows = 2000; // the table lists the largest changes; the rest are counted

KernelDiffPanel::KernelDiffPanel(QWidget* parent) : ComparisonPanelBase(parent)
{
    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("kernelDiffTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->setTextElideMode(Qt::ElideMiddle); // a long kernel name keeps its start and end, on one line
    m_table->setWordWrap(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_note);
    layout->addWidget(m_table, 1);
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (const AlignedTask* t = taskOfRow(row))
            Q_EMIT taskActivated(t->baseline, t->changed);
    });
    rebuild();
}

void KernelDiffPanel::setAlignment(std::shared_ptr<const KernelAlignment> alignment, const QString& pairText)
{
    m_alignment = std::move(alignment);
    m_pairText = pairText;
    rebuild();
}

const AlignedTask* KernelDiffPanel::taskOfRow(int row) const
{
    return row >= 0 && row < int(m_rows.size()) ? m_rows[size_t(row)] : nullptr;
}

static QString alignedKindText(AlignedKind k)
{
    switch (k) {
    case AlignedKind::Matched: return QCoreApplication::translate("ComparisonPanels", "in both");
    case AlignedKind::BaselineOnly: return QCoreApplication::translate("ComparisonPanels", "baseline only");
    case AlignedKind::ChangedOnly: break;
    }
    return QCoreApplication::translate("ComparisonPanels", "changed run only");
}

void KernelDiffPanel::rebuild()
{
    m_table->clear();
    m_rows.clear();
    const QStringList headers = {tr("Kernel"), tr("In"), tr("Baseline"), tr("Changed"), tr("Δ")};
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    if (!m_alignment) {
        m_note->setText(tr("Show a matched step pair ([ / ]) to align its kernels."));
        m_table->setRowCount(0);
        return;
    }
    const KernelAlignment& a = *m_alignment;
    size_t matched = 0;
    for (const StreamAlignment& s : a.streams)
        matched += s.matched;
    m_note->setText(tr("%1: %2 kernels matched (Σ Δ %3), %4 in the baseline only, %5 in the changed run only%6. "
                       "Click a row to show both tasks.")
                        .arg(m_pairText)
                        .arg(matched)
                        .arg(formatDuration(a.matchedDeltaNs))
                        .arg(a.onlyBaseline.size())
                        .arg(a.onlyChanged.size())
                        .arg(a.fellBack ? tr(" (past the alignment's bound: paired by occurrence)") : QString()));
    for (const std::vector<AlignedTask>* list : {&a.regressions, &a.onlyBaseline, &a.onlyChanged})
        for (const AlignedTask& t : *list)
            if (m_rows.size() < size_t(kMaxKernelRows))
                m_rows.push_back(&t);
    m_table->setRowCount(int(m_rows.size()));
    for (int r = 0; r < int(m_rows.size()); ++r) {
        const AlignedTask& t = *m_rows[size_t(r)];
        const QString cells[] = {QString::fromStdString(t.name), alignedKindText(t.kind),
                                 t.baseline.valid() ? formatDuration(t.baselineNs) : QStringLiteral("–"),
                                 t.changed.valid() ? formatDuration(t.changedNs) : QStringLiteral("–"),
                                 t.kind == AlignedKind::Matched
                                     ? (t.deltaNs() > 0 ? QStringLiteral("+") : QString()) + formatDuration(t.deltaNs())
                                     : QStringLiteral("–")};
        for (int c = 0; c < 5; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c >= 2)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == 0)
                item->setToolTip(cells[0]);
            if (c == 4 && t.kind == AlignedKind::Matched && t.deltaNs() > 0)
                item->setForeground(QColor(0xb9, 0x1c, 0x1c));
            m_table->setItem(r, c, item);
        }
    }
    m_table->resizeColumnsToContents();
    m_nameWidth = m_table->columnWidth(0);
    fitNameColumn();
}

void KernelDiffPanel::resizeEvent(QResizeEvent* event)
{
    ComparisonPanelBase::resizeEvent(event);
    fitNameColumn();
}

void KernelDiffPanel::fitNameColumn()
{
    // The figures (and Δ, the column read first) stay in view: the names' column gets the room they
    // leave, down to a readable minimum; a longer name is elided in the middle (its tooltip is whole),
    // and in a wide dock the names take the whole room (no blank right of Δ).
    int figures = 0;
    for (int c = 1; c < m_table->columnCount(); ++c)
        figures += m_table->columnWidth(c);
    // (the vertical scroll bar counted whether or not it shows yet: it comes once the rows are laid out)
    const int room =
        m_table->width() - 2 * m_table->frameWidth() - m_table->verticalScrollBar()->sizeHint().width() - figures;
    const int natural = std::max(m_nameWidth, m_table->horizontalHeader()->sectionSizeHint(0)); // (no rows: the header)
    m_table->setColumnWidth(0, std::max(room, std::min(natural, 80)));
}

} // namespace dspark::ui
