#pragma once

#include <QString>

#include <algorithm>
#include <atomic>
#include <functional>

namespace dspark {

// Progress and cancellation for work off the UI thread. A loader reports fractions of its own
// scope (0..1); scope() maps a sub-task onto part of the parent's range. Cheap to copy.
class LoadProgress {
public:
    using Callback = std::function<void(double fraction, const QString& phase)>;

    LoadProgress() = default;
    LoadProgress(Callback callback, const std::atomic<bool>* cancelFlag)
        : m_callback(std::move(callback)), m_cancel(cancelFlag)
    {
    }

    void update(double fraction, const QString& phase = {}) const
    {
        if (m_callback)
            m_callback(m_from + (m_to - m_from) * std::clamp(fraction, 0.0, 1.0), phase);
    }
    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }
    LoadProgress scope(double from, double to) const
    {
        LoadProgress p = *this;
        p.m_from = m_from + (m_to - m_from) * from;
        p.m_to = m_from + (m_to - m_from) * to;
        return p;
    }

private:
    Callback m_callback;
    const std::atomic<bool>* m_cancel = nullptr;
    double m_from = 0.0;
    double m_to = 1.0;
};

} // namespace dspark
