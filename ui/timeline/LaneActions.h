#pragma once

#include "timeline/LaneLayout.h"

#include <QObject>
#include <QPointer>
#include <QString>

class QAction;
class QMenu;
class QWidget;

namespace dspark::ui {

class TimelineWidget;

// The lane layout the user arranges (order, hidden, pinned, collapsed) is saved per profile kind
// (QSettings "laneLayouts/<kind>", lanes by their stable keys) after every change and restored when a
// profile of that kind opens. Adds View › Filter Lanes… (Ctrl+Shift+L, the timeline's filter bar)
// and View › Reset Lane Layout.
class LaneActions : public QObject {
    Q_OBJECT
public:
    // The actions become children of `window` (found by object name) and entries of `viewMenu`.
    LaneActions(TimelineWidget* timeline, QWidget* window, QMenu* viewMenu);

    // The kind of a profile, as its layouts are filed: its loaded formats, sorted ("kineto_json",
    // "step_records_jsonl+torch_npu_db").
    static QString kindKey(const Profile& profile);
    static QString settingsKey(const Profile& profile);

    void save() const;
    bool restore();
    // The profile's own layout again; the saved one of this kind is forgotten.
    void resetLayout();

private:
    void onLayoutChanged();
    void retranslate();
    bool eventFilter(QObject* watched, QEvent* event) override;

    QPointer<TimelineWidget> m_timeline;
    QAction* m_filter = nullptr;
    QAction* m_reset = nullptr;
    bool m_applying = false;
};

} // namespace dspark::ui
