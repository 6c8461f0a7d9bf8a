#pragma once

#include <QString>

#include <cstdint>

namespace dspark::demo {

inline constexpr uint64_t DefaultDemoSeed = 7;

struct DemoCacheResult {
    QString path;  // the cached demo folder (complete), empty on error
    QString error; // one line, empty on success
    bool created = false;
};

// The embedded demo (`dspark-timeline --demo`): written once into
// QStandardPaths::CacheLocation/demo-<version>-<seed> and reused afterwards. The folder is written under
// a temporary name and renamed when complete, so a half-written demo is never opened.
DemoCacheResult ensureCachedDemo(const QString& version, uint64_t seed = DefaultDemoSeed);

} // namespace dspark::demo
