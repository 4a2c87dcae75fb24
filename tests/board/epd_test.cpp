// epd_fen: the position part of EPD lines, as the test-suite runner and the match runner read them.
#include <gtest/gtest.h>

#include "board/epd.h"

using namespace quince;

TEST(EpdFen, CountersWhenPresentAndWhereTheOperationsStart) {
    std::size_t ops = 0;
    const std::string six = "8/8/8/8/8/8/8/K6k w - - 12 40 bm Kb2; id \"a\";";
    EXPECT_EQ(epd_fen(six, &ops), "8/8/8/8/8/8/8/K6k w - - 12 40");
    EXPECT_EQ(six.substr(ops), " bm Kb2; id \"a\";");

    const std::string four = "8/8/8/8/8/8/8/K6k b - -; id \"b\";";  // a field may end at ';'
    EXPECT_EQ(epd_fen(four, &ops), "8/8/8/8/8/8/8/K6k b - - 0 1");
    EXPECT_EQ(four.substr(ops), "; id \"b\";");

    EXPECT_EQ(epd_fen("8/8/8/8/8/8/8/K6k w - - 7"), "8/8/8/8/8/8/8/K6k w - - 7 1");  // lone half-move count
    EXPECT_EQ(epd_fen("  \t"), "");
    EXPECT_EQ(epd_fen("  # 8/8/8/8/8/8/8/K6k w - -"), "");
    EXPECT_EQ(epd_fen("8/8/8/8/8/8/8/K6k w -"), "");  // three fields
}
