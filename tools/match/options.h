// The match configuration and its cutechess-like command line.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "game.h"
#include "openings.h"
#include "stats.h"
#include "uci_engine.h"

namespace quince::match {

struct TournamentConfig {
    std::vector<EngineConfig> engines;
    std::string type = "round-robin";
    bool chess960 = false;             // -variant fischerandom  // round-robin | gauntlet (the first engine against each other one)
    int games = 2;                     // games per pairing per round (pairs of games share an opening)
    int rounds = 1;
    int concurrency = 1;
    OpeningConfig openings;
    AdjudicationRules adjudication;
    SprtConfig sprt;
    std::string pgn_out;
    std::string event = "quince-match";
    std::string debug_file;  // -debug FILE: log of all engine communication
    int rating_interval = 10;  // print the Elo summary every N games (0 = only at the end)
};

// Parses argv (without argv[0]). False + *error (one line naming what is wrong) on any problem.
bool parse_command_line(const std::vector<std::string>& args, TournamentConfig* config, std::string* error);

// The program: the words after its name, results on out (a match's progress and report), errors on err.
// `-help` (or --help, -h) anywhere prints the usage; `-rescore FILE.pgn …` the report of finished games;
// anything else is a match (Ctrl-C once: the running games end and the report is printed). Exit status:
// 0 done, 1 the match failed, 2 a usage error (one line on err: `quince-match: what (see 'quince-match
// --help')`) or a rescore that failed.
int run_match_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string usage_text();
// One key=value of -sprt (elo0, elo1, alpha, beta) into *sprt; false for an unknown key or a bad value.
bool parse_sprt_setting(const std::string& key, const std::string& value, SprtConfig* sprt);

}  // namespace quince::match
