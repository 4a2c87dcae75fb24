// What a search reports while it runs, as data: the lines of each iteration (Info), the root move under
// search (CurrMove), the score of a root without a move (NoMove) and the answer (BestMove), handed to a
// Listener. The UCI layer writes them as `info` and `bestmove` lines (uci/uci.h); quince analyse and
// quince-epd read them as they are.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "core/types.h"
#include "eval/wdl.h"

namespace quince::search {

// A score as reported: centipawns, or moves to mate (mate -2: the side to move is mated in 2). A tablebase
// win (VALUE_TB - ply) is shown as Stockfish shows it, in a band below mate scores: TB_WIN_CP - ply
// centipawns (a loss: -(TB_WIN_CP - ply)), so that a nearer conversion scores higher.
struct Score {
    bool mate = false;
    int value = 0;  // centipawns, or moves to mate
    bool operator==(const Score&) const = default;
};
inline constexpr int TB_WIN_CP = 20000;
Score reported_score(Value v);
// Distance to mate in moves, negative when the side to move is mated; 0 when the score is not a mate.
int mate_in_moves(Value v);

// One line of an iteration: the principal variation `multipv` (1 = the best) at `depth`.
struct Info {
    enum class Bound : std::uint8_t { EXACT, LOWER, UPPER };  // LOWER: failed high, UPPER: failed low
    int depth = 0;
    int seldepth = 0;
    int multipv = 1;
    Score score;                          // side to move's view
    Bound bound = Bound::EXACT;
    std::optional<eval::Wdl> wdl;         // per mille, side to move's view (SearchOptions::show_wdl)
    std::uint64_t nodes = 0;              // all threads, since go (pondering included)
    std::uint64_t nps = 0;
    int hashfull = 0;                     // per mille of the transposition table in use
    std::optional<std::uint64_t> tbhits;  // when tablebases are loaded
    std::int64_t time_ms = 0;             // since go, pondering included
    std::vector<Move> pv;                 // legal from the root, never empty
};

// The root move being searched (reported from 3 s into a search): `number` counts from 1 over all lines.
struct CurrMove {
    int depth = 0;
    Move move = Move::none();
    int number = 0;
};

// A root without a legal move: mated (mate 0) or stalemated (cp 0); bestmove is then Move::none().
struct NoMove {
    Score score;
};

// The answer, the last report of every search; ponder may be Move::none().
struct BestMove {
    Move move = Move::none();
    Move ponder = Move::none();
};

// Called on the thread that searches; a kind without a function is not reported.
struct Listener {
    std::function<void(const Info&)> info;
    std::function<void(const CurrMove&)> currmove;
    std::function<void(const NoMove&)> no_move;
    std::function<void(const BestMove&)> bestmove;
};

}  // namespace quince::search
