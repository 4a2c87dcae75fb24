// Scoring finished games again from their PGN: an interrupted run, or several runs of the same pairings
// (a gauntlet continued later with other openings) pooled into one report with the tournament's statistics.
#pragma once

#include <string>
#include <vector>

#include "game/pgn.h"

namespace quince::match {

// The report of quince-match's end of run (Score/Elo/Pentanomial/Summary lines per pairing) plus a
// "Terminations" line per pairing, for the games of `files` (one list per PGN file). Each pairing is seen
// from the engine that played the most games (the gauntlet's engine; the first one seen on a tie). Two
// games of one file with the same starting FEN and reversed colours form a pentanomial pair; games
// without a partner count in W/D/L only. Games without a result (*) are skipped and counted.
std::string rescore_games(const std::vector<std::vector<game::Game>>& files);

// Reads the files and returns rescore_games' report; false + *error when a file cannot be read or parsed.
bool rescore_pgn_files(const std::vector<std::string>& paths, std::string* report, std::string* error);

}  // namespace quince::match
