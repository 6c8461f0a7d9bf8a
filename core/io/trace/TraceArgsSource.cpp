#include "io/trace/TraceArgsSource.h"

#include "io/trace/JsonText.h"

#include <simdjson.h>

#include <cstring>

namespace dspark::trace {

namespace od = simdjson::ondemand;

std::vector<EventArg> TraceArgsSource::args(uint64_t localRef) const
{
    std::vector<EventArg> out;
    if (localRef == 0 || localRef - 1 >= m_size)
        return out;
    const size_t begin = static_cast<size_t>(localRef - 1);
    const ScanResult extent = scanJsonValue(m_data, begin, m_size);
    if (!extent.ok)
        return out;
    // A private padded copy of this one event (the mapping stays read-only and unpadded).
    std::string copy(m_data + begin, extent.end - begin);
    size_t firstBad = 0;
    repairUtf8(copy.data(), copy.size(), firstBad);
    const size_t length = copy.size();
    copy.append(simdjson::SIMDJSON_PADDING, '\0');

    od::parser parser;
    od::document doc;
    if (parser.iterate(copy.data(), length, copy.size()).get(doc))
        return out;
    od::object event;
    if (doc.get_object().get(event))
        return out;
    std::string text;
    for (auto fieldResult : event) {
        od::field field;
        if (std::move(fieldResult).get(field))
            return out;
        std::string_view key;
        if (field.unescaped_key().get(key) || key != "args")
            continue;
        od::object args;
        if (field.value().get_object().get(args)) {
            out.clear(); // "args" repeated as a non-object: the last one wins
            continue;
        }
        out.clear(); // a repeated "args" key: the last object wins
        for (auto argResult : args) {
            od::field arg;
            if (std::move(argResult).get(arg))
                return out;
            std::string_view argKey;
            if (arg.unescaped_key().get(argKey))
                return out;
            EventArg item{std::string(argKey), {}};
            od::value& value = arg.value();
            od::json_type type;
            if (value.type().get(type))
                return out;
            if (type == od::json_type::string) {
                const std::string_view raw = trimToken(value.raw_json_token());
                if (raw.size() >= 2 && unescapeJsonString(raw.substr(1, raw.size() - 2), text))
                    item.value = text;
                else
                    item.value = std::string(raw);
            } else if (type == od::json_type::object || type == od::json_type::array) {
                std::string_view raw;
                if (type == od::json_type::object) {
                    od::object inner;
                    if (value.get_object().get(inner) || inner.raw_json().get(raw))
                        return out;
                } else {
                    od::array inner;
                    if (value.get_array().get(inner) || inner.raw_json().get(raw))
                        return out;
                }
                item.value = std::string(trimToken(raw));
            } else {
                item.value = std::string(trimToken(value.raw_json_token()));
            }
            bool replaced = false;
            for (EventArg& existing : out)
                if (existing.key == item.key) {
                    existing.value = std::move(item.value);
                    replaced = true;
                    break;
                }
            if (!replaced)
                out.push_back(std::move(item));
        }
    }
    return out;
}

} // namespace dspark::trace
