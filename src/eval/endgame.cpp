#include "eval/endgame.h"

#include "core/bitboard.h"
#include "eval/kpk.h"
#include "eval/pawns.h"

namespace quince::eval {

namespace {

bool one(Bitboard b) { return b && !(b & (b - 1)); }

// The strong side's pawns that no enemy pawn can stop (none in front on its own or a neighbouring file).
int passed_pawns(const Position& pos, Color strong) {
    const bool white = strong == WHITE;
    const Bitboard own = white ? pos.pieces(WHITE, PAWN) : __builtin_bswap64(pos.pieces(BLACK, PAWN));
    const Bitboard their = white ? pos.pieces(BLACK, PAWN) : __builtin_bswap64(pos.pieces(WHITE, PAWN));
    int n = 0;
    for (Bitboard b = own; b;)
        if (!(PAWN_MASKS.passed[pop_lsb(b)] & their)) ++n;
    return n;
}

}  // namespace

EndingScale ending_scale(const Position& pos, Color strong) {
    const Color weak = ~strong;
    const Bitboard pawns = pos.pieces(PAWN);
    const Bitboard pieces = pos.pieces() ^ pos.pieces(KING) ^ pawns;  // neither kings nor pawns
    // Every rule is about a few pieces: one test keeps the rest of the game out.
    if (popcount(pieces) > 4) return {};
    if (pos.has_insufficient_material()) return {0, Ending::Insufficient};
    if (!pieces && one(pawns)) {
        // K+P v K: the table's verdict is exact, a win is left as it is.
        const Color owner = pos.pieces(WHITE, PAWN) ? WHITE : BLACK;
        if (!kpk_win(owner, pos.king_square(owner), lsb(pawns), pos.king_square(~owner), pos.side_to_move()))
            return {0, Ending::KpkDraw};
        if (owner == strong) return {};
    }
    const Bitboard strong_pawns = pos.pieces(strong, PAWN);
    const Bitboard strong_pieces = pieces & pos.pieces(strong), weak_pieces = pieces & pos.pieces(weak);
    const int strong_units = pos.non_pawn_units(strong), weak_units = pos.non_pawn_units(weak);

    if (!strong_pawns) {
        // A king with at most a minor piece mates only with the other side's help.
        if (strong_units <= 3) return {0, Ending::CannotWin};
        if (strong_pieces == pos.pieces(strong, KNIGHT) && popcount(strong_pieces) == 2 && !weak_pieces &&
            !(pawns & pos.pieces(weak)))
            return {0, Ending::TwoKnights};
        if (strong_units - weak_units <= 3)
            return {weak_units <= 3 ? SCALE_PAWNLESS_VS_MINOR : SCALE_PAWNLESS_EVEN, Ending::PawnlessSmallEdge};
        return {};
    }

    // Rook pawns, alone or with a bishop that does not control the queening square, against a bare king
    // next to that square: the king cannot be driven out of the corner.
    const bool weak_bare = pos.pieces(weak) == pos.pieces(weak, KING);
    if (weak_bare && (!(strong_pawns & ~FILE_A_BB) || !(strong_pawns & ~FILE_H_BB)) &&
        (!strong_pieces || strong_pieces == pos.pieces(strong, BISHOP))) {
        const Square queening = relative_square(strong, make_square(file_of(lsb(strong_pawns)), RANK_8));
        const Bitboard queening_colour = (LIGHT_SQUARES & square_bb(queening)) ? LIGHT_SQUARES : DARK_SQUARES;
        const bool wrong_bishop = !strong_pieces || (one(strong_pieces) && !(strong_pieces & queening_colour));
        if (wrong_bishop && distance(pos.king_square(weak), queening) <= 1) return {0, Ending::RookPawnsCorner};
    }

    // Opposite-coloured bishops and pawns: the defender's bishop blockades what it covers.
    if (pieces == pos.pieces(BISHOP) && one(pos.pieces(WHITE, BISHOP)) && one(pos.pieces(BLACK, BISHOP)) &&
        one(pieces & LIGHT_SQUARES)) {
        const int f = SCALE_OPPOSITE_BISHOPS + SCALE_OPPOSITE_BISHOPS_PASSER * passed_pawns(pos, strong);
        return {f < ENDING_SCALE_NORMAL ? f : ENDING_SCALE_NORMAL, Ending::OppositeBishops};
    }

    if (one(strong_pawns)) {
        if (!strong_pieces && weak_pieces) return {SCALE_PAWN_AGAINST_PIECE, Ending::PawnAgainstPiece};
        if (strong_units - weak_units <= 3) return {SCALE_ONE_PAWN, Ending::OnePawnSmallEdge};
    }
    return {};
}

const char* ending_name(Ending rule) {
    switch (rule) {
    case Ending::None: return "none";
    case Ending::Insufficient: return "insufficient material";
    case Ending::KpkDraw: return "K+P v K drawn (table)";
    case Ending::CannotWin: return "no pawn and at most a minor piece: cannot win";
    case Ending::TwoKnights: return "K+N+N v K: cannot force mate";
    case Ending::RookPawnsCorner: return "rook pawns (wrong bishop) against the king in the corner";
    case Ending::PawnlessSmallEdge: return "no pawn, a lead of at most a minor piece";
    case Ending::OppositeBishops: return "opposite-coloured bishops";
    case Ending::PawnAgainstPiece: return "a lone pawn against a piece";
    case Ending::OnePawnSmallEdge: return "one pawn, a lead of at most a minor piece";
    }
    return "?";
}

Value finish_score(const Position& pos, Value v, EndingScale* scale) {
    EndingScale s;
    if (v != 0) {
        s = ending_scale(pos, v > 0 ? pos.side_to_move() : ~pos.side_to_move());
        v = ending_scaled(v, s.factor);
    }
    if (scale) *scale = s;
    return rule50_damped(v, pos.rule50());
}

}  // namespace quince::eval
