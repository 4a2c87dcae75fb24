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

// Minor and rook knowledge of Ethereal 12's evaluatePieces (switch `pieces2`, not in the seeds). Linear in
// its weights. Each term counts pieces on a set of squares, so an untraced evaluation adds one count per
// term (a loop only over the few knights, the outposts and the long diagonals); the picture puts each
// piece's share on its square. The pawn-only parts (closedness, rammed pawns by square colour) come from
// the pawn entry.
template <Color C, Tracing T>
inline void eval_pieces2(const EvalState& st, Acc<T>& acc) {
    constexpr Color Them = ~C;
    const Position& pos = *st.pos;
    const PawnEntry& pe = *st.pawn;
    const Bitboard P = pos.pieces(C, PAWN), O = pos.pieces(Them, PAWN), pawns = P | O;
    const Bitboard N = pos.pieces(C, KNIGHT), B = pos.pieces(C, BISHOP);
    // n pieces on b, each worth r (element e of an array): one count, or one per square in the picture.
    const auto count = [&](auto r, Bitboard b) {
        if (acc.squares())
            for (; b;) acc.template term<C>(T_PATTERNS, r, 1, pop_lsb(b));
        else
            acc.template term<C>(T_PATTERNS, r, popcount(b));
    };
    const auto count_at = [&](auto r, int e, Bitboard b) {
        if (acc.squares())
            for (; b;) acc.template term<C>(T_PATTERNS, r, e, 1, pop_lsb(b));
        else
            acc.template term<C>(T_PATTERNS, r, e, popcount(b));
    };
    // Outposts: relative ranks 4-6 that no enemy pawn attacks now or after advancing (its attacks
    // filled towards C's side); by [2 * on the a/h file + defended by a pawn].
    Bitboard span = pawn_attacks_bb<Them>(O);
    if constexpr (C == WHITE) span = fill_south(span);
    else span |= span << 8, span |= span << 16, span |= span << 32;  // towards rank 8
    const Bitboard outposts = (C == WHITE ? rank_bb(RANK_4) | rank_bb(RANK_5) | rank_bb(RANK_6)
                                          : rank_bb(RANK_3) | rank_bb(RANK_4) | rank_bb(RANK_5)) & ~span;
    if (const Bitboard on = (N | B) & outposts) {
        const Bitboard defended = pawn_attacks_bb<C>(P);
        for (Bitboard b = on; b;) {
            const Square s = pop_lsb(b);
            const int e = 2 * bool((FILE_A_BB | FILE_H_BB) & s) + bool(defended & s);
            acc.template term<C>(T_PATTERNS, (N & s) ? WI::outpost_knight : WI::outpost_bishop, e, 1, s);
        }
    }
    // A pawn (either colour) directly in front.
    const Bitboard behind = C == WHITE ? pawns >> 8 : pawns << 8;
    count(WI::knight_behind_pawn, N & behind);
    count(WI::bishop_behind_pawn, B & behind);
    // Knights at distance 4..7 from the nearer king.
    const Square wk = pos.king_square(WHITE), bk = pos.king_square(BLACK);
    for (Bitboard b = N; b;) {
        const Square s = pop_lsb(b);
        const int d = std::min(distance(s, wk), distance(s, bk));
        if (d >= 4) acc.template term<C>(T_PATTERNS, WI::knight_far_from_kings, d - 4, 1, s);
    }
    // Closedness: knights like it, rooks not.
    count_at(WI::closed_knight, pe.closedness, N);
    count_at(WI::closed_rook, pe.closedness, pos.pieces(C, ROOK));
    // Per own pawn on the bishop's colour blocked by an enemy pawn.
    if (acc.squares()) {
        for (Bitboard b = B; b;) {
            const Square s = pop_lsb(b);
            if (const int n = pe.rammed[C][bool(LIGHT_SQUARES & s)]) acc.template term<C>(T_PATTERNS, WI::bishop_rammed_pawns, n, s);
        }
    } else {
        acc.template term<C>(T_PATTERNS, WI::bishop_rammed_pawns,
                             popcount(B & DARK_SQUARES) * pe.rammed[C][0] + popcount(B & LIGHT_SQUARES) * pe.rammed[C][1]);
    }
    // A bishop on a long diagonal (not in the centre) that sees two centre squares through the pawns.
    constexpr Bitboard LONG_DIAGONALS = 0x8040201008040201ULL | 0x0102040810204080ULL;
    constexpr Bitboard CENTRE = (FILE_A_BB << 3 | FILE_A_BB << 4) & (RANK_1_BB << 24 | RANK_1_BB << 32);
    for (Bitboard b = B & LONG_DIAGONALS & ~CENTRE; b;) {
        const Square s = pop_lsb(b);
        if (more_than_one(bishop_attacks(s, pawns) & CENTRE)) acc.template term<C>(T_PATTERNS, WI::bishop_long_diagonal, 1, s);
    }
}

}  // namespace quince::eval
