#pragma once

// Scalar helpers over raw JSON text. The fast path parses with simdjson; these cover what it does
// not do for us: digit-exact decimal numbers (timestamps), unescaping a raw string, and a validating
// scanner that finds exact value boundaries and the byte offset of the first syntax error (used on
// error paths and for on-demand args, never per event on the hot path).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace dspark::trace {

inline bool isJsonSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

inline size_t skipJsonSpace(const char* text, size_t pos, size_t size)
{
    while (pos < size && isJsonSpace(text[pos]))
        ++pos;
    return pos;
}

// Outcome of scanning one JSON value.
struct ScanResult {
    bool ok = false;
    size_t end = 0;           // one past the value (ok) or the offset of the error (!ok)
    const char* message = ""; // English reason when !ok
};

// Validates one complete JSON value starting at `pos` (leading whitespace allowed) within
// [0, size) and finds where it ends. Never reads outside [pos, size).
ScanResult scanJsonValue(const char* text, size_t pos, size_t size);

// Parses a JSON decimal number (`-12.3456`, `1.7e3`, ...) given as text, scaled by 10^scaleDigits
// and rounded half away from zero, digit by digit (never through a double): with scaleDigits = 3,
// "1736408883700059.821" (µs) gives 1736408883700059821 (ns). False on malformed text or overflow.
bool parseScaledDecimal(std::string_view text, int scaleDigits, int64_t& out);

// Integer token: true for a plain JSON integer that fits int64 or uint64 (bits stored in `bits`,
// `isUnsignedBig` set for values above INT64_MAX).
bool parseJsonInteger(std::string_view text, uint64_t& bits, bool& isUnsignedBig);

// Unescapes the contents of a JSON string (the text between the quotes). False on a bad escape.
// Lone surrogates become U+FFFD.
bool unescapeJsonString(std::string_view raw, std::string& out);

// Replaces every byte that is not part of valid UTF-8 with '?', in place (offsets are kept).
// Returns how many bytes were replaced; `firstBad` gets the offset of the first.
size_t repairUtf8(char* text, size_t size, size_t& firstBad);

// Trims trailing JSON whitespace from a raw token.
inline std::string_view trimToken(std::string_view token)
{
    while (!token.empty() && isJsonSpace(token.back()))
        token.remove_suffix(1);
    return token;
}

} // namespace dspark::trace
