// Reading and echoing user input. Whole numbers are read strictly and in one place, so that every
// parser refuses the same things. Everything the engine writes must be valid UTF-8 (clients such as
// Python's text pipes decode strictly), so echoed input is never cut inside a multi-byte character:
// valid UTF-8 sequences are kept whole, invalid bytes and control characters are written as `\xNN` text.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>

namespace quince {

// Length of the valid UTF-8 sequence that starts at s[i] (1 for ASCII), or 0 if s[i] starts none
// (stray continuation byte, overlong form, surrogate, beyond U+10FFFF, or cut short).
std::size_t utf8_sequence_length(std::string_view s, std::size_t i);

// True when the whole string is valid UTF-8.
bool is_valid_utf8(std::string_view s);

// `s` made safe to print: at most max_chars characters (then "..."), whole UTF-8 characters kept,
// invalid bytes and ASCII control characters as `\xNN`.
std::string printable(std::string_view s, std::size_t max_chars = 40);

// The character that starts at s[i], quoted for a message, with its code point when it is not
// ASCII: 'x', '♞' (U+265E), or '\xEF' (not UTF-8) for a byte that starts no valid character.
// *length receives the number of bytes it covers (at least 1).
std::string describe_character(std::string_view s, std::size_t i, std::size_t* length = nullptr);

// `s` without leading and trailing spaces, tabs, carriage returns and newlines (a line as any platform
// writes it, a field between separators).
std::string trim(std::string_view s);

// `s` with ASCII letters in lower case (names of commands, options, variants and file endings are matched
// case-insensitively); other bytes, UTF-8 included, unchanged.
std::string ascii_lower(std::string_view s);

// A whole decimal number read strictly: an optional sign, digits and nothing else (no spaces, no
// fraction), within [lo, hi]. False, leaving *out alone, for anything else, including numbers past the
// 64-bit range (which strtoll would silently clamp).
bool parse_integer(std::string_view text, long long lo, long long hi, long long* out);

// The same into any integer type, by default within the type's range (for an unsigned 64-bit type,
// up to 2^63 - 1).
template <typename Int>
constexpr long long integer_max() {
    constexpr auto max = static_cast<unsigned long long>(std::numeric_limits<Int>::max());
    return max > static_cast<unsigned long long>(std::numeric_limits<long long>::max())
               ? std::numeric_limits<long long>::max()
               : static_cast<long long>(max);
}
template <typename Int>
bool parse_integer(std::string_view text, Int* out, long long lo = std::numeric_limits<Int>::min(),
                   long long hi = integer_max<Int>()) {
    long long v = 0;
    if (!parse_integer(text, lo, hi, &v)) return false;
    *out = static_cast<Int>(v);
    return true;
}

}  // namespace quince
