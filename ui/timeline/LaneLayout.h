#pragma once

#include "model/Profile.h"
#include "timeline/TimelineStyle.h"

#include <QObject>
#include <QString>

#include <vector>

namespace dspark::ui {

// The rows of the timeline: lanes grouped rank → process → lane, with collapsed groups, hidden lanes,
// lanes pinned to the top and a user order within each process group. Rows have a y position in
// content coordinates: pinned rows first (they stay at the top of the view), then the scrolling rows.
class LaneLayout : public QObject {
    Q_OBJECT
public:
    enum class RowKind { Rank, Process, Lane };
    struct Row {
        RowKind kind = RowKind::Lane;
        int rankIndex = 0; // index into Profile::ranks
        int group = -1;    // process group index (Process and Lane rows)
        uint32_t lane = 0; // Lane rows: the lane
        bool pinned = false;
        bool collapsed = false; // Rank/Process rows
        double y = 0;
        double height = 0;
        double bottom() const { return y + height; }
    };
    struct ProcessGroup {
        int rankIndex = 0;
        std::string process;
        std::vector<uint32_t> lanes; // in display order
        bool collapsed = false;
    };

    explicit LaneLayout(QObject* parent = nullptr);

    void reset(const Profile* profile, const TimelineStyle* style);
    void relayout(); // after a style change (row heights)
    const Profile* profile() const { return m_profile; }
    // Back to the profile's own order (device groups first in each rank), nothing hidden, pinned,
    // collapsed, unfolded or filtered.
    void resetToDefault() { reset(m_profile, m_style); }

    const std::vector<Row>& rows() const { return m_rows; }
    const std::vector<ProcessGroup>& groups() const { return m_groups; }
    int pinnedRowCount() const { return m_pinnedRows; }
    double pinnedHeight() const { return m_pinnedHeight; }
    double contentHeight() const { return m_contentHeight; }
    // Row showing `lane` itself, or -1 when it is hidden or inside a collapsed group.
    int rowOfLane(uint32_t lane) const { return lane < m_rowOfLane.size() ? m_rowOfLane[lane] : -1; }
    // Row where `lane` is visible: its own row, or the header of the collapsed group holding it
    // (-1 when hidden).
    int displayRowOfLane(uint32_t lane) const;
    // Index of the row at content y, or -1.
    int rowAt(double y) const;
    double laneHeight(uint32_t lane) const;
    QString rowTitle(const Row& row) const;
    // Lanes in the group a header row heads (1 for a lane row).
    int lanesUnder(const Row& row) const;

    bool isRankCollapsed(int rankIndex) const;
    void setRankCollapsed(int rankIndex, bool collapsed);
    void setGroupCollapsed(int group, bool collapsed);
    void toggleRow(int row); // collapse/expand the group of a header row
    void setAllCollapsed(bool collapsed);

    // Lanes deeper than kFoldedDepths nesting levels (host threads, device streams, communication; not
    // counters) show only their first kFoldedDepths levels until the user unfolds them (click on the
    // name, key E, the lane menu): the first view then fits the streams and the top of the host stacks
    // on one screen.
    static constexpr int kFoldedDepths = 3;
    bool isFoldable(uint32_t lane) const;
    // Nesting levels a folded lane leaves out (0 when it shows them all), and the name column's words
    // for them ("+12 levels folded"; empty when none).
    int foldedDepths(uint32_t lane) const;
    QString foldedText(uint32_t lane) const;
    bool isFolded(uint32_t lane) const { return isFoldable(lane) && !isUnfolded(lane); }
    bool isUnfolded(uint32_t lane) const { return lane < m_unfolded.size() && m_unfolded[lane]; }
    void setUnfolded(uint32_t lane, bool unfolded);
    // Nesting levels a lane row shows (1 for counters and empty lanes).
    int shownDepths(uint32_t lane) const;

    bool isHidden(uint32_t lane) const { return lane < m_hidden.size() && m_hidden[lane]; }
    void setHidden(uint32_t lane, bool hidden);
    void showAllLanes();
    std::vector<uint32_t> hiddenLanes() const;

    bool isPinned(uint32_t lane) const;
    void setPinned(uint32_t lane, bool pinned);
    const std::vector<uint32_t>& pinnedLanes() const { return m_pinned; }

    // Moves a lane up (delta < 0) or down within its process group (or within the pinned lanes).
    bool moveLane(uint32_t lane, int delta);
    // Position of a lane in its group's order (or among the pinned lanes), or -1.
    int orderIndexOf(uint32_t lane) const;

    // The lane filter: lanes with keep[lane] false are left out of the rows (until the filter is
    // cleared), apart from the user's hidden lanes. Ranks with no lane left lose their header too.
    void setLaneFilter(std::vector<bool> keep);
    void clearLaneFilter();
    bool hasLaneFilter() const { return !m_filterKeep.empty(); }
    bool isFilteredOut(uint32_t lane) const { return lane < m_filterKeep.size() && !m_filterKeep[lane]; }
    // Lanes with a row of their own or inside a collapsed group (not hidden, not filtered out).
    int shownLaneCount() const;

    // Everything the user arranged (saved per profile kind and restored), applied in one relayout.
    struct State {
        std::vector<std::vector<uint32_t>> groupOrder; // per group, a permutation of its lanes
        std::vector<uint32_t> hidden;
        std::vector<uint32_t> pinned;
        std::vector<int> collapsedGroups;
        std::vector<int> collapsedRanks;
        std::vector<uint32_t> unfolded; // foldable lanes showing all their levels
    };
    State state() const;
    // Applies what fits this profile: unknown lanes and groups are ignored, lanes missing from a
    // group's order keep their place after the ordered ones.
    void setState(const State& state);

Q_SIGNALS:
    void changed();
    // reset() made the rows of a (new) profile: emitted before they are laid out, so that a saved
    // arrangement can be applied first.
    void profileReset();

private:
    void rebuildRows();
    void orderGroupsDeviceFirst();
    bool rankHasShownLane(int firstGroup) const;
    bool isShown(uint32_t lane) const { return !isHidden(lane) && !isFilteredOut(lane); }

    const Profile* m_profile = nullptr;
    const TimelineStyle* m_style = nullptr;
    std::vector<ProcessGroup> m_groups;
    std::vector<bool> m_rankCollapsed;
    std::vector<int> m_groupOfLane;
    std::vector<bool> m_hidden;
    std::vector<bool> m_unfolded;
    std::vector<bool> m_filterKeep; // empty: no filter
    std::vector<uint32_t> m_pinned;
    std::vector<Row> m_rows;
    std::vector<int> m_rowOfLane;
    int m_pinnedRows = 0;
    double m_pinnedHeight = 0;
    double m_contentHeight = 0;
};

} // namespace dspark::ui
