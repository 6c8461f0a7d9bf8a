#pragma once

// With DSPARK_TRACE_TIMING set, prints the wall time of each step of a long job to stderr
// ("  <scope> <step> <ms>"): for bench work on the loaders, silent otherwise.
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace dspark {

class StepTimer {
public:
    explicit StepTimer(const char* scope) : m_scope(scope) {}
    // The time since the previous lap (or since construction), named after the step that just ended.
    void lap(const char* step)
    {
        if (!m_on)
            return;
        const auto now = std::chrono::steady_clock::now();
        std::fprintf(stderr, "  %s %-12s %7.1f ms\n", m_scope, step,
                     std::chrono::duration<double, std::milli>(now - m_last).count());
        m_last = now;
    }

private:
    const char* m_scope;
    bool m_on = std::getenv("DSPARK_TRACE_TIMING") != nullptr;
    std::chrono::steady_clock::time_point m_last = std::chrono::steady_clock::now();
};

} // namespace dspark
