#include "io/trace/JsonText.h"

#include <algorithm>
#include <cstring>

#include <limits>
#include <vector>

namespace dspark::trace {

static bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// One string starting at the opening quote; returns the offset after the closing quote.
static ScanResult scanString(const char* s, size_t pos, size_t n)
{
    size_t i = pos + 1;
    while (i < n) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '"')
            return {true, i + 1, ""};
        if (c == '\\') {
            if (i + 1 >= n)
                break;
            const char e = s[i + 1];
            if (e == 'u') {
                for (int k = 2; k < 6; ++k) {
                    if (i + k >= n)
                        return {false, n, "unexpected end of data"};
                    const char h = s[i + k];
                    if (!(isDigit(h) || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F')))
                        return {false, i, "invalid \\u escape in a string"};
                }
                i += 6;
                continue;
            }
            if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r' && e != 't')
                return {false, i, "invalid escape in a string"};
            i += 2;
            continue;
        }
        if (c < 0x20)
            return {false, i, "control character inside a string"};
        ++i;
    }
    return {false, n, "unexpected end of data inside a string"};
}

static ScanResult scanNumber(const char* s, size_t pos, size_t n)
{
    size_t i = pos;
    if (i < n && s[i] == '-')
        ++i;
    if (i >= n || !isDigit(s[i]))
        return {false, i, "invalid number"};
    if (s[i] == '0')
        ++i;
    else
        while (i < n && isDigit(s[i]))
            ++i;
    if (i < n && s[i] == '.') {
        ++i;
        if (i >= n || !isDigit(s[i]))
            return {false, i, "invalid number"};
        while (i < n && isDigit(s[i]))
            ++i;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            ++i;
        if (i >= n || !isDigit(s[i]))
            return {false, i, "invalid number"};
        while (i < n && isDigit(s[i]))
            ++i;
    }
    return {true, i, ""};
}

ScanResult scanJsonValue(const char* s, size_t pos, size_t n)
{
    enum State { Value, ArrayValueOrEnd, KeyOrEnd, Key, Colon, CommaOrEnd };
    std::vector<char> stack;
    State state = Value;
    constexpr size_t kMaxDepth = 4096;
    while (true) {
        pos = skipJsonSpace(s, pos, n);
        if (pos >= n)
            return {false, n, "unexpected end of data"};
        const char c = s[pos];
        bool valueDone = false;
        switch (state) {
        case ArrayValueOrEnd:
            if (c == ']') {
                stack.pop_back();
                ++pos;
                valueDone = true;
                break;
            }
            [[fallthrough]];
        case Value:
            if (c == '{' || c == '[') {
                if (stack.size() >= kMaxDepth)
                    return {false, pos, "nesting too deep"};
                stack.push_back(c);
                ++pos;
                state = c == '{' ? KeyOrEnd : ArrayValueOrEnd;
                continue;
            }
            if (c == '"') {
                const ScanResult r = scanString(s, pos, n);
                if (!r.ok)
                    return r;
                pos = r.end;
            } else if (c == '-' || isDigit(c)) {
                const ScanResult r = scanNumber(s, pos, n);
                if (!r.ok)
                    return r;
                pos = r.end;
            } else if (c == 't' || c == 'f' || c == 'n') {
                const std::string_view word = c == 't' ? "true" : c == 'f' ? "false" : "null";
                if (n - pos < word.size() || std::string_view(s + pos, word.size()) != word)
                    return {false, pos, "invalid literal"};
                pos += word.size();
            } else {
                return {false, pos, "unexpected character where a value should start"};
            }
            valueDone = true;
            break;
        case KeyOrEnd:
            if (c == '}') {
                stack.pop_back();
                ++pos;
                valueDone = true;
                break;
            }
            [[fallthrough]];
        case Key: {
            if (c != '"')
                return {false, pos, "expected a quoted key"};
            const ScanResult r = scanString(s, pos, n);
            if (!r.ok)
                return r;
            pos = r.end;
            state = Colon;
            continue;
        }
        case Colon:
            if (c != ':')
                return {false, pos, "expected ':' after a key"};
            ++pos;
            state = Value;
            continue;
        case CommaOrEnd: {
            const char open = stack.back();
            if (c == ',') {
                ++pos;
                state = open == '{' ? Key : Value;
                continue;
            }
            if (c == (open == '{' ? '}' : ']')) {
                stack.pop_back();
                ++pos;
                valueDone = true;
                break;
            }
            return {false, pos, open == '{' ? "expected ',' or '}'" : "expected ',' or ']'"};
        }
        }
        if (valueDone) {
            if (stack.empty())
                return {true, pos, ""};
            state = CommaOrEnd;
        }
    }
}

// Eight ASCII digits at once (SWAR, little-endian load): the check that all eight are digits, and
// their value (pairs, then quads, then the whole, by multiply-and-shift).
static bool eightDigits(const char* p, uint64_t& value)
{
    uint64_t v;
    std::memcpy(&v, p, 8);
    if ((((v & 0xF0F0F0F0F0F0F0F0ull) | (((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) !=
         0x3333333333333333ull))
        return false;
    v -= 0x3030303030303030ull;
    v = v * 10 + (v >> 8);
    v = (((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
         (((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >>
        32;
    value = v;
    return true;
}

static constexpr uint64_t kPow10[19] = {1,
                                        10,
                                        100,
                                        1000,
                                        10000,
                                        100000,
                                        1000000,
                                        10000000,
                                        100000000,
                                        1000000000,
                                        10000000000,
                                        100000000000,
                                        1000000000000,
                                        10000000000000,
                                        100000000000000,
                                        1000000000000000,
                                        10000000000000000,
                                        100000000000000000,
                                        1000000000000000000};

// The general path of parseScaledDecimal (exponents, long integer parts, any scale): collects the
// significant digits and a decimal exponent, then shifts exactly.
static bool parseScaledDecimalGeneral(std::string_view t, size_t intStart, bool negative, int scaleDigits, int64_t& out)
{
    size_t i = intStart;
    const size_t n = t.size();
    std::string digits;
    int exponent = 0; // value = digits × 10^exponent
    while (i < n && isDigit(t[i]))
        digits.push_back(t[i++]);
    if (i < n && t[i] == '.') {
        ++i;
        while (i < n && isDigit(t[i])) {
            digits.push_back(t[i++]);
            --exponent;
        }
    }
    if (digits.empty())
        return false;
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        bool expNegative = false;
        if (i < n && (t[i] == '+' || t[i] == '-'))
            expNegative = t[i++] == '-';
        int e = 0;
        if (i >= n || !isDigit(t[i]))
            return false;
        while (i < n && isDigit(t[i])) {
            if (e < 100000)
                e = e * 10 + (t[i] - '0');
            ++i;
        }
        exponent += expNegative ? -e : e;
    }
    if (i != n)
        return false;
    exponent += scaleDigits;
    size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos) {
        out = 0;
        return true;
    }
    digits.erase(0, first);
    uint64_t v = 0;
    bool roundUp = false;
    const auto accumulate = [&](char d) {
        if (v > (std::numeric_limits<uint64_t>::max() - 9) / 10)
            return false;
        v = v * 10 + static_cast<uint64_t>(d - '0');
        return true;
    };
    if (exponent >= 0) {
        if (digits.size() + static_cast<size_t>(exponent) > 19)
            return false;
        for (char d : digits)
            if (!accumulate(d))
                return false;
        for (int k = 0; k < exponent; ++k)
            if (!accumulate('0'))
                return false;
    } else {
        const long keep = static_cast<long>(digits.size()) + exponent;
        if (keep > 19)
            return false;
        for (long k = 0; k < keep; ++k)
            if (!accumulate(digits[static_cast<size_t>(k)]))
                return false;
        if (keep >= 0 && static_cast<size_t>(keep) < digits.size())
            roundUp = digits[static_cast<size_t>(keep)] >= '5';
    }
    if (roundUp)
        ++v;
    if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return false;
    out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    return true;
}

bool parseScaledDecimal(std::string_view t, int scaleDigits, int64_t& out)
{
    size_t i = 0;
    const size_t n = t.size();
    bool negative = false;
    if (i < n && (t[i] == '-' || t[i] == '+')) {
        negative = t[i] == '-';
        ++i;
    }
    // Fast path: plain digits, optional fraction, no exponent, at most 18 integer digits.
    uint64_t intPart = 0;
    size_t intDigits = 0;
    const size_t intStart = i;
    uint64_t eight = 0;
    while (i + 8 <= n && intDigits + 8 <= 18 && eightDigits(t.data() + i, eight)) {
        intPart = intPart * 100000000 + eight;
        intDigits += 8;
        i += 8;
    }
    while (i < n && isDigit(t[i]) && intDigits < 19) {
        intPart = intPart * 10 + static_cast<uint64_t>(t[i] - '0');
        ++intDigits;
        ++i;
    }
    if (intDigits == 0 && !(i < n && t[i] == '.'))
        return false;
    if (intDigits <= 18 && scaleDigits >= 0 && scaleDigits <= 18 && (i == n || t[i] == '.')) {
        const auto scale = static_cast<size_t>(scaleDigits);
        uint64_t frac = 0;
        bool roundUp = false;
        if (i < n) {
            const size_t fracStart = ++i;
            const size_t keepEnd = std::min(n, fracStart + scale);
            for (; i < keepEnd && isDigit(t[i]); ++i)
                frac = frac * 10 + static_cast<uint64_t>(t[i] - '0');
            frac *= kPow10[scale - (i - fracStart)];
            if (i == keepEnd && i < n) { // digits past the kept ones: the first rounds, the rest are checked
                roundUp = t[i] >= '5';
                while (i < n && isDigit(t[i]))
                    ++i;
            }
            if (i != n)
                return parseScaledDecimalGeneral(t, intStart, negative, scaleDigits, out);
            if (i == fracStart && intDigits == 0)
                return false;
        }
        // intPart * scale + frac (+ 1) must fit int64 (checked without a division: one per ts).
        uint64_t v = 0;
        if (__builtin_mul_overflow(intPart, kPow10[scale], &v) ||
            __builtin_add_overflow(v, frac + (roundUp ? 1 : 0), &v) ||
            v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
            return false;
        out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
        return true;
    }
    return parseScaledDecimalGeneral(t, intStart, negative, scaleDigits, out);
}

bool parseJsonInteger(std::string_view t, uint64_t& bits, bool& isUnsignedBig)
{
    isUnsignedBig = false;
    size_t i = 0;
    const bool negative = !t.empty() && t[0] == '-';
    if (negative)
        ++i;
    if (i >= t.size())
        return false;
    uint64_t v = 0;
    // Up to 19 digits cannot overflow uint64 (10^19 - 1 < 2^64); a 20th is checked.
    const size_t safeEnd = std::min(t.size(), i + 19);
    for (; i < safeEnd; ++i) {
        if (!isDigit(t[i]))
            return false;
        v = v * 10 + static_cast<uint64_t>(t[i] - '0');
    }
    for (; i < t.size(); ++i) {
        if (!isDigit(t[i]) || __builtin_mul_overflow(v, 10, &v) ||
            __builtin_add_overflow(v, static_cast<uint64_t>(t[i] - '0'), &v))
            return false;
    }
    if (negative) {
        if (v > uint64_t(1) << 63)
            return false;
        bits = ~v + 1;
        return true;
    }
    bits = v;
    isUnsignedBig = v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    return true;
}

static void appendUtf8(std::string& out, uint32_t cp)
{
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

static bool hex4(std::string_view raw, size_t pos, uint32_t& v)
{
    if (pos + 4 > raw.size())
        return false;
    v = 0;
    for (size_t k = 0; k < 4; ++k) {
        const char h = raw[pos + k];
        v <<= 4;
        if (isDigit(h))
            v |= static_cast<uint32_t>(h - '0');
        else if (h >= 'a' && h <= 'f')
            v |= static_cast<uint32_t>(h - 'a' + 10);
        else if (h >= 'A' && h <= 'F')
            v |= static_cast<uint32_t>(h - 'A' + 10);
        else
            return false;
    }
    return true;
}

bool unescapeJsonString(std::string_view raw, std::string& out)
{
    out.clear();
    out.reserve(raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
        const char c = raw[i];
        if (c != '\\') {
            out.push_back(c);
            continue;
        }
        if (++i >= raw.size())
            return false;
        switch (raw[i]) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
            uint32_t cp = 0;
            if (!hex4(raw, i + 1, cp))
                return false;
            i += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                uint32_t low = 0;
                if (i + 2 < raw.size() && raw[i + 1] == '\\' && raw[i + 2] == 'u' && hex4(raw, i + 3, low) &&
                    low >= 0xDC00 && low <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    i += 6;
                } else {
                    cp = 0xFFFD;
                }
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                cp = 0xFFFD;
            }
            appendUtf8(out, cp);
            break;
        }
        default: return false;
        }
    }
    return true;
}

size_t repairUtf8(char* text, size_t size, size_t& firstBad)
{
    size_t replaced = 0;
    firstBad = size;
    const auto* s = reinterpret_cast<const unsigned char*>(text);
    size_t i = 0;
    while (i < size) {
        const unsigned char c = s[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        size_t len = 0;
        uint32_t cp = 0;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            cp = c & 0x07;
        }
        bool valid = len > 0 && i + len <= size;
        for (size_t k = 1; valid && k < len; ++k) {
            if ((s[i + k] & 0xC0) != 0x80)
                valid = false;
            else
                cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (valid) {
            // Overlong forms, surrogates and values above U+10FFFF are invalid too.
            if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
                (cp >= 0xD800 && cp <= 0xDFFF))
                valid = false;
        }
        if (valid) {
            i += len;
            continue;
        }
        if (firstBad == size)
            firstBad = i;
        text[i] = '?';
        ++replaced;
        ++i;
    }
    return replaced;
}

} // namespace dspark::trace
