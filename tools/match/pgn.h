// PGN output of finished games: a game record as src/game/pgn.h writes it, in cutechess-cli's movetext
// (`1. e4 {+0.35/9 0.004s} e5`). Reading PGN, opening files and rescoring included, is src/game/pgn.h too.
#pragma once

#include <string>

#include "game.h"

namespace quince::match {

// Event/Site/Round describe the match; the game supplies the rest: every move's comment is the mover's score
// (side-to-move view), depth and time, or "book"; the last comment says how the game ended.
std::string format_pgn(const GameRecord& game, const std::string& event, int round_number);

}  // namespace quince::match
