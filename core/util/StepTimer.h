#pragma once

// With DSPARK_TRACE_TIMING set, prints the wall and process CPU time of each step of a long job and
// the resident memory at its end to stderr ("  <scope> <step> <ms> cpu <ms> anon <MB> peak <MB>",
// peak: the process's highest resident memory so far, mapped file pages included): for bench
// work on the loaders (CPU over wall shows how much of a step ran on both cores; the peak of resident
// memory is what a load pays for in first touches), silent otherwise.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

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
        const double cpu = cpuMilliseconds();
        std::fprintf(stderr, "  %s %-12s %7.1f ms  cpu %7.1f ms  anon %6.1f MB  peak %6.1f MB\n", m_scope, step,
                     std::chrono::duration<double, std::milli>(now - m_last).count(), cpu - m_lastCpu,
                     statusMegabytes("RssAnon:"), statusMegabytes("VmHWM:"));
        m_last = now;
        m_lastCpu = cpu;
    }

    // CPU time of the whole process (every thread) so far.
    static double cpuMilliseconds()
    {
        timespec t{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
    }

    // Anonymous resident memory (what first touches paid for; mapped file pages are not counted).
    static double residentMegabytes() { return statusMegabytes("RssAnon:"); }
    // A "<field> <kB> kB" line of /proc/self/status, in MB (0 when absent).
    static double statusMegabytes(const char* field)
    {
        double kb = 0;
        if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
            char line[256];
            const size_t n = std::strlen(field);
            while (std::fgets(line, sizeof line, f))
                if (std::strncmp(line, field, n) == 0 && std::sscanf(line + n, "%lf", &kb) == 1)
                    break;
            std::fclose(f);
        }
        return kb / 1e3;
    }

private:
    const char* m_scope;
    bool m_on = std::getenv("DSPARK_TRACE_TIMING") != nullptr;
    std::chrono::steady_clock::time_point m_last = std::chrono::steady_clock::now();
    double m_lastCpu = m_on ? cpuMilliseconds() : 0;
};

} // namespace dspark
