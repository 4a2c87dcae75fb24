// Reading whole numbers strictly; echoing input in messages: whole UTF-8 characters, `\xNN` for anything else.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>

#include "core/text.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;

TEST(Text, Utf8SequenceLengths) {
    EXPECT_EQ(utf8_sequence_length("a", 0), 1u);
    EXPECT_EQ(utf8_sequence_length("\xC3\xA9", 0), 2u);          // é
    EXPECT_EQ(utf8_sequence_length("\xE2\x99\x9E", 0), 3u);      // ♞
    EXPECT_EQ(utf8_sequence_length("\xF0\x9F\x98\x80", 0), 4u);  // 😀
    EXPECT_EQ(utf8_sequence_length("\xE2\x99", 0), 0u);          // cut short
    EXPECT_EQ(utf8_sequence_length("\x99", 0), 0u);              // stray continuation byte
    EXPECT_EQ(utf8_sequence_length("\xC0\xAF", 0), 0u);          // overlong '/'
    EXPECT_EQ(utf8_sequence_length("\xED\xA0\x80", 0), 0u);      // surrogate
    EXPECT_EQ(utf8_sequence_length("\xF4\x90\x80\x80", 0), 0u);  // above U+10FFFF
    EXPECT_EQ(utf8_sequence_length("\xFF", 0), 0u);
    EXPECT_TRUE(is_valid_utf8("a\xE2\x99\x9E b"));
    EXPECT_FALSE(is_valid_utf8("a\xE2\x99"));
}

TEST(Text, PrintableKeepsWholeCharactersAndEscapesTheRest) {
    EXPECT_EQ(printable("e2e4"), "e2e4");
    EXPECT_EQ(printable("\xE2\x99\x9E"), "\xE2\x99\x9E");
    EXPECT_EQ(printable("a\xFF" "b"), "a\\xFFb");
    EXPECT_EQ(printable("a\tb\x7F"), "a\\x09b\\x7F");
    EXPECT_EQ(printable("\xE2\x99"), "\\xE2\\x99");
    // Truncation counts characters, so a multi-byte character is never cut.
    EXPECT_EQ(printable("ab\xE2\x99\x9E" "cd", 3), "ab\xE2\x99\x9E...");
    for (int b = 0; b < 256; ++b) {
        const std::string s = std::string("x") + char(b) + "\xE2\x99\x9E" + char(b);
        EXPECT_TRUE(is_valid_utf8(printable(s))) << b;
        EXPECT_TRUE(is_valid_utf8(printable(s, 2))) << b;
    }
}

TEST(Text, DescribeCharacterNamesTheCodePoint) {
    std::size_t n = 0;
    EXPECT_EQ(describe_character("x\xE2\x99\x9E", 1, &n), "'\xE2\x99\x9E' (U+265E)");
    EXPECT_EQ(n, 3u);
    EXPECT_EQ(describe_character("Z", 0, &n), "'Z'");
    EXPECT_EQ(describe_character("\xEF", 0, &n), "'\\xEF' (not UTF-8)");
    EXPECT_EQ(n, 1u);
}

TEST(Text, ParseIntegerIsStrict) {
    long long v = 7;
    EXPECT_TRUE(parse_integer("42", 0, 100, &v));
    EXPECT_EQ(v, 42);
    EXPECT_TRUE(parse_integer("+5", -10, 10, &v));
    EXPECT_EQ(v, 5);
    EXPECT_TRUE(parse_integer("-10", -10, 10, &v));
    EXPECT_EQ(v, -10);
    EXPECT_TRUE(parse_integer("9223372036854775807", LLONG_MIN, LLONG_MAX, &v));
    EXPECT_EQ(v, LLONG_MAX);
    v = 7;
    // Refused, and the old value left alone: empty, signs alone or doubled, spaces, trailing text,
    // fractions, hex, out of the range, past 64 bits (strtoll would clamp these to LLONG_MAX).
    for (const char* bad : {"", "+", "-", "+-5", "-+5", "--5", " 5", "5 ", "5x", "1.5", "0x10", "11", "-11",
                            "9223372036854775808", "99999999999999999999999", "-99999999999999999999999"})
        EXPECT_FALSE(parse_integer(bad, -10, 10, &v)) << '"' << bad << '"';
    EXPECT_EQ(v, 7);

    int i = 0;
    EXPECT_TRUE(parse_integer("2147483647", &i));
    EXPECT_EQ(i, 2147483647);
    EXPECT_FALSE(parse_integer("2147483648", &i));  // past int, whatever long long holds
    EXPECT_FALSE(parse_integer("-1", &i, 0, 100));
    std::uint64_t u = 0;
    EXPECT_FALSE(parse_integer("-1", &u));  // unsigned: from 0
    EXPECT_TRUE(parse_integer("9223372036854775807", &u));
    EXPECT_EQ(u, 9223372036854775807ULL);
}

TEST(Text, AsciiLowerChangesOnlyAsciiLetters) {
    EXPECT_EQ(ascii_lower("SetOption NAME Hash"), "setoption name hash");
    EXPECT_EQ(ascii_lower("Game.PGN"), "game.pgn");
    EXPECT_EQ(ascii_lower("Ä1-0\xC3\x84"), "\xC3\x84" "1-0\xC3\x84");  // UTF-8 bytes unchanged
    EXPECT_EQ(ascii_lower(""), "");
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
