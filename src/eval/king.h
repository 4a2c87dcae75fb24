// King shelter and storm in the main evaluation (spec §7.2 combination): the penalty of the king's
// wing, averaged with the best wing the king can still castle to. Opening only; evaluated for C's king
// when the opponent has a queen and another piece. (The attack part is computed in pieces.h from the
// same attack sets as mobility.)
#pragma once

#include <algorithm>

#include "eval/terms.h"

namespace quince::eval {

// The shelter/storm penalty of C's king's wing (p1) and of the best wing it may still castle to (p2;
// the own wing again when it castles nowhere better, or with 2.3.2a's own-wing rule).
struct ShelterWings {
    int p1, p2, wing1, wing2;
};
template <Color C, Path Route>
inline ShelterWings shelter_wings(const EvalState& st) {
    constexpr bool general = Route == Path::General;
    const Position& pos = *st.pos;
    const std::uint16_t* pen = st.pawn->shelter[C];
    const int wing1 = KING_WING[file_of(pos.king_square(C))];
    ShelterWings r{pen[wing1], pen[wing1], wing1, wing1};  // 2.3.2a: own wing only, (p1 + p1) >> 1 = p1
    if (!general || st.prof->w.shelter_castling) {
        if (pos.can_castle(C == WHITE ? WHITE_OO : BLACK_OO) && pen[2] < r.p2) r.p2 = pen[2], r.wing2 = 2;
        if (pos.can_castle(C == WHITE ? WHITE_OOO : BLACK_OOO) && pen[0] < r.p2) r.p2 = pen[0], r.wing2 = 0;
    }
    return r;
}

// Route: Path::General reads the profile's switches beyond the Rybka 1.0 set; Path::Fast has them at
// their 1.0 values at compile time (Profile::path).
template <Color C, Tracing T, Path Route>
inline void eval_king_shelter(const EvalState& st, Acc<T>& acc) {
    if (!(st.mat.cflags & (C == WHITE ? MAT_WHITE_KING_FLAG : MAT_BLACK_KING_FLAG))) return;
    const Position& pos = *st.pos;
    const ShelterWings sw = shelter_wings<C, Route>(st);
    const int p1 = sw.p1, p2 = sw.p2, wing1 = sw.wing1, wing2 = sw.wing2;
    acc.template add<C>(T_SHELTER, -((p1 + p2) >> 1), 0);
    acc.template at<C>(T_SHELTER, pos.king_square(C), -((p1 + p2) >> 1), 0);
    if (acc.coefs()) {
        // The penalty of each of the two wings, halved: its shelter and storm weights.
        const Bitboard own = rel<C>(pos.pieces(C, PAWN)), opp = rel<C>(pos.pieces(~C, PAWN));
        const auto note = [&](int index, int k) { acc.template coef<C>(index, -0.5 * k); };
        for (int wing : {wing1, wing2}) {
            shelter_terms(st.prof->w, wing_mask(own, wing), note);
            storm_terms(st.prof->w, wing_mask(opp, wing), note);
        }
    }
}

// Quince's king attack with safe checks (king_safe_checks): the units of the pieces reaching the
// zone plus, per piece type, units for each square from which such a piece could give check and that
// the defender does not attack; then Rybka's (weight[count] * units) >> 5.
template <Color C, Tracing T>
inline void eval_king_safe_checks(const EvalState& st, Acc<T>& acc) {
    const EvalState::PendingKingAttack& k = st.ka[C];
    if (!k.on) return;
    const Position& pos = *st.pos;
    const Weights& w = st.prof->w;
    const Square ksq = pos.king_square(~C);
    const Bitboard occ = pos.pieces();
    const Bitboard safe = ~st.att[~C] & ~pos.pieces(C);
    const Bitboard diag = bishop_attacks(ksq, occ), line = rook_attacks(ksq, occ);
    const int checks[4] = {popcount(knight_attacks(ksq) & k.by_type[0] & safe), popcount(diag & k.by_type[1] & safe),
                           popcount(line & k.by_type[2] & safe), popcount((diag | line) & k.by_type[3] & safe)};
    // Weak squares of the zone: reached by a piece of the attacker, covered by no pawn, minor or rook of
    // the defender.
    const Bitboard covered = pawn_attacks_bb<~C>(pos.pieces(~C, PAWN)) | st.att_by[~C][0] | st.att_by[~C][1] |
                             st.att_by[~C][2];
    const Bitboard reach = k.by_type[0] | k.by_type[1] | k.by_type[2] | k.by_type[3];
    const Bitboard weak_squares = king_attacks(ksq) & reach & ~covered;
    const int weak = popcount(weak_squares);
    const int units = k.weight + checks[0] * w.king_check_unit_knight + checks[1] * w.king_check_unit_bishop +
                      checks[2] * w.king_check_unit_rook + checks[3] * w.king_check_unit_queen +
                      weak * w.king_weak_unit;
    acc.template add<C>(T_KING_ATTACK, (w.king_attack_weight[k.count] * units) >> 5, 0);
    if constexpr (T == Tracing::On)
        if (acc.squares()) {
            // Each piece's zone units plus the safe checks it gives and the weak squares it reaches itself
            // (per piece, so overlaps count twice here; only the proportions matter).
            const EvalState::KingAttackers& kat = st.kat[C];
            const Bitboard check_from[4] = {knight_attacks(ksq), diag, line, diag | line};
            const int check_unit[4] = {w.king_check_unit_knight, w.king_check_unit_bishop, w.king_check_unit_rook,
                                       w.king_check_unit_queen};
            int per_piece[EvalState::KingAttackers::MAX] = {};
            for (int i = 0; i < kat.n; ++i) {
                const int t = kat.pt[i] - KNIGHT;
                const Bitboard a = attacks_bb(kat.pt[i], kat.sq[i], occ);
                per_piece[i] = kat.unit[i] + popcount(a & check_from[t] & safe) * check_unit[t] +
                               popcount(a & weak_squares) * w.king_weak_unit;
            }
            share_king_attack<C, T>(st, acc, (w.king_attack_weight[k.count] * units) >> 5, per_piece);
        }
    if constexpr (T == Tracing::On)
        if (acc.tr->coef) {
            CoefTrace::KingAttack& ka = acc.tr->coef->king_attack[C];
            ka.on = true;
            ka.count = k.count;
            for (int i = 0; i < 4; ++i) ka.n[i] = k.attackers[i], ka.n[4 + i] = checks[i];
            ka.n[8] = weak;
        }
}

}  // namespace quince::eval
