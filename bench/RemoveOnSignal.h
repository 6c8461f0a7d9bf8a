#pragma once

// A bench killed mid-run (Ctrl-C, kill, a closed terminal) removes its temporary folder: construct a
// RemoveOnSignal first in main, before any thread starts. SIGINT, SIGTERM and SIGHUP are then blocked in
// every thread, and a thread of their own waits for them, removes the folder given to remove() and
// exits with 128 + the signal (the removal is not async-signal-safe: it never runs in a handler).
#include <pthread.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>

namespace dspark::bench {

class RemoveOnSignal {
public:
    RemoveOnSignal()
    {
        sigset_t set = signals();
        pthread_sigmask(SIG_BLOCK, &set, nullptr);
        std::thread([this, set] {
            int sig = 0;
            if (sigwait(&set, &sig) != 0)
                return;
            std::string path;
            {
                const std::lock_guard lock(m_mutex);
                path = m_path;
            }
            if (!path.empty()) {
                // The bench's threads may still be writing into it: a few tries.
                std::error_code ec;
                for (int i = 0; i < 5 && std::filesystem::exists(path, ec); ++i) {
                    std::filesystem::remove_all(path, ec);
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                }
                std::fprintf(stderr, "\nsignal %d: %s %s\n", sig, path.c_str(),
                             std::filesystem::exists(path, ec) ? "could not be removed" : "removed");
            }
            std::_Exit(128 + sig);
        }).detach();
    }
    // The folder to remove on a signal ("" none).
    void remove(const std::string& path)
    {
        const std::lock_guard lock(m_mutex);
        m_path = path;
    }

private:
    static sigset_t signals()
    {
        sigset_t set;
        sigemptyset(&set);
        for (int s : {SIGINT, SIGTERM, SIGHUP})
            sigaddset(&set, s);
        return set;
    }

    std::mutex m_mutex;
    std::string m_path;
};

} // namespace dspark::bench
