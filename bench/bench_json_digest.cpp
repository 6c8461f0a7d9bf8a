// Prints a digest of the model a path loads into (every lane column, links, strings, args of a
// sample of events, warnings, the error): two builds of the loader must print the same lines.
//   build-bench/bench/bench_json_digest PATH [PATH...]
// DSPARK_DIGEST_DB_WORKER=0 or 1: a database's detail tables never or always read by a worker.
// DSPARK_DIGEST_ARGS_TEXT=1: names and args compared by their text, args for every event, not by
// their ids and references (which depend on the order strings and args were stored in).
#include "io/ProfileLoader.h"
#include "io/db/MsprofDbReader.h"
#include "io/trace/TraceLoadTuning.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace dspark;

namespace {

struct Fnv {
    uint64_t h = 1469598103934665603ull;
    void bytes(const void* p, size_t n)
    {
        const auto* c = static_cast<const unsigned char*>(p);
        for (size_t i = 0; i < n; ++i)
            h = (h ^ c[i]) * 1099511628211ull;
    }
    template <typename T, typename A> void vec(const std::vector<T, A>& v)
    {
        const uint64_t n = v.size();
        bytes(&n, sizeof n);
        if (!v.empty())
            bytes(v.data(), v.size() * sizeof(T));
    }
    void str(const std::string& s) { vec(std::vector<char>(s.begin(), s.end())); }
    // A column read by index, hashed as the vector of T it once was.
    template <typename T, typename Column> void values(const Column& c)
    {
        std::vector<T> v(c.size());
        for (size_t i = 0; i < v.size(); ++i)
            v[i] = c[i];
        vec(v);
    }
};

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    // DSPARK_DIGEST_SMALL_CHUNKS=1: tiny chunks and many parts at any size, so small files take every
    // chunk-cut, part and two-thread path of the loader (its output must not change).
    if (qEnvironmentVariableIntValue("DSPARK_DIGEST_SMALL_CHUNKS") == 1) {
        trace::loadTuning().chunkBytes = 256;
        trace::loadTuning().splitThreshold = 0;
        trace::loadTuning().minPartBytes = 4096;
        trace::loadTuning().maxParts = 64;
    }
    if (qEnvironmentVariableIsSet("DSPARK_DIGEST_DB_WORKER"))
        db::MsprofDbReader::parallelRows() =
            qEnvironmentVariableIntValue("DSPARK_DIGEST_DB_WORKER") == 1 ? 0 : INT64_MAX;
    const bool argsText = qEnvironmentVariableIntValue("DSPARK_DIGEST_ARGS_TEXT") == 1;
    for (int a = 1; a < argc; ++a) {
        const LoadOutcome out = loadProfile(argv[a]);
        std::printf("%s\n  error: %s\n", argv[a], out.error.toStdString().c_str());
        if (!out.profile)
            continue;
        const Profile& p = *out.profile;
        for (const QString& w : p.warnings)
            std::printf("  warning: %s\n", w.toStdString().c_str());
        Fnv strings;
        for (uint32_t i = 0; i < p.strings.size(); ++i)
            strings.str(std::string(p.strings.view(i)));
        if (!argsText)
            std::printf("  strings %u %016llx\n", p.strings.size(), (unsigned long long)strings.h);
        for (size_t i = 0; i < p.lanes.size(); ++i) {
            const Lane& l = p.lanes[i];
            Fnv f;
            f.str(l.info.process);
            f.str(l.info.name);
            f.bytes(&l.info.kind, 1);
            f.bytes(&l.info.rank, sizeof l.info.rank);
            f.bytes(&l.info.deviceId, sizeof l.info.deviceId);
            f.bytes(&l.info.streamId, sizeof l.info.streamId);
            f.bytes(&l.info.threadId, sizeof l.info.threadId);
            f.bytes(&l.info.sortIndex, sizeof l.info.sortIndex);
            f.vec(l.startNs);
            f.values<int64_t>(l.durationNs); // (hashed as the int64 column it once was)
            if (argsText)
                for (size_t e = 0; e < l.size(); ++e)
                    f.str(std::string(p.strings.view(l.nameId[e])));
            else
                f.vec(l.nameId);
            f.vec(l.kind);
            std::vector<uint16_t> depths(l.size()); // (the column is empty in flat lanes)
            for (size_t e = 0; e < l.size(); ++e)
                depths[e] = static_cast<uint16_t>(l.depthOf(e));
            f.vec(depths);
            f.values<int64_t>(l.corrId); // (hashed as the int64 column it once was)
            if (argsText) {
                std::vector<uint8_t> has(l.size());
                for (size_t e = 0; e < l.size(); ++e)
                    has[e] = l.argsRef[e] != 0;
                f.vec(has);
            } else {
                f.values<uint64_t>(l.argsRef); // (hashed as the uint64 column it once was)
            }
            f.vec(l.value);
            // The running maximum of ends per event (the model keeps it per block of events now).
            std::vector<dspark::TimeNs> maxEnd(l.size());
            for (size_t i = 0; i < l.size(); ++i)
                maxEnd[i] = std::max(i ? maxEnd[i - 1] : INT64_MIN, l.startNs[i] + l.durationNs[i]);
            f.vec(maxEnd);
            if (!l.empty() && l.lastNs() != maxEnd.back())
                std::printf("  lane %s: lastNs %lld, running max of ends %lld\n", l.info.name.c_str(),
                            static_cast<long long>(l.lastNs()), static_cast<long long>(maxEnd.back()));
            f.bytes(&l.maxDepth, sizeof l.maxDepth);
            for (const auto& d : l.byDepth)
                f.vec(d);
            Fnv args;
            for (size_t e = 0; e < l.size(); e += argsText ? 1 : 997)
                for (const EventArg& arg : p.args({uint32_t(i), uint32_t(e)})) {
                    args.str(arg.key);
                    args.str(arg.value);
                }
            std::printf("  lane %zu %s/%s n=%zu %016llx args %016llx\n", i, l.info.process.c_str(), l.info.name.c_str(),
                        l.size(), (unsigned long long)f.h, (unsigned long long)args.h);
        }
        Fnv links;
        for (const Link& l : p.links) {
            links.bytes(&l.from, sizeof l.from);
            links.bytes(&l.to, sizeof l.to);
            links.bytes(&l.kind, sizeof l.kind);
            if (argsText)
                links.str(std::string(p.strings.view(l.categoryId)));
            else
                links.bytes(&l.categoryId, sizeof l.categoryId);
        }
        for (size_t i = 0; i < p.links.size(); ++i)
            for (const Link* l : p.linksTo(p.links[i].to))
                if (l == &p.links[i])
                    links.bytes(&i, sizeof i);
        std::printf("  links %zu %016llx\n", p.links.size(), (unsigned long long)links.h);
    }
    return 0;
}
