// Syzygy endgame tablebases (Ronald de Man's format), probed through Fathom (Debian libfathom-dev):
// this module only adapts a Position to Fathom's bitboards and its results to the search's terms.
//
// The tables are process-wide (Fathom keeps them in globals): init() only while no search runs.
// Probes are safe from several search threads (see probe_wdl()). Positions with castling rights are
// never probed (the tables assume none).
#pragma once

#include <string>
#include <vector>

#include "board/position.h"

namespace quince::syzygy {

// Win/draw/loss for the side to move; cursed wins and blessed losses are wins and losses that the
// fifty-move rule turns into draws.
enum class Wdl : int { LOSS = -2, BLESSED_LOSS = -1, DRAW = 0, CURSED_WIN = 1, WIN = 2 };

struct Status {
    int wdl_tables = 0;   // .rtbw files Fathom accepted
    int dtz_tables = 0;   // .rtbz files beside them
    int max_pieces = 0;   // largest table, 0 = no tables
};

// Loads the tables found in `path` (directories separated by ':', ';' on Windows); an empty path or
// "<empty>" unloads them. Returns the one line to tell the user (what was found and which missing
// directories were left out, or what was wrong: "error: …"). A path without any existing directory or
// without any table is refused and the previous tables stay (max_pieces() == 0 when there were none).
std::string init(const std::string& path);
const Status& status();
// "KQvKR" and the like: a Syzygy material name (a king, up to six more men on each side).
bool is_material_name(const std::string& name);
int max_pieces();  // 0 when no tables are loaded

// WDL of the position from the side to move's point of view. False when the position is not in the
// tables (too many pieces, castling rights, a table missing) or the fifty-move counter is not zero
// (WDL values are only exact right after a capture or pawn move).
bool probe_wdl(const Position& pos, Wdl* out);

// Distance to zeroing (plies to the next capture or pawn move in optimal play, the sign giving the
// result; 0 = draw) and the WDL, as Fathom's root probe reports them. Main thread only (not thread-safe).
bool probe_dtz(const Position& pos, Wdl* wdl, int* dtz);

// Root move ranking: every legal move with Fathom's rank (higher = better; moves of equal rank are
// equally good for the result) and whether the rank makes it a win/draw/loss. Uses the DTZ tables
// (so that a win is converted within the fifty-move rule when use_rule50) and falls back to WDL ranks
// when a DTZ table is missing (*used_dtz = false). False when the position cannot be probed.
struct RankedMove {
    Move move;
    int rank = 0;
    Wdl wdl = Wdl::DRAW;
};
// With fastest_win, winning moves are ranked by their distance to zeroing (the nearest conversion
// ranks highest) rather than all alike, so the moves of the best rank make progress: the search then
// only chooses among those, and a won ending is converted instead of wandering among winning moves.
bool rank_root_moves(const Position& pos, bool use_rule50, std::vector<RankedMove>* out, bool* used_dtz,
                     bool fastest_win = false);

// The rank at and above which a root move wins (900 with the fifty-move rule: the position is won
// within it; 1 without).
int win_rank_bound(bool use_rule50);

}  // namespace quince::syzygy
