#pragma once

// Compare two runs (issue 23): steps matched by workload class inside each run's stable windows, per
// class and for the whole window the two distributions of every quantity and the change of the median
// with a confidence interval; the cost-and-output table of matched step pairs; what cannot be compared.

#include "compare/ConfigDiff.h"
#include "compare/MedianInterval.h"
#include "compare/StepSamples.h"

#include <QString>

#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace dspark {

class Profile;
class ProfileSession;

struct QuantityComparison {
    Quantity quantity = Quantity::StepGpuMs;
    Distribution baseline, changed;
    MedianChange change;
};

// Where a class has steps: inside the stable windows of both runs, of one, or of neither (seen only
// outside the stable windows).
enum class ClassPresence : uint8_t { Both, BaselineOnly, ChangedOnly, Neither };
const char* classPresenceKey(ClassPresence p); // "both", "baseline_only", "changed_only", "neither"

struct ClassComparison {
    StepClass cls;
    bool whole = false; // the whole stable window, every class together (cls is empty then)
    ClassPresence presence = ClassPresence::Both;
    size_t baselineSteps = 0, changedSteps = 0; // inside the stable windows
    std::vector<QuantityComparison> quantities; // one per Quantity with values on either side
    const QuantityComparison* find(Quantity q) const;
};

// One row of the cost-and-output table: a baseline step and a changed step of the same class.
struct MatchedPair {
    StepClass cls;
    size_t baselineSample = 0, changedSample = 0; // RunSamples::steps indices
    int baselineDpRank = 0, changedDpRank = 0;
    int64_t baselineForwardCt = 0, changedForwardCt = 0;
    int64_t baselineStepIndex = -1, changedStepIndex = -1; // StepAnalyses indices (-1: not on the timeline)
    bool picked = false;                                   // the user's pair (not the class's median step)
    bool median = false; // the median step pair of its class (the default rows: RunComparison::pairs)
    // A median pair that is not one of the k-th pairs (its steps are each in a k-th pair already): a row of
    // the median view only, so that every step is in one row of the "All pairs" view.
    bool extraMedian = false;
    std::array<double, kQuantityCount> baseline{}, changed{}; // NaN = not known
    double delta(Quantity q) const { return changed[size_t(q)] - baseline[size_t(q)]; }
};

struct CompareOptions {
    // --class: compare this class only (the whole window too); an unrecorded field ("?") matches any value.
    std::optional<StepClass> onlyClass;
    bool stableWindowsOnly = true; // false: every step (runs without a stable window)
    BootstrapOptions bootstrap;
    // The quantity that picks a class's median step for its default pair (StepWallMs when analysed).
    Quantity medianBy = Quantity::StepGpuMs;
    // false: no device-task comparison (RunComparison::deviceTasks stays empty, prepareSide() collects no
    // task durations): the window shows none of it, the reports (`compare`) do.
    bool deviceTasks = true;
};
// What the window compares with: the defaults without the device tasks (docs/compare.md §5a).
inline CompareOptions windowCompareOptions()
{
    CompareOptions o;
    o.deviceTasks = false;
    return o;
}

// Device task durations compared by group: a category (compute, communication, memcpy, sync, other) or a
// kernel name. The level at which runs of two platforms (NPU / GPU) still compare, and what a profile
// without step records offers.
struct TaskGroupComparison {
    std::string name;               // the category key, or the kernel name
    bool category = false;          // a category, not a name
    Distribution baseline, changed; // of task durations (ms)
    MedianChange change;
    double baselineTotalMs = 0, changedTotalMs = 0; // Σ durations (ms; not a time on the path)
};
struct DeviceTaskComparison {
    std::vector<TaskGroupComparison> categories;
    std::vector<TaskGroupComparison> names; // the kernel names of both runs with the largest totals
};
// Of every device task of the two profiles (task kinds, not names, decide the categories).
DeviceTaskComparison compareDeviceTasks(const Profile& baseline, const Profile& changed,
                                        const BootstrapOptions& bootstrap = {}, size_t topNames = 30);

