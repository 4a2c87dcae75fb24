// FEN parsing and validation, incremental keys / material index against recomputation, flipping.
#include <gtest/gtest.h>

#include <random>

#include "board/movegen.h"
#include "board/notation.h"
#include "core/zobrist.h"
#include "support/test_positions.h"
#include "core/text.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;

using test::suite_fens;

TEST(Fen, RoundTripExact) {
    for (const char* fen : {
             Position::START_FEN,
             "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
             "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
             "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
             "4k3/8/8/8/8/8/8/4K2R w K - 49 120",
         }) {
        Position pos;
        std::string error;
        ASSERT_TRUE(pos.set_fen(fen, false, &error)) << error;
        EXPECT_EQ(pos.fen(), fen);
    }
}

TEST(Fen, Chess960ShredderAndXFen) {
    Position pos;
    std::string error;
    ASSERT_TRUE(pos.set_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true, &error)) << error;
    EXPECT_TRUE(pos.can_castle(WHITE_OO) && pos.can_castle(WHITE_OOO) && pos.can_castle(BLACK_OO) && pos.can_castle(BLACK_OOO));
    EXPECT_EQ(pos.castling_rook_square(WHITE_OO), SQ_H1);
    EXPECT_EQ(pos.castling_rook_square(WHITE_OOO), SQ_F1);
    EXPECT_EQ(pos.fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    // X-FEN KQkq means the outermost rooks.
    ASSERT_TRUE(pos.set_fen("rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1", true, &error)) << error;
    EXPECT_EQ(pos.castling_rook_square(WHITE_OO), SQ_E1);
    EXPECT_EQ(pos.castling_rook_square(WHITE_OOO), SQ_A1);
}

TEST(Fen, IdempotentOnTheSuites) {
    for (const auto& file : {"perft.epd", "perft-chess960.epd"}) {
        bool chess960 = std::string(file).find("960") != std::string::npos;
        for (const auto& fen : suite_fens(file)) {
            Position a, b;
            std::string error;
            ASSERT_TRUE(a.set_fen(fen, chess960, &error)) << fen << ": " << error;
            ASSERT_TRUE(b.set_fen(a.fen(), chess960, &error)) << a.fen() << ": " << error;
            EXPECT_EQ(a.fen(), b.fen());
            EXPECT_EQ(a.key(), b.key());
            std::string why;
            EXPECT_TRUE(a.is_consistent(&why)) << fen << ": " << why;
        }
    }
}

