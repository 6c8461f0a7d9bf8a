#pragma once

#include "model/Profile.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace dspark::ui {

class EventTableModel;

// The kernel/event table: the device tasks of a step (sorted by duration, longest first), the
// events of a selected time range or those linked to the selected event. Clicking a row selects the
// event on the timeline; double-clicking zooms to it. Until a list is given (and after clear()) the panel is
// one line saying what fills it, not an empty grid, so that its dock can stay small.
class EventTablePanel : public QWidget {
    Q_OBJECT
public:
    explicit EventTablePanel(QWidget* parent = nullptr);

    // Shows `events` under `title`; `sortByDuration` orders longest first, else by start time.
    void setEvents(const QString& title, std::shared_ptr<const Profile> profile, std::vector<EventRef> events,
                   bool sortByDuration);
    void clear();
    // The line shown while nothing is listed (the owner's words, in the current language; empty: the
    // Kernels / Events wording). The owner sets it again on a language change.
    void setEmptyHint(const QString& hint);
    // True while nothing is listed: the hint line stands in for the title, filter and table.
    bool showsHint() const;
    QString title() const;
    int rowCount() const;
    // The event shown in a row (after sorting/filtering).
    EventRef eventAtRow(int row) const;
    QTableView* table() const { return m_table; }
    // The profile of the listed events (null when empty).
    const Profile* profile() const;
    // Highlights the row of an event, if listed, without emitting eventClicked.
    void markEvent(EventRef e);

Q_SIGNALS:
    void eventClicked(dspark::EventRef event);
    void eventActivated(dspark::EventRef event);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void updateCount();
    void updateHint();

    QLabel* m_title = nullptr;
    QLabel* m_count = nullptr;
    QLineEdit* m_filter = nullptr;
    QTableView* m_table = nullptr;
    EventTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QString m_titleText;
    QString m_emptyHint;
    QLabel* m_hint = nullptr;
    bool m_marking = false;
};

} // namespace dspark::ui
