// Known endings and the fifty-move counter: the last step of every evaluation, whatever evaluated (each
// hand-crafted profile, the baseline, a network). The Evaluator applies it to the score it got, so a
// network's output is scaled after the net, as a profile's after its terms. Two parts, in this order:
//
// 1. The known-ending scale: a factor (/128) by material and, in a few endings, by the kings' and pawns'
// squares, for the side the score favours (the "strong" side; the factor says how much of its lead it
// can turn into a win). Endings that cannot be won score 0: insufficient material, K+minor against
// anything, K+N+N against a bare king, K+P v K drawn by the exact table (eval/kpk.h), rook pawns (with
// or without a bishop that does not control the queening square) against a king next to the queening
// square. Drawish ones are scaled towards 0: no pawns and a lead of at most a minor piece (K+R v K+minor
// keeps more than K+R v K+R), opposite-coloured bishops alone with pawns (by the strong side's passed
// pawns), a lone pawn against a piece, one pawn and a lead of at most a minor piece.
// 2. The fifty-move damping: the score times (200 - rule50) / 200, rule50 the half-moves since the last
// capture or pawn move. A lead not turned into progress is worth less the nearer the fifty-move draw
// comes: three quarters after 25 moves, half when the draw can be claimed.
// Both products truncate toward zero, so the scores of a position and of its colour-flipped twin stay
// opposite.
#pragma once

#include <cstdint>

#include "board/position.h"

namespace quince::eval {

inline constexpr int ENDING_SCALE_NORMAL = 128;

// The rule that set the factor (Ending::None: no known ending, factor 128).
enum class Ending : std::uint8_t {
    None,
    Insufficient,       // no mate is possible (K v K, K+minor v K, bishops of one colour)
    KpkDraw,            // K+P v K, drawn by the table
    CannotWin,          // the strong side has no pawn and at most a minor piece
    TwoKnights,         // K+N+N v K
    RookPawnsCorner,    // rook pawns (and a bishop of the wrong colour) against a king in the corner
    PawnlessSmallEdge,  // no pawns for the strong side, a lead of at most a minor piece
    OppositeBishops,    // one bishop each, opposite colours, pawns only besides
    PawnAgainstPiece,   // the strong side's lone pawn against a piece
    OnePawnSmallEdge,   // the strong side's one pawn, a lead of at most a minor piece
};

// The factors (/128) of the drawish endings (the won-nothing ones are 0).
inline constexpr int SCALE_PAWNLESS_VS_MINOR = 16;   // K+R v K+minor, K+2 minors v K+minor, ...
inline constexpr int SCALE_PAWNLESS_EVEN = 8;        // K+R v K+R, K+Q v K+Q, K+R+minor v K+R, ...
inline constexpr int SCALE_OPPOSITE_BISHOPS = 40;    // with no passed pawn
inline constexpr int SCALE_OPPOSITE_BISHOPS_PASSER = 16;  // more for each passed pawn of the strong side
inline constexpr int SCALE_PAWN_AGAINST_PIECE = 16;
inline constexpr int SCALE_ONE_PAWN = 96;

struct EndingScale {
    int factor = ENDING_SCALE_NORMAL;
    Ending rule = Ending::None;
};

// The factor for a score that favours `strong`.
EndingScale ending_scale(const Position& pos, Color strong);

// A short description of the rule (`quince eval`).
const char* ending_name(Ending rule);

// v * factor / 128, truncated toward zero.
constexpr Value ending_scaled(Value v, int factor) { return Value(static_cast<long long>(v) * factor / ENDING_SCALE_NORMAL); }

// v * (200 - rule50) / 200, truncated toward zero.
constexpr Value rule50_damped(Value v, int rule50) {
    return rule50 <= 0 ? v : rule50 >= 200 ? 0 : Value(static_cast<long long>(v) * (200 - rule50) / 200);
}

// Both parts applied to v (centipawns, side to move's view); `scale`, when given, receives the rule
// that applied (factor 128 when v is 0 or nothing applied).
Value finish_score(const Position& pos, Value v, EndingScale* scale = nullptr);

}  // namespace quince::eval
