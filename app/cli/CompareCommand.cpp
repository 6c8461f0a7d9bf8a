#include "cli/CliCommand.h"

#include "analysis/AnalysisRules.h"
#include "compare/CompareReport.h"
#include "session/ProfileSession.h"
#include "session/StepAnalyses.h"
#include "util/BoundedJson.h"

#include <QCoreApplication>

#include <thread>

namespace dspark::cli {

namespace {

QString usage()
{
    return QCoreApplication::translate("cli", "usage: dspark-timeline compare BASELINE CHANGED [--json|--csv|--md] "
                                              "[--class MODE:BS:VT]");
}

// Both sides load and are analysed side by side, one on a thread of its own (architecture.md "Loading in
// parallel"): a comparison costs about what the larger of the two costs alone.
struct Side {
    QString path;
    LoadOutcome outcome;
    std::unique_ptr<ProfileSession> session;
};

void loadAndAnalyse(Side& side, const std::shared_ptr<const AnalysisRules>& rules)
{
    side.outcome = loadForCommand(side.path, rules);
    if (!side.outcome.profile)
        return;
    side.session = std::make_unique<ProfileSession>(side.outcome.profile, side.path, *rules);
    side.session->analyses()->computeNow();
}

// The kernels of every matched pair on the timeline; without matched steps, the two profiles whole.
std::vector<PairKernels> alignPairs(const RunComparison& c, const ProfileSession& a, const ProfileSession& b)
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

} // namespace

int runCompare(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const bool asJson = takeFlag(args, QStringLiteral("--json"));
    const bool asCsv = takeFlag(args, QStringLiteral("--csv"));
    const bool asMd = takeFlag(args, QStringLiteral("--md"));
    const QString classText = takeOption(args, QStringLiteral("--class"));
    CompareOptions options;
    if (!classText.isEmpty()) {
        options.onlyClass = StepClass::parse(classText);
        if (!options.onlyClass) {
            printError(
                QCoreApplication::translate("cli", "--class %1: expected MODE:BS:VT, e.g. static:8:16").arg(classText));
            return 2;
        }
    }
    if (args.size() != 2 || args[0].startsWith(QLatin1String("--")) || args[1].startsWith(QLatin1String("--")) ||
        int(asJson) + int(asCsv) + int(asMd) > 1) {
        printError(usage());
        return 2;
    }
    const auto rules = std::make_shared<const AnalysisRules>(AnalysisRules::load({}, nullptr));
    Side base{args[0], {}, {}}, changed{args[1], {}, {}};
    std::thread worker([&] { loadAndAnalyse(changed, rules); });
    loadAndAnalyse(base, rules);
    worker.join();
    for (const Side* side : {&base, &changed})
        if (!side->outcome.profile) {
            printError(side->outcome.error);
            return 1;
        }
    warnIfStepsRefused(*base.outcome.profile);
    warnIfStepsRefused(*changed.outcome.profile);

    const RunComparison comparison = compareRuns(*base.session, *changed.session, options);
    if (asCsv) {
        printOut(pairTableCsv(comparison));
        return 0;
    }
    if (asMd) {
        printOut(pairTableMarkdown(comparison));
        return 0;
    }
    const std::vector<PairKernels> kernels = alignPairs(comparison, *base.session, *changed.session);
    if (asJson)
        printOut(dumpJson(comparisonJson(comparison, kernels), 2) + "\n");
    else
        printOut(comparisonText(comparison, kernels));
    return 0;
}

} // namespace dspark::cli
