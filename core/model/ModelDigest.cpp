#include "model/ModelDigest.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace dspark {

namespace {

struct Fnv { // FNV-1a, 64 bits
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

template <typename... Args> void appendf(std::string& out, const char* format, Args... args)
{
    char line[1024];
    const int n = std::snprintf(line, sizeof line, format, args...);
    if (n >= int(sizeof line)) {
        std::vector<char> big(size_t(n) + 1);
        std::snprintf(big.data(), big.size(), format, args...);
        out.append(big.data(), size_t(n));
    } else if (n > 0) {
        out.append(line, size_t(n));
    }
}

uint64_t laneHash(const Profile& p, const Lane& l, bool argsText, std::string& out)
{
    Fnv f;
    f.str(l.info.process);
    f.str(l.info.name);
    f.bytes(&l.info.kind, 1);
    f.bytes(&l.info.rankIndex, sizeof l.info.rankIndex);
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
    std::vector<TimeNs> maxEnd(l.size());
    for (size_t i = 0; i < l.size(); ++i)
        maxEnd[i] = std::max(i ? maxEnd[i - 1] : INT64_MIN, l.startNs[i] + l.durationNs[i]);
    f.vec(maxEnd);
    if (!l.empty() && l.lastNs() != maxEnd.back())
        appendf(out, "  lane %s: lastNs %lld, running max of ends %lld\n", l.info.name.c_str(),
                static_cast<long long>(l.lastNs()), static_cast<long long>(maxEnd.back()));
    f.bytes(&l.maxDepth, sizeof l.maxDepth);
    for (const auto& d : l.byDepth)
        f.vec(d);
    return f.h;
}

} // namespace

std::string modelDigest(const Profile& p, bool argsText)
{
    std::string out;
    for (const QString& w : p.warnings)
        appendf(out, "  warning: %s\n", w.toStdString().c_str());
    Fnv strings;
    for (uint32_t i = 0; i < p.strings.size(); ++i)
        strings.str(std::string(p.strings.view(i)));
    if (!argsText)
        appendf(out, "  strings %u %016llx\n", p.strings.size(), (unsigned long long)strings.h);
    for (size_t i = 0; i < p.lanes.size(); ++i) {
        const Lane& l = p.lanes[i];
        const uint64_t lane = laneHash(p, l, argsText, out);
        Fnv args;
        for (size_t e = 0; e < l.size(); e += argsText ? 1 : 997)
            for (const EventArg& arg : p.args({uint32_t(i), uint32_t(e)})) {
                args.str(arg.key);
                args.str(arg.value);
            }
        appendf(out, "  lane %zu %s/%s n=%zu %016llx args %016llx\n", i, l.info.process.c_str(), l.info.name.c_str(),
                l.size(), (unsigned long long)lane, (unsigned long long)args.h);
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
    appendf(out, "  links %zu %016llx\n", p.links.size(), (unsigned long long)links.h);
    return out;
}

} // namespace dspark