TEST(Fen, RejectionsKeepThePreviousPosition) {
    const char* bad[] = {
        "",
        "8/8/8/8/8/8/8/8 w",                                                  // too few fields
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",     // too many fields
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",                    // 7 ranks
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",           // 9 squares
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",            // 7 squares
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",           // bad piece
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1",             // no white king
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",             // two white kings
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",           // side
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",           // K right without rook
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1",          // castling char
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1",             // duplicate right
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",          // e.p. without pushed pawn
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1",        // e.p. for wrong side
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",          // e.p. square
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",          // halfmove
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 200 1",         // halfmove range
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x",           // fullmove
        "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1",            // pawn on rank 8
        "4k3/8/8/8/8/8/8/4K2p w - - 0 1",                                      // pawn on rank 1
        "4k3/8/8/8/8/8/PPPPPPPP/P3K3 w - - 0 1",                               // pawn on rank 1 / 9 pawns
        "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",                               // 9 pawns
        "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",                                     // side not to move in check
        "QQQQQQQQ/QQQQQQQQ/8/8/8/8/8/K6k w - - 0 1",                          // more promoted than missing pawns
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1",
    };
    Position pos;
    ASSERT_TRUE(pos.set_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"));
    const std::string before = pos.fen();
    const Key key = pos.key();
    int rejected = 0;
    for (const char* fen : bad) {
        std::string error;
        if (!pos.set_fen(fen, false, &error)) {
            ++rejected;
            EXPECT_FALSE(error.empty()) << fen;
        } else
            ADD_FAILURE() << "accepted: " << fen;
        ASSERT_EQ(pos.fen(), before) << "position changed by a rejected FEN: " << fen;
        ASSERT_EQ(pos.key(), key);
        pos.set_fen(before);  // restore in case of a wrongly accepted FEN
    }
    EXPECT_EQ(rejected, int(std::size(bad)));
}

// What a GUI's `position` reads: castling rights and en-passant squares that cannot be are left out, one
// description each, where a strict read refuses the FEN; a malformed FEN is refused by both.
TEST(Fen, LenientReadDropsRightsAndSquaresThatCannotBe) {
    struct Case {
        const char* fen;
        const char* read;  // the position's FEN after the lenient read
        std::size_t dropped;
    };
    const Case cases[] = {
        {"4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", 3},  // no rook but h1's
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1", 1},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKq - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kq - 0 1", 1},
        {"4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1", "4k3/8/8/8/8/8/4K3/R6R w - - 0 1", 2},  // king off its first rank
        {"1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1", "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w - - 0 1", 4},  // Chess960 rights
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1},
        {"4k2r/8/8/8/8/8/8/R3K3 b Qkq d3 5 9", "4k2r/8/8/8/8/8/8/R3K3 b Qk - 5 9", 2},
        {Position::START_FEN, Position::START_FEN, 0},
    };
    for (const Case& c : cases) {
        Position strict;
        std::string error;
        EXPECT_EQ(strict.set_fen(c.fen, false, &error), c.dropped == 0) << c.fen;
        Position lenient;
        std::vector<std::string> dropped = {"left from before"};
        ASSERT_TRUE(lenient.set_fen(c.fen, false, &error, &dropped)) << c.fen << ": " << error;
        EXPECT_EQ(lenient.fen(), c.read);
        EXPECT_EQ(dropped.size(), c.dropped) << c.fen;
        for (const std::string& d : dropped)
            EXPECT_TRUE(d.rfind("castling '", 0) == 0 || d.rfind("en-passant square '", 0) == 0) << d;
        // The same position as one set up without them: keys and legality agree.
        Position clean;
        ASSERT_TRUE(clean.set_fen(c.read));
        EXPECT_EQ(lenient.key(), clean.key()) << c.fen;
        EXPECT_EQ(perft(lenient, 3), perft(clean, 3)) << c.fen;
    }
    for (const char* malformed : {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1",
                                  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                                  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq 33 0 1",
                                  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                                  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
                                  "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"}) {
        Position pos;
        std::string error;
        std::vector<std::string> dropped;
        EXPECT_FALSE(pos.set_fen(malformed, false, &error, &dropped)) << malformed;
        EXPECT_FALSE(error.empty()) << malformed;
    }
}

TEST(Fen, TripleCheckRejectedDoubleCheckAccepted) {
    Position pos;
    EXPECT_TRUE(pos.set_fen("4k3/8/5N2/1B6/8/8/8/4K3 b - - 0 1"));  // double check (N, B)
    EXPECT_EQ(popcount(pos.checkers()), 2);
    EXPECT_FALSE(pos.set_fen("4k3/8/5N2/1B6/8/8/4R3/4K3 b - - 0 1"));  // N, B and R
}

