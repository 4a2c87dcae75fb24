// Patterns (spec §11): trapped bishop (bitboard form, once per side), blocked bishop, blocked rook.
// Written for White on the board seen from C.
#pragma once

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
    int op = 0, eg = 0;
    const Bitboard trapped = ((B >> 7) & oppP & TRAP_A) | ((B >> 9) & oppP & TRAP_H);  // one bit per bishop
    if (general && w.trapped_bishop_per_bishop) {
        // 2.3.2a: every trapped bishop; Fruit: the a6/h6 bishops (pawn on b5/g5, rank 5) cost less.
        constexpr Bitboard RANK5 = 0x000000FF00000000ULL;
        const int n6 = popcount(trapped & RANK5), n7 = popcount(trapped & ~RANK5);
        op -= n7 * w.trapped_bishop_op + n6 * w.trapped_bishop_6th_op;
        eg -= n7 * w.trapped_bishop_eg + n6 * w.trapped_bishop_6th_eg;
        acc.template coef<C>("trapped_bishop_op", -n7), acc.template coef<C>("trapped_bishop_eg", -n7);
        acc.template coef<C>("trapped_bishop_6th_op", -n6), acc.template coef<C>("trapped_bishop_6th_eg", -n6);
    } else if (trapped) {
        op -= w.trapped_bishop_op, eg -= w.trapped_bishop_eg;  // 1.0: once
        acc.template coef<C>("trapped_bishop_op", -1), acc.template coef<C>("trapped_bishop_eg", -1);
    }
    if (acc.squares() && trapped) {
        // The bishops' squares (the pawn's, 7 or 9 back); 1.0 counts once: the first bishop takes it.
        const Bitboard bishops = ((trapped & TRAP_A) << 7) | ((trapped & TRAP_H) << 9);
        if (general && w.trapped_bishop_per_bishop) {
            for (Bitboard b = bishops; b;) {
                const Square s = pop_lsb(b);
                const bool sixth = rank_of(s) == RANK_6;
                acc.template at<C>(T_PATTERNS, relative_square(C, s), sixth ? -w.trapped_bishop_6th_op : -w.trapped_bishop_op,
                                   sixth ? -w.trapped_bishop_6th_eg : -w.trapped_bishop_eg);
            }
        } else {
            acc.template at<C>(T_PATTERNS, relative_square(C, lsb(bishops)), -w.trapped_bishop_op, -w.trapped_bishop_eg);
        }
    }
    int blocked_bishops = 0, blocked_rooks = 0;
    if ((B & square_bb(SQ_C1)) && (P & square_bb(SQ_D2)) && (occ & square_bb(SQ_D3))) ++blocked_bishops;
    if ((B & square_bb(SQ_F1)) && (P & square_bb(SQ_E2)) && (occ & square_bb(SQ_E3))) ++blocked_bishops;
    constexpr Bitboard ROOK_Q = 0x103, KING_Q = 0x6, ROOK_K = 0x80C0, KING_K = 0x60;  // a1 b1 a2 / b1 c1 ...
    if ((R & ROOK_Q) && (K & KING_Q)) ++blocked_rooks;
    if ((R & ROOK_K) && (K & KING_K)) ++blocked_rooks;
    op -= blocked_bishops * w.blocked_bishop_op + blocked_rooks * w.blocked_rook_op;
    if (acc.squares()) {
        if ((B & square_bb(SQ_C1)) && (P & square_bb(SQ_D2)) && (occ & square_bb(SQ_D3)))
            acc.template at<C>(T_PATTERNS, relative_square(C, SQ_C1), -w.blocked_bishop_op, 0);
        if ((B & square_bb(SQ_F1)) && (P & square_bb(SQ_E2)) && (occ & square_bb(SQ_E3)))
            acc.template at<C>(T_PATTERNS, relative_square(C, SQ_F1), -w.blocked_bishop_op, 0);
        if ((R & ROOK_Q) && (K & KING_Q)) acc.template at<C>(T_PATTERNS, relative_square(C, lsb(R & ROOK_Q)), -w.blocked_rook_op, 0);
        if ((R & ROOK_K) && (K & KING_K)) acc.template at<C>(T_PATTERNS, relative_square(C, lsb(R & ROOK_K)), -w.blocked_rook_op, 0);
    }
    acc.template coef<C>("blocked_bishop_op", -blocked_bishops), acc.template coef<C>("blocked_rook_op", -blocked_rooks);
    acc.template add<C>(T_PATTERNS, op, eg);
}

// Quince's threats (switch `threats`, not in the seeds): enemy pieces attacked by lesser pieces, and
// hanging ones. After both piece loops: needs both colours' attack sets.
template <Color C, Tracing T>
inline void eval_threats(const EvalState& st, Acc<T>& acc) {
    constexpr Color Them = ~C;
    const Position& pos = *st.pos;
    const Weights& w = st.prof->w;
    const Bitboard minors = pos.pieces(Them, KNIGHT, BISHOP), majors = pos.pieces(Them, ROOK, QUEEN);
    const Bitboard by_pawn = pawn_attacks_bb<C>(pos.pieces(C, PAWN));
    const int pawn = popcount(by_pawn & (minors | majors));
    const int minor = popcount((st.att_by[C][0] | st.att_by[C][1]) & majors);
    const int rook = popcount(st.att_by[C][2] & pos.pieces(Them, QUEEN));
    const int hanging = popcount(st.att[C] & (minors | majors) & ~st.att[Them]);
    acc.template add<C>(T_THREATS,
                        pawn * w.threat_pawn_op + minor * w.threat_minor_op + rook * w.threat_rook_op + hanging * w.threat_hanging_op,
                        pawn * w.threat_pawn_eg + minor * w.threat_minor_eg + rook * w.threat_rook_eg + hanging * w.threat_hanging_eg);
    if (acc.squares()) {
        // On the attacked piece's square.
        const auto on = [&](Bitboard targets, int o, int e) {
            for (Bitboard b = targets; b;) acc.template at<C>(T_THREATS, pop_lsb(b), o, e);
        };
        on(by_pawn & (minors | majors), w.threat_pawn_op, w.threat_pawn_eg);
        on((st.att_by[C][0] | st.att_by[C][1]) & majors, w.threat_minor_op, w.threat_minor_eg);
        on(st.att_by[C][2] & pos.pieces(Them, QUEEN), w.threat_rook_op, w.threat_rook_eg);
        on(st.att[C] & (minors | majors) & ~st.att[Them], w.threat_hanging_op, w.threat_hanging_eg);
    }
    if (acc.coefs()) {
        acc.template coef<C>("threat_pawn_op", pawn), acc.template coef<C>("threat_pawn_eg", pawn);
        acc.template coef<C>("threat_minor_op", minor), acc.template coef<C>("threat_minor_eg", minor);
        acc.template coef<C>("threat_rook_op", rook), acc.template coef<C>("threat_rook_eg", rook);
        acc.template coef<C>("threat_hanging_op", hanging), acc.template coef<C>("threat_hanging_eg", hanging);
    }
}

}  // namespace quince::eval
