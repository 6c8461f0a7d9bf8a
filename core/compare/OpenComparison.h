#pragma once

// Opening a comparison outside the window (the `compare` command, bench_compare_open): both runs loaded
// and every step analysed side by side, and the kernels of every matched pair aligned.

#include "compare/CompareReport.h"
#include "io/ProfileLoader.h"

#include <QString>

#include <memory>
#include <vector>

namespace dspark {

struct AnalysisRules;
class ProfileSession;

// One side: loaded, then every step analysed (session null when the load failed: outcome.error says why).
struct AnalysedRun {
    QString path;
    LoadOutcome outcome;
    std::unique_ptr<ProfileSession> session;
    ComparisonSide side; // what the comparison needs of this run alone (loadAndAnalyseBoth only)
    double readyMs = 0;  // loadAndAnalyseBoth: wall ms from its start until this side was prepared
};

// `threads`: the loader's threads (LoadOptions::threads); 0: the default.
AnalysedRun loadAndAnalyse(const QString& path, const std::shared_ptr<const AnalysisRules>& rules, int threads = 0);

// The loader threads of each of two loads side by side: the cores split between them (1 on 2 or 3 cores,
// where two loads that each want a second core would share both; up to the loader's default from 4 on,
// so that each side loads as fast as alone).
int sideBySideLoaderThreads();

// Both runs side by side, each on a thread of its own with sideBySideLoaderThreads() loader threads.
// Each thread then prepares its run's side of the comparison (prepareSide with `options`), so that once
// the slower run is in only compareRuns(baseline.side, changed.side) is left.
struct AnalysedPair {
    AnalysedRun baseline, changed;
};
// `threadsPerSide`: the loader threads of each (0: the loader's default; the bench compares the two).
AnalysedPair loadAndAnalyseBoth(const QString& baseline, const QString& changed,
                                const std::shared_ptr<const AnalysisRules>& rules,
                                int threadsPerSide = sideBySideLoaderThreads(), const CompareOptions& options = {});

// The kernels of every matched pair on both timelines; without matched steps, the two profiles whole.
std::vector<PairKernels> alignMatchedPairs(const RunComparison& comparison, const ProfileSession& baseline,
                                           const ProfileSession& changed);

} // namespace dspark
