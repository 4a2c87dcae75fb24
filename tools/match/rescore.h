// Scoring finished games again from their PGN: an interrupted run, or several runs of the same pairings
// (a gauntlet continued later with other openings) pooled into one report with the tournament's statistics.
#pragma once

#include <string>
#include <vector>

#include "game/pgn.h"
#include "stats.h"

namespace quince::match {

// The report of quince-match's end of run (Score/Elo/Pentanomial/Summary lines per pairing) plus a
// "Terminations" line per pairing, for the games of `files` (one list per PGN file). Each pairing is seen
// from the engine that played the most games (the gauntlet's engine; the first one seen on a tie). Two
// games of one file with the same starting FEN and reversed colours form a pentanomial pair; games
// without a partner count in W/D/L only. Games without a result (*) are skipped and counted.
// With `sprt` enabled, the report adds the SPRT line of the pooled games (its log-likelihood ratio and
// whether a bound is crossed), as the run that played them prints it; one pairing only.
std::string rescore_games(const std::vector<std::vector<game::Game>>& files, const SprtConfig& sprt = {});

// Reads the files and returns rescore_games' report; false + *error when a file cannot be read or parsed,
// or when `sprt` is enabled and the games are not of one pairing.
bool rescore_pgn_files(const std::vector<std::string>& paths, std::string* report, std::string* error,
                       const SprtConfig& sprt = {});

// The arguments after -rescore: PGN files, then optionally -sprt key=value… (as for a match).
bool parse_rescore_arguments(const std::vector<std::string>& args, std::vector<std::string>* files, SprtConfig* sprt,
                             std::string* error);

}  // namespace quince::match
