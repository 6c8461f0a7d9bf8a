#include "steps/StepTableModel.h"

#include "analysis/StepAnomalies.h"
#include "steps/StepTable.h"

#include <QCoreApplication>

#include <algorithm>

namespace dspark {

StepTableModel::StepTableModel(QObject* parent) : QAbstractTableModel(parent)
{
}

void StepTableModel::setStepRecords(std::shared_ptr<const StepRecordSet> set)
{
    beginResetModel();
    m_set = std::move(set);
    m_anomalies.clear();
    m_anomalyAnalyses.clear();
    m_inStableWindow.clear();
    if (m_set) {
        m_options = m_set->anomalyOptions;
        m_anomalies = m_set->anomalies;
        m_inStableWindow.assign(m_set->rows.size(), false);
        for (const StableWindow& w : m_set->stableWindows)
            for (size_t r = w.firstRow; r <= w.lastRow && r < m_inStableWindow.size(); ++r)
                m_inStableWindow[r] = true;
    }
    mapAnalysis();
    endResetModel();
}

void StepTableModel::setAnalysis(std::shared_ptr<const ProfileAnalysis> analysis)
{
    beginResetModel();
    m_analysis = std::move(analysis);
    mapAnalysis();
    endResetModel();
}

void StepTableModel::mapAnalysis()
{
    m_analysisOfRow.assign(m_set ? m_set->rows.size() : 0, nullptr);
    if (!m_analysis)
        return;
    for (const StepAnalysis& a : m_analysis->steps)
        if (a.recordRow >= 0 && static_cast<size_t>(a.recordRow) < m_analysisOfRow.size())
            m_analysisOfRow[a.recordRow] = &a;
    recomputeAnomalies();
}

void StepTableModel::setAnomalyAnalyses(std::vector<const StepAnalysis*> analysisOfRow)
{
    m_anomalyAnalyses = std::move(analysisOfRow);
    recomputeAnomalies();
    if (m_set && !m_set->rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

void StepTableModel::recomputeAnomalies()
{
    if (!m_set)
        return;
    const std::vector<const StepAnalysis*>& byRow = m_analysis ? m_analysisOfRow : m_anomalyAnalyses;
    if (std::none_of(byRow.begin(), byRow.end(), [](const StepAnalysis* a) { return a != nullptr; })) {
        // The flags derived with the profile, unless the user asked for other thresholds.
        m_anomalies = m_options == m_set->anomalyOptions && m_set->anomalies.size() == m_set->rows.size()
                          ? m_set->anomalies
                          : detectStepAnomalies(*m_set, m_options);
        return;
    }
    const std::vector<StepFindings> findings = explainStepAnomalies(*m_set, byRow, m_options);
    m_anomalies.clear();
    for (const StepFindings& f : findings)
        m_anomalies.push_back(findingsText(f));
}

QString StepTableModel::anomalyText(int row) const
{
    return row >= 0 && static_cast<size_t>(row) < m_anomalies.size() ? m_anomalies[row] : QString();
}

const StepAnalysis* StepTableModel::analysisOfRow(int row) const
{
    return row >= 0 && static_cast<size_t>(row) < m_analysisOfRow.size() ? m_analysisOfRow[row] : nullptr;
}

std::optional<TimeNs> StepTableModel::analysisValue(int row, int column) const
{
    const StepAnalysis* a = analysisOfRow(row);
    const int c = column - FirstAnalysisColumn;
    if (!a || c < 0 || c >= kAnalysisColumnCount)
        return std::nullopt;
    switch (c) {
    case CommTotalColumn: return a->comm.totalNs;
    case CommExposedColumn: return a->comm.exposedNs;
    case PreReplayGapColumn: return a->replay.preReplayGapNs;
    default: return a->criticalPath.byCategory[static_cast<size_t>(c - FirstPathColumn)];
    }
}

void StepTableModel::setAnomalyOptions(const AnomalyOptions& options)
{
    m_options = options;
    if (!m_set)
        return;
    recomputeAnomalies();
    if (!m_set->rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

int StepTableModel::rowForStep(int dpRank, qint64 forwardCt) const
{
    if (!m_set)
        return -1;
    const auto& rows = m_set->rows;
    auto it =
        std::lower_bound(rows.begin(), rows.end(), std::make_pair(dpRank, forwardCt),
                         [&](const StepRow& r, const std::pair<int, qint64>& key) {
                             return std::make_pair(r.dpRank, static_cast<qint64>(m_set->record(r).forwardCt)) < key;
                         });
    if (it == rows.end() || it->dpRank != dpRank || m_set->record(*it).forwardCt != forwardCt)
        return -1;
    return static_cast<int>(it - rows.begin());
}

size_t StepTableModel::anomalyCount() const
{
    return static_cast<size_t>(
        std::count_if(m_anomalies.begin(), m_anomalies.end(), [](const QString& s) { return !s.isEmpty(); }));
}

int StepTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_set ? 0 : static_cast<int>(m_set->rows.size());
}

int StepTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : kStepColumnCount + 1 + (m_analysis ? kAnalysisColumnCount : 0);
}

QString StepTableModel::formatValue(StepColumn column, double value)
{
    const StepColumnInfo& info = stepColumnInfo(column);
    if (info.type == StepColumnType::Integer)
        return QString::number(static_cast<qint64>(value));
    if (column == StepColumn::AcceptanceRate)
        return QStringLiteral("%1 %").arg(value * 100.0, 0, 'f', 1);
    if (qstrcmp(info.unit, "ms") == 0)
        return QStringLiteral("%1 ms").arg(value, 0, 'f', 3);
    return QString::number(value, 'f', 2);
}

QString stepMatchText(StepMatch m)
{
    switch (m) {
    case StepMatch::NotAligned: return {};
    case StepMatch::Match: return QCoreApplication::translate("StepTable", "match");
    case StepMatch::Mismatch: return QCoreApplication::translate("StepTable", "mismatch");
    case StepMatch::Unverified: return QCoreApplication::translate("StepTable", "unverified");
    case StepMatch::NoTraceStep: return QCoreApplication::translate("StepTable", "not in trace");
    case StepMatch::OutsideTrace: return QCoreApplication::translate("StepTable", "outside trace");
    case StepMatch::NotMatched: return QCoreApplication::translate("StepTable", "not matched to this profile");
    }
    return {};
}

QVariant StepTableModel::displayData(int row, int column) const
{
    if (column >= FirstAnalysisColumn) {
        const std::optional<TimeNs> v = analysisValue(row, column);
        return v ? QStringLiteral("%1 ms").arg(static_cast<double>(*v) / 1e6, 0, 'f', 3) : QString();
    }
    if (column == TimelineColumn) {
        const auto& rows = m_set->alignment.rows;
        return static_cast<size_t>(row) < rows.size() ? stepMatchText(rows[row].status) : QString();
    }
    const auto col = static_cast<StepColumn>(column);
    if (col == StepColumn::Anomaly)
        return m_anomalies[row];
    if (col == StepColumn::Mode)
        return QString::fromStdString(m_set->record(row).mode);
    const std::optional<double> v = stepColumnNumber(*m_set, row, col);
    return v ? formatValue(col, *v) : QString();
}

QVariant StepTableModel::sortData(int row, int column) const
{
    if (column >= FirstAnalysisColumn) {
        const std::optional<TimeNs> v = analysisValue(row, column);
        return v ? QVariant(static_cast<qlonglong>(*v)) : QVariant();
    }
    if (column == TimelineColumn) {
        const auto& rows = m_set->alignment.rows;
        return static_cast<size_t>(row) < rows.size() ? QVariant(static_cast<int>(rows[row].status)) : QVariant();
    }
    const auto col = static_cast<StepColumn>(column);
    if (col == StepColumn::Anomaly)
        return m_anomalies[row].isEmpty() ? QVariant() : QVariant(m_anomalies[row]);
    if (col == StepColumn::Mode) {
        const std::string& mode = m_set->record(row).mode;
        return mode.empty() ? QVariant() : QVariant(QString::fromStdString(mode));
    }
    const std::optional<double> v = stepColumnNumber(*m_set, row, col);
    return v ? QVariant(*v) : QVariant();
}

QVariant StepTableModel::data(const QModelIndex& index, int role) const
{
    if (!m_set || !index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const int row = index.row();
    const int column = index.column();
    const StepAlignmentRow* aligned =
        static_cast<size_t>(row) < m_set->alignment.rows.size() ? &m_set->alignment.rows[row] : nullptr;
    switch (role) {
    case Qt::DisplayRole: return displayData(row, column);
    case SortRole: return sortData(row, column);
    case Qt::ToolTipRole:
        if (column == TimelineColumn && aligned && aligned->status != StepMatch::NotAligned) {
            QString tip = stepMatchText(aligned->status);
            if (!aligned->note.isEmpty())
                tip += QStringLiteral(": ") + aligned->note;
            return tip;
        }
        if (!m_anomalies[row].isEmpty())
            return m_anomalies[row];
        return {};
    case AnomalousRole: return !m_anomalies[row].isEmpty();
    case AnomalyReasonRole: return m_anomalies[row];
    case RankRole: return m_set->rows[row].dpRank;
    case ForwardCtRole: return static_cast<qlonglong>(m_set->record(row).forwardCt);
    case WindowStartNsRole:
        return aligned && aligned->hasWindow() ? QVariant(static_cast<qlonglong>(aligned->windowStartNs()))
                                               : QVariant();
    case WindowEndNsRole:
        return aligned && aligned->hasWindow() ? QVariant(static_cast<qlonglong>(aligned->windowEndNs())) : QVariant();
    case AlignmentStatusRole:
        return QString::fromLatin1(stepMatchName(aligned ? aligned->status : StepMatch::NotAligned));
    case InStableWindowRole: return static_cast<bool>(m_inStableWindow[row]);
    case Qt::TextAlignmentRole:
        if (column >= FirstAnalysisColumn ||
            (column < kStepColumnCount && stepColumnInfo(static_cast<StepColumn>(column)).type != StepColumnType::Text))
            return QVariant::fromValue(static_cast<int>(Qt::AlignRight | Qt::AlignVCenter));
        return QVariant::fromValue(static_cast<int>(Qt::AlignLeft | Qt::AlignVCenter));
    default: break;
    }
    return {};
}

static QVariant analysisHeader(int column, int role)
{
    static const char* const headers[][2] = {
        {QT_TRANSLATE_NOOP("StepTable", "Comm total"),
         QT_TRANSLATE_NOOP("StepTable", "T_comm_total: the in-flight time of the step's communication operations")},
        {QT_TRANSLATE_NOOP("StepTable", "Comm exposed"),
         QT_TRANSLATE_NOOP("StepTable", "T_comm_exposed: how long consumers were blocked waiting for communication")},
        {QT_TRANSLATE_NOOP("StepTable", "Pre-replay gap"),
         QT_TRANSLATE_NOOP("StepTable", "Idle time of the verify stream right before the verify graph replay")},
        {QT_TRANSLATE_NOOP("StepTable", "Path: draft"),
         QT_TRANSLATE_NOOP("StepTable", "Critical path time in the draft forward and the planner")},
        {QT_TRANSLATE_NOOP("StepTable", "Path: verify"),
         QT_TRANSLATE_NOOP("StepTable", "Critical path time in target verify compute")},
        {QT_TRANSLATE_NOOP("StepTable", "Path: exposed comm"),
         QT_TRANSLATE_NOOP("StepTable", "Critical path time blocked on communication")},
        {QT_TRANSLATE_NOOP("StepTable", "Path: accept / TP sync"),
         QT_TRANSLATE_NOOP("StepTable", "Critical path time in the eager accept tail and SpecTpSync")},
        {QT_TRANSLATE_NOOP("StepTable", "Path: commit"),
         QT_TRANSLATE_NOOP("StepTable", "Critical path time in the eager commit of hidden state / KV")},
        {QT_TRANSLATE_NOOP("StepTable", "Path: host gap"),
         QT_TRANSLATE_NOOP("StepTable", "Critical path time the device waited for the host (launch-bound)")},
        {QT_TRANSLATE_NOOP("StepTable", "Path: idle"),
         QT_TRANSLATE_NOOP("StepTable", "Critical path time in stream gaps and unexplained waits")},
    };
    static_assert(std::size(headers) == StepTableModel::kAnalysisColumnCount);
    if (column < 0 || column >= StepTableModel::kAnalysisColumnCount)
        return {};
    if (role == Qt::DisplayRole)
        return QCoreApplication::translate("StepTable", headers[column][0]);
    if (role == Qt::ToolTipRole)
        return QCoreApplication::translate("StepTable", headers[column][1]);
    return {};
}

QVariant StepTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && section >= FirstAnalysisColumn && section < columnCount())
        return analysisHeader(section - FirstAnalysisColumn, role);
    if (orientation != Qt::Horizontal || section < 0 || section > kStepColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section == TimelineColumn) {
        if (role == Qt::DisplayRole)
            return QCoreApplication::translate("StepTable", "Timeline");
        if (role == Qt::ToolTipRole)
            return QCoreApplication::translate("StepTable",
                                               "How the step matched the trace's scheduler step spans (bs, g_sq)");
        return {};
    }
    const StepColumnInfo& info = stepColumnInfo(static_cast<StepColumn>(section));
    if (role == Qt::DisplayRole)
        return QCoreApplication::translate("StepTable", info.header);
    if (role == Qt::ToolTipRole)
        return QCoreApplication::translate("StepTable", info.help);
    return {};
}

} // namespace dspark
