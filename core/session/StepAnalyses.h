#pragma once

#include "analysis/StepAnalysis.h"
#include "analysis/StepWindowIndex.h"

#include <QObject>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

class QThread;

namespace dspark {

// The analyses of a profile's aligned DSpark steps (core/analysis), owned by its ProfileSession, for
// everything that draws or prints them: the timeline overlays, the charts, the per-step breakdown, the
// exports and the CLI. The step windows are found when the profile is set; the analyses of every step
// are computed at once, either on a worker thread (computeInBackground, the window) or right away
// (computeNow / ensure, headless exports).
// Results are immutable once delivered and live as long as the profile.
class StepAnalyses : public QObject {
    Q_OBJECT
public:
    explicit StepAnalyses(QObject* parent = nullptr);
    ~StepAnalyses() override;

    // Resets to `profile` (null clears). Windows come from the aligned step records (stepWindows()).
    void setProfile(std::shared_ptr<const Profile> profile, AnalysisRules rules = AnalysisRules::defaults());
    const Profile* profile() const { return m_profile.get(); }
    const std::shared_ptr<const Profile>& profilePtr() const { return m_profile; }
    // The name rules the session was opened with (the user's rules file over the defaults).
    const AnalysisRules& rules() const { return m_rules; }

    // ---- steps ----
    size_t stepCount() const { return m_windows.size(); }
    const RecordWindow& step(size_t i) const { return m_windows[i]; }
    const std::vector<RecordWindow>& steps() const { return m_windows; }
    // Step of a StepRecordSet row / of (Profile::ranks index, forward_ct); nullopt when not aligned.
    std::optional<size_t> stepOfRecordRow(size_t row) const;
    std::optional<size_t> stepOf(int traceRank, int64_t forwardCt) const;
    // Steps of a trace rank (-1: any) whose window overlaps [startNs, endNs), in time order.
    std::vector<size_t> stepsOverlapping(int traceRank, TimeNs startNs, TimeNs endNs) const;

    // ---- analyses ----
    // True once every step is analysed (after computeNow or the background job).
    bool ready() const { return m_ready; }
    bool computing() const { return m_thread != nullptr; }
    // Analysis of step i, or null while it is not computed yet.
    const StepAnalysis* analysis(size_t i) const;
    // Analysis of step i, computed now when needed (only that step).
    const StepAnalysis& ensure(size_t i);
    void computeNow();
    // Computes every step on a worker thread and emits ready(); a new setProfile() abandons the job.
    void computeInBackground();

Q_SIGNALS:
    void profileChanged();
    void analysesReady();

private:
    void stopWorker();
    void deliver(quint64 generation, std::shared_ptr<std::vector<StepAnalysis>> results);

    std::shared_ptr<const Profile> m_profile;
    AnalysisRules m_rules;
    std::vector<RecordWindow> m_windows; // sorted by (rank, startNs)
    StepWindowIndex m_index;
    std::vector<std::unique_ptr<StepAnalysis>> m_results; // parallel to m_windows
    std::unique_ptr<StepAnalyzer> m_analyzer;             // for ensure(): built on first use
    bool m_ready = false;
    QThread* m_thread = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    quint64 m_generation = 0;
};

} // namespace dspark
