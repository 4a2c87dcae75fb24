// Quince's king danger (switch `king_danger`, not in the seeds; the form of Ethereal 12's and
// Stockfish's king safety): one danger count per attacked king, from
//   attackers x (their weights by piece type), attacks on the king zone, weak zone squares, the
//   defender's pawns in the zone, the defender's shelter/storm penalty, "the attacker has no queen",
//   safe checks by piece type and a constant;
// scored for the attacker when it has at least two attackers (one with a queen; Ethereal's gate) and
// the count is positive: opening count^2 / 2048 (quadratic), endgame count * king_danger_eg / 512.
// It replaces Rybka's (king_attack_weight[count] x units) model, and it has no queen-plus-piece gate.
//
// The zone is the king's square and ring extended one rank forward (3 files x 4 ranks in the middle of
// the board). A weak square is attacked by the attacker and defended at most once, by nothing or only
// by the defender's king or queen; a safe checking square holds no piece of the attacker and is either
// not defended or weak and attacked twice. The double attacks come from AttackMaps (eval/terms.h), which
// eval_pieces fills from the attack sets it computes anyway (general path, king_danger or threats2 on).
#pragma once

#include <algorithm>
#include <cstdint>

#include "eval/king.h"
#include "eval/terms.h"

namespace quince::eval {

// The same maps built from scratch, a second pass over the pieces: the reference the tests hold
// eval_pieces' maps to (not used by the evaluation).
template <Color C>
inline void build_attack_maps(const Position& pos, AttackMaps& m) {
    const Bitboard occ = pos.pieces(), pawns = pos.pieces(C, PAWN);
    const Bitboard west = C == WHITE ? shift<NORTH_WEST>(pawns) : shift<SOUTH_WEST>(pawns);
    const Bitboard east = C == WHITE ? shift<NORTH_EAST>(pawns) : shift<SOUTH_EAST>(pawns);
    Bitboard all = west | east, two = west & east;
    m.by[C][PAWN] = all;
    const Bitboard zone = m.zone[~C] = king_danger_zone<~C>(pos.king_square(~C));
    int zone_attacks = 0;
    for (PieceType pt = KNIGHT; pt <= QUEEN; ++pt) {
        Bitboard by = 0;
        int n = 0;
        for (Bitboard b = pos.pieces(C, pt); b;) {
            const Square s = pop_lsb(b);
            const Bitboard a = pt == KNIGHT ? knight_attacks(s)
                               : pt == BISHOP ? bishop_attacks(s, occ)
                               : pt == ROOK   ? rook_attacks(s, occ)
                                              : queen_attacks(s, occ);
            two |= all & a, all |= a, by |= a;
            if (a & zone) ++n, zone_attacks += popcount(a & zone);
        }
        m.by[C][pt] = by;
        m.attackers[C][pt - KNIGHT] = n;
    }
    const Bitboard k = king_attacks(pos.king_square(C));
    m.by[C][KING] = k;
    two |= all & k, all |= k;
    m.all[C] = all, m.two[C] = two;
    m.zone_attacks[C] = zone_attacks;
}

// The danger count's inputs for attacker C against ~C's king, one per weight of the
// KING_DANGER_WEIGHTS run (eval/terms.h), in registry order.
template <Color C, Path Route>
inline void king_danger_inputs(const EvalState& st, const AttackMaps& m, int n[KING_DANGER_WEIGHTS], Bitboard* weak_out,
                               Bitboard* checks_out) {
    constexpr Color Them = ~C;
    const Position& pos = *st.pos;
    const Square ksq = pos.king_square(Them);
    const Bitboard zone = m.zone[Them];
    const int attackers = m.attackers[C][0] + m.attackers[C][1] + m.attackers[C][2] + m.attackers[C][3];
    const Bitboard weak = m.all[C] & ~m.two[Them] & (~m.all[Them] | m.by[Them][QUEEN] | m.by[Them][KING]);
    const Bitboard safe = ~pos.pieces(C) & (~m.all[Them] | (weak & m.two[C]));
    const Bitboard occ = pos.pieces();
    const Bitboard diag = bishop_attacks(ksq, occ), line = rook_attacks(ksq, occ);
    const Bitboard checks[4] = {knight_attacks(ksq) & safe & m.by[C][KNIGHT], diag & safe & m.by[C][BISHOP],
                                line & safe & m.by[C][ROOK], (diag | line) & safe & m.by[C][QUEEN]};
    const ShelterWings sw = shelter_wings<Them, Route>(st);
    for (int i = 0; i < 4; ++i) n[i] = attackers * m.attackers[C][i];
    n[4] = m.zone_attacks[C];
    n[5] = popcount(weak & zone);
    n[6] = popcount(pos.pieces(Them, PAWN) & zone & ~weak);
    n[7] = ((sw.p1 + sw.p2) >> 1) >> 5;  // centipawns of the penalty eval_king_shelter scores
    n[8] = pos.pieces(C, QUEEN) ? 0 : 1;
    for (int i = 0; i < 4; ++i) n[9 + i] = popcount(checks[i]);
    n[13] = 1;
    if (weak_out) *weak_out = weak & zone;
    if (checks_out)
        for (int i = 0; i < 4; ++i) checks_out[i] = checks[i];
}

// Ethereal's gate: two attackers, or one with a queen on the board for the attacker.
template <Color C>
inline bool king_danger_active(const Position& pos, const AttackMaps& m) {
    const int attackers = m.attackers[C][0] + m.attackers[C][1] + m.attackers[C][2] + m.attackers[C][3];
    return attackers > 1 - popcount(pos.pieces(C, QUEEN));
}

// The score of a count: opening and endgame parts, internal units, for the attacker.
inline void king_danger_score(const Weights& w, int count, int& op, int& eg) {
    const std::int64_t c = std::max(count, 0);
    op = int((c * c) >> 11);
    eg = int((c * w.king_danger_eg) >> 9);
}

template <Color C, Tracing T, Path Route>
inline void eval_king_danger(const EvalState& st, const AttackMaps& m, Acc<T>& acc) {
    const Position& pos = *st.pos;
    if (!king_danger_active<C>(pos, m)) return;
    const Weights& w = st.prof->w;
    static constexpr int Weights::*WEIGHT[KING_DANGER_WEIGHTS] = {
        &Weights::king_danger_attacker_knight, &Weights::king_danger_attacker_bishop, &Weights::king_danger_attacker_rook,
        &Weights::king_danger_attacker_queen,  &Weights::king_danger_zone_attack,     &Weights::king_danger_weak,
        &Weights::king_danger_pawn,            &Weights::king_danger_shelter,         &Weights::king_danger_no_queen,
        &Weights::king_danger_check_knight,    &Weights::king_danger_check_bishop,    &Weights::king_danger_check_rook,
        &Weights::king_danger_check_queen,     &Weights::king_danger_adjust};
    int n[KING_DANGER_WEIGHTS];
    Bitboard weak = 0, checks[4] = {};
    king_danger_inputs<C, Route>(st, m, n, &weak, checks);
    int count = 0;
    for (int i = 0; i < KING_DANGER_WEIGHTS; ++i) count += n[i] * w.*WEIGHT[i];
    int op, eg;
    king_danger_score(w, count, op, eg);
    acc.template add<C>(T_KING_DANGER, op, eg);
    if constexpr (T == Tracing::On) {
        if (acc.tr->coef) {
            CoefTrace::KingDanger& kd = acc.tr->coef->king_danger[C];
            kd.on = true;
            for (int i = 0; i < KING_DANGER_WEIGHTS; ++i) kd.n[i] = n[i];
        }
        if (acc.squares() && (op || eg)) {
            // Shared among C's pieces by their attacks on the zone plus their safe checks; with none,
            // on the attacked king's square.
            const EvalState::KingAttackers& k = st.kat[C];
            const Bitboard zone = m.zone[~C];
            int units[EvalState::KingAttackers::MAX] = {}, total = 0, last = -1;
            for (int i = 0; i < k.n; ++i) {
                const Bitboard a = attacks_bb(k.pt[i], k.sq[i], pos.pieces());
                units[i] = popcount(a & zone) + popcount(a & checks[k.pt[i] - KNIGHT]);
                if (units[i]) total += units[i], last = i;
            }
            if (last < 0) {
                acc.template at<C>(T_KING_DANGER, pos.king_square(~C), op, eg);
            } else {
                int left_op = op, left_eg = eg;
                for (int i = 0; i < last; ++i) {
                    const int so = int(std::int64_t(op) * units[i] / total), se = int(std::int64_t(eg) * units[i] / total);
                    acc.template at<C>(T_KING_DANGER, k.sq[i], so, se);
                    left_op -= so, left_eg -= se;
                }
                acc.template at<C>(T_KING_DANGER, k.sq[last], left_op, left_eg);
            }
        }
    }
}

}  // namespace quince::eval
