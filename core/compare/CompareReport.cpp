#include "compare/CompareReport.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <map>

namespace dspark {

using ojson = nlohmann::ordered_json;

namespace {

ojson num(double v)
{
    return std::isnan(v) || std::isinf(v) ? ojson(nullptr) : ojson(v);
}

ojson distributionJson(const Distribution& d)
{
    return {{"n", d.n}, {"median", num(d.median)}, {"p10", num(d.p10)}, {"p90", num(d.p90)}, {"mean", num(d.mean)}};
}

ojson changeJson(const MedianChange& c)
{
    ojson ci = std::isnan(c.low) ? ojson(nullptr) : ojson::array({c.low, c.high});
    return {{"delta", num(c.delta)}, {"ci", ci}, {"relative", num(c.relative)}, {"significant", c.significant()}};
}

ojson classJson(const ClassComparison& c)
{
    ojson j;
    if (!c.whole) {
        j["class"] = c.cls.label();
        j["mode"] = c.cls.mode;
        j["bs"] = c.cls.bs < 0 ? ojson(nullptr) : ojson(c.cls.bs);
        j["verify_tokens"] = c.cls.verifyTokens < 0 ? ojson(nullptr) : ojson(c.cls.verifyTokens);
        j["presence"] = classPresenceKey(c.presence);
    }
    j["baseline_steps"] = c.baselineSteps;
    j["changed_steps"] = c.changedSteps;
    ojson q = ojson::object();
    for (const QuantityComparison& qc : c.quantities) {
        ojson e = changeJson(qc.change);
        e["baseline"] = distributionJson(qc.baseline);
        e["changed"] = distributionJson(qc.changed);
        q[quantityInfo(qc.quantity).key] = std::move(e);
    }
    j["quantities"] = std::move(q);
    return j;
}

ojson valuesJson(const std::array<double, kQuantityCount>& values)
{
    ojson j = ojson::object();
    for (size_t q = 0; q < kQuantityCount; ++q)
        j[quantityInfo(Quantity(q)).key] = num(values[q]);
    return j;
}

ojson pairJson(const MatchedPair& p)
{
    ojson base = {{"dp_rank", p.baselineDpRank}, {"forward_ct", p.baselineForwardCt}};
    ojson changed = {{"dp_rank", p.changedDpRank}, {"forward_ct", p.changedForwardCt}};
    base["values"] = valuesJson(p.baseline);
    changed["values"] = valuesJson(p.changed);
    std::array<double, kQuantityCount> delta;
    for (size_t q = 0; q < kQuantityCount; ++q)
        delta[q] = p.changed[q] - p.baseline[q];
    return {{"class", p.cls.label()},
            {"picked", p.picked},
            {"baseline", base},
            {"changed", changed},
            {"delta", valuesJson(delta)}};
}

ojson taskJson(const AlignedTask& t)
{
    ojson j = {{"name", t.name}};
    if (t.baseline.valid())
        j["baseline_ns"] = t.baselineNs;
    if (t.changed.valid())
        j["changed_ns"] = t.changedNs;
    if (t.kind == AlignedKind::Matched)
        j["delta_ns"] = t.deltaNs();
    return j;
}

// Tasks only in one run, by name: how many and how long in all (largest total first). A name list is
// short (a kernel catalogue), so none is left out.
ojson onlyByName(const std::vector<AlignedTask>& tasks, bool baseline)
{
    std::map<std::string, std::pair<size_t, TimeNs>> byName;
    for (const AlignedTask& t : tasks) {
        auto& [count, total] = byName[t.name];
        ++count;
        total += baseline ? t.baselineNs : t.changedNs;
    }
    std::vector<std::pair<std::string, std::pair<size_t, TimeNs>>> rows(byName.begin(), byName.end());
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a.second.second > b.second.second; });
    ojson out = ojson::array();
    for (const auto& [name, v] : rows)
        out.push_back({{"name", name}, {"count", v.first}, {"total_ns", v.second}});
    return out;
}

