#include "panels/EventTableModel.h"

#include "common/KindNames.h"
#include "timeline/EventPalette.h"
#include "timeline/TimeFormat.h"

#include <QColor>

#include <algorithm>

namespace dspark::ui {

EventTableModel::EventTableModel(QObject* parent) : QAbstractTableModel(parent)
{
}

void EventTableModel::setEvents(std::shared_ptr<const Profile> profile, std::vector<EventRef> events)
{
    beginResetModel();
    m_profile = std::move(profile);
    m_events = std::move(events);
    endResetModel();
}

void EventTableModel::clear()
{
    setEvents(nullptr, {});
}

EventRef EventTableModel::eventAt(int row) const
{
    return row >= 0 && row < int(m_events.size()) ? m_events[row] : EventRef{};
}

int EventTableModel::rowOf(EventRef e) const
{
    const auto it = std::find(m_events.begin(), m_events.end(), e);
    return it == m_events.end() ? -1 : int(it - m_events.begin());
}

int EventTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_events.size());
}

int EventTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_profile || index.row() >= int(m_events.size()))
        return {};
    const EventRef e = m_events[index.row()];
    const Lane& lane = m_profile->lanes[e.lane];
    const auto column = Column(index.column());
    const std::string_view name = m_profile->name(e);
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (column) {
        case Name: return QString::fromUtf8(name.data(), qsizetype(name.size()));
        case Duration: return formatDuration(lane.durationNs[e.index]);
        case Start: return formatInUnit(m_profile->startNs(e) - m_profile->firstNs(), 1'000'000, 6);
        case LaneColumn: return QString::fromStdString(lane.info.process + " / " + lane.info.name);
        case Kind: return eventKindDisplayName(lane.kind[e.index]);
        case ColumnCount: break;
        }
    } else if (role == SortRole) {
        switch (column) {
        case Name: return QString::fromUtf8(name.data(), qsizetype(name.size()));
        case Duration: return qlonglong(lane.durationNs[e.index]);
        case Start: return qlonglong(m_profile->startNs(e));
        case LaneColumn: return int(e.lane);
        case Kind: return eventKindDisplayName(lane.kind[e.index]); // as shown, in the current language
        case ColumnCount: break;
        }
    } else if (role == Qt::DecorationRole && column == Name) {
        return QColor::fromRgb(EventPalette::colorFor(name, lane.kind[e.index]));
    } else if (role == Qt::TextAlignmentRole && (column == Duration || column == Start)) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant EventTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Name: return tr("Name");
    case Duration: return tr("Duration");
    case Start: return tr("Start (from profile start)");
    case LaneColumn: return tr("Lane");
    case Kind: return tr("Kind");
    case ColumnCount: break;
    }
    return {};
}

void EventTableModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!m_events.empty()) // the kind names are translated
        Q_EMIT dataChanged(index(0, Kind), index(int(m_events.size()) - 1, Kind));
}

} // namespace dspark::ui