TEST(Fen, CastlingNeedsChess960ForUnusualSetups) {
    Position pos;
    EXPECT_FALSE(pos.set_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1", false));
    EXPECT_TRUE(pos.set_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1", true));
}

TEST(Fen, StandardRulesCannotBeSetOnChess960Castling) {
    Position pos;
    ASSERT_TRUE(pos.set_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1", true));
    EXPECT_TRUE(pos.castling_needs_chess960());
    pos.set_chess960(false);
    EXPECT_TRUE(pos.is_chess960());
    // Once those rights are gone (the king moved), standard rules may be set again.
    ASSERT_TRUE(pos.set_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w - - 0 1", true));
    pos.set_chess960(false);
    EXPECT_FALSE(pos.is_chess960());
    // A standard setup read under Chess960 rules can switch back.
    ASSERT_TRUE(pos.set_fen(Position::START_FEN, true));
    EXPECT_FALSE(pos.castling_needs_chess960());
    pos.set_chess960(false);
    EXPECT_FALSE(pos.is_chess960());
}

TEST(Fen, EnPassantKeptOnlyWhenCapturable) {
    Position pos;
    ASSERT_TRUE(pos.set_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"));
    EXPECT_EQ(pos.ep_square(), SQ_NONE);  // no black pawn can take
    ASSERT_TRUE(pos.set_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"));
    EXPECT_EQ(pos.ep_square(), SQ_E3);
}

TEST(Position, MaterialIndexAndBalance) {
    Position pos;
    EXPECT_EQ(pos.material_index(), MATERIAL_TABLE_SIZE - 1);  // full material is the last entry
    EXPECT_EQ(pos.material_balance(), 0);
    EXPECT_TRUE(pos.material_in_table());
    // White: Q, R, 2 pawns; Black: R, B, N, 3 pawns.
    ASSERT_TRUE(pos.set_fen("r3k3/ppp5/2n5/8/3b4/8/PP6/R2QK3 w - - 0 1"));
    EXPECT_EQ(pos.material_index(), 1 * 1 + 1 * 4 + 1 * 12 + 1 * 108 + 1 * 972 + 2 * 2916 + 3 * 26244);
    EXPECT_EQ(pos.material_balance(), (10 + 5 + 2) - (5 + 3 + 3 + 3));
    // A second queen is outside the table.
    ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1"));
    EXPECT_FALSE(pos.material_in_table());
    EXPECT_EQ(pos.material_balance(), 20);
}

TEST(Position, IncrementalStateMatchesRecomputationInRandomGames) {
    std::mt19937 rng(2026);
    std::vector<std::pair<std::string, bool>> starts = {
        {Position::START_FEN, false},
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
        {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},
        {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
        {"2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", true},
    };
    int moves_made = 0;
    for (auto& [fen, chess960] : starts) {
        for (int game = 0; game < 40; ++game) {
            Position pos;
            ASSERT_TRUE(pos.set_fen(fen, chess960));
            std::vector<Move> played;
            std::vector<Key> keys{pos.key()};
            for (int ply = 0; ply < 120; ++ply) {
                MoveList<LEGAL> list(pos);
                if (list.size() == 0) break;
                Move m = list.begin()[rng() % list.size()].move;
                bool check = pos.gives_check(m);
                pos.do_move(m);
                ++moves_made;
                std::string why;
                ASSERT_TRUE(pos.is_consistent(&why)) << why << " after " << move_to_uci(m, chess960);
                ASSERT_EQ(check, pos.in_check());
                played.push_back(m);
                keys.push_back(pos.key());
            }
            while (!played.empty()) {
                pos.undo_move(played.back());
                played.pop_back();
                keys.pop_back();
                ASSERT_EQ(pos.key(), keys.back());
            }
            // Init-captures: clang before 16 cannot capture structured bindings (C++20 allows it).
            EXPECT_EQ(pos.fen(), (Position().set_fen(fen, chess960) ? [&f = fen, c960 = chess960] { Position p; p.set_fen(f, c960); return p.fen(); }() : ""));
        }
    }
    EXPECT_GT(moves_made, 10000);
}

TEST(Position, PseudoLegalAgreesWithTheGeneratorForEveryMoveCode) {
    for (const auto& fen : suite_fens("perft.epd")) {
        Position pos;
        ASSERT_TRUE(pos.set_fen(fen));
        MoveList<LEGAL> legal(pos);
        int accepted = 0;
        for (int raw = 0; raw < 65536; ++raw) {
            Move m{std::uint16_t(raw)};
            bool ok = pos.pseudo_legal(m) && pos.legal(m);
            ASSERT_EQ(ok, legal.contains(m)) << fen << " move " << move_to_uci(m, false) << " raw " << raw;
            accepted += ok;
        }
        EXPECT_EQ(accepted, int(legal.size()));
    }
}

TEST(Position, StagedGenerationCoversAllMoves) {
    for (const auto& fen : suite_fens("perft.epd")) {
        Position pos;
        ASSERT_TRUE(pos.set_fen(fen));
        if (pos.in_check()) {
            MoveList<EVASIONS> ev(pos);
            for (const auto& sm : MoveList<LEGAL>(pos)) EXPECT_TRUE(ev.contains(sm.move));
            continue;
        }
        MoveList<CAPTURES> caps(pos);
        MoveList<QUIETS> quiets(pos);
        MoveList<NON_EVASIONS> all(pos);
        EXPECT_EQ(caps.size() + quiets.size(), all.size()) << fen;
        for (const auto& sm : caps) {
            EXPECT_TRUE(pos.is_capture_or_promotion(sm.move)) << fen;
            EXPECT_TRUE(all.contains(sm.move));
        }
        for (const auto& sm : quiets) {
            EXPECT_FALSE(pos.is_capture_or_promotion(sm.move)) << fen;
            EXPECT_TRUE(all.contains(sm.move));
        }
    }
}

TEST(Position, FlippedMirrorsEverything) {
    Position pos;
    ASSERT_TRUE(pos.set_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"));
    Position f = pos.flipped();
    EXPECT_EQ(f.fen(), "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1");
    EXPECT_EQ(f.flipped().fen(), pos.fen());
    EXPECT_EQ(perft(pos, 3), perft(f, 3));
}

TEST(Position, DrawsAndRepetition) {
    Position pos;
    for (const char* mv : {"g1f3", "g8f6", "f3g1", "f6g8"}) pos.do_move(uci_to_move(pos, mv));
    EXPECT_TRUE(pos.is_repetition(10));   // once inside the search tree
    EXPECT_FALSE(pos.is_repetition(0));   // game history: needs a third occurrence
    for (const char* mv : {"g1f3", "g8f6", "f3g1", "f6g8"}) pos.do_move(uci_to_move(pos, mv));
    EXPECT_TRUE(pos.is_repetition(0));
    EXPECT_TRUE(pos.is_draw(0));

    ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/8/4KB2 w - - 0 1"));
    EXPECT_TRUE(pos.has_insufficient_material());
    ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"));
    EXPECT_FALSE(pos.has_insufficient_material());  // bishops on both colours
    ASSERT_TRUE(pos.set_fen("2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1"));
    EXPECT_TRUE(pos.has_insufficient_material());   // same-coloured bishops
    ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1"));
    EXPECT_FALSE(pos.has_insufficient_material());  // KNN can mate (with help)
    ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 100 80"));
    EXPECT_TRUE(pos.is_draw(0));  // fifty-move rule
    // Mate delivered as the 100th half-move is a win, not a draw.
    ASSERT_TRUE(pos.set_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80"));
    EXPECT_FALSE(pos.is_draw(0));
}

TEST(Position, HasRepeatedSeesAnEarlierRepetitionSinceTheLastIrreversibleMove) {
    Position pos;
    EXPECT_FALSE(pos.has_repeated());
    for (const char* mv : {"g1f3", "g8f6", "f3g1"}) pos.do_move(uci_to_move(pos, mv));
    EXPECT_FALSE(pos.has_repeated());
    pos.do_move(uci_to_move(pos, "f6g8"));  // the start position again
    EXPECT_TRUE(pos.has_repeated());
    pos.do_move(uci_to_move(pos, "b1c3"));  // later positions still see it
    EXPECT_TRUE(pos.has_repeated());
    pos.do_move(uci_to_move(pos, "e7e5"));  // a pawn move: nothing before it counts
    EXPECT_FALSE(pos.has_repeated());
}

// Everything the engine writes is valid UTF-8, including FEN errors that quote the input.
TEST(PositionFen, InvalidFenErrorsNameWholeCharacters) {
    Position p;
    std::string error;
    EXPECT_FALSE(p.set_fen("rnbqkbnr/pppppppp/8/8/4\xE2\x99\x9E" "3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, &error));
    EXPECT_NE(error.find("'\xE2\x99\x9E' (U+265E)"), std::string::npos) << error;
    EXPECT_TRUE(is_valid_utf8(error));
    EXPECT_FALSE(p.set_fen("rnbqkbnr/pppppppp/8/8/4\xEF" "3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, &error));
    EXPECT_NE(error.find("'\\xEF'"), std::string::npos) << error;
    EXPECT_TRUE(is_valid_utf8(error));
    // Castling, en passant and counters too.
    for (const char* fen : {"4k3/8/8/8/8/8/8/4K2R w \xC3\xA9 - 0 1", "4k3/8/8/8/8/8/8/4K2R w K\xC3\xA9 - 0 1",
                            "4k3/8/8/8/8/8/8/4K2R w - \xC3\xA9 0 1", "4k3/8/8/8/8/8/8/4K2R w - - \xC3\xA9\xFF 1",
                            "4k3/8/8/8/8/8/8/4K2R w - - 0 \xE2\x99"}) {
        EXPECT_FALSE(p.set_fen(fen, false, &error)) << fen;
        EXPECT_TRUE(is_valid_utf8(error)) << error;
    }
}

// Found by fuzz_fen (fuzz/regressions/fen/nul-in-board): a NUL byte in the board field was read as
// piece 15 (strchr finds the string's terminator), whose type indexed past the bitboard arrays.
// A UCI `position fen` line can carry that byte.
TEST(PositionFen, NulByteIsAnInvalidPiece) {
    Position p;
    std::string error;
    const std::string fen = std::string("rnbqkbnr/pppppppp/8/8/4") + '\0' + "3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    EXPECT_FALSE(p.set_fen(fen, false, &error));
    EXPECT_NE(error.find("invalid piece character"), std::string::npos) << error;
    EXPECT_EQ(p.fen(), Position::START_FEN);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
