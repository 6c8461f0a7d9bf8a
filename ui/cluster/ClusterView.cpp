#include "cluster/ClusterView.h"

#include "cluster/ClusterPathTables.h"
#include "cluster/ClusterStepTableModel.h"
#include "common/Teardown.h"
#include "session/AnnotationSet.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>

#include <cmath>

namespace dspark::ui {

// One rank's offset changed by the user: undo restores what was there (an override or the estimate).
class OffsetCommand : public QUndoCommand {
public:
    OffsetCommand(ClusterView* view, size_t rank, std::optional<TimeNs> before, std::optional<TimeNs> after)
        : m_view(view), m_rank(rank), m_before(before), m_after(after)
    {
        setText(ClusterView::tr("Clock offset of rank %1").arg(view->ranks()[rank].rankNumber));
    }
    void undo() override { m_view->applyOverride(m_rank, m_before); }
    void redo() override { m_view->applyOverride(m_rank, m_after); }

private:
    ClusterView* m_view;
    size_t m_rank;
    std::optional<TimeNs> m_before, m_after;
};

namespace {
enum RankColumn { ColRank, ColOffset, ColSpread, ColCollectives, ColVerdict, ColCount };
}

ClusterView::ClusterView(QWidget* parent)
    : QWidget(parent), m_undo(new QUndoStack(this)), m_quantity(new QComboBox(this)), m_stepTable(new QTableView(this)),
      m_rankTable(new QTableWidget(this)), m_summary(new QLabel(this)), m_model(new ClusterStepTableModel(this)),
      m_tabs(new QTabWidget(this)), m_pathTable(new CrossRankPathTable(this)), m_pathSummary(new QLabel(this)),
      m_commMatrix(new CommMatrixTable(this))
{
    setObjectName(QStringLiteral("clusterView"));
    for (int q = 0; q < ClusterStepTableModel::kQuantityCount; ++q)
        m_quantity->addItem(ClusterStepTableModel::quantityLabel(static_cast<ClusterStepTableModel::Quantity>(q)), q);
    m_quantity->setObjectName(QStringLiteral("clusterQuantity"));
    m_stepTable->setObjectName(QStringLiteral("clusterStepTable"));
    m_stepTable->setModel(m_model);
    m_stepTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_stepTable->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_rankTable->setObjectName(QStringLiteral("clusterRankTable"));
    m_rankTable->setColumnCount(ColCount);
    m_rankTable->setHorizontalHeaderLabels(
        {tr("Rank"), tr("Clock offset (µs)"), tr("Spread (µs)"), tr("Collectives"), tr("Verdict")});
    m_rankTable->horizontalHeader()->setStretchLastSection(true);
    m_rankTable->verticalHeader()->hide();

    m_split = new QSplitter(Qt::Vertical, this);
    QSplitter* split = m_split;
    split->addWidget(m_rankTable);
    auto* lower = new QWidget(split);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(m_quantity);
    lowerLayout->addWidget(m_stepTable);
    m_tabs->setObjectName(QStringLiteral("clusterTabs"));
    m_tabs->addTab(lower, tr("Steps × ranks"));
    auto* pathPage = new QWidget(m_tabs);
    auto* pathLayout = new QVBoxLayout(pathPage);
    pathLayout->setContentsMargins(0, 0, 0, 0);
    m_pathSummary->setObjectName(QStringLiteral("clusterPathSummary"));
    m_pathSummary->setWordWrap(true);
    m_pathSummary->setText(tr("Click a cell of the steps × ranks table to see that step's cross-rank critical path."));
    pathLayout->addWidget(m_pathSummary);
    pathLayout->addWidget(m_pathTable);
    m_tabs->addTab(pathPage, tr("Cross-rank critical path"));
    m_tabs->addTab(m_commMatrix, tr("Communication matrix"));
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 0); // a taller view: more step rows
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(split);

    connect(m_quantity, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_model->setQuantity(static_cast<ClusterStepTableModel::Quantity>(m_quantity->itemData(i).toInt()));
    });
    connect(m_stepTable, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (!index.isValid() || !m_model->value(index.row(), index.column()))
            return;
        showPath(m_model->stepAt(index.row()));
        Q_EMIT stepClicked(static_cast<size_t>(index.column()), m_model->stepAt(index.row()));
    });
    // Activated: a double-click, or Enter on the current cell.
    connect(m_stepTable, &QTableView::activated, this, [this](const QModelIndex& index) {
        if (index.isValid() && m_model->value(index.row(), index.column()))
            Q_EMIT stepActivated(m_ranks[static_cast<size_t>(index.column())].rankNumber, m_model->stepAt(index.row()));
    });
    connect(m_rankTable, &QTableWidget::cellChanged, this, &ClusterView::rankCellEdited);
    connect(m_pathTable, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (const CrossRankSegment* s = m_pathTable->segmentAt(row))
            Q_EMIT segmentClicked(s->rank, s->startNs, s->endNs, QString::fromStdString(s->what), s->collective);
    });
}

ClusterView::~ClusterView()
{
    // QWidget's own destructor hides and deletes the children after this class's members are gone: their
    // signals must not reach this object any more, and the step table's header would ask the model about
    // the ranks, so the table and its model go first.
    disconnectChildren(this); // grandchildren too: the tables sit in a splitter
    delete m_stepTable;
    delete m_model;
}

void ClusterView::setRanks(std::vector<RankSummary> ranks)
{
    m_ranks = std::move(ranks);
    m_options.offsetOverrides.assign(m_ranks.size(), std::nullopt);
    m_undo->clear();
    restoreOverrides();
    reanalyse();
}

