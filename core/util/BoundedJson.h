#pragma once

// nlohmann::json DOMs of bounded depth: dump(), comparison and copies recurse once per level, so a
// value nested a million deep (a few MB of "[") would overflow the stack. Every DOM built from input
// goes through parseBoundedJson.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace dspark {

// Deeper than this is an error: real profiler JSON nests fewer than 20 levels.
constexpr size_t kMaxJsonDepth = 512;

// The DOM builder, refusing to open a container past kMaxJsonDepth (which ends the parse).
template <typename Json> class BoundedJsonDom : public nlohmann::detail::json_sax_dom_parser<Json> {
    using Base = nlohmann::detail::json_sax_dom_parser<Json>;

public:
    explicit BoundedJsonDom(Json& root) : Base(root, /*allow_exceptions=*/false) {}
    bool start_object(std::size_t n) { return ++m_depth <= kMaxJsonDepth && Base::start_object(n); }
    bool start_array(std::size_t n) { return ++m_depth <= kMaxJsonDepth && Base::start_array(n); }
    bool end_object()
    {
        --m_depth;
        return Base::end_object();
    }
    bool end_array()
    {
        --m_depth;
        return Base::end_array();
    }
    bool tooDeep() const { return m_depth > kMaxJsonDepth; }

private:
    std::size_t m_depth = 0;
};

enum class JsonParse { Ok, Invalid, TooDeep };

// Parses `input` (anything nlohmann::json::sax_parse takes) into `out`; on failure `out` is discarded.
template <typename Json, typename Input> JsonParse parseBoundedJson(Input&& input, Json& out)
{
    out = Json();
    BoundedJsonDom<Json> dom(out);
    const bool ok = Json::sax_parse(std::forward<Input>(input), &dom);
    if (ok)
        return JsonParse::Ok;
    out = Json(Json::value_t::discarded);
    return dom.tooDeep() ? JsonParse::TooDeep : JsonParse::Invalid;
}

template <typename Json, typename Iterator> JsonParse parseBoundedJson(Iterator first, Iterator last, Json& out)
{
    out = Json();
    BoundedJsonDom<Json> dom(out);
    const bool ok = Json::sax_parse(first, last, &dom);
    if (ok)
        return JsonParse::Ok;
    out = Json(Json::value_t::discarded);
    return dom.tooDeep() ? JsonParse::TooDeep : JsonParse::Invalid;
}

// JSON text for output: bytes that are not UTF-8 (a database string, a file name) become U+FFFD instead
// of nlohmann's type_error 316.
template <typename Json> std::string dumpJson(const Json& j, int indent = -1)
{
    return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

} // namespace dspark
