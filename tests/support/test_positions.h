// Positions shared by the tests: the EPD suites in tests/data and positions from seeded random games.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "board/movegen.h"
#include "board/position.h"

namespace quince::test {

// A position from a FEN the test knows to be good; a bad one fails the test, naming the FEN and why.
inline Position from_fen(const std::string& fen) {
    Position pos;
    std::string error;
    EXPECT_TRUE(pos.set_fen(fen, false, &error)) << fen << ": " << error;
    return pos;
}

// The FEN of every line of an EPD suite in tests/data (the part before the first ';').
inline std::vector<std::string> suite_fens(const std::string& file) {
    std::ifstream in(std::string(QUINCE_TEST_DATA_DIR) + "/" + file);
    std::vector<std::string> fens;
    for (std::string line; std::getline(in, line);) {
        const auto semi = line.find(';');
        if (semi == std::string::npos) continue;
        std::string fen = line.substr(0, semi);
        while (!fen.empty() && fen.back() == ' ') fen.pop_back();
        fens.push_back(fen);
    }
    return fens;
}

inline std::vector<Position> suite_positions(const std::string& file) {
    std::vector<Position> positions;
    for (const std::string& fen : suite_fens(file)) {
        Position pos;
        if (pos.set_fen(fen)) positions.push_back(pos);
    }
    return positions;
}

// Every position of `games` random legal games from the start position (at most `max_plies` plies
// each, `max_positions` in all). Captures are preferred a little so that material thins out and
// endings (pawn endings, opposite bishops, minor endings) occur. Each position is rebuilt from its
// FEN so that it carries no game history.
inline std::vector<Position> random_game_positions(std::uint64_t seed, int games, std::size_t max_positions,
                                                   int max_plies) {
    std::vector<Position> out;
    std::mt19937_64 rng(seed);
    for (int game = 0; game < games && out.size() < max_positions; ++game) {
        Position pos;
        for (int ply = 0; ply < max_plies; ++ply) {
            MoveList<LEGAL> moves(pos);
            if (moves.size() == 0 || pos.rule50() >= 100) break;
            Move m = moves.begin()[rng() % moves.size()].move;
            for (int tries = 0; tries < 2 && !pos.is_capture(m); ++tries) m = moves.begin()[rng() % moves.size()].move;
            pos.do_move(m);
            Position copy;
            copy.set_fen(pos.fen());
            out.push_back(copy);
        }
    }
    return out;
}

// Whether `move` is legal in `pos` and checkmates.
inline bool checkmates(const Position& pos, Move move) {
    if (!move || !pos.pseudo_legal(move) || !pos.legal(move)) return false;
    Position after = pos;
    after.do_move(move);
    return after.in_check() && MoveList<LEGAL>(after).size() == 0;
}

// `count` positions of seeded random games in which the side to move has a mate in one (random play
// leaves many: a few in every hundred positions), far from the fifty-move rule, as FENs. The mating move
// is often not the first move generated, which is what an unsearched answer would be.
inline std::vector<std::string> mate_in_one_fens(std::uint64_t seed, std::size_t count) {
    std::vector<std::string> out;
    for (std::uint64_t game = 0; out.size() < count && game < 100000; ++game)
        for (const Position& pos : random_game_positions(seed * 1000003 + game, 1, 200, 200)) {
            if (out.size() == count) break;
            if (pos.rule50() > 80) continue;
            for (const ScoredMove& m : MoveList<LEGAL>(pos))
                if (checkmates(pos, m.move)) {
                    out.push_back(pos.fen());
                    break;
                }
        }
    return out;
}

// The evaluation tests' shared set: tests/data (perft.epd, the Chess960 perft suite), the eval tests' reference
// and profile positions, and positions of seeded random games (endings included).
inline std::vector<Position> eval_test_positions() {
    std::vector<Position> out = suite_positions("perft.epd");
    for (const std::string& fen : suite_fens("perft-chess960.epd")) {
        Position pos;
        if (pos.set_fen(fen, true)) out.push_back(pos);
    }
    for (const char* file : {"/eval/reference_positions.epd", "/eval/profile_positions.epd"}) {
        std::ifstream in(std::string(QUINCE_TEST_DATA_DIR) + "/.." + file);
        for (std::string line; std::getline(in, line);) {
            Position pos;
            if (!line.empty() && pos.set_fen(line)) out.push_back(pos);
        }
    }
    for (const Position& p : random_game_positions(23, 20, 2000, 160)) out.push_back(p);
    return out;
}

}  // namespace quince::test
