// Pawn structure (spec §5), pawn hash entry (§6) and the king shelter/storm penalties cached per
// wing (§7.2). Everything is computed from White's point of view; Black's pawns are evaluated on the
// vertically mirrored board (byte swap), so the two colours share one code path.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "board/position.h"
#include "eval/profile.h"
#include "eval/weight_ref.h"

namespace quince::eval {

// Board seen from colour C: White unchanged, Black mirrored a1 <-> a8 (colours are swapped by the caller).
template <Color C>
constexpr Bitboard rel(Bitboard b) {
    if constexpr (C == WHITE) return b;
    else return __builtin_bswap64(b);
}

// White-perspective pawn masks (§5.1), indexed by square.
struct PawnMasks {
    Bitboard fwd[64];        // same file, ranks in front (also the rook "file" mask and the passer path)
    Bitboard adjacent[64];   // whole files f-1, f+1 (isolated test)
    Bitboard protect[64];    // files f+-1, same rank or behind
    Bitboard passed[64];     // files f-1..f+1, ranks in front
    Bitboard att1[64];       // squares from which an enemy pawn attacks the stop square
    Bitboard att2[64];       // squares from which an enemy pawn attacks the square two ahead
    Bitboard pawn_att[64];   // squares this pawn attacks
};
extern const PawnMasks PAWN_MASKS;

// Wing of a king file (§7.2): a-c -> 0, d-e -> 1, f-h -> 2.
constexpr int KING_WING[8] = {0, 0, 0, 1, 1, 2, 2, 2};

struct PawnEntry {
    Key key;
    // Per colour, in that colour's own view (positive = good for it).
    std::int32_t op[2], eg[2];          // structure: doubled, isolated, backward, candidates
    std::int32_t pst_op[2], pst_eg[2];  // pawn PST sums (cached here because they depend on pawns only)
    std::uint16_t shelter[2][3];        // king shelter + storm penalty of each colour's king per wing
    std::uint8_t passed_files[2];       // bit f: colour has a passed pawn on file f
    std::uint8_t drawish[2];            // 2.3.2a drawishness byte from the colour's pawn files (§13.2)
    // How closed the structure is (closedness_bucket, 0..8) and, per colour, its pawns blocked by an
    // enemy pawn on dark [0] and light [1] squares: pawn-only facts the piece terms read.
    std::uint8_t closedness;
    std::uint8_t rammed[2][2];
};

struct CoefTrace;
struct SquareTrace;

// The closedness of a pawn structure (Ethereal): pawns + 3 rammed pairs - 4 pawnless files, / 3
// into 0..8 (C division, then clamped).
inline int closedness_bucket(Bitboard white_pawns, Bitboard black_pawns) {
    const Bitboard files = fill_south(white_pawns | black_pawns) & RANK_1_BB;
    const int closed = popcount(white_pawns | black_pawns) + 3 * popcount(white_pawns & (black_pawns >> 8)) -
                       4 * (8 - popcount(files));
    const int bucket = closed / 3;
    return bucket < 0 ? 0 : bucket > 8 ? 8 : bucket;
}

// Fills the entry for pos (key included). With `coef`, also records the coefficient of every weight
// the pawn terms use (tuner; the entry is then computed, never taken from the hash); with `squares`,
// each pawn's structure and PST on its square (the picture).
void compute_pawn_entry(const Profile& prof, const Position& pos, PawnEntry& e, CoefTrace* coef = nullptr,
                        SquareTrace* squares = nullptr);

// The 12-bit rectangle masks (§7.2) of pawns `pawns` (White's view) for wing w.
int wing_mask(Bitboard pawns, int wing);

// Nearest pawn per file of a wing mask: 0 = none on relative ranks 2..5, else 1 + (rank - 2) (§7.2).
inline void wing_distances(int mask, int d[3]) {
    for (int j = 0; j < 3; ++j) {
        d[j] = 0;
        for (int k = 0; k < 4; ++k)
            if (mask >> (3 * k + j) & 1) {
                d[j] = k + 1;
                break;
            }
    }
}

// Shelter of the own pawns of a wing mask: 2 x the king file's value + the two side files', or the
// weak back rank when all three pawns stand unmoved on rank 2. f(flat weight index, multiplier) is told
// each weight used (the tuner's coefficients); returns the value.
template <class F>
int shelter_terms(const Weights& w, int mask, F&& f) {
    int d[3];
    wing_distances(mask, d);
    if (d[0] == 1 && d[1] == 1 && d[2] == 1) {
        f(WI::weak_back_rank.index, 1);
        return w.weak_back_rank;
    }
    f(WI::shelter_value.index + d[1], 2);
    f(WI::shelter_value.index + d[0], 1);
    f(WI::shelter_value.index + d[2], 1);
    return 2 * w.shelter_value[std::size_t(d[1])] + w.shelter_value[std::size_t(d[0])] + w.shelter_value[std::size_t(d[2])];
}

// Storm of the enemy pawns of a wing mask (the same files, their nearest pawn).
template <class F>
int storm_terms(const Weights& w, int mask, F&& f) {
    int d[3];
    wing_distances(mask, d);
    for (int j = 0; j < 3; ++j) f(WI::storm_value.index + d[j], 1);
    return w.storm_value[std::size_t(d[0])] + w.storm_value[std::size_t(d[1])] + w.storm_value[std::size_t(d[2])];
}
// 4096-entry shelter / storm tables (§7.2).
void build_shelter_storm(const Weights& w, std::vector<std::uint16_t>& shelter, std::vector<std::uint16_t>& storm);

class PawnHash {
public:
    explicit PawnHash(int log2_size = 14) : table_(std::size_t(1) << log2_size), mask_((std::size_t(1) << log2_size) - 1) {
        clear();
    }
    void clear() {
        // key (i + 1) can never be a hit at index i (a hit needs key & mask == i).
        for (std::size_t i = 0; i < table_.size(); ++i) table_[i].key = Key(i + 1);
    }
    const PawnEntry& probe(const Profile& prof, const Position& pos) {
        Key k = pos.pawn_key();
        PawnEntry& e = table_[k & mask_];
        if (e.key != k) [[unlikely]]
            compute_pawn_entry(prof, pos, e);
        return e;
    }
    std::size_t size() const { return table_.size(); }

private:
    std::vector<PawnEntry> table_;
    std::size_t mask_;
};

}  // namespace quince::eval
