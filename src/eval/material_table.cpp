#include "eval/material_table.h"

#include "eval/phase.h"

namespace quince::eval {

MaterialCounts material_counts(const Position& pos) {
    return {pos.count(WHITE, QUEEN),  pos.count(BLACK, QUEEN),  pos.count(WHITE, ROOK), pos.count(BLACK, ROOK),
            pos.count(WHITE, BISHOP), pos.count(BLACK, BISHOP), pos.count(WHITE, KNIGHT), pos.count(BLACK, KNIGHT),
            pos.count(WHITE, PAWN),   pos.count(BLACK, PAWN)};
}

int material_index_of(const MaterialCounts& c) {
    return c.wq * 1 + c.bq * 2 + c.wr * 4 + c.br * 12 + c.wb * 36 + c.bb * 108 + c.wn * 324 + c.bn * 972 +
           c.wp * 2916 + c.bp * 26244;
}

MatEntry compute_material_entry(const Weights& w, const MaterialCounts& c) {
    MatEntry e{};
    // Flags: Fruit's formulas (§2.3). King safety of a side is evaluated when the opponent has a
    // queen and at least one more piece.
    if (c.bq >= 1 && c.bq + c.br + c.bb + c.bn >= 2) e.cflags |= MAT_WHITE_KING_FLAG;
    if (c.wq >= 1 && c.wq + c.wr + c.wb + c.wn >= 2) e.cflags |= MAT_BLACK_KING_FLAG;
    // 2.3.2a keeps 2 + WP - BP in a 3-bit field and accepts <= 4: |WP - BP| >= 6 wraps into range.
    const int dp = c.wp - c.bp;
    const bool pawns_close = w.ocb_pawn_wrap ? ((2 + dp) & 7) <= 4 : (dp >= -2 && dp <= 2);
    if (c.wq + c.wr + c.wn == 0 && c.bq + c.br + c.bn == 0 && c.wb == 1 && c.bb == 1 && pawns_close)
        e.flags |= DRAW_BISHOP_FLAG;
    e.phase = std::uint8_t(material_phase(w, c.wn + c.bn + c.wb + c.bb, c.wr + c.br, c.wq + c.bq));
    e.lazy = 0;  // Rybka's 1106 lazy configurations are unknown (§16); the mechanism stays in place
    e.value = imbalance_side(w, c.wq, c.wr, c.wb, c.wn, c.wp) - imbalance_side(w, c.bq, c.br, c.bb, c.bn, c.bp);
    if (w.mat_value_limit)  // 2.3.2a: int16 table
        e.value = e.value > w.mat_value_limit ? w.mat_value_limit : e.value < -w.mat_value_limit ? -w.mat_value_limit : e.value;
    return e;
}

void build_material_table(const Weights& w, std::vector<MatEntry>& table) {
    table.assign(MATERIAL_TABLE_SIZE, MatEntry{});
    MaterialCounts c{};
    for (c.bp = 0; c.bp <= 8; ++c.bp)
        for (c.wp = 0; c.wp <= 8; ++c.wp)
            for (c.bn = 0; c.bn <= 2; ++c.bn)
                for (c.wn = 0; c.wn <= 2; ++c.wn)
                    for (c.bb = 0; c.bb <= 2; ++c.bb)
                        for (c.wb = 0; c.wb <= 2; ++c.wb)
                            for (c.br = 0; c.br <= 2; ++c.br)
                                for (c.wr = 0; c.wr <= 2; ++c.wr)
                                    for (c.bq = 0; c.bq <= 1; ++c.bq)
                                        for (c.wq = 0; c.wq <= 1; ++c.wq)
                                            table[material_index_of(c)] = compute_material_entry(w, c);
}

}  // namespace quince::eval