void ClusterView::setOffsetOverride(size_t rank, std::optional<TimeNs> offsetNs)
{
    if (m_options.offsetOverrides.at(rank) != offsetNs)
        m_undo->push(new OffsetCommand(this, rank, m_options.offsetOverrides[rank], offsetNs));
}

void ClusterView::applyOverride(size_t rank, std::optional<TimeNs> offsetNs)
{
    m_options.offsetOverrides.at(rank) = offsetNs;
    saveOverride(rank);
    reanalyse();
}

namespace {
// A rank's annotation file (the one the main window keeps for that rank's profile); empty without a source.
QString annotationPathOf(const RankSummary& rank)
{
    return rank.source.empty() ? QString()
                               : AnnotationSet::sessionPathFor(QDir::cleanPath(QString::fromStdString(rank.source)));
}
} // namespace

void ClusterView::restoreOverrides()
{
    for (size_t r = 0; r < m_ranks.size(); ++r) {
        const QString path = annotationPathOf(m_ranks[r]);
        AnnotationSet set;
        if (!path.isEmpty() && QFileInfo::exists(path) && set.load(path).isEmpty())
            m_options.offsetOverrides[r] = set.clockOffsetNs;
    }
}

void ClusterView::saveOverride(size_t rank) const
{
    const QString path = annotationPathOf(m_ranks[rank]);
    if (path.isEmpty())
        return;
    AnnotationSet set; // the rank's notes stay as they are; only the offset changes
    if (QFileInfo::exists(path) && !set.load(path).isEmpty())
        return; // an unreadable file is not overwritten
    set.clockOffsetNs = m_options.offsetOverrides[rank];
    if (const QString error = set.save(path); !error.isEmpty())
        m_summary->setToolTip(error);
}

std::vector<TimeNs> ClusterView::offsets() const
{
    std::vector<TimeNs> out;
    for (const RankClock& c : m_analysis.clocks)
        out.push_back(c.offsetNs);
    return out;
}

void ClusterView::reanalyse()
{
    m_analysis = analyzeCluster(m_ranks, m_options);
    m_model->setCluster(&m_ranks, &m_analysis);
    fillRankTable();
    m_commMatrix->showMatrices(m_ranks, m_analysis);
    if (m_pathTable->stepId() >= 0)
        showPath(m_pathTable->stepId()); // the offsets moved: the path is walked again
    m_summary->setText(tr("%1 ranks, %2 matched collectives; slowest: %3")
                           .arg(m_ranks.size())
                           .arg(m_analysis.acrossRanks())
                           .arg(m_analysis.ranking.empty() ? tr("none") : m_analysis.ranking.front().explanation));
    Q_EMIT analysed();
}

void ClusterView::showPath(int64_t stepId)
{
    m_pathTable->showStep(m_ranks, m_analysis, stepId);
    m_pathSummary->setText(m_pathTable->summary());
}

void ClusterView::fillRankTable()
{
    m_filling = true;
    m_rankTable->setRowCount(static_cast<int>(m_ranks.size()));
    std::vector<QString> verdict(m_ranks.size());
    for (const RankVerdict& v : m_analysis.ranking)
        verdict[v.rank] = v.explanation;
    for (size_t r = 0; r < m_ranks.size(); ++r) {
        const RankClock& c = m_analysis.clocks[r];
        const auto cell = [&](int col, const QString& text, bool editable) {
            auto* item = new QTableWidgetItem(text);
            if (!editable)
                item->setFlags(item->flags() & ~Qt::ItemIsEditable);
            if (col != ColVerdict) // figures right-aligned
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(text);
            m_rankTable->setItem(static_cast<int>(r), col, item);
        };
        cell(ColRank, QString::number(m_ranks[r].rankNumber), false);
        cell(ColOffset, QString::number(static_cast<double>(c.offsetNs) / 1e3, 'f', 3), r != m_analysis.referenceRank);
        cell(ColSpread,
             c.overridden ? tr("set by you") : QString::number(static_cast<double>(c.spreadNs) / 1e3, 'f', 3), false);
        cell(ColCollectives, QString::number(c.collectives), false);
        cell(ColVerdict, verdict[r], false);
    }
    m_rankTable->resizeColumnsToContents();
    m_filling = false;
    fitRankTable();
}

void ClusterView::fitRankTable()
{
    const int total = m_split->height() - m_split->handleWidth();
    if (total <= 0 || m_rankTable->rowCount() == 0)
        return;
    const int rows = m_rankTable->verticalHeader()->length() + m_rankTable->horizontalHeader()->height() +
                     2 * m_rankTable->frameWidth() + 2;
    const int top = std::min(rows, total / 2);
    m_split->setSizes({top, total - top});
}

void ClusterView::rankCellEdited(int row, int column)
{
    if (m_filling || column != ColOffset)
        return;
    bool ok = false;
    const double us = m_rankTable->item(row, column)->text().toDouble(&ok);
    // Queued: the edit rebuilds the table, which must not happen inside its own cellChanged.
    const size_t rank = static_cast<size_t>(row);
    QMetaObject::invokeMethod(
        this,
        [this, rank, ok, us] {
            if (ok && std::isfinite(us) && std::abs(us) < 1e12)
                setOffsetOverride(rank, static_cast<TimeNs>(std::llround(us * 1e3)));
            fillRankTable(); // shows the offset in force (the old one when the text was not a number)
        },
        Qt::QueuedConnection);
}

} // namespace dspark::ui
