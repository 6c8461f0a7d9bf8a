#include "summary/SummaryPanels.h"

#include "timeline/TimeFormat.h"

#include <QApplication>
#include <QEvent>
#include <QHeaderView>
#include <QPointer>
#include <QTableView>
#include <QThread>

#include <algorithm>

namespace dspark::ui {

namespace {

using Cell = SummaryTableModel::Cell;

Cell duration(TimeNs ns)
{
    return {formatDuration(ns), QVariant::fromValue<qlonglong>(ns)};
}
Cell meanDuration(double ns)
{
    return {formatDuration(TimeNs(ns + 0.5)), ns};
}
Cell count(uint64_t n)
{
    return {QString::number(n), QVariant::fromValue<qulonglong>(n)};
}
Cell share(double s)
{
    return {QString::number(s * 100.0, 'f', 1) + QStringLiteral(" %"), s};
}
Cell number(double v)
{
    return {QString::number(v, 'g', 6), v};
}
QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// The translated label of a stage key ("verify" → "Target Verify").
QString stageLabelOfKey(const std::string& key)
{
    for (int s = 0; s < kStageCount; ++s)
        if (key == stageKey(static_cast<Stage>(s)))
            return stageLabel(static_cast<Stage>(s));
    return QString::fromStdString(key);
}

// The instances of a name on the lanes of some groups in [from, to), longest first.
std::vector<EventRef> instancesOf(const Profile& p, const RangeQuery& q, uint32_t nameId,
                                  std::initializer_list<StatsGroup> groups)
{
    std::vector<EventRef> out;
    for (StatsGroup g : groups) {
        std::vector<EventRef> part = rangeInstances(p, q, nameId, g);
        out.insert(out.end(), part.begin(), part.end());
    }
    std::stable_sort(out.begin(), out.end(), [&](EventRef a, EventRef b) {
        return p.lanes[a.lane].durationNs[a.index] > p.lanes[b.lane].durationNs[b.index];
    });
    return out;
}

} // namespace

RangeStatsPanel::RangeStatsPanel(QWidget* parent) : SummaryPanel(parent)
{
    setObjectName(QStringLiteral("rangeStatsPanel"));
    connect(this, &SummaryPanel::rowActivated, this, &RangeStatsPanel::activate);
    fill();
    table()->setColumnWidth(0, 240);
}

void RangeStatsPanel::setRange(std::shared_ptr<const Profile> profile, TimeNs fromNs, TimeNs toNs, const QString& what,
                               std::vector<uint32_t> lanes)
{
    m_profile = std::move(profile);
    m_query = {fromNs, toNs, std::move(lanes), -1};
    m_what = what;
    m_stats = {};
    if (!m_profile) {
        clear();
        return;
    }
    runInBackground<RangeStats>([p = m_profile, q = m_query]() { return computeRangeStats(*p, q); },
                                [this](RangeStats&& stats) {
                                    m_stats = std::move(stats);
                                    fill();
                                    table()->sortByColumn(3, Qt::DescendingOrder); // total, longest first
                                });
    fill();
}

void RangeStatsPanel::clear()
{
    dropPending();
    m_profile.reset();
    m_stats = {};
    m_what.clear();
    fill();
}

void RangeStatsPanel::changeEvent(QEvent* event)
{
    SummaryPanel::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        fill();
}

void RangeStatsPanel::fill()
{
    model()->setHeaders({tr("Name"), tr("Kind"), tr("Count"), tr("Total"), tr("Self"), tr("Mean"), tr("Min"), tr("Max"),
                         tr("Share of range")},
                        {false, false, true, true, true, true, true, true, true});
    if (!m_profile) {
        setTitle(tr("Range statistics: Ctrl+drag on the timeline to select a range"));
        setNote({});
        model()->setRows({}, {});
        return;
    }
    if (busy()) {
        setTitle(tr("Range statistics of %1: computing…").arg(m_what));
        setNote({});
        model()->setRows({}, {});
        return;
    }
    setTitle(tr("Range statistics of %1 (%2)").arg(m_what, formatDuration(m_stats.rangeNs())));
    std::vector<std::vector<Cell>> rows;
    std::vector<int> keys;
    for (size_t i = 0; i < m_stats.rows.size(); ++i) {
        const RangeNameStats& r = m_stats.rows[i];
        rows.push_back({{text(m_profile->strings.view(r.nameId)), {}},
                        {statsGroupLabel(r.group), {}},
                        count(r.count),
                        duration(r.totalNs),
                        duration(r.selfNs),
                        meanDuration(r.meanNs()),
                        duration(r.minNs),
                        duration(r.maxNs),
                        share(m_stats.shareOf(r))});
        keys.push_back(int(i));
    }
    for (size_t i = 0; i < m_stats.counters.size(); ++i) {
        const RangeCounterStats& c = m_stats.counters[i];
        const Lane& lane = m_profile->lanes[c.lane];
        rows.push_back({{text(lane.info.name) + QStringLiteral(" / ") + text(m_profile->strings.view(c.nameId)), {}},
                        {tr("Counter"), {}},
                        count(c.samples),
                        {tr("∫ %1 ·s").arg(c.integral, 0, 'g', 6), c.integral},
                        {},
                        number(c.mean),
                        number(c.min),
                        number(c.max),
                        {}});
        keys.push_back(-1 - int(i));
    }
    model()->setRows(std::move(rows), std::move(keys));
    setNote(tr("Times are the parts inside the range; self = total minus nested children. Double-click a "
               "name for its instances, longest first."));
}

void RangeStatsPanel::activate(int key)
{
    if (!m_profile || key < 0 || size_t(key) >= m_stats.rows.size())
        return;
    const RangeNameStats& r = m_stats.rows[size_t(key)];
    const QString name = text(m_profile->strings.view(r.nameId));
    Q_EMIT instancesRequested(tr("%1 in %2, longest first").arg(name, m_what),
                              instancesOf(*m_profile, m_query, r.nameId, {r.group}));
}

KernelSummaryPanel::KernelSummaryPanel(QWidget* parent) : SummaryPanel(parent)
{
    setObjectName(QStringLiteral("kernelSummaryPanel"));
    auto ask = [this](int key) {
        if (!m_profile || key < 0 || size_t(key) >= m_summary.kernels.size() ||
            m_summary.source != KernelSource::Timeline)
            return;
        const KernelRow& k = m_summary.kernels[size_t(key)];
        const RangeQuery q{m_query.fromNs, m_query.toNs, {}, m_query.rankIndex};
        Q_EMIT instancesRequested(tr("%1 in %2, longest first").arg(QString::fromStdString(k.name), m_what),
                                  instancesOf(*m_profile, q, k.nameId, {StatsGroup::Device, StatsGroup::Comm}));
    };
    connect(this, &SummaryPanel::rowActivated, this, ask);
    connect(this, &SummaryPanel::rowClicked, this, ask);
    fill();
    table()->setColumnWidth(0, 240);
}

void KernelSummaryPanel::setScope(std::shared_ptr<const Profile> profile, const KernelQuery& query, const QString& what)
{
    m_profile = std::move(profile);
    m_query = query;
    m_what = what;
    m_summary = {};
    m_query.bands = nullptr; // not kept: the step's bands belong to the caller
    if (!m_profile) {
        clear();
        return;
    }
    // The worker reads its own copies: the profile (shared), the rules and the step's bands.
    auto rules = m_rules ? m_rules
                         : std::shared_ptr<const AnalysisRules>(&AnalysisRules::builtin(), [](const AnalysisRules*) {});
    auto bands = query.bands ? std::make_shared<const StepBands>(*query.bands) : nullptr;
    runInBackground<KernelSummary>(
        [p = m_profile, q = m_query, rules, bands]() {
            KernelQuery withBands = q;
            withBands.bands = bands.get();
            return summarizeKernels(*p, withBands, *rules);
        },
        [this](KernelSummary&& summary) {
            m_summary = std::move(summary);
            fill();
            table()->sortByColumn(3, Qt::DescendingOrder);
        });
    fill();
}

void KernelSummaryPanel::clear()
{
    dropPending();
    m_profile.reset();
    m_summary = {};
    fill();
}

void KernelSummaryPanel::changeEvent(QEvent* event)
{
    SummaryPanel::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        fill();
}

void KernelSummaryPanel::fill()
{
    model()->setHeaders({tr("Kernel"), tr("Core"), tr("Count"), tr("Total"), tr("Mean"), tr("p50"), tr("p90"),
                         tr("Max"), tr("Share of device time")},
                        {false, false, true, true, true, true, true, true, true});
    if (!m_profile || busy()) {
        setTitle(m_profile ? tr("Kernel summary of %1: computing…").arg(m_what) : tr("Kernel summary"));
        setNote({});
        model()->setRows({}, {});
        return;
    }
    setTitle(tr("Kernel summary of %1: %2 kernels, %3 of device time")
                 .arg(m_what)
                 .arg(m_summary.kernels.size())
                 .arg(formatDuration(m_summary.deviceNs)));
    std::vector<std::vector<Cell>> rows;
    std::vector<int> keys;
    for (size_t i = 0; i < m_summary.kernels.size(); ++i) {
        const KernelRow& k = m_summary.kernels[i];
        const KernelFigures& f = k.figures;
        rows.push_back({{QString::fromStdString(k.name), {}},
                        {coreText(k.core), {}},
                        count(f.count),
                        duration(f.totalNs),
                        meanDuration(f.meanNs()),
                        duration(f.p50Ns),
                        duration(f.p90Ns),
                        duration(f.maxNs),
                        share(f.share)});
        keys.push_back(int(i));
    }
    model()->setRows(std::move(rows), std::move(keys));
    QStringList cores;
    for (const KernelGroupRow& g : m_summary.byCore)
        cores << tr("%1 %2").arg(coreText(g.key),
                                 QString::number(g.figures.share * 100.0, 'f', 1) + QStringLiteral(" %"));
    const QString source = m_summary.source == KernelSource::KernelDetailsCsv
                               ? tr("Source: %1 (the timeline has no device kernels).").arg(m_summary.sourcePath)
                               : tr("Source: the timeline's device tasks.");
    QString note = source + QLatin1Char(' ') + tr("By core: %1.").arg(cores.join(QStringLiteral(", ")));
    QStringList stages; // a DSpark step: which kernels make up each stage band
    for (const KernelGroupRow& g : m_summary.byStage)
        stages << tr("%1 %2").arg(stageLabelOfKey(g.key),
                                  QString::number(g.figures.share * 100.0, 'f', 1) + QStringLiteral(" %"));
    if (!stages.isEmpty())
        note += QLatin1Char(' ') + tr("By stage: %1.").arg(stages.join(QStringLiteral(", ")));
    setNote(note);
}

bool PlainStepsPanel::stepBy(int delta)
{
    QTableView* t = table();
    const int count = t->model()->rowCount();
    const int row = t->currentIndex().isValid() ? t->currentIndex().row() + delta : (delta > 0 ? 0 : count - 1);
    if (row < 0 || row >= count)
        return false;
    t->setCurrentIndex(t->model()->index(row, 0));
    t->scrollTo(t->currentIndex());
    Q_EMIT rowActivated(keyAtRow(row));
    return true;
}

PlainStepsPanel::PlainStepsPanel(QWidget* parent) : SummaryPanel(parent)
{
    setObjectName(QStringLiteral("plainStepsPanel"));
    connect(this, &SummaryPanel::rowActivated, this, [this](int key) {
        if (key < 0 || size_t(key) >= m_steps.steps.size())
            return;
        const PlainStep& s = m_steps.steps[size_t(key)];
        Q_EMIT stepRequested(s.window.rankIndex, s.window.startNs, s.deviceEndNs,
                             tr("step %1").arg(s.window.forwardCt));
    });
    fill();
}

void PlainStepsPanel::setProfile(std::shared_ptr<const Profile> profile, std::shared_ptr<const AnalysisRules> rules)
{
    m_profile = std::move(profile);
    m_steps = {};
    if (!m_profile) {
        dropPending();
        fill();
        return;
    }
    // The analysis reads the immutable profile on a thread of its own; only the latest request's
    // result is kept.
    runInBackground<PlainSteps>(
        [p = m_profile, rules]() { return analyzePlainSteps(*p, rules ? *rules : AnalysisRules::builtin()); },
        [this](PlainSteps&& steps) {
            m_steps = std::move(steps);
            fill();
            table()->sortByColumn(0, Qt::AscendingOrder); // in step order
            Q_EMIT analysed();
        });
    fill();
}

void PlainStepsPanel::changeEvent(QEvent* event)
{
    SummaryPanel::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        fill();
}

void PlainStepsPanel::fill()
{
    model()->setHeaders({tr("Step"), tr("Rank"), tr("Wall"), tr("Device busy"), tr("Computing"),
                         tr("Comm. not overlapped"), tr("Free"), tr("Path: compute / comm / host / idle"),
                         tr("Top kernel"), tr("Anomaly")},
                        {true, true, true, true, true, true, true, false, false, false});
    if (busy()) {
        setTitle(tr("Steps: analysing…"));
        setNote({});
        model()->setRows({}, {});
        return;
    }
    const size_t n = m_steps.steps.size();
    setTitle(n == 0   ? tr("Steps")
             : n == 1 ? tr("1 step without DSpark records")
                      : tr("%1 steps without DSpark records").arg(n));
    setNote(m_steps.steps.empty() ? QString() : tr("Steps from %1.").arg(stepSourceText(m_steps.source)));
    std::vector<std::vector<Cell>> rows;
    std::vector<int> keys;
    for (size_t i = 0; i < m_steps.steps.size(); ++i) {
        const PlainStep& s = m_steps.steps[i];
        QStringList path;
        for (TimeNs v : s.criticalPathNs)
            path << formatDuration(v);
        const int rankNumber = rankNumberOf(*m_profile, s.window.rankIndex);
        rows.push_back({{QString::number(s.window.forwardCt), QVariant::fromValue<qlonglong>(s.window.forwardCt)},
                        {rankColumnText(*m_profile, s.window.rankIndex), rankNumber},
                        duration(s.window.wallNs()),
                        duration(s.deviceBusyNs),
                        duration(s.computingNs),
                        duration(s.commNotOverlappedNs),
                        duration(s.freeNs),
                        {path.join(QStringLiteral(" / ")), {}},
                        {s.topKernels.empty() ? QString() : QString::fromStdString(s.topKernels.front().name), {}},
                        {s.anomaly, {}}});
        keys.push_back(int(i));
    }
    model()->setRows(std::move(rows), std::move(keys));
}

} // namespace dspark::ui
