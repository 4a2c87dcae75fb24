// Echoing input in messages: whole UTF-8 characters, `\xNN` for anything else.
#include <gtest/gtest.h>

#include "core/text.h"

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
