// The staged move picker: every legal move exactly once, the TT move first, and late-move pruning
// (skip_quiets) dropping the quiet moves not yet returned except quiet checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>

#include "search/movepick.h"
#include "support/test_positions.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::search;

namespace {

struct Histories {
    std::unique_ptr<ButterflyHistory> main = std::make_unique<ButterflyHistory>();
    std::unique_ptr<CaptureHistory> capture = std::make_unique<CaptureHistory>();
    std::unique_ptr<ContinuationHistory> cont_table = std::make_unique<ContinuationHistory>();
    const PieceToHistory* cont[3];
    Histories() {
        main->clear();
        capture->clear();
        cont_table->clear();
        cont[0] = cont[1] = cont[2] = cont_table->sentinel();
    }
};

std::vector<Position> positions() {
    std::vector<Position> out = test::random_game_positions(11, 12, 400, 80);
    for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            "2r2rk1/1bqnbppp/p2ppn2/1p6/3NPP2/P1N1B3/1PPQB1PP/2KR3R w - - 0 14"}) {
        Position p;
        p.set_fen(fen);
        out.push_back(p);
    }
    return out;
}

// Legal moves of the picker's sequence, in order; `skip_after` = number of moves returned before
// skip_quiets is switched on (-1: never).
std::vector<Move> picked(const Position& pos, Move tt_move, const Move killers[2], Move counter, int skip_after) {
    Histories h;
    MovePicker mp(pos, tt_move, h.main.get(), h.capture.get(), h.cont, killers, counter);
    std::vector<Move> out;
    int returned = 0;
    while (Move m = mp.next(skip_after >= 0 && returned >= skip_after)) {
        ++returned;
        if (pos.legal(m)) out.push_back(m);
    }
    return out;
}

}  // namespace

TEST(MovePicker, ReturnsEveryLegalMoveOnceWithTheTtMoveFirst) {
    int checked = 0;
    for (const Position& pos : positions()) {
        MoveList<LEGAL> legal(pos);
        if (legal.size() == 0) continue;
        std::set<std::uint16_t> expected;
        for (const auto& sm : legal) expected.insert(sm.move.raw());
        // A TT move, killers and a countermove taken from the legal moves, as the search would pass them.
        Move tt = legal.begin()[legal.size() / 2].move;
        Move killers[2] = {legal.begin()[0].move, legal.begin()[legal.size() - 1].move};
        Move counter = legal.begin()[legal.size() / 3].move;
        std::vector<Move> seq = picked(pos, tt, killers, counter, -1);
        std::set<std::uint16_t> got;
        for (Move m : seq) EXPECT_TRUE(got.insert(m.raw()).second) << pos.fen() << " twice: " << m.raw();
        EXPECT_EQ(got, expected) << pos.fen();
        ASSERT_FALSE(seq.empty());
        EXPECT_EQ(seq.front(), tt) << pos.fen();
        ++checked;
    }
    EXPECT_GT(checked, 300);
}

TEST(MovePicker, LateMovePruningKeepsOnlyCapturesAndQuietChecks) {
    int with_quiet_checks = 0;
    for (const Position& pos : positions()) {
        if (pos.in_check()) continue;  // evasions are never pruned by move count
        MoveList<LEGAL> legal(pos);
        if (legal.size() == 0) continue;
        const Move none[2] = {Move::none(), Move::none()};
        // skip_quiets from the first call: the legal captures and promotions, and the quiet checks.
        std::vector<Move> seq = picked(pos, Move::none(), none, Move::none(), 0);
        std::set<std::uint16_t> got, expected;
        for (Move m : seq) got.insert(m.raw());
        bool quiet_check = false;
        for (const auto& sm : legal) {
            if (pos.is_capture_or_promotion(sm.move)) expected.insert(sm.move.raw());
            else if (pos.gives_check(sm.move)) expected.insert(sm.move.raw()), quiet_check = true;
        }
        EXPECT_EQ(got, expected) << pos.fen();
        with_quiet_checks += quiet_check;
    }
    EXPECT_GT(with_quiet_checks, 20);  // the rule was exercised on positions with quiet checks to keep
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
