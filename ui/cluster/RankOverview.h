#pragma once

#include "cluster/RankActivity.h"
#include "model/Profile.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QScrollArea;
class QToolButton;
class QVBoxLayout;

namespace dspark {
class ProfileSession;
}

namespace dspark::ui {

class TimelineWidget;
class TimelineZoom;

// A cluster on one time axis (architecture.md "Sessions"): one ProfileSession per rank with the rank's
// clock offset as its time offset, every rank's TimelineWidget on the one TimelineZoom this widget owns,
// as the comparison's second run is. Each rank is first one folded row (RankActivity drawn as a density
// strip: busy / communicating / idle); its header (click, or Enter / Space) expands it into the rank's
// lanes. One step is highlighted on every rank.
class RankOverview : public QWidget {
    Q_OBJECT
public:
    explicit RankOverview(QWidget* parent = nullptr);
    ~RankOverview() override;

    // The ranks (summaries, by index as the cluster analyses count them) and each one's profile (null
    // when only its summary is loaded). Folds every rank, sets the zoom's bounds.
    void setRanks(const std::vector<RankSummary>& ranks, std::vector<std::shared_ptr<const Profile>> profiles);
    // Cluster time = rank time + offsetNs[rank]; moves each rank's row and timeline at once.
    void setOffsets(const std::vector<TimeNs>& offsetsNs);
    // A rank's profile arrived (lazy loading) or was dropped (null): the rank's row follows.
    void setProfile(size_t rank, std::shared_ptr<const Profile> profile);

    size_t rankCount() const { return m_rows.size(); }
    bool isExpanded(size_t rank) const;
    // Expands (shows the rank's lanes when its profile is loaded; asks for it otherwise) or folds.
    void setExpanded(size_t rank, bool expanded);
    // Expands the rank, highlights the step on every rank and zooms to it on the rank's clock.
    bool showStep(size_t rank, int64_t stepId);
    void highlightStep(int64_t stepId); // -1: none
    // Shows [startNs, endNs) (cluster clock) of the rank and selects its event named `what` there (the
    // collective when `collective`, else the longest overlap): the rank unfolds, its events load first
    // when they are not (profileWanted), and the event is selected once they arrive (eventRevealed).
    void revealSegment(size_t rank, TimeNs startNs, TimeNs endNs, const std::string& what, bool collective);
    int64_t highlightedStep() const { return m_step; }

    TimelineZoom* zoom() const { return m_zoom; }
    TimeNs offsetNs(size_t rank) const;
    ProfileSession* session(size_t rank) const;            // null while the rank's profile is not loaded
    TimelineWidget* timeline(size_t rank) const;           // null while folded or not loaded
    QToolButton* header(size_t rank) const;                // the row's fold / unfold button
    QWidget* strip(size_t rank) const;                     // the folded row's density strip
    RankActivity::Share shareAt(size_t rank, int x) const; // what the strip draws at pixel column x

    // The height its folded rows and unfolded ranks need (the window gives the rest to the tables).
    int wantedHeight() const;

Q_SIGNALS:
    // The user expanded a rank whose profile is not loaded (lazy loading answers with setProfile).
    void profileWanted(size_t rank);
    // A rank was expanded or folded.
    void expansionChanged(size_t rank, bool expanded);
    // revealSegment() selected this event on the rank's timeline (invalid: none matched).
    void eventRevealed(size_t rank, dspark::EventRef event);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Row;
    class Strip;
    void buildRow(size_t rank);
    void updateTimeline(size_t rank);
    void updateStretch();
    void updateHeader(size_t rank);
    void updateBounds(bool keepRange);
    void updateRangeLabel();
    void applyReveal(size_t rank);
    void measureActivity(Row& row, const Profile& profile);

    TimelineZoom* m_zoom;
    QLabel* m_rangeLabel;
    QScrollArea* m_scroll;
    QVBoxLayout* m_rowsLayout;
    std::vector<std::unique_ptr<Row>> m_rows;
    int64_t m_step = -1;
};

} // namespace dspark::ui
