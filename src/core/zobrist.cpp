#include "core/zobrist.h"

#include <mutex>

namespace quince::zobrist {

Key psq[PIECE_NB][SQUARE_NB];
Key enpassant[FILE_NB];
Key castling[CASTLING_RIGHT_NB];
Key side;
Key no_pawns;

namespace {
// splitmix64: a fixed seed gives the same keys on every run (bench signatures stay stable).
std::uint64_t next_random(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void init_keys() {
    std::uint64_t state = 0x51C0FFEE2026ULL;
    for (auto& piece : psq)
        for (Key& k : piece) k = next_random(state);
    for (Key& k : enpassant) k = next_random(state);
    // Castling keys are XOR-combinations of four base keys, so a rights set has one key.
    Key base[4];
    for (Key& k : base) k = next_random(state);
    for (int cr = 0; cr < CASTLING_RIGHT_NB; ++cr) {
        castling[cr] = 0;
        for (int bit = 0; bit < 4; ++bit)
            if (cr & (1 << bit)) castling[cr] ^= base[bit];
    }
    side = next_random(state);
    no_pawns = next_random(state);
}
}  // namespace

void init() {
    static std::once_flag once;
    std::call_once(once, init_keys);
}

}  // namespace quince::zobrist
