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

    // `what` says what the range is ("the selected range", "step 50"); lanes empty = every lane. The
    // figures are computed on a worker thread (busy() until computed()); a newer range drops them.
    void setRange(std::shared_ptr<const Profile> profile, TimeNs fromNs, TimeNs toNs, const QString& what,
                  std::vector<uint32_t> lanes = {});
    void clear();
    const RangeStats& stats() const { return m_stats; }
    const std::shared_ptr<const Profile>& profile() const { return m_profile; }
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

    // Summarises on a worker thread (busy() until computed()); a newer scope drops the pending one.
    void setScope(std::shared_ptr<const Profile> profile, const KernelQuery& query, const QString& what);
    // The name rules that tell communication kernels (null: the built-in ones); for the next setScope.
    void setRules(std::shared_ptr<const AnalysisRules> rules) { m_rules = std::move(rules); }
    void clear();
    const KernelSummary& summary() const { return m_summary; }
    const std::shared_ptr<const Profile>& profile() const { return m_profile; }

Q_SIGNALS:
    void instancesRequested(const QString& title, std::vector<dspark::EventRef> events);

protected:
    void changeEvent(QEvent* event) override;

private:
    void fill();

    std::shared_ptr<const Profile> m_profile;
    std::shared_ptr<const AnalysisRules> m_rules;
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

    // Starts the analysis (a previous one still running is dropped when it ends); analysed() follows
    // (and computed()).
    void setProfile(std::shared_ptr<const Profile> profile,
                    std::shared_ptr<const AnalysisRules> rules = nullptr); // null rules: the built-in ones
    const PlainSteps& steps() const { return m_steps; }
    // `[` / `]` in a profile without step records: the previous / next row becomes current and is shown
    // (stepRequested), as a double-click shows it; false when there is no step to move to.
    bool stepBy(int delta);

Q_SIGNALS:
    void analysed();
    void stepRequested(int rankIndex, dspark::TimeNs startNs, dspark::TimeNs endNs, const QString& what);

protected:
    void changeEvent(QEvent* event) override;

private:
    void fill();

    std::shared_ptr<const Profile> m_profile;
    PlainSteps m_steps;
};

} // namespace dspark::ui
