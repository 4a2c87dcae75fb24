#include "board/cuckoo.h"

#include <mutex>
#include <utility>

#include "core/bitboard.h"
#include "core/zobrist.h"

namespace quince::cuckoo {

Key keys[SIZE];
Move moves[SIZE];

namespace {

void fill() {
    attacks::init();
    zobrist::init();
    for (Color c : {WHITE, BLACK})
        for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN, KING}) {
            const Piece pc = make_piece(c, pt);
            for (int a = 0; a < SQUARE_NB; ++a)
                for (int b = a + 1; b < SQUARE_NB; ++b) {
                    if (!(attacks::pseudo_attacks[pt][a] & Square(b))) continue;
                    Key key = zobrist::psq[pc][a] ^ zobrist::psq[pc][b] ^ zobrist::side;
                    Move move{Square(a), Square(b)};
                    // Cuckoo insertion: take the first slot, move its occupant to its other slot, and so
                    // on until an empty slot ends the chain (the table is sparse enough for this to end).
                    int i = slot1(key);
                    while (true) {
                        std::swap(keys[i], key);
                        std::swap(moves[i], move);
                        if (!move) break;
                        i = i == slot1(key) ? slot2(key) : slot1(key);
                    }
                }
        }
}

}  // namespace

void init() {
    static std::once_flag once;
    std::call_once(once, fill);
}

int stored_moves() {
    int n = 0;
    for (const Move m : moves) n += bool(m);
    return n;
}

}  // namespace quince::cuckoo
