// KPK by retrograde analysis: with the pawn's side as White and the pawn on files a..d (mirror), each
// position is a win for White if White to move has a move to a win, or Black to move has only moves to
// wins; positions never resolved are draws. Promotion is scored directly: a queen (or a rook, when the
// queen stalemates) that the black king cannot take wins.
#include "eval/kpk.h"

#include <cstdint>
#include <vector>

#include "core/bitboard.h"

namespace quince::eval {

namespace {

enum : std::uint8_t { INVALID, UNKNOWN, DRAW, WIN };

constexpr int PAWN_SLOTS = 24;  // files a..d, ranks 2..7
constexpr int SIZE = 2 * 64 * 64 * PAWN_SLOTS;

int pawn_slot(Square p) { return (rank_of(p) - 1) * 4 + file_of(p); }
Square slot_square(int slot) { return make_square(File(slot % 4), Rank(slot / 4 + 1)); }
// us: White (the pawn's side) to move.
int index(bool us, Square wk, Square bk, Square p) { return ((int(us) * 64 + wk) * 64 + bk) * PAWN_SLOTS + pawn_slot(p); }

// White has just promoted on q; Black to move. Win unless the piece is lost or both a queen and a
// rook stalemate.
bool promotion_wins(Square wk, Square bk, Square q) {
    if (distance(bk, q) == 1 && distance(wk, q) > 1) return false;  // the new piece is taken
    const Bitboard occ_without_bk = square_bb(wk) | square_bb(q);
    for (bool queen : {true, false}) {
        const Bitboard att = rook_attacks(q, occ_without_bk) | (queen ? bishop_attacks(q, occ_without_bk) : 0);
        const Bitboard flight = king_attacks(bk) & ~king_attacks(wk) & ~att & ~square_bb(wk);
        if (flight || (att & square_bb(bk))) return true;  // play goes on (KQK/KRK are won), or mate
    }
    return false;  // stalemate either way
}

struct Table {
    std::vector<std::uint8_t> v;

    std::uint8_t classify(int i) const {
        const int slot = i % PAWN_SLOTS;
        const Square bk = Square((i / PAWN_SLOTS) % 64), wk = Square((i / PAWN_SLOTS / 64) % 64);
        const bool us = i / PAWN_SLOTS / 64 / 64;
        const Square p = slot_square(slot);
        const Bitboard pawn_att = pawn_attacks(WHITE, p);
        if (us) {
            bool unknown = false, any = false;
            for (Bitboard b = king_attacks(wk); b;) {
                const Square to = pop_lsb(b);
                if (to == p || distance(to, bk) <= 1) continue;
                any = true;
                const std::uint8_t c = v[std::size_t(index(false, to, bk, p))];
                if (c == WIN) return WIN;
                unknown |= c == UNKNOWN;
            }
            const Square push = Square(p + 8);
            if (push != wk && push != bk) {
                any = true;
                if (rank_of(push) == RANK_8) {
                    if (promotion_wins(wk, bk, push)) return WIN;
                } else {
                    const std::uint8_t c = v[std::size_t(index(false, wk, bk, push))];
                    if (c == WIN) return WIN;
                    unknown |= c == UNKNOWN;
                    const Square two = Square(p + 16);
                    if (rank_of(p) == RANK_2 && two != wk && two != bk) {
                        const std::uint8_t c2 = v[std::size_t(index(false, wk, bk, two))];
                        if (c2 == WIN) return WIN;
                        unknown |= c2 == UNKNOWN;
                    }
                }
            }
            return !any ? DRAW : unknown ? UNKNOWN : DRAW;  // no move: stalemate
        }
        bool unknown = false, any = false;
        for (Bitboard b = king_attacks(bk); b;) {
            const Square to = pop_lsb(b);
            if (distance(to, wk) <= 1 || (pawn_att & square_bb(to))) continue;
            any = true;
            if (to == p) return DRAW;  // the pawn falls (it is not defended: the king is not next to it)
            const std::uint8_t c = v[std::size_t(index(true, wk, to, p))];
            if (c == DRAW) return DRAW;
            unknown |= c == UNKNOWN;
        }
        if (!any) return (pawn_att & square_bb(bk)) ? WIN : DRAW;  // mate or stalemate
        return unknown ? UNKNOWN : WIN;
    }

    Table() : v(SIZE, UNKNOWN) {
        attacks::init();  // idempotent: kpk_win may come before any Position
        for (int i = 0; i < SIZE; ++i) {
            const Square p = slot_square(i % PAWN_SLOTS);
            const Square bk = Square((i / PAWN_SLOTS) % 64), wk = Square((i / PAWN_SLOTS / 64) % 64);
            const bool us = i / PAWN_SLOTS / 64 / 64;
            if (wk == bk || wk == p || bk == p || distance(wk, bk) <= 1 ||
                (us && (pawn_attacks(WHITE, p) & square_bb(bk))))
                v[std::size_t(i)] = INVALID;
        }
        for (bool changed = true; changed;) {
            changed = false;
            for (int i = 0; i < SIZE; ++i)
                if (v[std::size_t(i)] == UNKNOWN) {
                    const std::uint8_t c = classify(i);
                    if (c != UNKNOWN) v[std::size_t(i)] = c, changed = true;
                }
        }
    }
};

}  // namespace

bool kpk_win(Color strong, Square strong_king, Square pawn, Square weak_king, Color stm) {
    static const Table table;  // about 0.2 s on first use
    Square wk = relative_square(strong, strong_king), bk = relative_square(strong, weak_king);
    Square p = relative_square(strong, pawn);
    if (file_of(p) > FILE_D) wk = Square(wk ^ 7), bk = Square(bk ^ 7), p = Square(p ^ 7);
    return table.v[std::size_t(index(stm == strong, wk, bk, p))] == WIN;
}

}  // namespace quince::eval
