#include "cluster/ClusterPathTables.h"

#include "analysis/CriticalPath.h"
#include "cluster/CommMatrix.h"
#include "cluster/CrossRankPath.h"

#include <QHeaderView>
#include <QLocale>

namespace dspark::ui {

namespace {

QString micros(TimeNs ns)
{
    return QString::number(static_cast<double>(ns) / 1000.0, 'f', 3);
}

// Figures right-aligned (their digits line up); every cell's whole text in its tooltip (a narrow
// column elides it).
void setRow(QTableWidget* table, int row, const QStringList& cells)
{
    for (int c = 0; c < cells.size(); ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        item->setFlags(item->flags() & ~Qt::ItemIsEditable);
        bool number = false;
        (void)cells[c].toDouble(&number);
        if (number || cells[c] == QStringLiteral("–"))
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        item->setToolTip(cells[c]);
        table->setItem(row, c, item);
    }
}

void setUp(QTableWidget* table, const QStringList& headers)
{
    table->setColumnCount(static_cast<int>(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->horizontalHeader()->setStretchLastSection(true);
    table->verticalHeader()->hide();
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
}

// One end of a link: its global rank, with its rank within the group where that differs (HCCL numbers
// a group's members from 0 in group order); the in-group rank alone when the members are unknown.
QString endName(int global, int64_t inGroup)
{
    if (global < 0)
        return CommMatrixTable::tr("in group %1").arg(inGroup);
    if (global == inGroup)
        return QString::number(global);
    return CommMatrixTable::tr("%1 (in group %2)").arg(global).arg(inGroup);
}

QString dataSize(int64_t bytes)
{
    return QLocale().formattedDataSize(bytes, 2, QLocale::DataSizeIecFormat);
}

int rankNumberOf(const std::vector<RankSummary>& ranks, size_t rank)
{
    return rank < ranks.size() ? ranks[rank].rankNumber : static_cast<int>(rank);
}

} // namespace

CrossRankPathTable::CrossRankPathTable(QWidget* parent) : QTableWidget(parent)
{
    setObjectName(QStringLiteral("clusterPathTable"));
    setUp(this, {tr("Rank"), tr("Category"), tr("Start (µs)"), tr("Duration (µs)"), tr("What")});
}

void CrossRankPathTable::showStep(const std::vector<RankSummary>& ranks, const ClusterAnalysis& analysis,
                                  int64_t stepId)
{
    m_stepId = stepId;
    const CrossRankStepPath path = crossRankCriticalPath(ranks, analysis, stepId);
    m_segments = path.segments;
    setRowCount(static_cast<int>(path.segments.size()));
    for (size_t i = 0; i < path.segments.size(); ++i) {
        const CrossRankSegment& s = path.segments[i];
        const QString what = s.collective
                                 ? tr("%1 (transfer after the last arrival)").arg(QString::fromStdString(s.what))
                                 : QString::fromStdString(s.what);
        setRow(this, static_cast<int>(i),
               {QString::number(rankNumberOf(ranks, s.rank)), pathCategoryLabel(s.category),
                micros(s.startNs - path.startNs), micros(s.endNs - s.startNs), what});
    }
    if (path.segments.empty()) {
        resizeColumnsToContents(); // (the last column also takes the room left)
        m_summary = tr("Step %1: no cross-rank critical path (no rank has this step's path)").arg(stepId);
        return;
    }
    const CrossRankTotal& top = path.totals.front();
    const double share = path.lengthNs() > 0 ? 100.0 * static_cast<double>(top.ns) / path.lengthNs() : 0.0;
    m_summary = tr("Step %1: cross-rank critical path %2 µs, %3 jumps to a later peer; largest share: rank %4 %5, "
                   "%6 µs (%7 %)%8")
                    .arg(stepId)
                    .arg(micros(path.lengthNs()))
                    .arg(path.jumps)
                    .arg(rankNumberOf(ranks, top.rank))
                    .arg(pathCategoryLabel(top.category), micros(top.ns))
                    .arg(share, 0, 'f', 1)
                    .arg(path.complete ? QString() : tr("; incomplete: a rank's summary has no per-step path"));
    resizeColumnsToContents();
}

const CrossRankSegment* CrossRankPathTable::segmentAt(int row) const
{
    return row >= 0 && row < static_cast<int>(m_segments.size()) ? &m_segments[static_cast<size_t>(row)] : nullptr;
}

CommMatrixTable::CommMatrixTable(QWidget* parent) : QTableWidget(parent)
{
    setObjectName(QStringLiteral("clusterCommMatrix"));
    setUp(this, {tr("Group"), tr("Source (global rank)"), tr("Destination (global rank)"), tr("Transport"), tr("Tasks"),
                 tr("Size"), tr("Time (µs)"), tr("Bandwidth (GB/s)")});
    horizontalHeader()->setStretchLastSection(false); // (figures only: the room left stays blank)
}

void CommMatrixTable::showMatrices(const std::vector<RankSummary>& ranks, const ClusterAnalysis& analysis)
{
    setRowCount(0);
    for (const GroupCommMatrix& m : commMatrices(ranks, analysis)) {
        const QString group = QString::fromStdString(m.group);
        if (m.fromTasks()) {
            for (const CommMatrixCell& c : m.cells) {
                const int row = rowCount();
                setRowCount(row + 1);
                setRow(this, row,
                       {group, endName(c.srcGlobal, c.srcRank), endName(c.dstGlobal, c.dstRank),
                        QString::fromStdString(c.transport), QString::number(c.tasks), dataSize(c.bytes),
                        micros(c.timeNs), QString::number(c.bandwidthGBps(), 'f', 2)});
                // A size reads in binary units, right-aligned as the figures; the exact count in its tooltip.
                item(row, 5)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                item(row, 5)->setToolTip(tr("%1 bytes").arg(QLocale().toString(static_cast<qlonglong>(c.bytes))));
            }
            continue;
        }
        for (const CommMatrixMember& member : m.members) { // no task rows: each member's collectives
            const int row = rowCount();
            setRowCount(row + 1);
            setRow(
                this, row,
                {group, tr("rank %1").arg(rankNumberOf(ranks, member.rank)), tr("every member"),
                 tr("collectives (wait %1 µs, transfer %2 µs)").arg(micros(member.waitNs), micros(member.transferNs)),
                 QString::number(member.collectives), QStringLiteral("–"), micros(member.timeNs), QStringLiteral("–")});
        }
    }
    resizeColumnsToContents();
}

} // namespace dspark::ui
