#include "core/zobrist.h"

#include <mutex>

#include "core/random.h"

namespace quince::zobrist {

Key psq[PIECE_NB][SQUARE_NB];
Key enpassant[FILE_NB];
Key castling[CASTLING_RIGHT_NB];
Key side;
Key no_pawns;

namespace {
void init_keys() {
    // A fixed seed gives the same keys on every run (bench signatures stay stable).
    SplitMix64 rng(0x51C0FFEE2026ULL);
    for (auto& piece : psq)
        for (Key& k : piece) k = rng.next();
    for (Key& k : enpassant) k = rng.next();
    // Castling keys are XOR-combinations of four base keys, so a rights set has one key.
    Key base[4];
    for (Key& k : base) k = rng.next();
    for (int cr = 0; cr < CASTLING_RIGHT_NB; ++cr) {
        castling[cr] = 0;
        for (int bit = 0; bit < 4; ++bit)
            if (cr & (1 << bit)) castling[cr] ^= base[bit];
    }
    side = rng.next();
    no_pawns = rng.next();
}
}  // namespace

void init() {
    static std::once_flag once;
    std::call_once(once, init_keys);
}

}  // namespace quince::zobrist
