// Patterns (spec §11): trapped bishop (bitboard form, once per side), blocked bishop, blocked rook.
// Written for White on the board seen from C.
#pragma once

#include <algorithm>

#include "eval/pawns.h"
#include "eval/terms.h"

namespace quince::eval {

// Route: Path::General reads the profile's switches beyond the Rybka 1.0 set; Path::Fast has them at
// their 1.0 values at compile time (Profile::path).
template <Color C, Tracing T, Path Route>
inline void eval_patterns(const EvalState& st, Acc<T>& acc) {
    constexpr bool general = Route == Path::General;
    constexpr Color Them = ~C;
    const Position& pos = *st.pos;
    const Weights& w = st.prof->w;
    const Bitboard B = rel<C>(pos.pieces(C, BISHOP)), R = rel<C>(pos.pieces(C, ROOK));
    const Bitboard P = rel<C>(pos.pieces(C, PAWN)), K = rel<C>(pos.pieces(C, KING));
    const Bitboard oppP = rel<C>(pos.pieces(Them, PAWN)), occ = rel<C>(pos.pieces());
    // Bishop on a6/a7/b8 shut in by a pawn on b5/b6/c7 (>> 7), h6/h7/g8 by g5/g6/f7 (>> 9).
    constexpr Bitboard TRAP_A = 0x0004020200000000ULL;  // b5, b6, c7
    constexpr Bitboard TRAP_H = 0x0020404000000000ULL;  // g5, g6, f7 (§15 item 9)
    const Bitboard trapped = ((B >> 7) & oppP & TRAP_A) | ((B >> 9) & oppP & TRAP_H);  // one bit per bishop
    if (general && w.trapped_bishop_per_bishop) {
        // 2.3.2a: every trapped bishop; Fruit: the a6/h6 bishops (pawn on b5/g5, so on the 6th) cost less.
        // The bishops' squares are the pawns', 7 or 9 back.
        for (Bitboard b = ((trapped & TRAP_A) << 7) | ((trapped & TRAP_H) << 9); b;) {
            const Square s = pop_lsb(b);
            acc.template term<C>(T_PATTERNS, rank_of(s) == RANK_6 ? WI::trapped_bishop_6th : WI::trapped_bishop, -1,
                                 relative_square(C, s));
        }
    } else if (trapped) {
        // 1.0: once; the first bishop takes it in the picture.
        const Bitboard bishops = ((trapped & TRAP_A) << 7) | ((trapped & TRAP_H) << 9);
        acc.template term<C>(T_PATTERNS, WI::trapped_bishop, -1, relative_square(C, lsb(bishops)));
    }
    if ((B & square_bb(SQ_C1)) && (P & square_bb(SQ_D2)) && (occ & square_bb(SQ_D3)))
        acc.template term<C>(T_PATTERNS, WI::blocked_bishop_op, -1, relative_square(C, SQ_C1));
    if ((B & square_bb(SQ_F1)) && (P & square_bb(SQ_E2)) && (occ & square_bb(SQ_E3)))
        acc.template term<C>(T_PATTERNS, WI::blocked_bishop_op, -1, relative_square(C, SQ_F1));
    constexpr Bitboard ROOK_Q = 0x103, KING_Q = 0x6, ROOK_K = 0x80C0, KING_K = 0x60;  // a1 b1 a2 / b1 c1 ...
    if ((R & ROOK_Q) && (K & KING_Q))
        acc.template term<C>(T_PATTERNS, WI::blocked_rook_op, -1, relative_square(C, lsb(R & ROOK_Q)));
    if ((R & ROOK_K) && (K & KING_K))
        acc.template term<C>(T_PATTERNS, WI::blocked_rook_op, -1, relative_square(C, lsb(R & ROOK_K)));
}

// Quince's threats (switch `threats`, not in the seeds): enemy pieces attacked by lesser pieces, and
// hanging ones. After both piece loops: needs both colours' attack sets.
template <Color C, Tracing T>
inline void eval_threats(const EvalState& st, Acc<T>& acc) {
    constexpr Color Them = ~C;
    const Position& pos = *st.pos;
    const Bitboard minors = pos.pieces(Them, KNIGHT, BISHOP), majors = pos.pieces(Them, ROOK, QUEEN);
    const Bitboard by_pawn = pawn_attacks_bb<C>(pos.pieces(C, PAWN));
    // Each on the attacked piece's square in the picture; untraced, one addition per kind.
    const auto threat = [&](PairRef r, Bitboard targets) {
        if (acc.squares())
            for (Bitboard b = targets; b;) acc.template term<C>(T_THREATS, r, 1, pop_lsb(b));
        else
            acc.template term<C>(T_THREATS, r, popcount(targets));
    };
    threat(WI::threat_pawn, by_pawn & (minors | majors));
    threat(WI::threat_minor, (st.att_by[C][0] | st.att_by[C][1]) & majors);
    threat(WI::threat_rook, st.att_by[C][2] & pos.pieces(Them, QUEEN));
    threat(WI::threat_hanging, st.att[C] & (minors | majors) & ~st.att[Them]);
}

// Minor and rook knowledge of Ethereal 12's evaluatePieces (switch `pieces2`, not in the seeds), on the
// board seen from C (rel<C>; squares back to the real board for the picture). Linear in its weights.
template <Color C, Tracing T>
inline void eval_pieces2(const EvalState& st, Acc<T>& acc) {
    constexpr Color Them = ~C;
    const Position& pos = *st.pos;
    const Bitboard P = rel<C>(pos.pieces(C, PAWN)), O = rel<C>(pos.pieces(Them, PAWN)), pawns = P | O;
    // Squares an enemy pawn attacks now or after advancing: its attacks filled towards rank 1.
    const Bitboard span = fill_south(pawn_attacks_bb<BLACK>(O));
    const Bitboard outposts = (rank_bb(RANK_4) | rank_bb(RANK_5) | rank_bb(RANK_6)) & ~span;
    const Bitboard defended = pawn_attacks_bb<WHITE>(P);
    const Bitboard behind = pawns >> 8;  // squares with a pawn directly in front
    const auto outpost = [&](PairArrayRef<4> r, Square s) {
        if (outposts & s) {
            const bool outside = (FILE_A_BB | FILE_H_BB) & s;
            acc.template term<C>(T_PATTERNS, r, 2 * outside + bool(defended & s), 1, relative_square(C, s));
        }
    };
    // Closedness (Ethereal): pawns + 3 rammed pairs - 4 pawnless files, / 3 into 0..8; knights like it, rooks not.
    const Bitboard wp = pos.pieces(WHITE, PAWN), bp = pos.pieces(BLACK, PAWN);
    const Bitboard files = fill_south(wp | bp) & rank_bb(RANK_1);
    const int closed = popcount(wp | bp) + 3 * popcount(wp & (bp >> 8)) - 4 * (8 - popcount(files));
    const int bucket = std::clamp(closed / 3, 0, 8);
    const Square ks[2] = {pos.king_square(WHITE), pos.king_square(BLACK)};
    for (Bitboard b = rel<C>(pos.pieces(C, KNIGHT)); b;) {
        const Square s = pop_lsb(b), real = relative_square(C, s);
        outpost(WI::outpost_knight, s);
        if (behind & s) acc.template term<C>(T_PATTERNS, WI::knight_behind_pawn, 1, real);
        const int d = std::min(distance(real, ks[0]), distance(real, ks[1]));
        if (d >= 4) acc.template term<C>(T_PATTERNS, WI::knight_far_from_kings, d - 4, 1, real);
        acc.template term<C>(T_PATTERNS, WI::closed_knight, bucket, 1, real);
    }
    constexpr Bitboard LONG_DIAGONALS = 0x8040201008040201ULL | 0x0102040810204080ULL;
    constexpr Bitboard CENTRE = (FILE_A_BB << 3 | FILE_A_BB << 4) & (RANK_1_BB << 24 | RANK_1_BB << 32);
    const Bitboard rammed = P & (O >> 8);
    for (Bitboard b = rel<C>(pos.pieces(C, BISHOP)); b;) {
        const Square s = pop_lsb(b), real = relative_square(C, s);
        outpost(WI::outpost_bishop, s);
        if (behind & s) acc.template term<C>(T_PATTERNS, WI::bishop_behind_pawn, 1, real);
        const Bitboard colour = (LIGHT_SQUARES & s) ? LIGHT_SQUARES : DARK_SQUARES;
        if (const int n = popcount(rammed & colour)) acc.template term<C>(T_PATTERNS, WI::bishop_rammed_pawns, n, real);
        if ((LONG_DIAGONALS & ~CENTRE & s) && more_than_one(bishop_attacks(s, pawns) & CENTRE))
            acc.template term<C>(T_PATTERNS, WI::bishop_long_diagonal, 1, real);
    }
    for (Bitboard b = pos.pieces(C, ROOK); b;) acc.template term<C>(T_PATTERNS, WI::closed_rook, bucket, 1, pop_lsb(b));
}

}  // namespace quince::eval
