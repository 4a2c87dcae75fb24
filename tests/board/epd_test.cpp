// epd_fen, read_epd_positions and for_each_epd_position: EPD lines as the test-suite runner, the match runner,
// genfens, `quince compare --epd` and quince-similarity read them.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "board/epd.h"
#include "board/position.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

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

TEST(EpdPositions, EachPositionInOrderAndEveryBadLineNamed) {
    std::vector<std::string> seen;
    std::string error;
    const auto keep = [&](const Position& pos, const std::string& fen, std::string*) {
        seen.push_back(fen + " / " + pos.fen());
        return true;
    };
    // Blank, comment and \r-ended lines; a Chess960 castling field; counters filled in when missing.
    std::istringstream good("# a suite\n\n"
                            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;\r\n"
                            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\n");
    ASSERT_TRUE(for_each_epd_position(good, "good.epd", keep, &error)) << error;
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 / "
                       "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    EXPECT_EQ(seen[1].substr(0, seen[1].find(" / ")), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    // A line cut short, an illegal position, one the visitor refuses, and no position at all.
    std::istringstream short_line("8/8/8/8/8/8/8/K6k w - - 0 1\nK6k w\n");
    EXPECT_FALSE(for_each_epd_position(short_line, "s.epd", keep, &error));
    EXPECT_NE(error.find("s.epd:2: expected a FEN"), std::string::npos) << error;
    std::istringstream illegal("\n8/8/8/8/8/8/8/8 w - - 0 1\n");
    EXPECT_FALSE(for_each_epd_position(illegal, "i.epd", keep, &error));
    EXPECT_NE(error.find("i.epd:2: invalid FEN"), std::string::npos) << error;
    std::istringstream refused("8/8/8/8/8/8/8/K6k w - - 0 1\n");
    const auto refuse = [](const Position&, const std::string&, std::string* why) {
        *why = "not this one";
        return false;
    };
    EXPECT_FALSE(for_each_epd_position(refused, "r.epd", refuse, &error));
    EXPECT_EQ(error, "r.epd:1: not this one");
    std::istringstream empty("# nothing\n\n");
    EXPECT_FALSE(for_each_epd_position(empty, "e.epd", keep, &error));
    EXPECT_EQ(error, "e.epd: no positions");
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
