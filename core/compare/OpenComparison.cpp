#include "compare/OpenComparison.h"

#include "analysis/AnalysisRules.h"
#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"

#include "util/Parallel.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace dspark {

AnalysedRun loadAndAnalyse(const QString& path, const std::shared_ptr<const AnalysisRules>& rules, int threads)
{
    AnalysedRun run;
    run.path = path;
    LoadOptions options;
    options.rules = rules;
    if (threads > 0)
        options.threads = threads;
    run.outcome = loadProfile(path.toStdString(), {}, options);
    if (!run.outcome.profile)
        return run;
    run.session = std::make_unique<ProfileSession>(run.outcome.profile, path, *rules);
    run.session->analyses()->computeNow();
    return run;
}

int sideBySideLoaderThreads()
{
    return std::clamp(int(std::thread::hardware_concurrency() / 2), 1, defaultLoaderThreads());
}

AnalysedPair loadAndAnalyseBoth(const QString& baseline, const QString& changed,
                                const std::shared_ptr<const AnalysisRules>& rules, int threadsPerSide,
                                const CompareOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    const auto side = [&](const QString& path, ComparisonRole role) {
        AnalysedRun run = loadAndAnalyse(path, rules, threadsPerSide);
        if (run.session)
            run.side = prepareSide(*run.session, role, options);
        run.readyMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        return run;
    };
    AnalysedPair out;
    std::thread worker([&] { out.changed = side(changed, ComparisonRole::Changed); });
    out.baseline = side(baseline, ComparisonRole::Baseline);
    worker.join();
    return out;
}

std::vector<PairKernels> alignMatchedPairs(const RunComparison& c, const ProfileSession& a, const ProfileSession& b)
{
    std::vector<PairKernels> out;
    for (size_t i = 0; i < c.pairs.size(); ++i) {
        const MatchedPair& p = c.pairs[i];
        if (p.baselineStepIndex < 0 || p.changedStepIndex < 0)
            continue;
        const StepAnalysis* sa = a.analyses()->analysis(size_t(p.baselineStepIndex));
        const StepAnalysis* sb = b.analyses()->analysis(size_t(p.changedStepIndex));
        if (sa && sb)
            out.push_back({i, alignKernels(*a.profile(), *sa, *b.profile(), *sb)});
    }
    if (c.pairs.empty()) {
        const Profile& pa = *a.profile();
        const Profile& pb = *b.profile();
        const std::vector<EventRef> ta = deviceTasksIn(pa, pa.firstNs(), pa.lastNs() + 1);
        const std::vector<EventRef> tb = deviceTasksIn(pb, pb.firstNs(), pb.lastNs() + 1);
        if (!ta.empty() && !tb.empty())
            out.push_back({kWholeProfiles, alignTasks(pa, ta, pb, tb)});
    }
    return out;
}

} // namespace dspark