ojson kernelsJson(const PairKernels& k, size_t top)
{
    const KernelAlignment& a = k.alignment;
    ojson streams = ojson::array();
    for (const StreamAlignment& s : a.streams)
        streams.push_back({{"baseline_stream", s.baselineStreamId},
                           {"changed_stream", s.changedStreamId},
                           {"matched", s.matched},
                           {"baseline_only", s.baselineOnly},
                           {"changed_only", s.changedOnly},
                           {"fell_back", s.fellBack}});
    ojson regressions = ojson::array();
    for (size_t i = 0; i < a.regressions.size() && regressions.size() < top && a.regressions[i].deltaNs() > 0; ++i)
        regressions.push_back(taskJson(a.regressions[i]));
    return {{"pair", k.pair == kWholeProfiles ? ojson(nullptr) : ojson(k.pair)},
            {"fell_back", a.fellBack},
            {"matched", a.regressions.size()},
            {"matched_delta_ns", a.matchedDeltaNs},
            {"streams", streams},
            {"top_regressions", regressions},
            {"only_baseline", onlyByName(a.onlyBaseline, true)},
            {"only_changed", onlyByName(a.onlyChanged, false)}};
}

ojson groupJson(const TaskGroupComparison& g)
{
    ojson e = changeJson(g.change);
    e = ojson{{"name", g.name},
              {"baseline", distributionJson(g.baseline)},
              {"changed", distributionJson(g.changed)},
              {"delta", e["delta"]},
              {"ci", e["ci"]},
              {"relative", e["relative"]},
              {"significant", e["significant"]},
              {"baseline_total_ms", g.baselineTotalMs},
              {"changed_total_ms", g.changedTotalMs}};
    return e;
}

ojson runJson(const RunSamples& run, size_t compared)
{
    size_t stable = 0, onTimeline = 0;
    for (const StepSample& s : run.steps) {
        stable += s.inStableWindow;
        onTimeline += s.has(Quantity::StepWallMs);
    }
    return {
        {"path", run.label.toStdString()}, {"platform", run.platform.empty() ? ojson(nullptr) : ojson(run.platform)},
        {"steps", run.steps.size()},       {"stable_window_steps", stable},
        {"analysed_steps", onTimeline},    {"compared_steps", compared}};
}

} // namespace

nlohmann::ordered_json comparisonJson(const RunComparison& c, const std::vector<PairKernels>& kernels, const Profile*,
                                      const Profile*, size_t topKernels)
{
    ojson j;
    j["schema"] = "dspark-compare/1";
    j["baseline"] = runJson(c.baselineRun, c.whole.baselineSteps);
    j["changed"] = runJson(c.changedRun, c.whole.changedSteps);
    ojson groups = ojson::object();
    for (size_t g = 0; g < kConfigGroupCount; ++g)
        groups[configGroupKey(ConfigGroup(g))] = fieldStateKey(c.config.groups[g]);
    ojson fields = ojson::array();
    for (const ConfigField& f : c.config.fields)
        fields.push_back({{"group", configGroupKey(f.group)},
                          {"key", f.key},
                          {"state", fieldStateKey(f.state)},
                          {"baseline", f.baseline ? ojson(*f.baseline) : ojson(nullptr)},
                          {"changed", f.changed ? ojson(*f.changed) : ojson(nullptr)}});
    const QString warning = c.config.warning();
    j["config"] = {{"warning", warning.isEmpty() ? ojson(nullptr) : ojson(warning.toStdString())},
                   {"differing_groups", c.config.differingGroups()},
                   {"groups", groups},
                   {"fields", fields}};
    j["whole"] = classJson(c.whole);
    ojson classes = ojson::array();
    for (const ClassComparison& cc : c.classes)
        classes.push_back(classJson(cc));
    j["classes"] = classes;
    ojson pairs = ojson::array();
    for (const MatchedPair& p : c.pairs)
        pairs.push_back(pairJson(p));
    j["pairs"] = pairs;
    ojson k = ojson::array();
    for (const PairKernels& pk : kernels)
        k.push_back(kernelsJson(pk, topKernels));
    j["kernels"] = k;
    ojson cats = ojson::array(), names = ojson::array();
    for (const TaskGroupComparison& g : c.deviceTasks.categories)
        cats.push_back(groupJson(g));
    for (const TaskGroupComparison& g : c.deviceTasks.names)
        names.push_back(groupJson(g));
    j["device_tasks"] = {{"categories", cats}, {"names", names}};
    ojson nc = ojson::array();
    for (const QString& s : c.notComparable)
        nc.push_back(s.toStdString());
    j["not_comparable"] = nc;
    return j;
}

