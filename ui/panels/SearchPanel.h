#pragma once

#include "model/Profile.h"
#include "panels/EventSearch.h"

#include <QTimer>
#include <QWidget>

#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;
class QToolButton;

namespace dspark::ui {

class EventTablePanel;

// Search by name (substring or regular expression) with next/previous and the list of results.
// Matches are highlighted on the timeline; the current hit is selected and revealed there.
class SearchPanel : public QWidget {
    Q_OBJECT
public:
    explicit SearchPanel(QWidget* parent = nullptr);

    void setProfile(std::shared_ptr<const Profile> profile);
    const Profile* profile() const { return m_profile.get(); }
    // Sets the pattern and searches at once.
    void search(const QString& pattern, bool regex = false);
    void next();
    void previous();
    void focusSearch();

    const EventSearchResult& result() const { return m_result; }
    int currentIndex() const { return m_current; }
    EventRef currentHit() const;
    QLineEdit* patternEdit() const { return m_edit; }
    EventTablePanel* results() const { return m_results; }

Q_SIGNALS:
    // Name hits to highlight (empty: no search) and the current hit.
    void highlightsChanged(const std::vector<uint8_t>& nameHits, dspark::EventRef current);
    void hitActivated(dspark::EventRef event); // next/previous/click: select and reveal

protected:
    void changeEvent(QEvent* event) override;

private:
    void run();
    void setCurrent(int index);
    void retranslate();
    void updateStatus();

    std::shared_ptr<const Profile> m_profile;
    QLineEdit* m_edit = nullptr;
    QCheckBox* m_regex = nullptr;
    QCheckBox* m_case = nullptr;
    QToolButton* m_prev = nullptr;
    QToolButton* m_next = nullptr;
    QLabel* m_status = nullptr;
    EventTablePanel* m_results = nullptr;
    QTimer m_debounce;
    EventSearchResult m_result;
    QString m_lastQuery;
    int m_current = -1;
};

} // namespace dspark::ui
