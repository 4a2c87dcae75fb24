// Material table (spec §2): 236 196 precomputed 8-byte entries indexed by Position::material_index(),
// generated at startup per profile. Configurations outside the table (a second queen, a third
// knight...) are computed on the fly by the same generator, never read from an aliased entry (§2.4).
#pragma once

#include "board/position.h"
#include "eval/profile.h"
#include "eval/weight_ref.h"

namespace quince::eval {

struct MaterialCounts {
    int wq, bq, wr, br, wb, bb, wn, bn, wp, bp;
};

MaterialCounts material_counts(const Position& pos);
int material_index_of(const MaterialCounts& c);  // §2.1 mixed-radix formula

// Imbalance of one side (internal units) on top of the 1-3-3-5-10 count: Kaufman-style model
// (§16; the seeds do not give mat_value). mat_value = side(White) - side(Black).
// One side's mat_value (§2.3 imbalance model, Kaufman): f(flat weight index, multiplier) is told each weight used
// (the tuner's coefficients); returns the value.
template <class F>
int imbalance_side_terms(const Weights& w, int q, int r, int b, int n, int p, F&& f) {
    int v = 0;
    const auto add = [&](IntRef weight, int k) {
        v += k * weight.value(w);
        f(weight.index, k);
    };
    add(WI::knight_extra, n);
    add(WI::knight_pawn_adjust, n * (p - w.knight_pawn_base));
    add(WI::bishop_extra, b);
    add(WI::rook_extra, r);
    add(WI::rook_pawn_adjust, r * (p - w.rook_pawn_base));
    add(WI::queen_extra, q);
    if (b >= 2) add(WI::bishop_pair, 1);
    if (r >= 2) add(WI::rook_redundancy, r - 1);
    if (q >= 1 && r >= 1) add(WI::queen_rook_redundancy, 1);
    return v;
}

inline int imbalance_side(const Weights& w, int q, int r, int b, int n, int p) {
    return imbalance_side_terms(w, q, r, b, n, p, [](int, int) {});
}

MatEntry compute_material_entry(const Weights& w, const MaterialCounts& c);
void build_material_table(const Weights& w, std::vector<MatEntry>& table);

// The entry for the position: table read when in range, computed otherwise.
inline const MatEntry material_entry(const Profile& prof, const Position& pos) {
    if (pos.material_in_table()) [[likely]]
        return prof.material[pos.material_index()];
    return compute_material_entry(prof.w, material_counts(pos));
}

}  // namespace quince::eval
