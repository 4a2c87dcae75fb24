#include "core/bitboard.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace quince {

std::string square_to_string(Square s) {
    if (!is_ok(s)) return "-";
    return std::string{char('a' + file_of(s)), char('1' + rank_of(s))};
}

std::string bitboard_to_string(Bitboard b) {
    std::string out;
    for (int r = RANK_8; r >= RANK_1; --r) {
        for (int f = FILE_A; f <= FILE_H; ++f)
            out += (b & make_square(File(f), Rank(r))) ? "X " : ". ";
        out += '\n';
    }
    return out;
}

namespace attacks {

Magic rook_magics[SQUARE_NB];
Magic bishop_magics[SQUARE_NB];
Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
Bitboard pseudo_attacks[PIECE_TYPE_NB][SQUARE_NB];
Bitboard between[SQUARE_NB][SQUARE_NB];
Bitboard line[SQUARE_NB][SQUARE_NB];
int distance[SQUARE_NB][SQUARE_NB];

namespace {

Bitboard rook_table[0x19000];   // sum over squares of 2^(relevant rook bits)
Bitboard bishop_table[0x1480];  // same for bishops

// Step from s by (df, dr) if it stays on the board.
bool step(Square s, int df, int dr, Square& out) {
    int f = file_of(s) + df, r = rank_of(s) + dr;
    if (f < 0 || f > 7 || r < 0 || r > 7) return false;
    out = make_square(File(f), Rank(r));
    return true;
}

constexpr int ROOK_DIRS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BISHOP_DIRS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// xorshift64*; fixed seeds make the magic search deterministic and fast.
struct Prng {
    std::uint64_t s;
    std::uint64_t next() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 2685821657736338717ULL;
    }
    std::uint64_t sparse() { return next() & next() & next(); }
};

void init_slider(PieceType pt, Magic magics[], Bitboard table[]) {
    static const std::uint64_t seeds[RANK_NB] = {728, 10316, 55013, 32803, 12281, 15100, 16645, 255};
    std::vector<Bitboard> occupancy(4096), reference(4096);
    std::vector<int> epoch(4096, 0);
    int current_epoch = 0;
    Bitboard* next_table = table;

    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        Magic& m = magics[s];
        // Board edges are irrelevant unless the slider stands on them.
        Bitboard edges = ((RANK_1_BB | RANK_8_BB) & ~rank_bb(s)) | ((FILE_A_BB | FILE_H_BB) & ~file_bb(s));
        m.mask = sliding_attacks_reference(pt, s, 0) & ~edges;
        int bits = popcount(m.mask);
        m.shift = unsigned(64 - bits);
        m.attacks = next_table;
        int size = 0;
        Bitboard b = 0;
        do {  // Carry-Rippler enumeration of every subset of the mask
            occupancy[size] = b;
            reference[size] = sliding_attacks_reference(pt, s, b);
#if defined(QUINCE_USE_PEXT)
            m.attacks[_pext_u64(b, m.mask)] = reference[size];
#endif
            ++size;
            b = (b - m.mask) & m.mask;
        } while (b);
        next_table += size;

#if !defined(QUINCE_USE_PEXT)
        Prng rng{seeds[rank_of(s)]};
        for (int i = 0; i < size;) {
            do m.magic = rng.sparse();
            while (popcount((m.magic * m.mask) >> 56) < 6);
            ++current_epoch;
            for (i = 0; i < size; ++i) {
                unsigned idx = m.index(occupancy[i]);
                if (epoch[idx] < current_epoch) {
                    epoch[idx] = current_epoch;
                    m.attacks[idx] = reference[i];
                } else if (m.attacks[idx] != reference[i])
                    break;
            }
        }
#else
        (void)seeds;
        (void)current_epoch;
#endif
    }
}

void init_tables() {
    for (Square a = SQ_A1; a <= SQ_H8; ++a)
        for (Square b = SQ_A1; b <= SQ_H8; ++b)
            distance[a][b] = std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));

    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        Square t;
        pawn_attacks[WHITE][s] = pawn_attacks_bb<WHITE>(square_bb(s));
        pawn_attacks[BLACK][s] = pawn_attacks_bb<BLACK>(square_bb(s));
        constexpr int knight_steps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
        for (auto& d : knight_steps)
            if (step(s, d[0], d[1], t)) pseudo_attacks[KNIGHT][s] |= t;
        for (int df = -1; df <= 1; ++df)
            for (int dr = -1; dr <= 1; ++dr)
                if ((df || dr) && step(s, df, dr, t)) pseudo_attacks[KING][s] |= t;
    }

    init_slider(ROOK, rook_magics, rook_table);
    init_slider(BISHOP, bishop_magics, bishop_table);

    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        pseudo_attacks[BISHOP][s] = bishop_attacks(s, 0);
        pseudo_attacks[ROOK][s] = rook_attacks(s, 0);
        pseudo_attacks[QUEEN][s] = pseudo_attacks[BISHOP][s] | pseudo_attacks[ROOK][s];
    }
    for (Square a = SQ_A1; a <= SQ_H8; ++a)
        for (Square b = SQ_A1; b <= SQ_H8; ++b) {
            for (PieceType pt : {BISHOP, ROOK})
                if (pseudo_attacks[pt][a] & b) {
                    line[a][b] = (attacks_bb(pt, a, 0) & attacks_bb(pt, b, 0)) | a | b;
                    between[a][b] = attacks_bb(pt, a, square_bb(b)) & attacks_bb(pt, b, square_bb(a));
                }
            between[a][b] |= b;
        }
}

}  // namespace

Bitboard sliding_attacks_reference(PieceType pt, Square s, Bitboard occupied) {
    Bitboard result = 0;
    for (int i = 0; i < 4; ++i) {
        const int* d = pt == ROOK ? ROOK_DIRS[i] : BISHOP_DIRS[i];
        Square cur = s, nxt;
        while (step(cur, d[0], d[1], nxt)) {
            result |= nxt;
            if (occupied & nxt) break;
            cur = nxt;
        }
    }
    return result;
}

void init() {
    static std::once_flag once;
    std::call_once(once, init_tables);
}

}  // namespace attacks
}  // namespace quince
