// The tournament: schedules the games (round robin or gauntlet, each opening twice with colours reversed),
// runs them on `concurrency` worker threads, each with its own engine processes, keeps the statistics,
// writes the PGN and stops early on an SPRT decision.
#pragma once

#include <atomic>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "options.h"

namespace quince::match {

struct PairingResult {
    int first = 0, second = 0;  // engine indices; statistics are from the first engine's point of view
    MatchStats stats;
};

struct EngineIncidents {
    int time_forfeits = 0;
    int crashes = 0;            // includes failures to start
    int illegal_moves = 0;
    int missing_bestmoves = 0;  // no bestmove within the hard timeout of a search without clock
    int late_moves = 0;         // over the clock but inside timemargin: tolerated, counted to size the margin
};

struct TournamentSummary {
    std::vector<PairingResult> pairings;
    std::vector<EngineIncidents> incidents;  // per engine
    int games_played = 0;
    int games_scheduled = 0;
    SprtDecision sprt_decision = SprtDecision::Continue;
    double sprt_llr = 0;
    std::string error;              // fatal problem (engine cannot start, openings unreadable, …)
};

struct GameTask {
    int pairing = 0;
    int white = 0, black = 0;
    std::size_t opening_pair = 0;  // same value for the two games of a pair
    bool first_of_pair = true;     // the first engine of the pairing has White
    int number = 0;                // 1-based game number
};

// The game schedule (exposed for tests).
std::vector<GameTask> schedule_games(const TournamentConfig& config, std::vector<PairingResult>* pairings);

// Asks a running tournament to start no new game (async-signal-safe: for a SIGINT handler).
void request_stop();

// Runs the whole match; progress and the final report go to `out`.
TournamentSummary run_tournament(const TournamentConfig& config, std::ostream& out);

// The end-of-match report (also used for the periodic rating lines).
std::string format_report(const TournamentConfig& config, const TournamentSummary& summary);

}  // namespace quince::match
