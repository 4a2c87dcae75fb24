// Seeded random openings (genfens, datagen) and the single-position probes (quiescence, static evaluation).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "board/movegen.h"
#include "board/notation.h"
#include "search/random_opening.h"
#include "search/search.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::search;

TEST(SearchProbes, QuiescenceOfQuietAndTacticalPositions) {
    Engine engine;
    engine.set_hash(1);
    Position quiet;  // the start position: nothing to capture
    EXPECT_EQ(engine.quiescence(quiet), engine.static_eval(quiet));
    Position hanging;  // Black's queen on d4 can be taken by the e3 pawn
    ASSERT_TRUE(hanging.set_fen("rnb1kbnr/pppp1ppp/8/4p3/3q4/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 3"));
    const Value q = engine.quiescence(hanging), e = engine.static_eval(hanging);
    EXPECT_GT(q, e + 500) << "winning the queen";
    // The probes do not disturb a later search, and a search does not disturb them.
    Limits limits;
    limits.nodes = 2000;
    SearchOptions options;
    options.silent = true;
    SearchResult r = engine.search(hanging, limits, options);
    EXPECT_EQ(move_to_uci(r.best, false), "e3d4");
    EXPECT_EQ(engine.static_eval(hanging), e);
}

TEST(RandomOpening, SeededBalancedAndLegal) {
    Engine engine;
    engine.set_hash(1);
    RandomOpeningConfig cfg;
    cfg.verify_nodes = 500;
    std::vector<std::string> a, b, c;
    for (int run = 0; run < 3; ++run) {
        SplitMix64 rng(run == 2 ? 43 : 42);
        engine.new_game();
        for (int i = 0; i < 4; ++i) {
            Position pos;
            std::string error;
            ASSERT_TRUE(random_opening(engine, {}, cfg, rng, &pos, &error)) << error;
            EXPECT_EQ(pos.game_ply(), 8) << "eight random plies from the start position";
            EXPECT_TRUE(pos.has_legal_move());
            (run == 0 ? a : run == 1 ? b : c).push_back(pos.fen());
        }
    }
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    // An impossible balance bound fails cleanly after max_attempts.
    cfg.max_score = -1;
    cfg.max_attempts = 3;
    SplitMix64 rng(1);
    Position pos;
    std::string error;
    EXPECT_FALSE(random_opening(engine, {}, cfg, rng, &pos, &error));
    EXPECT_NE(error.find("3 attempts"), std::string::npos) << error;
}

TEST(RandomOpening, StreamSeedsDiffer) {
    EXPECT_NE(stream_seed(1, 0), stream_seed(1, 1));
    EXPECT_NE(stream_seed(1, 0), stream_seed(2, 0));
    EXPECT_EQ(stream_seed(5, 9), stream_seed(5, 9));
}

TEST(RandomOpening, ReadFenBook) {
    const std::string path = (std::filesystem::temp_directory_path() / ("quince_fen_book_test_" + std::to_string(::getpid()) + ".epd")).string();
    std::vector<std::string> fens;
    std::string error;
    {
        std::ofstream(path) << "# comment\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;\n"
                               "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\n";
    }
    ASSERT_TRUE(read_fen_book(path, &fens, &error)) << error;
    ASSERT_EQ(fens.size(), 2u);
    { std::ofstream(path) << "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\nnot a fen at all\n"; }
    EXPECT_FALSE(read_fen_book(path, &fens, &error));
    EXPECT_NE(error.find(":2:"), std::string::npos) << error;
    { std::ofstream(path) << "\n"; }
    EXPECT_FALSE(read_fen_book(path, &fens, &error));
    EXPECT_NE(error.find("no position"), std::string::npos) << error;
    std::remove(path.c_str());
    EXPECT_FALSE(read_fen_book(path, &fens, &error));
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
