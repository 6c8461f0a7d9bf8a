#pragma once

#include "analysis/KernelSummary.h"
#include "analysis/PlainSteps.h"
#include "analysis/RangeStats.h"
#include "summary/SummaryTable.h"

#include <memory>
#include <vector>

namespace dspark::ui {

// The range statistics of a Ctrl-drag selection or a step: per name and lane kind, count, total, self,
// mean, min, max and share of the range; counter series with min / mean / max / integral.
// Double-clicking a name asks for its instances in the range (instancesRequested, longest first).
class RangeStatsPanel : public SummaryPanel {
    Q_OBJECT
public:
    explicit RangeStatsPanel(QWidget* parent = nullptr);

    // `what` says what the range is ("the selected range", "step 50"); lanes empty = every lane.
    void setRange(std::shared_ptr<const Profile> profile, TimeNs fromNs, TimeNs toNs, const QString& what,
                  std::vector<uint32_t> lanes = {});
    void clear();
    const RangeStats& stats() const { return m_stats; }
    // The key of a row (SummaryPanel::keyAtRow): index into stats().rows, or -1 - counter index.

Q_SIGNALS:
    void instancesRequested(const QString& title, std::vector<dspark::EventRef> events);

protected:
    void changeEvent(QEvent* event) override;

private:
    void fill();
    void activate(int key);

    std::shared_ptr<const Profile> m_profile;
    RangeQuery m_query;
    RangeStats m_stats;
    QString m_what;
};

// The kernel / operator summary of the profile, a step or a range: per kernel and per accelerator core,
// the source named. Clicking or double-clicking a kernel asks for its instances (longest first).
class KernelSummaryPanel : public SummaryPanel {
    Q_OBJECT
public:
    explicit KernelSummaryPanel(QWidget* parent = nullptr);

    void setScope(std::shared_ptr<const Profile> profile, const KernelQuery& query, const QString& what);
    void clear();
    const KernelSummary& summary() const { return m_summary; }

Q_SIGNALS:
    void instancesRequested(const QString& title, std::vector<dspark::EventRef> events);

protected:
    void changeEvent(QEvent* event) override;

private:
    void fill();

    std::shared_ptr<const Profile> m_profile;
    KernelQuery m_query;
    KernelSummary m_summary;
    QString m_what;
};

// The steps of a profile without DSpark step records (ProfilerStep#N spans, the profiler's step lane,
// scheduler iterations), analysed off the UI thread: wall, device busy, computing, communication not
// overlapped, free, the critical path, the top kernel, anomalies; the source is named.
// Double-clicking a step asks to show it (stepRequested).
class PlainStepsPanel : public SummaryPanel {
    Q_OBJECT
public:
    explicit PlainStepsPanel(QWidget* parent = nullptr);

    // Starts the analysis (a previous one still running is dropped when it ends); analysed() follows.
    void setProfile(std::shared_ptr<const Profile> profile);
    const PlainSteps& steps() const { return m_steps; }
    bool busy() const { return m_busy; }

Q_SIGNALS:
    void analysed();
    void stepRequested(int rankIndex, dspark::TimeNs startNs, dspark::TimeNs endNs, const QString& what);

protected:
    void changeEvent(QEvent* event) override;

private:
    void fill();

    std::shared_ptr<const Profile> m_profile;
    PlainSteps m_steps;
    uint64_t m_generation = 0;
    bool m_busy = false;
};

} // namespace dspark::ui