namespace {

// The columns of primer §6's table, for the Markdown and text reports (CSV has every quantity).
constexpr Quantity kTableQuantities[] = {
    Quantity::StepWallMs,      Quantity::StepGpuMs,           Quantity::DraftGpuMs,     Quantity::TargetVerifyGpuMs,
    Quantity::UnattributedMs,  Quantity::CommExposedMs,       Quantity::PreReplayGapMs, Quantity::MeanCommitLen,
    Quantity::EffectiveTpotMs, Quantity::CommittedTokensPerS,
};

QString fmt(double v)
{
    if (std::isnan(v))
        return QStringLiteral("-");
    return QString::number(v, 'f', std::fabs(v) >= 100 ? 1 : 3);
}

std::string csvCell(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char ch : s)
        out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}

std::vector<Quantity> pairQuantities(const RunComparison& c, bool all)
{
    std::vector<Quantity> out;
    const auto known = [&](Quantity q) {
        return std::any_of(c.pairs.begin(), c.pairs.end(), [&](const MatchedPair& p) {
            return !std::isnan(p.baseline[size_t(q)]) || !std::isnan(p.changed[size_t(q)]);
        });
    };
    if (all) {
        for (size_t q = 0; q < kQuantityCount; ++q)
            if (known(Quantity(q)))
                out.push_back(Quantity(q));
    } else {
        for (Quantity q : kTableQuantities)
            if (known(q))
                out.push_back(q);
    }
    return out;
}

} // namespace

std::string pairTableCsv(const RunComparison& c)
{
    const std::vector<Quantity> qs = pairQuantities(c, true);
    std::string out = "class,baseline_dp_rank,baseline_forward_ct,changed_dp_rank,changed_forward_ct";
    for (Quantity q : qs) {
        const std::string k = quantityInfo(q).key;
        out += ",baseline_" + k + ",changed_" + k + ",delta_" + k;
    }
    out += "\n";
    const auto cell = [](double v) {
        return std::isnan(v) ? std::string() : QString::number(v, 'g', 10).toStdString();
    };
    for (const MatchedPair& p : c.pairs) {
        out += csvCell(p.cls.label()) + "," + std::to_string(p.baselineDpRank) + "," +
               std::to_string(p.baselineForwardCt) + "," + std::to_string(p.changedDpRank) + "," +
               std::to_string(p.changedForwardCt);
        for (Quantity q : qs)
            out += "," + cell(p.baseline[size_t(q)]) + "," + cell(p.changed[size_t(q)]) + "," + cell(p.delta(q));
        out += "\n";
    }
    return out;
}

