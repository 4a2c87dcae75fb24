// PGN output of finished games (reading PGN, opening files and rescoring included, is src/game/pgn.h).
#pragma once

#include <string>

#include "game.h"

namespace quince::match {

// Event/Site/Round describe the match; the game supplies the rest.
std::string format_pgn(const GameRecord& game, const std::string& event, int round_number);

}  // namespace quince::match
