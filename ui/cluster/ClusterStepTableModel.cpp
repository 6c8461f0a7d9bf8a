#include "cluster/ClusterStepTableModel.h"

#include <QColor>

#include <algorithm>
#include <set>

namespace dspark::ui {

QString ClusterStepTableModel::quantityLabel(Quantity q)
{
    switch (q) {
    case Quantity::StepWall: return tr("Step wall (ms)");
    case Quantity::StepGpu: return tr("Step GPU (ms)");
    case Quantity::ExposedComm: return tr("Exposed communication (ms)");
    case Quantity::WaitForPeers: return tr("Waiting for late peers (ms)");
    case Quantity::PreReplayGap: return tr("Pre-replay gap (ms)");
    case Quantity::PathCategory: return tr("Critical-path category");
    }
    return {};
}

ClusterStepTableModel::ClusterStepTableModel(QObject* parent) : QAbstractTableModel(parent)
{
}

void ClusterStepTableModel::setCluster(const std::vector<RankSummary>* ranks, const ClusterAnalysis* analysis)
{
    beginResetModel();
    m_ranks = ranks;
    m_analysis = analysis;
    rebuild();
    endResetModel();
}

void ClusterStepTableModel::setQuantity(Quantity q)
{
    beginResetModel();
    m_quantity = q;
    rebuild();
    endResetModel();
}

void ClusterStepTableModel::rebuild()
{
    m_steps.clear();
    m_stepIndex.assign(m_ranks ? m_ranks->size() : 0, {});
    m_wait.assign(m_stepIndex.size(), {});
    if (!m_ranks || !m_analysis)
        return;
    std::set<int64_t> ids;
    for (size_t r = 0; r < m_ranks->size(); ++r)
        for (size_t i = 0; i < (*m_ranks)[r].steps.size(); ++i) {
            const int64_t id = (*m_ranks)[r].steps[i].stepId;
            m_stepIndex[r][id] = i;
            if (id >= m_analysis->firstStepId)
                ids.insert(id);
        }
    m_steps.assign(ids.begin(), ids.end());
    for (const MatchedCollective& m : m_analysis->collectives)
        for (size_t i = 0; i < m.members.size(); ++i)
            m_wait[m.members[i]][m.stepId] += m.waitNs[i];
    m_min = 0;
    m_max = 0;
    bool first = true;
    for (int row = 0; row < rowCount(); ++row)
        for (int col = 0; col < columnCount(); ++col)
            if (const std::optional<double> v = value(row, col)) {
                m_min = first ? *v : std::min(m_min, *v);
                m_max = first ? *v : std::max(m_max, *v);
                first = false;
            }
}

const RankStep* ClusterStepTableModel::stepOf(size_t rank, int64_t stepId) const
{
    const auto it = m_stepIndex[rank].find(stepId);
    return it == m_stepIndex[rank].end() ? nullptr : &(*m_ranks)[rank].steps[it->second];
}

std::optional<double> ClusterStepTableModel::value(int row, int column) const
{
    const size_t rank = static_cast<size_t>(column);
    const int64_t id = m_steps.at(static_cast<size_t>(row));
    const RankStep* step = stepOf(rank, id);
    if (!step)
        return std::nullopt;
    switch (m_quantity) {
    case Quantity::StepWall: return static_cast<double>(step->endNs - step->startNs);
    case Quantity::StepGpu: return step->stepGpuMs ? std::optional<double>(*step->stepGpuMs * 1e6) : std::nullopt;
    case Quantity::ExposedComm: return static_cast<double>(step->commExposedNs);
    case Quantity::WaitForPeers: {
        const auto it = m_wait[rank].find(id);
        return static_cast<double>(it == m_wait[rank].end() ? 0 : it->second);
    }
    case Quantity::PreReplayGap: return static_cast<double>(step->preReplayGapNs);
    case Quantity::PathCategory: { // the largest category's share of the step
        const auto top = std::max_element(step->pathNs.begin(), step->pathNs.end());
        const TimeNs wall = step->endNs - step->startNs;
        return wall > 0 ? static_cast<double>(*top) / static_cast<double>(wall) : 0.0;
    }
    }
    return std::nullopt;
}

int ClusterStepTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_steps.size());
}

int ClusterStepTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_ranks ? 0 : static_cast<int>(m_ranks->size());
}

QVariant ClusterStepTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const std::optional<double> v = value(index.row(), index.column());
    if (!v)
        return role == Qt::DisplayRole ? QVariant(QStringLiteral("–")) : QVariant();
    if (role == Qt::DisplayRole) {
        if (m_quantity != Quantity::PathCategory)
            return QString::number(*v / 1e6, 'f', 3);
        const RankStep* step = stepOf(static_cast<size_t>(index.column()), m_steps[index.row()]);
        const auto top = std::max_element(step->pathNs.begin(), step->pathNs.end());
        return tr("%1 %2 %")
            .arg(pathCategoryLabel(static_cast<PathCategory>(top - step->pathNs.begin())))
            .arg(*v * 100, 0, 'f', 0);
    }
    if (role == Qt::UserRole)
        return *v;
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::BackgroundRole) {
        const double t = m_max > m_min ? (*v - m_min) / (m_max - m_min) : 0.0;
        // pale yellow → deep red
        return QColor::fromRgbF(1.0, 0.95 - 0.75 * t, 0.75 - 0.65 * t);
    }
    if (role == Qt::ForegroundRole)
        return QColor(Qt::black);
    return {};
}

QVariant ClusterStepTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Horizontal)
        return m_ranks && section < columnCount() ? tr("rank %1").arg((*m_ranks)[section].rankNumber) : QVariant();
    return section < rowCount() ? tr("step %1").arg(m_steps[section]) : QVariant();
}

} // namespace dspark::ui
