// epd_fen and read_epd_positions: EPD lines as the test-suite runner, the match runner and genfens read them.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

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

TEST(EpdPositions, ReadsEveryPositionAndSkipsBlankAndCommentLines) {
    std::istringstream in("# openings\n"
                          "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"a\";\n"
                          "\n"
                          "4k3/8/8/8/8/8/4P3/4K3 w - - 3 40\n");
    std::vector<std::string> fens;
    std::string error;
    ASSERT_TRUE(read_epd_positions(in, "book.epd", false, &fens, &error)) << error;
    ASSERT_EQ(fens.size(), 2u);
    EXPECT_EQ(fens[0], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    EXPECT_EQ(fens[1], "4k3/8/8/8/8/8/4P3/4K3 w - - 3 40");
}

TEST(EpdPositions, AnIllegalPositionNamesSourceAndLine) {
    std::istringstream in("4k3/8/8/8/8/8/4P3/4K3 w - -\n4k3/8/8/8/8/8/8/8 w - -\n");
    std::vector<std::string> fens;
    std::string error;
    EXPECT_FALSE(read_epd_positions(in, "book.epd", false, &fens, &error));
    EXPECT_EQ(error.rfind("book.epd:2: bad FEN: ", 0), 0u) << error;
}

TEST(EpdPositions, Chess960CastlingOnlyWhenAsked) {
    // Shredder-FEN castling by rook file: a Chess960 start position.
    const std::string line = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\n";
    std::vector<std::string> fens;
    std::string error;
    std::istringstream standard(line), chess960(line);
    EXPECT_FALSE(read_epd_positions(standard, "960.epd", false, &fens, &error));
    fens.clear();
    EXPECT_TRUE(read_epd_positions(chess960, "960.epd", true, &fens, &error)) << error;
    EXPECT_EQ(fens.size(), 1u);
}
