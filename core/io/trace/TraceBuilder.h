#pragma once

#include "io/trace/TraceIngest.h"
#include "io/trace/TraceLoadTuning.h"
#include "model/Profile.h"

#include <QStringList>

#include <string>
#include <vector>

namespace dspark::trace {

// Turns the records of the parsing threads (in file order) into lanes, events and links of a
// Profile: merges the threads' string and track tables, resolves tracks through their metadata,
// pairs B/E slices, matches flows, links HCCL ops to their sub-tasks, on Settings::threads; the records
// are freed as they are consumed.
class TraceBuilder {
public:
    struct Settings {
        int rankNumber = 0;          // the rank number of this file
        ArgsSourceId argsSource = 0; // Profile::addArgsSource id of the file's TraceArgsSource
        std::string fileLabel;       // names the file in warnings
        int threads = 1;             // LoadOptions::threads
        LoadTuning tuning;           // LoadOptions::trace
        bool separateRuns = false;   // a Kineto trace: by its host processes, another run of the same rank
                                     // number gets a rank of its own (Profile::ensureRunRank)
    };
    struct Summary {
        uint64_t slices = 0;
        uint64_t counterSamples = 0;
        uint64_t flowsResolved = 0;
        uint64_t flowsWithoutStart = 0;
        uint64_t flowPointsUnbound = 0;
        uint64_t commLinks = 0;
        uint64_t unmatchedEnds = 0;
        uint64_t unclosedBegins = 0;
        QStringList warnings; // one line each, naming the file
    };

    TraceBuilder(Profile& profile, Settings settings) : m_profile(profile), m_settings(std::move(settings)) {}
    Summary build(const std::vector<TraceIngest*>& parts);

private:
    Profile& m_profile;
    Settings m_settings;
};

} // namespace dspark::trace
