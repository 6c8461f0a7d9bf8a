#pragma once

#include "model/Profile.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace dspark::ui {

// A list of events as a table (name, duration, start, lane, kind), for the kernel table of a step,
// the events of a selection and the search results. Sort through a QSortFilterProxyModel on SortRole.
class EventTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Duration, Start, LaneColumn, Kind, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit EventTableModel(QObject* parent = nullptr);

    void setEvents(std::shared_ptr<const Profile> profile, std::vector<EventRef> events);
    void clear();
    EventRef eventAt(int row) const;
    const std::vector<EventRef>& events() const { return m_events; }
    // The profile the listed events belong to (null when empty).
    const Profile* profile() const { return m_profile.get(); }
    // Row of an event, or -1.
    int rowOf(EventRef e) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Emits headerDataChanged after a language change.
    void retranslate();

private:
    std::shared_ptr<const Profile> m_profile;
    std::vector<EventRef> m_events;
};

} // namespace dspark::ui
