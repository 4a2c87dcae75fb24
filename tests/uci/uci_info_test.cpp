// The UCI text of a search's progress, byte for byte: what a GUI reads of fixed-depth searches (depth,
// seldepth, multipv, score in cp and mate, wdl, nodes, hashfull, tbhits, pv, a root without a move, bestmove
// and ponder). Only the clock is left out: `time` and the `nps` computed from it are checked for their form
// and their agreement with `nodes`. The lines change when the search or the default evaluation does (as
// bench does): then print them with this test's failure message and paste them after checking the change.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "board/notation.h"
#include "uci/uci.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;

const std::string TB_DIR = std::string(QUINCE_TEST_DATA_DIR) + "/syzygy";

// The word after `key` in `line` ("" when absent).
std::string value_of(const std::string& line, const std::string& key) {
    std::istringstream in(line);
    std::string w;
    while (in >> w)
        if (w == key) return in >> w ? w : "";
    return "";
}

// Runs the UCI lines; returns the output with every info line's `nps N` and `time N` as `nps _` and `time _`,
// after checking that nps is nodes per second of that time.
std::string run_masked(const std::vector<std::string>& commands) {
    std::ostringstream out;
    {
        uci::Uci u(out);
        for (const std::string& c : commands) {
            u.execute(c);
            u.wait_idle();
        }
    }
    std::istringstream lines(out.str());
    std::string line, masked;
    while (std::getline(lines, line)) {
        if (line.rfind("info ", 0) == 0 && line.find(" nps ") != std::string::npos) {
            const std::string nps = value_of(line, "nps"), time = value_of(line, "time"), nodes = value_of(line, "nodes");
            EXPECT_EQ(std::stoull(nps), std::stoull(nodes) * 1000 / std::max<std::uint64_t>(1, std::stoull(time))) << line;
            line.replace(line.find(" nps " + nps + " "), 6 + nps.size(), " nps _ ");
            line.replace(line.find(" time " + time + " "), 7 + time.size(), " time _ ");
        }
        masked += line + "\n";
    }
    return masked;
}

TEST(UciInfo, FixedDepthSearchLinesAreAsBefore) {
    const std::string text = run_masked({
        "setoption name UCI_ShowWDL value true",
        "setoption name MultiPV value 2",
        "position startpos moves e2e4 c7c5 g1f3",
        "go depth 6",
        "setoption name UCI_ShowWDL value false",
        "setoption name MultiPV value 1",
        "ucinewgame",
        "position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",  // mate in 1
        "go depth 4",
        "position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",  // mate in 1 by the rook, a back-rank mate
        "go depth 5",
        "position fen k7/8/1K6/8/8/8/8/7R b - - 0 1",  // mated in 1 (Kb8 Rh8#)
        "go depth 4",
        "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  // stalemate
        "go depth 3",
        "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",  // mated
        "go depth 3",
    });
    EXPECT_EQ(text, R"(info depth 1 seldepth 6 multipv 1 score cp -29 wdl 314 248 438 nodes 61 nps _ hashfull 0 time _ pv b8c6
info depth 1 seldepth 2 multipv 2 score cp -37 wdl 298 246 456 nodes 61 nps _ hashfull 0 time _ pv g8f6
info depth 2 seldepth 4 multipv 1 score cp 13 wdl 402 252 346 nodes 131 nps _ hashfull 0 time _ pv g8f6 c2c3 f6e4
info depth 2 seldepth 3 multipv 2 score cp -12 wdl 348 252 400 nodes 131 nps _ hashfull 0 time _ pv b8c6 c2c3
info depth 3 seldepth 5 multipv 1 score cp 2 wdl 378 253 369 nodes 232 nps _ hashfull 0 time _ pv g8f6 d2d4 c5d4
info depth 3 seldepth 4 multipv 2 score cp -22 wdl 328 250 422 nodes 232 nps _ hashfull 0 time _ pv b8c6 c2c3 g8f6
info depth 4 seldepth 8 multipv 1 score cp 13 wdl 402 252 346 nodes 424 nps _ hashfull 0 time _ pv g8f6 d2d4 f6e4 d4c5
info depth 4 seldepth 8 multipv 2 score cp -13 wdl 346 252 402 nodes 424 nps _ hashfull 0 time _ pv b8c6 d2d4 c5d4 f3d4
info depth 5 seldepth 8 multipv 1 score cp -24 wdl 324 249 427 nodes 876 nps _ hashfull 2 time _ pv b8c6 d2d4 c5d4 f3d4 g8f6 d4c6
info depth 5 seldepth 6 multipv 2 score cp -27 wdl 317 250 433 nodes 876 nps _ hashfull 2 time _ pv e7e6 d2d4 c5d4 f3d4 g8f6
info depth 6 seldepth 8 multipv 1 score cp -20 wdl 332 250 418 nodes 1534 nps _ hashfull 2 time _ pv e7e6 b1c3 b8c6 d2d4 c5d4 f3d4
info depth 6 seldepth 8 multipv 2 score cp -24 wdl 324 249 427 nodes 1534 nps _ hashfull 2 time _ pv b8c6 d2d4 c5d4 f3d4 g8f6 d4c6
bestmove e7e6 ponder b1c3
info depth 1 seldepth 3 multipv 1 score mate 1 nodes 50 nps _ hashfull 0 time _ pv h5f7
info depth 2 seldepth 2 multipv 1 score mate 1 nodes 94 nps _ hashfull 0 time _ pv h5f7
info depth 3 seldepth 3 multipv 1 score mate 1 nodes 138 nps _ hashfull 0 time _ pv h5f7
info depth 4 seldepth 4 multipv 1 score mate 1 nodes 182 nps _ hashfull 0 time _ pv h5f7
bestmove h5f7
info depth 1 seldepth 2 multipv 1 score mate 1 nodes 23 nps _ hashfull 0 time _ pv a1a8
info depth 2 seldepth 2 multipv 1 score mate 1 nodes 44 nps _ hashfull 0 time _ pv a1a8
info depth 3 seldepth 3 multipv 1 score mate 1 nodes 65 nps _ hashfull 0 time _ pv a1a8
info depth 4 seldepth 4 multipv 1 score mate 1 nodes 86 nps _ hashfull 0 time _ pv a1a8
info depth 5 seldepth 5 multipv 1 score mate 1 nodes 107 nps _ hashfull 0 time _ pv a1a8
bestmove a1a8
info depth 1 seldepth 3 multipv 1 score mate -1 nodes 3 nps _ hashfull 0 time _ pv a8b8 h1h8
info depth 2 seldepth 3 multipv 1 score mate -1 nodes 6 nps _ hashfull 0 time _ pv a8b8 h1h8
info depth 3 seldepth 3 multipv 1 score mate -1 nodes 9 nps _ hashfull 0 time _ pv a8b8 h1h8
info depth 4 seldepth 4 multipv 1 score mate -1 nodes 12 nps _ hashfull 0 time _ pv a8b8 h1h8
bestmove a8b8 ponder h1h8
info depth 0 score cp 0
bestmove 0000
info depth 0 score mate 0
bestmove 0000
)") << text;
}

