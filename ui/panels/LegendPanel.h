#pragma once

#include "model/Profile.h"

#include <QTimer>
#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace dspark::ui {

// The colour legend of what is in view: every event name visible in the current time range with its
// colour (stable per name), how many events and how much time it takes there. Updated shortly after
// the view stops moving; double-click a name to search for it.
class LegendPanel : public QWidget {
    Q_OBJECT
public:
    explicit LegendPanel(QWidget* parent = nullptr);

    void setProfile(std::shared_ptr<const Profile> profile);
    // Schedules an update for a new visible range.
    void setRange(TimeNs startNs, TimeNs endNs);
    // Recomputes now (tests).
    void updateNow();
    int rowCount() const;
    QString nameAt(int row) const;

    static constexpr int kMaxNames = 500;

Q_SIGNALS:
    void nameActivated(const QString& name);

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void retranslate();

    std::shared_ptr<const Profile> m_profile;
    TimeNs m_start = 0;
    TimeNs m_end = 0;
    QTimer m_debounce;
    QLabel* m_summary = nullptr;
    QStandardItemModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    std::vector<uint64_t> m_count; // per name id, reused
    std::vector<TimeNs> m_time;
    bool m_dirty = true;
};

} // namespace dspark::ui