std::string pairTableMarkdown(const RunComparison& c)
{
    const std::vector<Quantity> qs = pairQuantities(c, false);
    QString head = QStringLiteral("| %1 | %2 | %3 |")
                       .arg(QCoreApplication::translate("Compare", "class"),
                            QCoreApplication::translate("Compare", "baseline step"),
                            QCoreApplication::translate("Compare", "changed step"));
    QString rule = QStringLiteral("|---|---:|---:|");
    for (Quantity q : qs) {
        const QString unit = QString::fromUtf8(quantityInfo(q).unit);
        head += QStringLiteral(" %1 (%2): %3 | %4 | Δ |")
                    .arg(quantityLabel(q), unit, QCoreApplication::translate("Compare", "baseline"),
                         QCoreApplication::translate("Compare", "changed"));
        rule += QStringLiteral("---:|---:|---:|");
    }
    QString out = head + QLatin1Char('\n') + rule + QLatin1Char('\n');
    for (const MatchedPair& p : c.pairs) {
        QString row = QStringLiteral("| %1 | %2 | %3 |")
                          .arg(QString::fromStdString(p.cls.label()))
                          .arg(p.baselineForwardCt)
                          .arg(p.changedForwardCt);
        for (Quantity q : qs)
            row += QStringLiteral(" %1 | %2 | %3 |")
                       .arg(fmt(p.baseline[size_t(q)]), fmt(p.changed[size_t(q)]), fmt(p.delta(q)));
        out += row + QLatin1Char('\n');
    }
    return out.toStdString();
}

namespace {

// Terminal columns of `text`: CJK and fullwidth characters take two (the CLI's alignedColumns does the
// full East Asian width table; these reports only carry CJK from the translations).
int cells(const QString& text)
{
    int n = 0;
    for (const QChar ch : text) {
        const char16_t u = ch.unicode();
        n += (u >= 0x2E80 && u <= 0xA4CF) || (u >= 0xAC00 && u <= 0xD7A3) || (u >= 0xF900 && u <= 0xFAFF) ||
                     (u >= 0xFF00 && u <= 0xFF60) || (u >= 0xFFE0 && u <= 0xFFE6)
                 ? 2
                 : 1;
    }
    return n;
}

// Columns two spaces apart, the first left-aligned, the others right-aligned.
std::string columns(const std::vector<std::vector<QString>>& rows, const QString& indent)
{
    std::vector<int> width;
    for (const auto& r : rows)
        for (size_t i = 0; i < r.size(); ++i) {
            if (width.size() <= i)
                width.push_back(0);
            width[i] = std::max(width[i], cells(r[i]));
        }
    std::string out;
    for (const auto& r : rows) {
        QString line = indent;
        for (size_t i = 0; i < r.size(); ++i) {
            const QString pad(width[i] - cells(r[i]), QLatin1Char(' '));
            line += (i == 0 ? r[i] + pad : pad + r[i]) + QStringLiteral("  ");
        }
        while (line.endsWith(QLatin1Char(' ')))
            line.chop(1);
        out += line.toStdString() + "\n";
    }
    return out;
}

std::string classText(const ClassComparison& c)
{
    std::vector<std::vector<QString>> rows = {
        {QCoreApplication::translate("Compare", "quantity"), QCoreApplication::translate("Compare", "baseline median"),
         QCoreApplication::translate("Compare", "p10..p90"), QCoreApplication::translate("Compare", "n"),
         QCoreApplication::translate("Compare", "changed median"), QCoreApplication::translate("Compare", "p10..p90"),
         QCoreApplication::translate("Compare", "n"), QCoreApplication::translate("Compare", "Δ median"),
         QCoreApplication::translate("Compare", "95% interval"), QString()}};
    for (const QuantityComparison& q : c.quantities) {
        const QString unit = QString::fromUtf8(quantityInfo(q.quantity).unit);
        rows.push_back(
            {quantityLabel(q.quantity) + QStringLiteral(" (") + unit + QLatin1Char(')'), fmt(q.baseline.median),
             fmt(q.baseline.p10) + QStringLiteral("..") + fmt(q.baseline.p90), QString::number(q.baseline.n),
             fmt(q.changed.median), fmt(q.changed.p10) + QStringLiteral("..") + fmt(q.changed.p90),
             QString::number(q.changed.n), fmt(q.change.delta),
             std::isnan(q.change.low) ? QStringLiteral("-")
                                      : QStringLiteral("[%1, %2]").arg(fmt(q.change.low), fmt(q.change.high)),
             q.change.significant() ? QStringLiteral("*") : QString()});
    }
    return columns(rows, QStringLiteral("  "));
}

QString stateText(FieldState state)
{
    switch (state) {
    case FieldState::Same: return QCoreApplication::translate("Compare", "same");
    case FieldState::Different: return QCoreApplication::translate("Compare", "different");
    case FieldState::Unknown: break;
    }
    return QCoreApplication::translate("Compare", "unknown");
}

QString presenceText(ClassPresence p)
{
    switch (p) {
    case ClassPresence::Both: return QCoreApplication::translate("Compare", "in both runs");
    case ClassPresence::BaselineOnly: return QCoreApplication::translate("Compare", "in the baseline only");
    case ClassPresence::ChangedOnly: return QCoreApplication::translate("Compare", "in the changed run only");
    case ClassPresence::Neither: break;
    }
    return QCoreApplication::translate("Compare", "outside the stable windows of both runs");
}

} // namespace

