// Rybka 2.3.2a's pawn-ending evaluator (spec §13.3). The seeds give its place — entered when only kings
// and pawns remain, before the lazy test, and holding the unstoppable-passer test that 1.0 had in its
// general path — but not its code. Quince's design, from standard pawn-ending knowledge:
// - K+P v K: the exact verdict of a table (eval/kpk.h). A draw scores 0; a win adds pawn_ending_kpk_win.
// - The race of unstoppable passers (rule of the square, Fruit's double step): a side whose fastest
//   unstoppable passer queens while the other has none, or two plies sooner than the other's, gets
//   unstoppable_passer of its rank.
// - Key squares: the passer's own king on one of them (the three squares two ranks ahead; from the 5th
//   rank the next two ranks; b7/b8 for a rook pawn), with the pawn not en prise to the enemy king:
//   key_square_passer. Opposition is what decides the rest of KPK, and the table has it exactly.
// - Protected passers (the enemy king can never take them) and the outside passer (it decoys the king).
// The general evaluation runs as well; in these positions the passer path terms give way to these.
#pragma once

#include <climits>

#include "eval/kpk.h"
#include "eval/terms.h"

namespace quince::eval {

// Key squares of a pawn on sq, White's view.
inline Bitboard key_squares(Square sq) {
    const File f = file_of(sq);
    const Rank r = rank_of(sq);
    if (f == FILE_A) return square_bb(SQ_B7) | square_bb(SQ_B8);
    if (f == FILE_H) return square_bb(SQ_G7) | square_bb(SQ_G8);
    const Bitboard files = file_bb(f) | file_bb(File(f - 1)) | file_bb(File(f + 1));
    const Bitboard ranks = r <= RANK_4   ? rank_bb(Rank(r + 2))
                           : r <= RANK_6 ? rank_bb(Rank(r + 1)) | rank_bb(Rank(r + 2))
                                         : rank_bb(RANK_7) | rank_bb(RANK_8);
    return files & ranks & ~square_bb(sq);
}

// Colour C's passer terms; returns the plies until its fastest unstoppable passer queens (INT_MAX: none)
// and that passer's relative rank.
template <Color C, Tracing T>
inline int pawn_ending_passers(const EvalState& st, Acc<T>& acc, int* rank, Square* fastest_sq) {
    constexpr Color Them = ~C;
    const Position& pos = *st.pos;
    const Bitboard ownP = rel<C>(pos.pieces(C, PAWN)), oppP = rel<C>(pos.pieces(Them, PAWN));
    const Bitboard ownAll = rel<C>(pos.pieces(C));
    const Square ownK = relative_square(C, pos.king_square(C)), oppK = relative_square(C, pos.king_square(Them));
    const bool us_to_move = pos.side_to_move() == C;
    const Bitboard defended = pawn_attacks_bb<WHITE>(ownP);
    int fastest = INT_MAX, outside = 0;
    Square outside_sq = SQ_A1;  // picture trace: the passer that earns the outside bonus
    *rank = 0;
    for (std::uint8_t files = st.pawn->passed_files[C]; files; files &= std::uint8_t(files - 1)) {
        const int f = std::countr_zero(unsigned(files));
        const Square sq = msb(ownP & file_bb(File(f)));  // most advanced pawn of the file
        const int r = sq >> 3;
        const Square promo = Square(56 + f);
        // Rule of the square (Fruit's unstoppable_passer: a pawn on its 2nd rank counts from the 3rd).
        const int moves = 8 - (r + 1 == 2 ? 3 : r + 1);
        if ((PAWN_MASKS.fwd[sq] & ownAll) == 0 && distance(oppK, promo) > moves + (us_to_move ? 0 : 1)) {
            const int plies = 2 * moves - (us_to_move ? 1 : 0);
            if (plies < fastest) fastest = plies, *rank = r, *fastest_sq = relative_square(C, sq);
        }
        const bool safe = distance(oppK, sq) > 1 || distance(ownK, sq) == 1 || (defended & square_bb(sq));
        if ((key_squares(sq) & square_bb(ownK)) && safe)
            acc.template term<C>(T_PASSERS, WI::key_square_passer, r, 1, relative_square(C, sq));
        if (defended & square_bb(sq)) acc.template term<C>(T_PASSERS, WI::protected_passer, r, 1, relative_square(C, sq));
        if (oppP) {
            int d = 8;
            for (Bitboard b = oppP; b;) d = std::min(d, std::abs(file_of(pop_lsb(b)) - f));
            if (std::min(d - 1, 3) > outside) outside = std::min(d - 1, 3), outside_sq = relative_square(C, sq);
        }
    }
    if (outside > 0) acc.template term<C>(T_PASSERS, WI::outside_passer, outside, outside_sq);
    return fastest;
}

// Adds the evaluator's terms; returns true when the position is a known draw (score 0).
template <Tracing T>
inline bool eval_pawn_ending(const EvalState& st, Acc<T>& acc) {
    const Position& pos = *st.pos;
    if (popcount(pos.pieces(PAWN)) == 1) {
        const Color strong = pos.pieces(WHITE, PAWN) ? WHITE : BLACK;
        if (!kpk_win(strong, pos.king_square(strong), lsb(pos.pieces(PAWN)), pos.king_square(~strong),
                     pos.side_to_move()))
            return true;
        const Square pawn = lsb(pos.pieces(PAWN));
        if (strong == WHITE) acc.template term<WHITE>(T_PASSERS, WI::pawn_ending_kpk_win, 1, pawn);
        else acc.template term<BLACK>(T_PASSERS, WI::pawn_ending_kpk_win, 1, pawn);
    }
    int rw = 0, rb = 0;
    Square sw = SQ_A1, sb = SQ_A1;
    const int pw = pawn_ending_passers<WHITE>(st, acc, &rw, &sw);
    const int pb = pawn_ending_passers<BLACK>(st, acc, &rb, &sb);
    // Queening two plies before the other side leaves a move to stop its pawn (or nothing to stop).
    if (pw != INT_MAX && (pb == INT_MAX || pw + 2 <= pb))
        acc.template term<WHITE>(T_PASSERS, WI::unstoppable_passer, rw, 1, sw);
    else if (pb != INT_MAX && (pw == INT_MAX || pb + 2 <= pw))
        acc.template term<BLACK>(T_PASSERS, WI::unstoppable_passer, rb, 1, sb);
    return false;
}

}  // namespace quince::eval
