// The search's progress as data (search/info.h): what a Listener hears of a search, in order.
#include <gtest/gtest.h>

#include <vector>

#include "board/movegen.h"
#include "search/search.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::search;

// Everything a listener hears of one search, in order: 'i' Info, 'c' CurrMove, 'n' NoMove, 'b' BestMove.
struct Heard {
    std::string kinds;
    std::vector<Info> infos;
    std::vector<NoMove> no_moves;
    std::vector<BestMove> best;
};

Heard search_and_listen(const std::string& fen, int depth, int multipv, bool silent = false) {
    Engine engine;
    Heard heard;
    Listener l;
    l.info = [&](const Info& i) { heard.kinds += 'i', heard.infos.push_back(i); };
    l.currmove = [&](const CurrMove&) { heard.kinds += 'c'; };
    l.no_move = [&](const NoMove& n) { heard.kinds += 'n', heard.no_moves.push_back(n); };
    l.bestmove = [&](const BestMove& b) { heard.kinds += 'b', heard.best.push_back(b); };
    engine.set_listener(l);
    Position pos;
    EXPECT_TRUE(pos.set_fen(fen));
    Limits limits;
    limits.depth = depth;
    SearchOptions options;
    options.multi_pv = multipv;
    options.show_wdl = true;
    options.silent = silent;
    const SearchResult r = engine.search(pos, limits, options);
    if (!heard.best.empty()) {
        EXPECT_EQ(heard.best.back().move, r.best);
        EXPECT_EQ(heard.best.back().ponder, r.ponder);
    }
    return heard;
}

TEST(SearchInfo, EveryIterationsLinesThenTheBestMove) {
    const std::string fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    const Heard h = search_and_listen(fen, 5, 2);
    EXPECT_EQ(h.kinds, std::string(10, 'i') + "b");
    Position pos;
    ASSERT_TRUE(pos.set_fen(fen));
    for (std::size_t k = 0; k < h.infos.size(); ++k) {
        const Info& i = h.infos[k];
        EXPECT_EQ(i.depth, int(k / 2) + 1);
        EXPECT_EQ(i.multipv, int(k % 2) + 1);
        EXPECT_GE(i.seldepth, i.depth);
        EXPECT_EQ(i.bound, Info::Bound::EXACT);
        EXPECT_FALSE(i.score.mate);
        ASSERT_TRUE(i.wdl.has_value());
        EXPECT_EQ(i.wdl->win + i.wdl->draw + i.wdl->loss, 1000);
        EXPECT_GT(i.nodes, 0u);
        EXPECT_FALSE(i.tbhits.has_value());  // no tablebases loaded
        // The pv as moves, legal one after the other from the root.
        ASSERT_FALSE(i.pv.empty());
        Position p = pos;
        for (Move m : i.pv) {
            ASSERT_TRUE(p.pseudo_legal(m) && p.legal(m));
            p.do_move(m);
        }
    }
    // The two lines of an iteration are different moves, the first the better.
    EXPECT_NE(h.infos[8].pv[0], h.infos[9].pv[0]);
    EXPECT_GE(h.infos[8].score.value, h.infos[9].score.value);
    EXPECT_EQ(h.infos[8].pv[0], h.best[0].move);
}

TEST(SearchInfo, MateScoresInMoves) {
    const Heard h = search_and_listen("k7/8/1K6/8/8/8/8/7R b - - 0 1", 3, 1);  // Kb8 Rh8#
    ASSERT_FALSE(h.infos.empty());
    EXPECT_EQ(h.infos.back().score, (Score{true, -1}));
    EXPECT_EQ(reported_score(mate_in(3)), (Score{true, 2}));
    EXPECT_EQ(reported_score(-31), (Score{false, -31}));
}

TEST(SearchInfo, ARootWithoutAMoveIsItsScoreThenNoMove) {
    const Heard mated = search_and_listen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 3, 1);
    EXPECT_EQ(mated.kinds, "nb");
    EXPECT_EQ(mated.no_moves[0].score, (Score{true, 0}));
    EXPECT_EQ(mated.best[0].move, Move::none());
    const Heard stalemate = search_and_listen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 3, 1);
    EXPECT_EQ(stalemate.kinds, "nb");
    EXPECT_EQ(stalemate.no_moves[0].score, (Score{false, 0}));
}

TEST(SearchInfo, ASilentSearchTellsNothing) {
    EXPECT_EQ(search_and_listen(Position::START_FEN, 3, 1, true).kinds, "");
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
