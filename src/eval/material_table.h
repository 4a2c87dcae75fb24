// Material table (spec §2): 236 196 precomputed 8-byte entries indexed by Position::material_index(),
// generated at startup per profile. Configurations outside the table (a second queen, a third
// knight...) are computed on the fly by the same generator, never read from an aliased entry (§2.4).
#pragma once

#include "board/position.h"
#include "eval/profile.h"

namespace quince::eval {

struct MaterialCounts {
    int wq, bq, wr, br, wb, bb, wn, bn, wp, bp;
};

MaterialCounts material_counts(const Position& pos);
int material_index_of(const MaterialCounts& c);  // §2.1 mixed-radix formula

// Imbalance of one side (internal units) on top of the 1-3-3-5-10 count: Kaufman-style model
// (§16; the seeds do not give mat_value). mat_value = side(White) - side(Black).
int imbalance_side(const Weights& w, int q, int r, int b, int n, int p);

MatEntry compute_material_entry(const Weights& w, const MaterialCounts& c);
void build_material_table(const Weights& w, std::vector<MatEntry>& table);

// The entry for the position: table read when in range, computed otherwise.
inline const MatEntry material_entry(const Profile& prof, const Position& pos) {
    if (pos.material_in_table()) [[likely]]
        return prof.material[pos.material_index()];
    return compute_material_entry(prof.w, material_counts(pos));
}

}  // namespace quince::eval
