// Bitboard helpers and attack tables (leapers by lookup, sliders by magic or PEXT).
#pragma once

#include <bit>
#include <cassert>
#include <string>

#include "core/types.h"

#if defined(QUINCE_USE_PEXT)
#include <immintrin.h>
#endif

namespace quince {

constexpr Bitboard FILE_A_BB = 0x0101010101010101ULL;
constexpr Bitboard FILE_H_BB = FILE_A_BB << 7;
constexpr Bitboard RANK_1_BB = 0xFFULL;
constexpr Bitboard RANK_8_BB = RANK_1_BB << 56;
constexpr Bitboard LIGHT_SQUARES = 0x55AA55AA55AA55AAULL;  // a1 is dark
constexpr Bitboard DARK_SQUARES = ~LIGHT_SQUARES;

constexpr Bitboard square_bb(Square s) { return 1ULL << s; }
constexpr Bitboard file_bb(File f) { return FILE_A_BB << f; }
constexpr Bitboard file_bb(Square s) { return file_bb(file_of(s)); }
constexpr Bitboard rank_bb(Rank r) { return RANK_1_BB << (8 * r); }
constexpr Bitboard rank_bb(Square s) { return rank_bb(rank_of(s)); }

inline Bitboard operator&(Bitboard b, Square s) { return b & square_bb(s); }
inline Bitboard operator|(Bitboard b, Square s) { return b | square_bb(s); }
inline Bitboard operator^(Bitboard b, Square s) { return b ^ square_bb(s); }
inline Bitboard& operator|=(Bitboard& b, Square s) { return b |= square_bb(s); }
inline Bitboard& operator^=(Bitboard& b, Square s) { return b ^= square_bb(s); }

// popcount: the hardware instruction when the build enables it (-mpopcnt / -march=native), otherwise
// std::popcount's portable code.
inline int popcount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) {
    assert(b);
    return Square(std::countr_zero(b));
}
inline Square msb(Bitboard b) {
    assert(b);
    return Square(63 - std::countl_zero(b));
}
inline Square pop_lsb(Bitboard& b) {
    Square s = lsb(b);
    b &= b - 1;
    return s;
}
constexpr bool more_than_one(Bitboard b) { return b & (b - 1); }

template <Direction D>
constexpr Bitboard shift(Bitboard b) {
    if constexpr (D == NORTH) return b << 8;
    else if constexpr (D == SOUTH) return b >> 8;
    else if constexpr (D == EAST) return (b & ~FILE_H_BB) << 1;
    else if constexpr (D == WEST) return (b & ~FILE_A_BB) >> 1;
    else if constexpr (D == NORTH_EAST) return (b & ~FILE_H_BB) << 9;
    else if constexpr (D == NORTH_WEST) return (b & ~FILE_A_BB) << 7;
    else if constexpr (D == SOUTH_EAST) return (b & ~FILE_H_BB) >> 7;
    else if constexpr (D == SOUTH_WEST) return (b & ~FILE_A_BB) >> 9;
    else return 0;
}

template <Color C>
constexpr Bitboard pawn_attacks_bb(Bitboard pawns) {
    return C == WHITE ? shift<NORTH_WEST>(pawns) | shift<NORTH_EAST>(pawns)
                      : shift<SOUTH_WEST>(pawns) | shift<SOUTH_EAST>(pawns);
}

// Every square at or below a set square on its file (a fill towards rank 1).
constexpr Bitboard fill_south(Bitboard b) {
    b |= b >> 8, b |= b >> 16, b |= b >> 32;
    return b;
}

namespace attacks {

// One slider's magic entry. With PEXT the index is pext(occupied, mask); otherwise the
// classic multiply-shift magic.
struct Magic {
    Bitboard mask;
    Bitboard magic;
    Bitboard* attacks;
    unsigned shift;

    unsigned index(Bitboard occupied) const {
#if defined(QUINCE_USE_PEXT)
        return unsigned(_pext_u64(occupied, mask));
#else
        return unsigned(((occupied & mask) * magic) >> shift);
#endif
    }
};

extern Magic rook_magics[SQUARE_NB];
extern Magic bishop_magics[SQUARE_NB];
extern Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
extern Bitboard pseudo_attacks[PIECE_TYPE_NB][SQUARE_NB];  // on an empty board
extern Bitboard between[SQUARE_NB][SQUARE_NB];  // squares strictly between two aligned squares, plus the second
extern Bitboard line[SQUARE_NB][SQUARE_NB];     // the whole line through two aligned squares, else 0
extern int distance[SQUARE_NB][SQUARE_NB];      // Chebyshev (king) distance

// Must be called once before any other use; idempotent and thread-safe.
void init();

// Slow ray-walking reference, used to build the tables and by the tests to verify them.
Bitboard sliding_attacks_reference(PieceType pt, Square s, Bitboard occupied);

}  // namespace attacks

inline Bitboard rook_attacks(Square s, Bitboard occupied) {
    const attacks::Magic& m = attacks::rook_magics[s];
    return m.attacks[m.index(occupied)];
}
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
    const attacks::Magic& m = attacks::bishop_magics[s];
    return m.attacks[m.index(occupied)];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
    return rook_attacks(s, occupied) | bishop_attacks(s, occupied);
}
inline Bitboard knight_attacks(Square s) { return attacks::pseudo_attacks[KNIGHT][s]; }
inline Bitboard king_attacks(Square s) { return attacks::pseudo_attacks[KING][s]; }
inline Bitboard pawn_attacks(Color c, Square s) { return attacks::pawn_attacks[c][s]; }

// Attacks of a non-pawn piece type from s given the occupancy.
inline Bitboard attacks_bb(PieceType pt, Square s, Bitboard occupied) {
    switch (pt) {
    case BISHOP: return bishop_attacks(s, occupied);
    case ROOK: return rook_attacks(s, occupied);
    case QUEEN: return queen_attacks(s, occupied);
    default: return attacks::pseudo_attacks[pt][s];
    }
}

inline Bitboard between_bb(Square a, Square b) { return attacks::between[a][b]; }
inline Bitboard line_bb(Square a, Square b) { return attacks::line[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return line_bb(a, b) & c; }
inline int distance(Square a, Square b) { return attacks::distance[a][b]; }

std::string bitboard_to_string(Bitboard b);

}  // namespace quince
