#include <gtest/gtest.h>


#include "board/movegen.h"
#include "board/notation.h"
#include "support/test_positions.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;

TEST(Notation, SanExamples) {
    Position pos;
    ASSERT_TRUE(pos.set_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"));
    EXPECT_EQ(move_to_san(pos, uci_to_move(pos, "e1g1")), "O-O");
    EXPECT_EQ(move_to_san(pos, uci_to_move(pos, "e1c1")), "O-O-O");
    EXPECT_EQ(move_to_san(pos, uci_to_move(pos, "e5f7")), "Nxf7");
    EXPECT_EQ(move_to_san(pos, uci_to_move(pos, "d5e6")), "dxe6");
    EXPECT_EQ(move_to_san(pos, uci_to_move(pos, "c3b1")), "Nb1");
    EXPECT_EQ(move_to_san(pos, uci_to_move(pos, "f3f6")), "Qxf6");
    ASSERT_TRUE(pos.set_fen("4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1"));
    EXPECT_EQ(move_to_san(pos, uci_to_move(pos, "b7b8q")), "b8=Q+");
    EXPECT_EQ(move_to_san(pos, uci_to_move(pos, "a1a8")), "Ra8+");
    ASSERT_TRUE(pos.set_fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"));
    EXPECT_EQ(move_to_san(pos, uci_to_move(pos, "d8h4")), "Qh4#");
    // Disambiguation by file and by rank.
    ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/8/RN2KN1R w - - 0 1"));
    EXPECT_EQ(move_to_san(pos, uci_to_move(pos, "b1d2")), "Nbd2");
    ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1"));
    EXPECT_EQ(move_to_san(pos, uci_to_move(pos, "a1c1")), "Rac1");
    ASSERT_TRUE(pos.set_fen("4k3/8/8/8/R7/8/8/R3K3 w - - 0 1"));
    EXPECT_EQ(move_to_san(pos, uci_to_move(pos, "a1a2")), "R1a2");
    // En passant.
    ASSERT_TRUE(pos.set_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"));
    EXPECT_EQ(move_to_san(pos, uci_to_move(pos, "e5f6")), "exf6");
    EXPECT_EQ(san_to_move(pos, "exf6"), uci_to_move(pos, "e5f6"));
    EXPECT_EQ(san_to_move(pos, "exf6e.p."), Move::none());
}

TEST(Notation, UciAndSanRoundTripOnTheSuite) {
    int checked = 0;
    for (const std::string& fen : test::suite_fens("perft.epd")) {
        Position pos;
        ASSERT_TRUE(pos.set_fen(fen));
        for (const auto& sm : MoveList<LEGAL>(pos)) {
            EXPECT_EQ(uci_to_move(pos, move_to_uci(sm.move, false)), sm.move);
            EXPECT_EQ(san_to_move(pos, move_to_san(pos, sm.move)), sm.move) << move_to_san(pos, sm.move);
            ++checked;
        }
    }
    EXPECT_GT(checked, 2000);
}

TEST(Notation, Chess960Castling) {
    Position pos;
    // O-O with the king on g1 is impossible while the other rook stands on f1.
    ASSERT_TRUE(pos.set_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true));
    EXPECT_FALSE(uci_to_move(pos, "g1h1"));
    // The king passes c1..g1; a black rook on the e-file would forbid O-O (e1 attacked).
    ASSERT_TRUE(pos.set_fen("rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1", true));
    EXPECT_FALSE(uci_to_move(pos, "b1e1"));
    ASSERT_TRUE(pos.set_fen("rk5r/8/8/8/8/8/8/RK2R3 w KQkq - 0 1", true));
    Move oo = uci_to_move(pos, "b1e1");
    ASSERT_TRUE(oo);
    EXPECT_EQ(oo.type(), CASTLING);
    EXPECT_EQ(move_to_san(pos, oo), "O-O");
    Move ooo = uci_to_move(pos, "b1a1");
    ASSERT_TRUE(ooo);
    EXPECT_EQ(move_to_san(pos, ooo), "O-O-O");
    pos.do_move(oo);
    EXPECT_EQ(pos.piece_on(SQ_G1), W_KING);
    EXPECT_EQ(pos.piece_on(SQ_F1), W_ROOK);
    EXPECT_EQ(pos.fen(), "rk5r/8/8/8/8/8/8/R4RK1 b ha - 1 1");
    EXPECT_EQ(uci_to_move(pos, "e9e4"), Move::none());
    EXPECT_EQ(uci_to_move(pos, ""), Move::none());
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
