#pragma once

#include "model/Profile.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace dspark::ui {

// Everything about the selected event: name, kind, times, lane, every argument (Profile::args) and
// the events it is linked with (click one to select it). For a time range: its bounds and counts.
class EventDetailsPane : public QWidget {
    Q_OBJECT
public:
    explicit EventDetailsPane(QWidget* parent = nullptr);

    void setProfile(std::shared_ptr<const Profile> profile);
    const Profile* profile() const { return m_profile.get(); }
    void setEvent(EventRef e, const QString& stepText = {});
    void showTimeRange(TimeNs startNs, TimeNs endNs);
    void clear();

    EventRef event() const { return m_event; }
    QTreeWidget* tree() const { return m_tree; }
    // Value shown for a property or argument key (first match), for tests and copy.
    QString valueOf(const QString& key) const;

Q_SIGNALS:
    void linkedEventActivated(dspark::EventRef event);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void fitKeyColumn();
    QTreeWidgetItem* section(const QString& title);
    void add(QTreeWidgetItem* parent, const QString& key, const QString& value, EventRef link = {});
    void refresh();
    static QString linkLabel(LinkKind kind, bool incoming);

    std::shared_ptr<const Profile> m_profile;
    EventRef m_event;
    QString m_stepText;
    std::optional<std::pair<TimeNs, TimeNs>> m_range;
    QLabel* m_title = nullptr;
    QTreeWidget* m_tree = nullptr;
};

} // namespace dspark::ui
