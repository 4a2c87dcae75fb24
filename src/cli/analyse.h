// `quince analyse` (also `analyze`): the search run in-process on one position, its lines shown in SAN with scores in
// pawns from White's point of view, one block per completed iteration (live), then the best move.
// --json writes JSON Lines instead: one object per completed iteration, then one result object.
// Given a PGN file instead of a position, it annotates whole games (cli/analyse_game.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "board/position.h"
#include "cli/cli.h"
#include "search/search.h"

namespace quince::cli {

// "1. e4 e5 2. Nf3" (or "3... Nf6 4. O-O" when Black moves first), numbered from the root's move number.
std::string san_line(const Position& root, const std::vector<Move>& pv);

// Score in pawns from White's point of view: "+0.31", "-1.20", "+M3" (White mates in 3), "-M2".
std::string white_score_text(const search::Score& score, Color side_to_move);

struct AnalyseSettings {
    bool live = false;  // stdout is a terminal: a status line is redrawn while an iteration runs
    bool progress = false;  // stderr is a terminal: games show a progress line there
    // Set (by a SIGINT handler) to stop the search; the lines found so far are then printed.
    const std::atomic<bool>* interrupt = nullptr;
    // Games (GamesSettings): the PGN itself when the caller holds it ("-" then reads it instead of
    // standard input), and a call before each position is searched.
    const std::string* games_text = nullptr;
    std::function<void(int game, int position, int positions)> on_position;
};

// What both analyses (one position, whole games) set up their engine with: --hash, --threads, --profile.
struct EngineSettings {
    long long hash_mb = 64, threads = 1;
    std::string profile;       // an evaluation profile's name (the default profile when not given)
    eval::EvalPtr evaluation;  // that profile's evaluation
};
// Reads and checks those options; false with *error (for a usage error) on a bad value or an unknown profile.
bool read_engine_settings(const ParsedArgs& args, EngineSettings* settings, std::string* error);
// Configures `engine`; false with a message on `err` when the hash table cannot be allocated.
bool set_up_engine(search::Engine& engine, const EngineSettings& settings, std::ostream& err);

// More help for `quince analyse --help` (after the usage line).
extern const char* const ANALYSE_DETAILS;

int run_analyse(const Args& args, std::ostream& out, std::ostream& err, const AnalyseSettings& settings = {});

}  // namespace quince::cli
