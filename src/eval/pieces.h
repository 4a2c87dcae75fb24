// Piece terms (spec §7.1 attack counting, §8 mobility, §9 rook files and 7th rank): one pass over
// colour C's pieces builds the attack sets used by mobility, king attack and the passer free-path test.
#pragma once

#include <algorithm>
#include <type_traits>

#include "eval/mobility.h"
#include "eval/pst.h"
#include "eval/terms.h"

namespace quince::eval {

// Files (§9.1) of C's rook on s: only pawns in front of the rook matter (Fruit: the whole file). The pawns
// and the enemy king as eval_pieces has them; zone: the enemy king's neighbours; ks: C's king attack is
// evaluated (the material table's flag).
template <Color C, Tracing T, Path Route>
inline void eval_rook_file(const EvalState& st, Acc<T>& acc, Square s, Bitboard ownP, Bitboard oppP, Bitboard oppK,
                           Bitboard zone, bool ks) {
    constexpr bool general = Route == Path::General;
    const Weights& w = st.prof->w;
    const Bitboard Fr = general && w.rook_file_whole ? file_bb(file_of(s)) : rel<C>(PAWN_MASKS.fwd[relative_square(C, s)]);
    if (general && ((w.rook_file_base_op | w.rook_file_base_eg) || acc.coefs()))
        acc.template term<C>(T_ROOK_FILE, WI::rook_file_base, 1, s);
    if ((Fr & ownP) == 0) {
        acc.template term<C>(T_ROOK_FILE, WI::rook_semi_open, 1, s);
        if ((Fr & oppP) == 0) acc.template term<C>(T_ROOK_FILE, WI::rook_open, 1, s);
        // 1.0: file meets the king zone (needs the king-safety flag), king on it: more.
        // 2.3.2a: king on the file only, no material condition.
        if (ks || (general && !w.rook_king_needs_flag)) {
            const bool near = Fr & zone;
            if (near) acc.template term<C>(T_ROOK_FILE, WI::rook_king_zone_op, 1, s);
            if ((Fr & oppK) && (near || (general && !w.rook_king_file_needs_zone)))
                acc.template term<C>(T_ROOK_FILE, WI::rook_king_file_op, 1, s);
        }
    }
}

// 2.3.2a pawn "anti-mobility" (§13.1): C's pawns whose push square is occupied [inferred reading].
template <Color C, Tracing T, Path Route>
inline void eval_pawn_blocked(const EvalState& st, Acc<T>& acc) {
    const Weights& w = st.prof->w;
    if (Route == Path::General && ((w.pawn_blocked_op | w.pawn_blocked_eg) || acc.coefs())) {
        const Position& pos = *st.pos;
        const Bitboard ownP = pos.pieces(C, PAWN), occ = pos.pieces();
        const Bitboard blocked = C == WHITE ? ((ownP << 8) & occ) >> 8 : ((ownP >> 8) & occ) << 8;
        if (acc.squares())
            for (Bitboard b = blocked; b;) acc.template term<C>(T_PAWN_MOBILITY, WI::pawn_blocked, -1, pop_lsb(b));
        else
            acc.template term<C>(T_PAWN_MOBILITY, WI::pawn_blocked, -popcount(blocked));
    }
}

// What C's piece loop counted for its king attack (§7.1): attackers (capped later), their units, the
// attackers and attack set per piece type (knight..queen).
struct KingAttackCount {
    int count, weight;
    int attackers[4];
    Bitboard by_type[4];
};

// §7.1: C's king attack, (KingAttackWeight[count] * units) >> 5 (floor), when the material table's flag
// says so; with king_safe_checks it is finished after both piece loops (eval_king_safe_checks), so it is
// left pending in st.ka[C].
template <Color C, Tracing T, Path Route>
inline void eval_king_attack(EvalState& st, Acc<T>& acc, bool ks, const KingAttackCount& k) {
    if (!ks) return;
    const Weights& w = st.prof->w;
    if (Route == Path::General && w.king_safe_checks) {
        EvalState::PendingKingAttack& p = st.ka[C];
        p.on = true, p.count = std::min(k.count, 15), p.weight = k.weight;
        for (int i = 0; i < 4; ++i) p.attackers[i] = k.attackers[i], p.by_type[i] = k.by_type[i];
        return;
    }
    const int v = (w.king_attack_weight[std::min(k.count, 15)] * k.weight) >> 5;
    acc.template add<C>(T_KING_ATTACK, v, 0);
    if constexpr (T == Tracing::On) {
        share_king_attack<C, T>(st, acc, v, st.kat[C].unit);
        if (acc.tr->coef) {
            CoefTrace::KingAttack& ka = acc.tr->coef->king_attack[C];
            ka.on = true;
            ka.count = std::min(k.count, 15);
            for (int i = 0; i < 4; ++i) ka.n[i] = k.attackers[i];
        }
    }
}

// C's pieces (knights to queens, the king's PST): attack sets, king-zone count, mobility, PST, rook files,
// 7th rank; then the pawns' anti-mobility, the attack sets other terms read and the king attack.
// Route: Path::General reads the profile's switches beyond the Rybka 1.0 set; Path::Fast has them at
// their 1.0 values at compile time (Profile::path).
template <Color C, Tracing T, Path Route>
inline void eval_pieces(EvalState& st, Acc<T>& acc) {
    constexpr bool general = Route == Path::General;
    constexpr Color Them = ~C;
    const Position& pos = *st.pos;
    const Profile& prof = *st.prof;
    const Weights& w = prof.w;
    const Bitboard own = pos.pieces(C), occ = pos.pieces();
    const Bitboard ownP = pos.pieces(C, PAWN), oppP = pos.pieces(Them, PAWN);
    const Bitboard oppK = pos.pieces(Them, KING);
    // The king's neighbours, not its square (§7.1). (& 63: a king is always present; tells the compiler.)
    const Bitboard zone = king_attacks(Square(lsb(oppK) & 63));
    // King safety of the opponent is evaluated when C has a queen and another piece (§2.3).
    const bool ks = st.mat.cflags & (C == WHITE ? MAT_BLACK_KING_FLAG : MAT_WHITE_KING_FLAG);
    const Bitboard rank7 = rank_bb(relative_rank(C, RANK_7)), rank8 = rank_bb(relative_rank(C, RANK_8));
    // 1.0: enemy pawn on the 7th or king on the 8th; 2.3.2a: the king on the 7th as well (§9.2).
    const bool seventh_target = (oppP & rank7) || (oppK & (general && w.seventh_king_on_seventh ? rank7 | rank8 : rank8));

    Bitboard att = pawn_attacks_bb<C>(ownP);
    KingAttackCount zone_count{};
    zone_count.count = ((!general || w.king_attack_pawns) && (att & zone)) ? 1 : 0;  // all pawns together count once, no weight
    std::int64_t mob = 0;                         // packed (op, eg), see pack()
    std::int64_t pN = 0, pB = 0, pR = 0, pQ = 0;  // PST per piece type, packed
    // threats2: double attacks, from the attack sets below (pawns: squares both diagonals reach are
    // attacked twice).
    const bool maps = general && maps_on(w);
    Bitboard two = 0;
    if (maps) {
        const Bitboard west = C == WHITE ? shift<NORTH_WEST>(ownP) : shift<SOUTH_WEST>(ownP);
        const Bitboard east = C == WHITE ? shift<NORTH_EAST>(ownP) : shift<SOUTH_EAST>(ownP);
        two = west & east;
        st.maps.by[C][PAWN] = att;
    }
    if constexpr (general) st.ka[C].on = false;
    // Tuner trace only: the PST weights behind a piece's square, and a mobility count.
    const auto trace_piece = [&](PieceType pt, Square s, int m, const PairRef* mobility) {
        if (!acc.coefs()) return;
        pst_terms(w, pt, relative_square(C, s), [&](int index, int k) { acc.template coef<C>(index, k); });
        if (mobility) acc.template coef<C>(*mobility, m);
    };
    // Picture trace only: a piece's PST and mobility on its square, and its king-zone units.
    if constexpr (T == Tracing::On) st.kat[C].n = 0;
    const auto square_piece = [&](PieceType pt, Term pst, Square s, std::int64_t mv, bool in_zone, int unit) {
        if (!acc.squares()) return;
        const Square r = relative_square(C, s);
        acc.template at<C>(pst, s, prof.pst_op[pt][r], prof.pst_eg[pt][r]);
        acc.template at<C>(T_MOBILITY, s, unpack_op(mv), unpack_eg(mv));
        EvalState::KingAttackers& k = st.kat[C];
        if (k.n < EvalState::KingAttackers::MAX) k.sq[k.n] = s, k.pt[k.n] = pt, k.unit[k.n] = in_zone ? unit : 0, ++k.n;
    };

    // One loop body for knights, bishops, rooks and queens (the piece type a compile-time constant):
    // attacks, king-zone count, mobility, PST; rooks add their file terms, rooks and queens the 7th rank.
    // mob_tables: a value per square count over the mobility area (eval/mobility.h) instead of the linear weights.
    const bool tables = general && w.mob_tables;
    MobilityArea area{};
    if (tables) area = mobility_area<C>(pos);
    const auto pieces_of = [&](auto piece_type, std::int64_t& pst) {
        constexpr PieceType Pt = decltype(piece_type)::value;
        constexpr int i = Pt - KNIGHT;  // 0..3: knight, bishop, rook, queen
        constexpr int Weights::*UNIT[4] = {&Weights::king_attack_unit_knight, &Weights::king_attack_unit_bishop,
                                           &Weights::king_attack_unit_rook, &Weights::king_attack_unit_queen};
        static constexpr PairRef MOB[4] = {WI::mob_knight, WI::mob_bishop, WI::mob_rook, WI::mob_queen};
        for (Bitboard b = pos.pieces(C, Pt); b;) {
            const Square s = pop_lsb(b);
            pst += prof.pst_packed[Pt][relative_square(C, s)];
            const Bitboard a = Pt == KNIGHT   ? knight_attacks(s)
                               : Pt == BISHOP ? bishop_attacks(s, occ)
                               : Pt == ROOK   ? rook_attacks(s, occ)
                                              : queen_attacks(s, occ);
            if constexpr (general) {
                zone_count.by_type[i] |= a;
                if (maps) two |= att & a;
            }
            att |= a;
            if (a & zone) ++zone_count.count, zone_count.weight += w.*UNIT[i], ++zone_count.attackers[i];
            std::int64_t mv;
            if (tables) {
                const int m = mobility_count<Pt>(area, s);
                mv = prof.mob_table_packed[i][m];
                trace_piece(Pt, s, 0, nullptr);
                // Tuner: element m of the piece's table, coefficient 1.
                if constexpr (Pt == KNIGHT) acc.template coef<C>(WI::mob_knight_table, m, 1);
                else if constexpr (Pt == BISHOP) acc.template coef<C>(WI::mob_bishop_table, m, 1);
                else if constexpr (Pt == ROOK) acc.template coef<C>(WI::mob_rook_table, m, 1);
                else acc.template coef<C>(WI::mob_queen_table, m, 1);
            } else {
                const int m = popcount(a & ~own) - (general ? prof.mob_offset[Pt] : 0);
                mv = m * prof.mob_packed[Pt];
                trace_piece(Pt, s, m, &MOB[i]);
            }
            mob += mv;
            square_piece(Pt, Term(T_PST_KNIGHT + i), s, mv, a & zone, w.*UNIT[i]);
            if constexpr (Pt == ROOK) eval_rook_file<C, T, Route>(st, acc, s, ownP, oppP, oppK, zone, ks);
            if constexpr (Pt == ROOK || Pt == QUEEN)
                if ((square_bb(s) & rank7) && seventh_target)
                    acc.template term<C>(T_SEVENTH, Pt == ROOK ? WI::rook_seventh : WI::queen_seventh, 1, s);
        }
    };
    pieces_of(std::integral_constant<PieceType, KNIGHT>{}, pN);
    pieces_of(std::integral_constant<PieceType, BISHOP>{}, pB);
    pieces_of(std::integral_constant<PieceType, ROOK>{}, pR);
    pieces_of(std::integral_constant<PieceType, QUEEN>{}, pQ);
    const std::int64_t pK = prof.pst_packed[KING][relative_square(C, pos.king_square(C))];
    trace_piece(KING, pos.king_square(C), 0, nullptr);
    if (acc.squares())
        acc.template at<C>(T_PST_KING, pos.king_square(C), unpack_op(pK), unpack_eg(pK));
    eval_pawn_blocked<C, T, Route>(st, acc);
    if constexpr (T == Tracing::On) {
        acc.template add<C>(T_MOBILITY, unpack_op(mob), unpack_eg(mob));
        acc.template add<C>(T_PST_KNIGHT, unpack_op(pN), unpack_eg(pN));
        acc.template add<C>(T_PST_BISHOP, unpack_op(pB), unpack_eg(pB));
        acc.template add<C>(T_PST_ROOK, unpack_op(pR), unpack_eg(pR));
        acc.template add<C>(T_PST_QUEEN, unpack_op(pQ), unpack_eg(pQ));
        acc.template add<C>(T_PST_KING, unpack_op(pK), unpack_eg(pK));
    } else {
        // Untraced: one unpack for all of them (the term label is irrelevant without a trace).
        const std::int64_t sum = mob + pN + pB + pR + pQ + pK;
        acc.template add<C>(T_MOBILITY, unpack_op(sum), unpack_eg(sum));
    }

    // The king's squares join the attack set (spec §8 recommendation; matters for the free-path test only).
    const Bitboard katt = king_attacks(pos.king_square(C));
    if (maps) two |= att & katt;
    att |= katt;
    st.att[C] = att;
    if constexpr (general)
        for (int i = 0; i < 4; ++i) st.att_by[C][i] = zone_count.by_type[i];
    if (maps) {
        AttackMaps& m = st.maps;
        for (int i = 0; i < 4; ++i) m.by[C][KNIGHT + i] = zone_count.by_type[i];
        m.by[C][KING] = katt;
        m.all[C] = att, m.two[C] = two;
    }

    eval_king_attack<C, T, Route>(st, acc, ks, zone_count);
}

}  // namespace quince::eval
