#include "core/text.h"

#include <charconv>
#include <cstdint>
#include <cstdio>

namespace quince {

std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
    if (i >= s.size()) return 0;
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b0 = byte(i);
    if (b0 < 0x80) return 1;
    // Lead byte: number of bytes and the allowed range of the second byte (RFC 3629, table 3-7 of
    // the Unicode standard), which excludes overlong forms, surrogates and values above U+10FFFF.
    std::size_t n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) n = 2;
    else if (b0 >= 0xE0 && b0 <= 0xEF) {
        n = 3;
        if (b0 == 0xE0) lo = 0xA0;
        if (b0 == 0xED) hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        n = 4;
        if (b0 == 0xF0) lo = 0x90;
        if (b0 == 0xF4) hi = 0x8F;
    } else
        return 0;
    if (i + n > s.size()) return 0;
    if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return n;
}

bool is_valid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = utf8_sequence_length(s, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

namespace {

std::string hex_byte(unsigned char b) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02X", b);
    return buf;
}

std::uint32_t code_point(std::string_view s, std::size_t i, std::size_t n) {
    const auto byte = [&](std::size_t k) { return std::uint32_t(static_cast<unsigned char>(s[i + k])); };
    if (n == 1) return byte(0);
    std::uint32_t cp = byte(0) & (0xFF >> (n + 1));
    for (std::size_t k = 1; k < n; ++k) cp = cp << 6 | (byte(k) & 0x3F);
    return cp;
}

}  // namespace

std::string printable(std::string_view s, std::size_t max_chars) {
    std::string out;
    std::size_t chars = 0, i = 0;
    while (i < s.size() && chars < max_chars) {
        const std::size_t n = utf8_sequence_length(s, i);
        const unsigned char b = static_cast<unsigned char>(s[i]);
        if (n == 0 || (n == 1 && (b < 0x20 || b == 0x7F))) {
            out += hex_byte(b);
            ++i;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
        ++chars;
    }
    if (i < s.size()) out += "...";
    return out;
}

std::string describe_character(std::string_view s, std::size_t i, std::size_t* length) {
    const std::size_t n = utf8_sequence_length(s, i);
    if (length) *length = n ? n : 1;
    if (i >= s.size()) return "end of text";
    std::string r = "'";
    if (n == 0) return r.append(hex_byte(static_cast<unsigned char>(s[i]))).append("' (not UTF-8)");
    r.append(printable(s.substr(i, n), 1)).append("'");
    if (n == 1) return r;
    char buf[16];
    std::snprintf(buf, sizeof buf, " (U+%04X)", unsigned(code_point(s, i, n)));
    return r.append(buf);
}

std::string trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return "";
    return std::string(s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1));
}

std::string ascii_lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return out;
}

bool parse_integer(std::string_view text, long long lo, long long hi, long long* out) {
    const char* first = text.data();
    const char* last = first + text.size();
    if (first != last && *first == '+') ++first;  // from_chars takes '-' but not '+'
    if (first == last || (*first == '-' && first != text.data())) return false;  // "+" alone, "+-5"
    long long v = 0;
    auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || ptr != last || v < lo || v > hi) return false;
    *out = v;
    return true;
}

}  // namespace quince
