// One game between two UCI engines: the rules of chess (Referee), adjudication and the game loop.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "board/position.h"
#include "openings.h"
#include "uci_engine.h"

namespace quince::match {

enum class GameResult { WhiteWins, BlackWins, Draw, None };
std::string result_text(GameResult r);  // "1-0", "0-1", "1/2-1/2", "*"

// Engine failures, kept apart from the PGN termination so that reports can count them.
enum class Incident { None, TimeForfeit, Crash, IllegalMove, NoBestmove };

struct Outcome {
    GameResult result = GameResult::None;
    Incident incident = Incident::None;  // what the losing engine did wrong, if anything
    std::string termination;  // PGN Termination tag: normal, adjudication, time forfeit, rules infraction, abandoned
    std::string reason;       // human readable: "White mates", "Black loses on time", …
    Color offender = COLOR_NB;  // who caused the incident (COLOR_NB when there is none)
};

// The rules of chess over the whole game history (threefold repetition counts every position since the start,
// not just a search tree).
class Referee {
public:
    // fen empty = the standard start position. False + *error for an invalid FEN.
    bool reset(const std::string& fen, bool chess960, std::string* error);
    // Plays a move given in UCI notation; false (and nothing changes) if it is not legal. *san receives the SAN,
    // *normalized the move in canonical UCI (e.g. castling e1h1 -> e1g1), which is what the engines are sent.
    bool play(const std::string& uci, std::string* san = nullptr, std::string* normalized = nullptr);
    // Mate, stalemate, threefold repetition, fifty-move rule, insufficient material; None while the game goes on.
    Outcome rules_outcome() const;
    const Position& position() const { return pos_; }
    int repetitions_of_current() const;  // how many times the current position has occurred (1 = first time)

private:
    Position pos_;
    bool chess960_ = false;
    std::vector<Key> keys_;  // key of every position of the game, the current one last
};

struct AdjudicationRules {
    // -draw: both engines' scores within ±draw_score for draw_move_count consecutive moves each,
    // once full move number draw_move_number has been reached.
    bool draw_enabled = false;
    int draw_move_number = 0;
    int draw_move_count = 0;
    int draw_score = 0;
    // -resign: an engine's score at or below -resign_score for resign_move_count consecutive own moves
    // (two-sided: and its opponent's at or above +resign_score for as many moves).
    bool resign_enabled = false;
    int resign_move_count = 0;
    int resign_score = 0;
    bool resign_two_sided = false;
    int max_moves = 0;  // draw after this many full moves (0 = never)
};

struct MoveRecord {
    std::string uci;
    std::string san;
    bool book = false;
    std::optional<EngineScore> score;
    int depth = 0;
    std::int64_t elapsed_ms = 0;
};

struct GameRecord {
    std::string white, black;
    std::string start_fen;  // empty = standard start
    bool chess960 = false;
    std::vector<MoveRecord> moves;
    Outcome outcome;
    std::string white_tc, black_tc;  // PGN TimeControl values
    std::string date;                // YYYY.MM.DD
    int round = 0;
    int opening_index = -1;
    std::string error;  // engine failure details, if any
    int late_moves[COLOR_NB] = {0, 0};  // moves past the clock (or movetime) but inside the time margin
};

// Tracks engine scores and decides draw/resign adjudication.
class Adjudicator {
public:
    explicit Adjudicator(const AdjudicationRules& rules) : rules_(rules) {}
    // Records the score (side-to-move view; none = unknown) of the move just played by `mover`
    // and returns an outcome if the game should be adjudicated. full_move_number is the position's after the move.
    Outcome after_move(Color mover, const std::optional<EngineScore>& score, int full_move_number);

private:
    AdjudicationRules rules_;
    int draw_plies_ = 0;
    int losing_moves_[COLOR_NB] = {0, 0};
    int winning_moves_[COLOR_NB] = {0, 0};
};

// Builds the go command for the side to move.
std::string go_command(const TimeControl& white_tc, const GameClock& white_clock, const TimeControl& black_tc,
                       const GameClock& black_clock, Color side_to_move);

// Plays a game; engines must have been configured. Engine failures are scored against the engine.
GameRecord play_game(UciEngine& white, UciEngine& black, const Opening& opening, const AdjudicationRules& rules);

}  // namespace quince::match
