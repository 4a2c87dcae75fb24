#include "core/bitboard.h"

#include <algorithm>
#include <mutex>

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

#if !defined(QUINCE_USE_PEXT)
// The magic multipliers, one per square: (occupancy & mask) * magic >> shift maps every occupancy of the
// square's mask to an index of its table without two different attack sets meeting. Found once by a search
// over sparse random numbers (xorshift64*, a fixed seed per rank); a table instead of that search at every
// start, which took 0.4 s in the sanitizer builds. tests/core/attacks_test.cpp checks every square's every
// occupancy against sliding_attacks_reference.
constexpr std::uint64_t ROOK_MAGICS[SQUARE_NB] = {
    0x0A80004000801220ULL, 0x8040004010002008ULL, 0x2080200010008008ULL, 0x1100100008210004ULL,
    0xC200209084020008ULL, 0x2100010004000208ULL, 0x0400081000822421ULL, 0x0200010422048844ULL,
    0x0800800080400024ULL, 0x0001402000401000ULL, 0x3000801000802001ULL, 0x4400800800100083ULL,
    0x0904802402480080ULL, 0x4040800400020080ULL, 0x0018808042000100ULL, 0x4040800080004100ULL,
    0x0040048001458024ULL, 0x00A0004000205000ULL, 0x3100808010002000ULL, 0x4825010010000820ULL,
    0x5004808008000401ULL, 0x2024818004000A00ULL, 0x0005808002000100ULL, 0x2100060004806104ULL,
    0x0080400880008421ULL, 0x4062220600410280ULL, 0x010A004A00108022ULL, 0x0000100080080080ULL,
    0x0021000500080010ULL, 0x0044000202001008ULL, 0x0000100400080102ULL, 0xC020128200040545ULL,
    0x0080002000400040ULL, 0x0000804000802004ULL, 0x0000120022004080ULL, 0x010A386103001001ULL,
    0x9010080080800400ULL, 0x8440020080800400ULL, 0x0004228824001001ULL, 0x000000490A000084ULL,
    0x0080002000504000ULL, 0x200020005000C000ULL, 0x0012088020420010ULL, 0x0010010080080800ULL,
    0x0085001008010004ULL, 0x0002000204008080ULL, 0x0040413002040008ULL, 0x0000304081020004ULL,
    0x0080204000800080ULL, 0x3008804000290100ULL, 0x1010100080200080ULL, 0x2008100208028080ULL,
    0x5000850800910100ULL, 0x8402019004680200ULL, 0x0120911028020400ULL, 0x0000008044010200ULL,
    0x0020850200244012ULL, 0x0020850200244012ULL, 0x0000102001040841ULL, 0x140900040A100021ULL,
    0x000200282410A102ULL, 0x000200282410A102ULL, 0x000200282410A102ULL, 0x4048240043802106ULL
};
constexpr std::uint64_t BISHOP_MAGICS[SQUARE_NB] = {
    0x40106000A1160020ULL, 0x0020010250810120ULL, 0x2010010220280081ULL, 0x002806004050C040ULL,
    0x0002021018000000ULL, 0x2001112010000400ULL, 0x0881010120218080ULL, 0x1030820110010500ULL,
    0x0000120222042400ULL, 0x2000020404040044ULL, 0x8000480094208000ULL, 0x0003422A02000001ULL,
    0x000A220210100040ULL, 0x8004820202226000ULL, 0x0018234854100800ULL, 0x0100004042101040ULL,
    0x0004001004082820ULL, 0x0010000810010048ULL, 0x1014004208081300ULL, 0x2080818802044202ULL,
    0x0040880C00A00100ULL, 0x0080400200522010ULL, 0x0001000188180B04ULL, 0x0080249202020204ULL,
    0x1004400004100410ULL, 0x00013100A0022206ULL, 0x2148500001040080ULL, 0x4241080011004300ULL,
    0x4020848004002000ULL, 0x10101380D1004100ULL, 0x0008004422020284ULL, 0x01010A1041008080ULL,
    0x0808080400082121ULL, 0x0808080400082121ULL, 0x0091128200100C00ULL, 0x0202200802010104ULL,
    0x8C0A020200440085ULL, 0x01A0008080B10040ULL, 0x0889520080122800ULL, 0x100902022202010AULL,
    0x04081A0816002000ULL, 0x0000681208005000ULL, 0x8170840041008802ULL, 0x0A00004200810805ULL,
    0x0830404408210100ULL, 0x2602208106006102ULL, 0x1048300680802628ULL, 0x2602208106006102ULL,
    0x0602010120110040ULL, 0x0941010801043000ULL, 0x000040440A210428ULL, 0x0008240020880021ULL,
    0x0400002012048200ULL, 0x00AC102001210220ULL, 0x0220021002009900ULL, 0x84440C080A013080ULL,
    0x0001008044200440ULL, 0x0004C04410841000ULL, 0x2000500104011130ULL, 0x1A0C010011C20229ULL,
    0x0044800112202200ULL, 0x0434804908100424ULL, 0x0300404822C08200ULL, 0x48081010008A2A80ULL
};
#endif

void init_slider(PieceType pt, Magic magics[], Bitboard table[]) {
    Bitboard* next_table = table;
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        Magic& m = magics[s];
        // Board edges are irrelevant unless the slider stands on them.
        Bitboard edges = ((RANK_1_BB | RANK_8_BB) & ~rank_bb(s)) | ((FILE_A_BB | FILE_H_BB) & ~file_bb(s));
        m.mask = sliding_attacks_reference(pt, s, 0) & ~edges;
        m.shift = unsigned(64 - popcount(m.mask));
#if !defined(QUINCE_USE_PEXT)
        m.magic = pt == ROOK ? ROOK_MAGICS[s] : BISHOP_MAGICS[s];
#endif
        m.attacks = next_table;
        int size = 0;
        Bitboard b = 0;
        do {  // Carry-Rippler enumeration of every subset of the mask
            m.attacks[m.index(b)] = sliding_attacks_reference(pt, s, b);
            ++size;
            b = (b - m.mask) & m.mask;
        } while (b);
        next_table += size;
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