struct RunComparison {
    ConfigDiff config;
    ClassComparison whole;                // every step of the stable windows
    std::vector<ClassComparison> classes; // Both first (most steps first), then one run only, then neither
    std::vector<MatchedPair> pairs;       // the median step pair of every class in both runs
    // Every compared step paired within its class, what the Matched Pairs dock lists and `[` / `]` walk:
    // the k-th step of a class in the baseline (time order: forward_ct, then dp rank) with the k-th of the
    // same class in the changed run, and each class's median pair (flagged `median`; added, flagged
    // `extraMedian`, when it is not one of those). In the baseline's time order.
    std::vector<MatchedPair> allPairs;
    // No (mode, bs, verify tokens) class is in both runs but both have steps: the verify width is what the
    // experiment changed (a larger draft block), so classes are (mode, bs) and verifyTokens is -1.
    bool classesIgnoreVerifyTokens = false;
    DeviceTaskComparison deviceTasks; // filled by the ProfileSession overload
    // What cannot be compared, one translated sentence each (no timeline on one side, NPU vs GPU, …).
    std::vector<QString> notComparable;
    QString baselineLabel, changedLabel;
    // The steps compared (for pairSteps() on a pair the user picks, and to go from a pair to its steps).
    RunSamples baselineRun, changedRun;
};

// Which side of a comparison a run is on: it picks the run's bootstrap stream (MedianInterval.h).
enum class ComparisonRole : uint8_t { Baseline, Changed };

struct TaskDurations; // one run's device task durations by category and name (RunComparison.cpp)

// What a comparison needs of one run alone, made as soon as that run is loaded and analysed (on its own
// load thread), so that after the slower run only the pairwise part is left: the run's samples, its
// configuration, its device tasks sorted by group, and the bootstrap positions of its counts drawn
// (prepareBootstrap). The comparison of two sides is the same, bit for bit, as compareRuns() of the sessions.
struct ComparisonSide {
    std::shared_ptr<const Profile> profile; // (the device task names are views into its strings)
    RunSamples samples;
    RunConfig config;
    std::shared_ptr<const TaskDurations> tasks;     // null when prepared without CompareOptions::deviceTasks
    ComparisonRole role = ComparisonRole::Baseline; // the bootstrap positions drawn are this role's
};
// Call once the session's StepAnalyses are ready. `options`: those compareRuns() will get (the class
// filter and the bootstrap decide what is drawn ahead; other options only cost a draw later).
ComparisonSide prepareSide(const ProfileSession& session, ComparisonRole role, const CompareOptions& options = {});
// The pairwise part: steps, device tasks, configurations of two prepared sides.
RunComparison compareRuns(const ComparisonSide& baseline, const ComparisonSide& changed,
                          const CompareOptions& options = {});

// The comparison of two sample tables (no config diff: set `config` from compareConfigs()).
RunComparison compareRuns(const RunSamples& baseline, const RunSamples& changed, const CompareOptions& options = {});
// Of two opened profiles: their samples (the analyses they have computed: call it once both sessions'
// StepAnalyses are ready), the config diff, the device tasks, and compareRuns() above.
RunComparison compareRuns(const ProfileSession& baseline, const ProfileSession& changed,
                          const CompareOptions& options = {});

// A pair the user picked (any two steps, any classes): a row of the cost-and-output table.
MatchedPair pairSteps(const RunSamples& baseline, size_t baselineSample, const RunSamples& changed,
                      size_t changedSample);
// The sample of the median step of `cls` in `run` by `by` (the lower median; steps on the timeline first,
// in the stable windows when `stableOnly`); nullopt when the class has no such step.
// `anyVerifyTokens`: steps of any verify width belong to the class (RunComparison::classesIgnoreVerifyTokens).
std::optional<size_t> medianStepOf(const RunSamples& run, const StepClass& cls, Quantity by, bool stableOnly = true,
                                   bool anyVerifyTokens = false);

} // namespace dspark
