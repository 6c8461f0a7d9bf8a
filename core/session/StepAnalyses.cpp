#include "session/StepAnalyses.h"

#include <QPointer>
#include <QThread>

#include <algorithm>

namespace dspark {

StepAnalyses::StepAnalyses(QObject* parent) : QObject(parent)
{
}

StepAnalyses::~StepAnalyses()
{
    stopWorker();
}

void StepAnalyses::stopWorker()
{
    if (!m_thread)
        return;
    m_cancel->store(true);
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
}

void StepAnalyses::setProfile(std::shared_ptr<const Profile> profile, AnalysisRules rules)
{
    stopWorker();
    ++m_generation;
    m_profile = std::move(profile);
    m_rules = std::move(rules);
    m_analyzer.reset();
    m_ready = false;
    m_windows = m_profile ? stepWindows(*m_profile, m_rules.rule(RuleId::StepSpan)) : std::vector<RecordWindow>{};
    std::sort(m_windows.begin(), m_windows.end(), [](const RecordWindow& a, const RecordWindow& b) {
        return std::tie(a.window.rankIndex, a.window.startNs) < std::tie(b.window.rankIndex, b.window.startNs);
    });
    m_index.build(m_windows);
    m_results.clear();
    m_results.resize(m_windows.size());
    if (m_windows.empty())
        m_ready = true;
    Q_EMIT profileChanged();
}

std::optional<size_t> StepAnalyses::stepOfRecordRow(size_t row) const
{
    return m_index.ofRecordRow(row);
}

std::optional<size_t> StepAnalyses::stepOf(int traceRank, int64_t forwardCt) const
{
    return m_index.of(traceRank, forwardCt);
}

std::vector<size_t> StepAnalyses::stepsOverlapping(int traceRank, TimeNs startNs, TimeNs endNs) const
{
    return m_index.overlapping(m_windows, traceRank, startNs, endNs);
}

const StepAnalysis* StepAnalyses::analysis(size_t i) const
{
    return i < m_results.size() ? m_results[i].get() : nullptr;
}

const StepAnalysis& StepAnalyses::ensure(size_t i)
{
    if (!m_results[i]) {
        if (!m_analyzer)
            m_analyzer = std::make_unique<StepAnalyzer>(*m_profile, m_rules);
        auto a = std::make_unique<StepAnalysis>(m_analyzer->analyze(m_windows[i].window));
        a->recordRow = static_cast<int64_t>(m_windows[i].row);
        m_results[i] = std::move(a);
    }
    return *m_results[i];
}

void StepAnalyses::computeNow()
{
    stopWorker();
    for (size_t i = 0; i < m_windows.size(); ++i)
        ensure(i);
    if (!m_ready) {
        m_ready = true;
        Q_EMIT analysesReady();
    }
}

void StepAnalyses::computeInBackground()
{
    if (m_ready || m_thread || !m_profile)
        return;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    // The worker gets its own analyzer (StepAnalyzer is not thread-safe) and only immutable inputs.
    auto profile = m_profile;
    auto rules = m_rules;
    auto windows = m_windows;
    auto cancel = m_cancel;
    const quint64 generation = m_generation;
    QPointer<StepAnalyses> self(this);
    m_thread = QThread::create([profile, rules, windows, cancel, generation, self]() {
        auto results = std::make_shared<std::vector<StepAnalysis>>();
        const StepAnalyzer analyzer(*profile, rules);
        results->reserve(windows.size());
        for (const RecordWindow& w : windows) {
            if (cancel->load())
                return;
            results->push_back(analyzer.analyze(w.window));
            results->back().recordRow = static_cast<int64_t>(w.row);
        }
        if (cancel->load() || !self)
            return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, results]() {
                if (self)
                    self->deliver(generation, results);
            },
            Qt::QueuedConnection);
    });
    m_thread->start(QThread::LowPriority);
}

void StepAnalyses::deliver(quint64 generation, std::shared_ptr<std::vector<StepAnalysis>> results)
{
    if (generation != m_generation || results->size() != m_windows.size())
        return;
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
    }
    for (size_t i = 0; i < results->size(); ++i)
        if (!m_results[i])
            m_results[i] = std::make_unique<StepAnalysis>(std::move((*results)[i]));
    m_ready = true;
    Q_EMIT analysesReady();
}

} // namespace dspark
