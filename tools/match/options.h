// The match configuration and its cutechess-like command line.
#pragma once

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

// Parses argv (without argv[0]). False + *error (a usage message) on any problem.
bool parse_command_line(const std::vector<std::string>& args, TournamentConfig* config, std::string* error);

std::string usage_text();
// One key=value of -sprt (elo0, elo1, alpha, beta) into *sprt; false for an unknown key or a bad value.
bool parse_sprt_setting(const std::string& key, const std::string& value, SprtConfig* sprt);

}  // namespace quince::match
