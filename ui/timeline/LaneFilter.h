#pragma once

#include "model/Profile.h"

#include <QString>
#include <QWidget>

#include <vector>

class QLabel;
class QLineEdit;
class QToolButton;

namespace dspark::ui {

class LaneLayout;

// Which lanes a filter text keeps. Terms are separated by spaces and all must match
// (case-insensitive):
// - "kind:K": the lane's kind, by its contract name (host, npu_stream, comm…) or shown name;
// - "rank:N": the rank number N (or a rank label containing N);
// - "-term": lanes matching term are left out;
// - any other term: part of the lane's name, its process, its kind's shown name or its rank label.
// An empty text keeps every lane.
std::vector<bool> laneFilterMatches(const Profile& profile, const QString& text);

// The filter field above the lanes (View › Filter Lanes…): typing filters the timeline's rows at
// once; Esc or the close button clears the filter and hides the bar. Zooming and scrolling keep it.
class LaneFilterBar : public QWidget {
    Q_OBJECT
public:
    LaneFilterBar(LaneLayout* layout, QWidget* parent = nullptr);

    QLineEdit* edit() const { return m_edit; }
    QLabel* countLabel() const { return m_count; }
    // Shows the bar and puts the cursor in the field.
    void activate();
    // Clears the filter and hides the bar.
    void dismiss();
    // Applies the field's text again (after a new profile).
    void apply();

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslate();
    void updateCount();

    LaneLayout* m_layout;
    QLabel* m_title = nullptr;
    QLineEdit* m_edit = nullptr;
    QLabel* m_count = nullptr;
    QToolButton* m_close = nullptr;
};

} // namespace dspark::ui
