// `quince analyse GAMES.pgn`: every position of each game's main line searched at a fixed budget, and the
// games written back as annotated PGN the way chess sites and GUIs read it: `{ [%eval 0.17] }` after each
// move (pawns, White's view; `#-3` for mates), `?!` / `?` / `??` for inaccuracies, mistakes and blunders
// judged by the drop in the mover's winning chances (lichess's thresholds 0.1 / 0.2 / 0.3), the better line
// as a variation after a mistake or blunder, and per-side average centipawn loss and accuracy as tags.
#pragma once

#include <atomic>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "board/position.h"
#include "cli/cli.h"
#include "eval/wdl.h"
#include "game/pgn.h"
#include "search/search.h"

namespace quince::cli {

// How a score becomes the mover's winning chances (-1 lost .. +1 won), which the verdicts compare.
enum class ChancesModel {
    HUMAN,    // win - loss rate of the WDL model of games people played (eval/wdl.h human_wdl_model)
    WDL,      // the evaluation's WDL model (eval/wdl.h): win - loss rate, fitted to Quince's own games
    LICHESS,  // lichess's 2 / (1 + exp(-0.00368208 cp)) - 1, fitted to Stockfish's scores in lichess games
};

// Winning chances of a score (side to move's view) in a position with `material` (wdl_material()).
double winning_chances(ChancesModel model, Value v, int material,
                       const eval::WdlModel& wdl = eval::fitted_wdl_model());
const char* chances_model_name(ChancesModel model);  // "human", "wdl", "lichess" (--model, the JSON)

// Lichess's thresholds on the drop in the mover's winning chances.
inline constexpr double INACCURACY_DROP = 0.1, MISTAKE_DROP = 0.2, BLUNDER_DROP = 0.3;
enum class Judgement { NONE, INACCURACY, MISTAKE, BLUNDER };
Judgement judge(double drop);
int judgement_nag(Judgement j);          // 0, 6 (?!), 2 (?), 4 (??)
const char* judgement_name(Judgement j);  // "", "inaccuracy", "mistake", "blunder"

// Lichess's accuracy of one move from the mover's win percentages (0..100) before and after it:
// 103.1668100711649 exp(-0.04354415386753951 (before - after)) - 3.166924740191411 + 1, within 0..100;
// 100 when the move loses nothing.
double move_accuracy(double win_percent_before, double win_percent_after);

// Lichess's accuracy of a game for each side, from White's win % of every position (n + 1 of them) and
// the n moves' accuracies: the mean of a volatility-weighted mean (each move weighted by the standard
// deviation of the win % over a window of clamp(n / 10, 2, 8) positions, clamped to 0.5..12) and the
// harmonic mean (accuracies of at least 1) of that side's moves. 0 for a side without a move.
void game_accuracy(const std::vector<double>& white_win_percent, const std::vector<double>& move_accuracies,
                   Color first_mover, double out[COLOR_NB]);

// Lichess's mate rules: a move that lets the opponent force mate (ALLOWED), or gives up the mover's own
// forced mate (LOST), is judged by how the mover stood, not by the drop in winning chances: `??`, or `?`
// when the mover stood below -7 pawns before allowing the mate (above +7 after losing it), `?!` beyond 10.
enum class MateSequence { NONE, ALLOWED, LOST };
MateSequence mate_sequence(Value before, Value after);  // the mover's scores before and after the move
Judgement judge_move(MateSequence mate, Value before, Value after, double drop);

struct MoveVerdict {
    Move move = Move::none();
    std::string san;
    Value score_after = VALUE_NONE;  // of the position after the move, side to move there; VALUE_NONE: mated
    eval::Wdl wdl_after;             // of the position after the move, White's view (the evaluation's model)
    Value best_score = VALUE_NONE;   // of the position before the move, the mover's view
    Move best = Move::none();        // the search's move there
    std::vector<Move> best_line;     // its line, from the position before the move
    double drop = 0;                 // the mover's winning chances lost by the move (>= 0)
    int cp_loss = 0;                 // the mover's centipawns lost, scores clamped to +-1000
    double win_before = 50, win_after = 50;  // the mover's win % before and after (at most before)
    double accuracy = 100;
    MateSequence mate = MateSequence::NONE;
    Judgement judgement = Judgement::NONE;
};

struct SideSummary {
    int moves = 0, inaccuracies = 0, mistakes = 0, blunders = 0;
    double acpl = 0;      // average centipawn loss
    double accuracy = 0;  // lichess's game accuracy (game_accuracy)
};

struct GameAnalysis {
    // One per main-line move from first_ply on (up to a null move), of both sides; fewer when interrupted.
    std::vector<MoveVerdict> moves;
    int first_ply = 0;      // index in the main line of moves[0]: the moves before it are not judged
    Color annotated_side = COLOR_NB;  // whose moves are annotated (COLOR_NB: both); the other's summary is empty
    SideSummary side[COLOR_NB];
    bool complete = true;  // false: interrupted, `moves` holds the first moves only (those judged)
    Value start_score = VALUE_NONE;  // of the position before moves[0], side to move's view (unscored: VALUE_NONE)
    eval::Wdl start_wdl;             // of the same position, White's view
    std::vector<double> white_win;  // White's win % of each position judged from, the last one's too
};

struct GameBudget {
    search::Limits limits;  // per position
    ChancesModel model = ChancesModel::HUMAN;
    int max_line_plies = 10;  // longest better line written as a variation
    // The moves annotated: from full move `from_move` on (the positions before it are not searched), of
    // one side or (COLOR_NB) both.
    int from_move = 1;
    Color side = COLOR_NB;
};

// Searches every position of the game's main line (up to its first null move, where the game ends for the
// analysis) with `engine` (cleared first). `on_position(i, n)` is
// called before position i of n is searched (progress); `interrupt`, when set, stops the running search at
// once and returns false: the analysis is then partial (`complete` false), its moves those before the last
// position searched to the end.
bool analyse_game(const game::Game& game, search::Engine& engine, const GameBudget& budget, GameAnalysis* out,
                  const std::function<void(int, int)>& on_position = {}, const std::atomic<bool>* interrupt = nullptr);

// The game with the analysis written in: eval comments, NAGs, verdict comments and better lines, the
// tags WhiteACPL, BlackACPL, WhiteAccuracy, BlackAccuracy and Annotator. Earlier [%eval] and [%wdl]
// commands in the comments of the moves annotated are replaced. A partial analysis adds the tag Analysis
// ("partial: 14 of 40 moves") and a comment after the last move analysed; so does a null move in the main
// line (the comment only). `with_wdl`: the eval comment has the win/draw/loss too, `[%wdl 312,601,87]`.
void annotate(game::Game* game, const GameAnalysis& analysis, const std::string& annotator, bool with_wdl = false);

// `[%eval 0.17]` / `[%eval #-3]`: a score of the side to move in `pos`, in pawns from White's view.
std::string eval_command(Value v, Color side_to_move);
// `[%wdl 312,601,87]`: White's win, draw and loss per mille, as ChessBase writes it beside [%eval].
std::string wdl_command(const eval::Wdl& white);
// A mate score of the side to move as lichess writes it: moves to mate, positive when White mates.
int white_mate_in_moves(Value v, Color side_to_move);

// One JSON object (one line) for a game: tags, the per-side summary, the start position's eval and every
// move's verdict; `with_wdl`: each position's win/draw/loss too ("wdl": [W, D, L], White's, per mille).
std::string game_json(const game::Game& game, const GameAnalysis& analysis, int number, ChancesModel model,
                      bool with_wdl = false);

// `quince analyse` when its argument is a PGN file (or "-", standard input).
struct GamesSettings {
    bool progress = false;  // a progress line on `err` (a terminal)
    const std::atomic<bool>* interrupt = nullptr;
    // The PGN itself, read for "-" instead of standard input: the page's worker (tools/web) has none and
    // runs this same path.
    const std::string* text = nullptr;
    // Called before position `position` (0-based) of `positions` of game `game` (its number in the file)
    // is searched.
    std::function<void(int game, int position, int positions)> on_position;
};
int run_analyse_games(const std::string& path, const ParsedArgs& args, std::ostream& out, std::ostream& err,
                      const GamesSettings& settings);

// The default budget per position: a 40-move game (81 positions) in well under a minute on one core.
inline constexpr long long DEFAULT_GAME_NODES = 400000;

}  // namespace quince::cli
