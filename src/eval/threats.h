// Quince's threats from double attacks (switch `threats2`, not in the seeds): the threats of Ethereal 12
// that the `threats` group (eval/patterns.h) lacks, plus Stockfish's restricted squares. Each counts
// enemy pieces or squares for the attacker C; the picture puts each on the attacked piece's (or
// restricted) square. They read AttackMaps (eval/terms.h), which eval_pieces fills when the switch is on.
//
// "Poorly defended" (Ethereal): C attacks it and the enemy does not defend it, or C attacks it twice and
// the enemy defends it at most once and not with a pawn.
//
// Overlap with `threats`: Ethereal's "minor attacked by a pawn" and "rook attacked by a lesser piece"
// are threat_pawn and threat_minor already (a pawn or minor attacking a piece worth more), so they are
// not repeated; threat_queen_by_any is added on top of threat_pawn/minor/rook on queens (the extra for
// a queen attacked at all, by a queen or king too), and threat_hanging stays (an undefended piece).
#pragma once

#include "eval/terms.h"

namespace quince::eval {

// The nine kinds in the order eval_threats2 counts them; Profile::threats2_packed holds their weights
// packed (pack(op, eg)) in the same order.
inline constexpr int THREATS2_KINDS = 9;
inline constexpr PairRef THREATS2[THREATS2_KINDS] = {
    WI::threat_weak_pawn,     WI::threat_minor_by_minor, WI::threat_minor_by_major,
    WI::threat_minor_by_king, WI::threat_rook_by_king,   WI::threat_queen_by_any,
    WI::threat_overloaded,    WI::threat_pawn_push,      WI::threat_restricted};

template <Color C, Tracing T>
inline void eval_threats2(const EvalState& st, Acc<T>& acc) {
    constexpr Color Them = ~C;
    const Position& pos = *st.pos;
    const AttackMaps& m = st.maps;
    const Bitboard minors = pos.pieces(Them, KNIGHT, BISHOP), rooks = pos.pieces(Them, ROOK);
    const Bitboard pieces = minors | pos.pieces(Them, ROOK, QUEEN);
    const Bitboard by_minor = m.by[C][KNIGHT] | m.by[C][BISHOP], by_major = m.by[C][ROOK] | m.by[C][QUEEN];
    const Bitboard poorly = (m.all[C] & ~m.all[Them]) | (m.two[C] & ~m.two[Them] & ~m.by[Them][PAWN]);
    const Bitboard weak_minors = minors & poorly;
    // A safe push: one or two squares (from the second rank) to empty squares no enemy pawn attacks,
    // which C attacks or the enemy does not.
    const Bitboard empty = ~pos.pieces(), own_pawns = pos.pieces(C, PAWN);
    const Bitboard third = rank_bb(relative_rank(C, RANK_3));
    Bitboard push = (C == WHITE ? own_pawns << 8 : own_pawns >> 8) & empty;
    push |= (C == WHITE ? (push & third & ~m.by[Them][PAWN]) << 8 : (push & third & ~m.by[Them][PAWN]) >> 8) & empty;
    push &= ~m.by[Them][PAWN] & (m.all[C] | ~m.all[Them]);
    // Stockfish: squares the enemy attacks and C contests, unless the enemy holds them with a pawn or
    // attacks them twice where C does not.
    const Bitboard strong = m.by[Them][PAWN] | (m.two[Them] & ~m.two[C]);

    // In THREATS2's order.
    const Bitboard targets[THREATS2_KINDS] = {
        pos.pieces(Them, PAWN) & ~m.by[C][PAWN] & poorly,
        minors & by_minor,
        weak_minors & by_major,
        weak_minors & m.by[C][KING],
        rooks & poorly & m.by[C][KING],
        pos.pieces(Them, QUEEN) & m.all[C],
        pieces & m.all[C] & ~m.two[C] & m.all[Them] & ~m.two[Them],
        pieces & pawn_attacks_bb<C>(push),
        m.all[Them] & m.all[C] & ~strong};
    if constexpr (T == Tracing::On) {
        // Each on the attacked piece's (or restricted) square in the picture.
        for (int i = 0; i < THREATS2_KINDS; ++i) {
            if (acc.squares())
                for (Bitboard b = targets[i]; b;) acc.template term<C>(T_THREATS, THREATS2[i], 1, pop_lsb(b));
            else
                acc.template term<C>(T_THREATS, THREATS2[i], popcount(targets[i]));
        }
    } else {
        // Untraced: one multiplication per kind on the packed weights, one addition in all.
        const std::int64_t* packed = st.prof->threats2_packed;
        std::int64_t sum = 0;
        for (int i = 0; i < THREATS2_KINDS; ++i) sum += popcount(targets[i]) * packed[i];
        acc.template add<C>(T_THREATS, unpack_op(sum), unpack_eg(sum));
    }
}

}  // namespace quince::eval