// A root in the tablebases: their result as the score, and tbhits.
TEST(UciInfo, TablebaseSearchLinesAreAsBefore) {
    const std::string text = run_masked({
        "setoption name SyzygyPath value " + TB_DIR,
        "position fen 8/8/8/8/8/3k4/8/R3K3 w - - 0 1",
        "go depth 4",
        "setoption name SyzygyPath value <empty>",
    });
    if (text.find("Syzygy: found") == std::string::npos) GTEST_SKIP() << "a build without tablebases";
    EXPECT_EQ(text, "info string Syzygy: found 6 tables (6 with DTZ) up to 4 pieces in " + TB_DIR + "\n" + R"(info depth 1 seldepth 2 multipv 1 score cp 19979 nodes 2 nps _ hashfull 0 tbhits 13 time _ pv a1a4
info depth 2 seldepth 5 multipv 1 score cp 19979 nodes 21 nps _ hashfull 0 tbhits 13 time _ pv a1a4 d3c3
info depth 3 seldepth 4 multipv 1 score cp 19979 nodes 33 nps _ hashfull 0 tbhits 13 time _ pv a1a4 d3c3 a4a2
info depth 4 seldepth 5 multipv 1 score cp 19979 nodes 76 nps _ hashfull 0 tbhits 13 time _ pv a1a4 d3c3
bestmove a1a4 ponder d3c3
info string Syzygy: tablebases off
)") << text;
}

// The lines of what the pinned searches above do not show: bounds, currmove, Chess960 castling, no move.
TEST(UciInfo, EveryKindOfProgressAsAUciLine) {
    Position pos;
    ASSERT_TRUE(pos.set_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    const Move castle = uci_to_move(pos, "e1g1");
    ASSERT_TRUE(castle);
    search::Info i;
    i.depth = 12;
    i.seldepth = 17;
    i.multipv = 3;
    i.score = {false, -45};
    i.bound = search::Info::Bound::LOWER;
    i.wdl = eval::Wdl{100, 600, 300};
    i.nodes = 123456;
    i.nps = 654321;
    i.hashfull = 7;
    i.tbhits = 0;
    i.time_ms = 188;
    i.pv = {castle};
    EXPECT_EQ(uci::info_line(i, false), "info depth 12 seldepth 17 multipv 3 score cp -45 wdl 100 600 300 lowerbound "
                                        "nodes 123456 nps 654321 hashfull 7 tbhits 0 time 188 pv e1g1");
    i.bound = search::Info::Bound::UPPER;
    i.wdl.reset();
    i.tbhits.reset();
    i.score = {true, 4};
    EXPECT_EQ(uci::info_line(i, true),
              "info depth 12 seldepth 17 multipv 3 score mate 4 upperbound nodes 123456 nps 654321 hashfull 7 time 188 pv e1h1");
    EXPECT_EQ(uci::currmove_line({20, castle, 3}, false), "info depth 20 currmove e1g1 currmovenumber 3");
    EXPECT_EQ(uci::currmove_line({20, castle, 3}, true), "info depth 20 currmove e1h1 currmovenumber 3");
    EXPECT_EQ(uci::no_move_line({{true, 0}}), "info depth 0 score mate 0");
    EXPECT_EQ(uci::bestmove_line({castle, Move::none()}, true), "bestmove e1h1");
    EXPECT_EQ(uci::bestmove_line({Move::none(), Move::none()}, false), "bestmove 0000");
    EXPECT_EQ(uci::score_text({true, -3}), "mate -3");
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
