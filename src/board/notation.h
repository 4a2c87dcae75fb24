// Move notation: UCI long algebraic (with Chess960 castling as king-takes-rook) and SAN.
#pragma once

#include <string>

#include "board/position.h"

namespace quince {

std::string move_to_uci(Move m, bool chess960);
// The legal move that the UCI string names, or Move::none(). Accepts e1g1 and, for castling, e1h1.
Move uci_to_move(const Position& pos, const std::string& text);

std::string move_to_san(const Position& pos, Move m);  // m must be legal
// The legal move that the SAN string names (check/annotation suffixes ignored), or Move::none().
Move san_to_move(const Position& pos, const std::string& text);

}  // namespace quince
