// Echoing user input inside messages. Everything the engine writes must be valid UTF-8 (clients such
// as Python's text pipes decode strictly), so input is never cut inside a multi-byte character: valid
// UTF-8 sequences are kept whole, invalid bytes and control characters are written as `\xNN` text.
#pragma once

#include <cstddef>
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

}  // namespace quince
