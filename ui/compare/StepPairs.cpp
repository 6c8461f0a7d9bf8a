#include "compare/StepPairs.h"

#include "compare/StepSamples.h"
#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"

#include <algorithm>
#include <map>

namespace dspark::ui {

// The steps on the timeline of each workload class, in (dp rank, forward_ct) order: those of the stable
// windows, or every one when none of them is on the timeline.
// `anyVerifyTokens`: classes by (mode, bs) alone.
static std::map<StepClass, std::vector<size_t>> stepsByClass(const RunSamples& run, bool anyVerifyTokens)
{
    std::map<StepClass, std::vector<size_t>> byClass;
    for (bool stableOnly : {true, false}) {
        for (const StepSample& s : run.steps)
            if (s.stepIndex >= 0 && (s.inStableWindow || !stableOnly)) {
                StepClass cls = s.cls;
                if (anyVerifyTokens)
                    cls.verifyTokens = -1;
                byClass[cls].push_back(size_t(s.stepIndex));
            }
        if (!byClass.empty())
            break;
    }
    return byClass;
}

std::vector<StepPair> matchStepPairs(const ProfileSession& baseline, const ProfileSession& changed)
{
    // Matched by workload class (forward_ct of two runs are unrelated): the k-th step of a class in
    // the baseline with the k-th of that class in the changed run.
    // When no verify width meets (a change of the draft block changes every step's), by (mode, bs), as
    // the core's comparison does (RunComparison::classesIgnoreVerifyTokens).
    const RunSamples runA = collectSamples(*baseline.profile(), baseline.analyses());
    const RunSamples runB = collectSamples(*changed.profile(), changed.analyses());
    std::vector<StepPair> pairs;
    for (bool anyVerifyTokens : {false, true}) {
        const auto a = stepsByClass(runA, anyVerifyTokens), b = stepsByClass(runB, anyVerifyTokens);
        for (const auto& [cls, steps] : a) {
            const auto other = b.find(cls);
            if (other == b.end())
                continue;
            for (size_t k = 0; k < std::min(steps.size(), other->second.size()); ++k)
                pairs.push_back({steps[k], other->second[k]});
        }
        if (!pairs.empty())
            break;
    }
    const StepAnalyses& sa = *baseline.analyses();
    std::sort(pairs.begin(), pairs.end(), [&](const StepPair& x, const StepPair& y) {
        return sa.step(x.baselineStep).window.startNs < sa.step(y.baselineStep).window.startNs;
    });
    return pairs;
}

} // namespace dspark::ui
