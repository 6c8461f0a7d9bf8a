#include "compare/StepSamples.h"

#include "analysis/StepAnalysis.h"
#include "session/StepAnalyses.h"
#include "steps/StepRecords.h"

#include <QCoreApplication>

#include <charconv>

namespace dspark {

namespace {

// clang-format off
constexpr QuantityInfo kQuantities[kQuantityCount] = {
    {"step_gpu_ms", QT_TRANSLATE_NOOP("Compare", "Step GPU"), "ms", false, true},
    {"draft_gpu_ms", QT_TRANSLATE_NOOP("Compare", "Draft"), "ms", false, true},
    {"target_verify_gpu_ms", QT_TRANSLATE_NOOP("Compare", "Target verify"), "ms", false, true},
    {"unattributed_ms", QT_TRANSLATE_NOOP("Compare", "Unattributed"), "ms", false, true},
    {"step_wall_ms", QT_TRANSLATE_NOOP("Compare", "Step wall"), "ms", true, true},
    {"band_draft_ms", QT_TRANSLATE_NOOP("Compare", "Draft band"), "ms", true, true},
    {"band_planner_ms", QT_TRANSLATE_NOOP("Compare", "Planner band"), "ms", true, true},
    {"band_verify_ms", QT_TRANSLATE_NOOP("Compare", "Verify band"), "ms", true, true},
    {"band_accept_ms", QT_TRANSLATE_NOOP("Compare", "Accept band"), "ms", true, true},
    {"band_commit_ms", QT_TRANSLATE_NOOP("Compare", "Commit band"), "ms", true, true},
    {"planner_gap_ms", QT_TRANSLATE_NOOP("Compare", "Planner gap"), "ms", true, true},
    {"host_gap_ms", QT_TRANSLATE_NOOP("Compare", "Host gap before next step"), "ms", true, true},
    {"pre_replay_gap_ms", QT_TRANSLATE_NOOP("Compare", "Pre-replay host gap"), "ms", true, true},
    {"comm_total_ms", QT_TRANSLATE_NOOP("Compare", "Communication in flight"), "ms", true, true},
    {"comm_exposed_ms", QT_TRANSLATE_NOOP("Compare", "Exposed communication"), "ms", true, true},
    {"comm_hidden_ms", QT_TRANSLATE_NOOP("Compare", "Hidden communication"), "ms", true, false},
    {"path_draft_ms", QT_TRANSLATE_NOOP("Compare", "Critical path: draft"), "ms", true, true},
    {"path_verify_compute_ms", QT_TRANSLATE_NOOP("Compare", "Critical path: verify compute"), "ms", true, true},
    {"path_exposed_comm_ms", QT_TRANSLATE_NOOP("Compare", "Critical path: exposed communication"), "ms", true, true},
    {"path_accept_tp_sync_ms", QT_TRANSLATE_NOOP("Compare", "Critical path: accept / TP sync"), "ms", true, true},
    {"path_commit_ms", QT_TRANSLATE_NOOP("Compare", "Critical path: commit"), "ms", true, true},
    {"path_host_gap_ms", QT_TRANSLATE_NOOP("Compare", "Critical path: host gap"), "ms", true, true},
    {"path_idle_ms", QT_TRANSLATE_NOOP("Compare", "Critical path: idle"), "ms", true, true},
    {"mean_commit_len", QT_TRANSLATE_NOOP("Compare", "Mean commit length"), "tokens", false, false},
    {"effective_tpot_ms", QT_TRANSLATE_NOOP("Compare", "Effective TPOT"), "ms", false, true},
    {"committed_tokens_per_s", QT_TRANSLATE_NOOP("Compare", "Committed tokens/s"), "tokens/s", false, false},
};
// clang-format on

constexpr double kMsPerNs = 1e-6;

void set(StepSample& s, Quantity q, double v)
{
    s.values[static_cast<size_t>(q)] = v;
}

void fillFromRecord(StepSample& s, const StepRecord& r, const StepDerived& d)
{
    set(s, Quantity::StepGpuMs, r.stepGpuMs.value_or(std::nan("")));
    set(s, Quantity::DraftGpuMs, r.draftGpuMs.value_or(std::nan("")));
    set(s, Quantity::TargetVerifyGpuMs, r.targetVerifyGpuMs.value_or(std::nan("")));
    set(s, Quantity::UnattributedMs, d.unattributedMs.value_or(std::nan("")));
    set(s, Quantity::MeanCommitLen, d.meanCommitLen.value_or(std::nan("")));
    set(s, Quantity::EffectiveTpotMs, d.effectiveTpotMs.value_or(std::nan("")));
    if (d.totalCommitLen && r.stepGpuMs && *r.stepGpuMs > 0)
        set(s, Quantity::CommittedTokensPerS, double(*d.totalCommitLen) / *r.stepGpuMs * 1000.0);
}

double bandMs(const std::optional<StageBand>& band)
{
    return band ? double(band->extent.endNs - band->extent.startNs) * kMsPerNs : 0.0;
}

void fillFromAnalysis(StepSample& s, const StepAnalysis& a)
{
    set(s, Quantity::StepWallMs, double(a.window.wallNs()) * kMsPerNs);
    // A step without device tasks has no bands to speak of (NaN); a missing band of a step with tasks is
    // a stage that did no device work (0).
    if (!a.bands.tasks().empty()) {
        set(s, Quantity::BandDraftMs, bandMs(a.bands.draft));
        set(s, Quantity::BandPlannerMs, bandMs(a.bands.planner));
        set(s, Quantity::BandVerifyMs, bandMs(a.bands.verify));
        set(s, Quantity::BandAcceptMs, bandMs(a.bands.accept));
        set(s, Quantity::BandCommitMs, bandMs(a.bands.commit));
    }
    set(s, Quantity::PlannerGapMs, double(a.bands.plannerGapNs) * kMsPerNs);
    set(s, Quantity::HostGapMs, double(a.bands.hostGapNs) * kMsPerNs);
    set(s, Quantity::PreReplayGapMs, double(a.replay.preReplayGapNs) * kMsPerNs);
    set(s, Quantity::CommTotalMs, double(a.comm.totalNs) * kMsPerNs);
    set(s, Quantity::CommExposedMs, double(a.comm.exposedNs) * kMsPerNs);
    TimeNs hidden = 0;
    for (const CommOperation& op : a.comm.operations)
        hidden += op.hiddenNs;
    set(s, Quantity::CommHiddenMs, double(hidden) * kMsPerNs);
    for (size_t c = 0; c < kPathCategoryCount; ++c)
        s.values[size_t(Quantity::PathDraftMs) + c] = double(a.criticalPath.byCategory[c]) * kMsPerNs;
}

std::string platformOf(const Profile& profile)
{
    for (const Lane& lane : profile.lanes) {
        if (lane.info.kind == LaneKind::NpuStream)
            return "npu";
        if (lane.info.kind == LaneKind::GpuStream)
            return "gpu";
    }
    return {};
}

} // namespace

static_assert(size_t(Quantity::PathIdleMs) - size_t(Quantity::PathDraftMs) + 1 == kPathCategoryCount);

const QuantityInfo& quantityInfo(Quantity q)
{
    return kQuantities[static_cast<size_t>(q)];
}

QString quantityLabel(Quantity q)
{
    return QCoreApplication::translate("Compare", quantityInfo(q).label);
}

std::optional<Quantity> quantityFromKey(const std::string& key)
{
    for (size_t i = 0; i < kQuantityCount; ++i)
        if (key == kQuantities[i].key)
            return static_cast<Quantity>(i);
    return std::nullopt;
}

std::string StepClass::label() const
{
    const auto num = [](int64_t v) { return v < 0 ? std::string("?") : std::to_string(v); };
    return (mode.empty() ? std::string("?") : mode) + ":" + num(bs) + ":" + num(verifyTokens);
}

std::optional<StepClass> StepClass::parse(const QString& text)
{
    const QStringList parts = text.split(QLatin1Char(':'));
    if (parts.size() != 3)
        return std::nullopt;
    StepClass c;
    c.mode = parts[0] == QLatin1String("?") ? std::string() : parts[0].toStdString();
    const auto num = [](const QString& s, int64_t& out) {
        if (s == QLatin1String("?") || s.isEmpty()) {
            out = -1;
            return true;
        }
        bool ok = false;
        out = s.toLongLong(&ok);
        return ok && out >= 0;
    };
    if (!num(parts[1], c.bs) || !num(parts[2], c.verifyTokens))
        return std::nullopt;
    return c;
}

RunSamples collectSamples(const Profile& profile, const StepAnalyses* analyses)
{
    RunSamples run;
    run.label = QString::fromStdString(profile.rootPath);
    run.platform = platformOf(profile);
    const StepRecordSet* set = profile.stepRecords.get();
    if (!set || set->empty())
        return run;
    run.hasRecords = true;
    run.steps.resize(set->size());
    for (size_t row = 0; row < set->size(); ++row) {
        const StepRecord& r = set->record(row);
        StepSample& s = run.steps[row];
        s.cls = {r.mode, r.bs.value_or(-1), r.numVerifyTokens.value_or(-1)};
        s.dpRank = set->rows[row].dpRank;
        s.forwardCt = r.forwardCt;
        s.recordRow = int64_t(row);
        fillFromRecord(s, r, set->rows[row].derived);
        const std::optional<size_t> step = analyses ? analyses->stepOfRecordRow(row) : std::nullopt;
        if (step) {
            s.stepIndex = int64_t(*step);
            if (const StepAnalysis* a = analyses->analysis(*step)) {
                fillFromAnalysis(s, *a);
                run.hasTimeline = true;
            }
        }
    }
    for (const StableWindow& w : set->stableWindows)
        for (size_t row = w.firstRow; row <= w.lastRow && row < run.steps.size(); ++row)
            run.steps[row].inStableWindow = true;
    return run;
}

} // namespace dspark
