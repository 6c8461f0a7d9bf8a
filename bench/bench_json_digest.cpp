// Prints a digest of the model a path loads into (every lane column, links, strings, args of a
// sample of events, warnings, the error): two builds of the loader must print the same lines.
//   build-bench/bench/bench_json_digest PATH [PATH...]
// DSPARK_DIGEST_DB_WORKER=0 or 1: a database's detail tables never or always read by a worker.
// DSPARK_DIGEST_ARGS_TEXT=1: names and args compared by their text, args for every event, not by
// their ids and references (which depend on the order strings and args were stored in).
#include "io/ProfileLoader.h"
#include "model/ModelDigest.h"
#include "util/Memory.h"

#include <QCoreApplication>

#include <cstdio>

using namespace dspark;

int main(int argc, char** argv)
{
    keepFreedMemoryForReuse();
    QCoreApplication app(argc, argv);
    LoadOptions options;
    // DSPARK_DIGEST_SMALL_CHUNKS=1: tiny chunks and many parts at any size, so small files take every
    // chunk-cut, part and two-thread path of the loader (its output must not change).
    if (qEnvironmentVariableIntValue("DSPARK_DIGEST_SMALL_CHUNKS") == 1) {
        options.trace.chunkBytes = 256;
        options.trace.splitThreshold = 0;
        options.trace.minPartBytes = 4096;
        options.trace.maxParts = 64;
    }
    if (qEnvironmentVariableIsSet("DSPARK_DIGEST_DB_WORKER"))
        options.dbParallelRows = qEnvironmentVariableIntValue("DSPARK_DIGEST_DB_WORKER") == 1 ? 0 : INT64_MAX;
    const bool argsText = qEnvironmentVariableIntValue("DSPARK_DIGEST_ARGS_TEXT") == 1;
    for (int a = 1; a < argc; ++a) {
        const LoadOutcome out = loadProfile(argv[a], {}, options);
        std::printf("%s\n  error: %s\n", argv[a], out.error.toStdString().c_str());
        if (!out.profile)
            continue;
        std::fputs(modelDigest(*out.profile, argsText).c_str(), stdout);
    }
    return 0;
}