std::string comparisonText(const RunComparison& c, const std::vector<PairKernels>& kernels, size_t topKernels)
{
    QString out;
    out += QCoreApplication::translate("Compare", "Baseline: %1 (%2 steps)")
               .arg(c.baselineRun.label)
               .arg(c.baselineRun.steps.size()) +
           QLatin1Char('\n');
    out += QCoreApplication::translate("Compare", "Changed:  %1 (%2 steps)")
               .arg(c.changedRun.label)
               .arg(c.changedRun.steps.size()) +
           QLatin1Char('\n');
    out += QLatin1Char('\n') + QCoreApplication::translate("Compare", "Configuration") + QLatin1Char('\n');
    if (const QString w = c.config.warning(); !w.isEmpty())
        out += QStringLiteral("  ") + w + QLatin1Char('\n');
    for (size_t g = 0; g < kConfigGroupCount; ++g)
        out += QStringLiteral("  %1: %2\n").arg(configGroupLabel(ConfigGroup(g)), stateText(c.config.groups[g]));
    for (const ConfigField* f : c.config.differing())
        out += QStringLiteral("  ≠ %1: %2 → %3\n")
                   .arg(QString::fromStdString(f->key), QString::fromStdString(*f->baseline),
                        QString::fromStdString(*f->changed));
    std::string text = out.toStdString();
    if (!c.notComparable.empty()) {
        text += "\n" + QCoreApplication::translate("Compare", "Not comparable").toStdString() + "\n";
        for (const QString& s : c.notComparable)
            text += "  " + s.toStdString() + "\n";
    }
    text += "\n" +
            QCoreApplication::translate(
                "Compare", "Whole stable window (%1 baseline steps, %2 changed; * = the interval excludes 0)")
                .arg(c.whole.baselineSteps)
                .arg(c.whole.changedSteps)
                .toStdString() +
            "\n" + classText(c.whole);
    for (const ClassComparison& cc : c.classes) {
        text += "\n" +
                QCoreApplication::translate("Compare", "Class %1: %2 (%3 baseline steps, %4 changed)")
                    .arg(QString::fromStdString(cc.cls.label()), presenceText(cc.presence))
                    .arg(cc.baselineSteps)
                    .arg(cc.changedSteps)
                    .toStdString() +
                "\n";
        if (cc.presence == ClassPresence::Both)
            text += classText(cc);
    }
    if (!c.pairs.empty())
        text +=
            "\n" +
            QCoreApplication::translate("Compare", "Matched step pairs (the median step of each class)").toStdString() +
            "\n" + pairTableMarkdown(c);
    for (const PairKernels& k : kernels) {
        if (k.pair == kWholeProfiles) {
            text +=
                "\n" +
                QCoreApplication::translate(
                    "Compare",
                    "Kernels of the whole profiles (no matched steps): %1 matched, %2 only in the baseline, %3 only "
                    "in the changed run")
                    .arg(k.alignment.regressions.size())
                    .arg(k.alignment.onlyBaseline.size())
                    .arg(k.alignment.onlyChanged.size())
                    .toStdString() +
                "\n";
        } else if (k.pair < c.pairs.size()) {
            const MatchedPair& p = c.pairs[k.pair];
            text += "\n" +
                    QCoreApplication::translate(
                        "Compare",
                        "Kernels of pair %1 (forward_ct %2 → %3): %4 matched, %5 only in the baseline, %6 only in the "
                        "changed run")
                        .arg(QString::fromStdString(p.cls.label()))
                        .arg(p.baselineForwardCt)
                        .arg(p.changedForwardCt)
                        .arg(k.alignment.regressions.size())
                        .arg(k.alignment.onlyBaseline.size())
                        .arg(k.alignment.onlyChanged.size())
                        .toStdString() +
                    "\n";
        } else {
            continue;
        }
        std::vector<std::vector<QString>> rows = {
            {QCoreApplication::translate("Compare", "kernel"), QCoreApplication::translate("Compare", "baseline µs"),
             QCoreApplication::translate("Compare", "changed µs"), QCoreApplication::translate("Compare", "Δ µs")}};
        for (size_t i = 0; i < k.alignment.regressions.size() && rows.size() <= topKernels; ++i) {
            const AlignedTask& t = k.alignment.regressions[i];
            if (t.deltaNs() <= 0)
                break;
            rows.push_back({QString::fromStdString(t.name), fmt(t.baselineNs / 1e3), fmt(t.changedNs / 1e3),
                            fmt(t.deltaNs() / 1e3)});
        }
        // Tasks only in one run, by name ("+ name ×n": only in the changed run).
        for (int side = 0; side < 2; ++side) {
            const bool changedSide = side == 0;
            for (const ojson& e :
                 onlyByName(changedSide ? k.alignment.onlyChanged : k.alignment.onlyBaseline, !changedSide)) {
                const double totalUs = double(e["total_ns"].get<TimeNs>()) / 1e3;
                const QString name = QString::fromStdString(e["name"].get<std::string>()) +
                                     QStringLiteral(" ×%1").arg(e["count"].get<size_t>());
                rows.push_back({(changedSide ? QStringLiteral("+ ") : QStringLiteral("− ")) + name,
                                changedSide ? QStringLiteral("-") : fmt(totalUs),
                                changedSide ? fmt(totalUs) : QStringLiteral("-"),
                                fmt(changedSide ? totalUs : -totalUs)});
            }
        }
        text += columns(rows, QStringLiteral("  "));
    }
    if (!c.deviceTasks.categories.empty()) {
        text += "\n" +
                QCoreApplication::translate(
                    "Compare", "Device tasks by category (durations; totals are sums, not time on the path)")
                    .toStdString() +
                "\n";
        std::vector<std::vector<QString>> rows = {{QCoreApplication::translate("Compare", "category"),
                                                   QCoreApplication::translate("Compare", "baseline median ms"),
                                                   QCoreApplication::translate("Compare", "changed median ms"),
                                                   QCoreApplication::translate("Compare", "Δ median"),
                                                   QCoreApplication::translate("Compare", "95% interval"),
                                                   QCoreApplication::translate("Compare", "baseline Σ ms"),
                                                   QCoreApplication::translate("Compare", "changed Σ ms")}};
        for (const TaskGroupComparison& g : c.deviceTasks.categories)
            rows.push_back(
                {QString::fromStdString(g.name), fmt(g.baseline.median), fmt(g.changed.median), fmt(g.change.delta),
                 std::isnan(g.change.low) ? QStringLiteral("-")
                                          : QStringLiteral("[%1, %2]").arg(fmt(g.change.low), fmt(g.change.high)),
                 fmt(g.baselineTotalMs), fmt(g.changedTotalMs)});
        text += columns(rows, QStringLiteral("  "));
    }
    return text;
}

} // namespace dspark
