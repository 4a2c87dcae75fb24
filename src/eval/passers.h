// Dynamic passed-pawn terms (spec §10), evaluated after both piece loops because the free-path test
// needs both attack sets. Works on the board seen from C (rel<C>), so one code path serves both colours.
#pragma once

#include "eval/terms.h"

namespace quince::eval {

// Route: Path::General reads the profile's switches beyond the Rybka 1.0 set; Path::Fast has them at
// their 1.0 values at compile time (Profile::path).
template <Color C, Tracing T, Path Route>
inline void eval_passers(const EvalState& st, Acc<T>& acc) {
    constexpr bool general = Route == Path::General;
    constexpr Color Them = ~C;
    std::uint8_t files = st.pawn->passed_files[C];
    if (!files) return;
    const Position& pos = *st.pos;
    const Profile& prof = *st.prof;
    const Weights& w = prof.w;
    const Bitboard ownP = rel<C>(pos.pieces(C, PAWN));
    const Bitboard ownAll = rel<C>(pos.pieces(C)), oppAll = rel<C>(pos.pieces(Them));
    const Bitboard attOwn = rel<C>(st.att[C]), attOpp = rel<C>(st.att[Them]);
    const Square ownK = relative_square(C, pos.king_square(C)), oppK = relative_square(C, pos.king_square(Them));
    // Defender with king and pawns only: unstoppable / king-escorted passer instead of the path terms.
    // 2.3.2a (§13.3 stand-in): only when nobody has pieces, where its K+P evaluator would run.
    const bool pawn_ending = general && w.unstoppable_pure_pawn_ending ? (pos.pieces() ^ pos.pieces(PAWN, KING)) == 0
                                                            : (pos.pieces(Them) ^ pos.pieces(Them, PAWN, KING)) == 0;
    const bool them_to_move = pos.side_to_move() == Them;

    while (files) {
        const int f = std::countr_zero(unsigned(files));
        files &= files - 1;
        const Square sq = msb(ownP & file_bb(File(f)));  // most advanced pawn of the file
        const int r = sq >> 3;
        const Bitboard path = PAWN_MASKS.fwd[sq];
        const Square stop = sq + 8, promo = Square(56 + f);
        const Square at = relative_square(C, sq);  // the passer's square (picture)
        if (!general || !w.passer_base_in_pawn_entry)  // 2.3.2a: in the pawn entry instead (§5.3)
            acc.template term<C>(T_PASSERS, WI::passed, r, 1, at);
        if (pawn_ending) {
            // Fruit's unstoppable_passer: rule of the square, double step from rank 2. (2.3.2a: in the
            // pawn-ending evaluator instead, eval/pawn_ending.h.)
            const int R = r + 1 == 2 ? 3 : r + 1;
            const int moves = 8 - R + (them_to_move ? 1 : 0);
            if (!(general && w.pawn_ending_evaluator) &&
                (((path & ownAll) == 0 && distance(oppK, promo) > moves) ||
                 (distance(ownK, promo) <= 1 && distance(ownK, sq) <= 1 &&
                  (file_of(ownK) != f || (f != FILE_A && f != FILE_H)))))
                // unstoppable, or king passer: one bonus (§15 item 10)
                acc.template term<C>(T_PASSERS, WI::unstoppable_passer, r, 1, at);
        } else {
            if ((path & ownAll) == 0) acc.template term<C>(T_PASSERS, WI::unblocked_own, r, 1, at);
            if ((path & oppAll) == 0) acc.template term<C>(T_PASSERS, WI::unblocked_opp, r, 1, at);
            if ((path & attOpp & ~attOwn) == 0)  // SEE approximation
                acc.template term<C>(T_PASSERS, WI::passed_free, r, 1, at);
        }
        if constexpr (general)
            if (w.pawns2) {  // Quince (Ethereal 12's knowledge): safe path, rooks behind the passer
                if ((path & (oppAll | attOpp)) == 0) acc.template term<C>(T_PASSERS, WI::passed_safe_path, 1, at);
                // The nearest piece behind the passer on its file.
                const Bitboard behind = rel<C>(pos.pieces()) & file_bb(File(f)) & (square_bb(sq) - 1);
                if (behind) {
                    const Bitboard b = square_bb(msb(behind));
                    if (b & rel<C>(pos.pieces(C, ROOK, QUEEN))) acc.template term<C>(T_PASSERS, WI::passed_rook_behind, 1, at);
                    else if (b & rel<C>(pos.pieces(Them, ROOK, QUEEN)))
                        acc.template term<C>(T_PASSERS, WI::passed_enemy_rook_behind, 1, at);
                }
            }
        acc.template term<C>(T_PASSERS, WI::def_distance, r, distance(oppK, stop), at);
        acc.template term<C>(T_PASSERS, WI::att_distance, r, -distance(ownK, stop), at);
        if (acc.squares()) acc.tr->squares->passers |= square_bb(at);
    }
}

}  // namespace quince::eval
