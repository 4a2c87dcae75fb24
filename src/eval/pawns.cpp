#include "eval/pawns.h"

#include <type_traits>

#include "eval/pst.h"
#include "eval/terms.h"

namespace quince::eval {

namespace {

constexpr Bitboard sq_if(int f, int r) { return (f >= 0 && f < 8 && r >= 0 && r < 8) ? (1ULL << (r * 8 + f)) : 0; }

constexpr PawnMasks make_masks() {
    PawnMasks m{};
    for (int sq = 0; sq < 64; ++sq) {
        const int f = sq & 7, r = sq >> 3;
        m.fwd[sq] = m.adjacent[sq] = m.protect[sq] = m.passed[sq] = 0;
        for (int k = 0; k < 8; ++k) {
            if (k > r) m.fwd[sq] |= sq_if(f, k);
            m.adjacent[sq] |= sq_if(f - 1, k) | sq_if(f + 1, k);
            if (k <= r) m.protect[sq] |= sq_if(f - 1, k) | sq_if(f + 1, k);
            if (k > r) m.passed[sq] |= sq_if(f - 1, k) | sq_if(f, k) | sq_if(f + 1, k);
        }
        m.att1[sq] = sq_if(f - 1, r + 2) | sq_if(f + 1, r + 2);
        m.att2[sq] = sq_if(f - 1, r + 3) | sq_if(f + 1, r + 3);
        m.pawn_att[sq] = sq_if(f - 1, r + 1) | sq_if(f + 1, r + 1);
    }
    return m;
}

// Structure of the pawns `own` against `opp`, both in own-perspective coordinates (§5.2). With `coef`,
// the coefficient of each weight for colour C (the tuner's trace).
void pawn_structure(const Profile& prof, Bitboard own, Bitboard opp, int& op, int& eg, std::uint8_t& passed_files,
                    CoefTrace* coef, SquareTrace* squares, Color C) {
    const Weights& w = prof.w;
    const PawnMasks& M = PAWN_MASKS;
    op = eg = 0;
    passed_files = 0;
    // The tuner's coefficient of a pair (element e of a pair of arrays).
    auto note = [&](auto r, double k, int e = 0) {
        if (coef) [[unlikely]] {
            if constexpr (std::is_same_v<decltype(r), PairRef>) coef->add(C, r.index, k), coef->add(C, r.index + 1, k);
            else coef->add(C, r.index + e, k), coef->add(C, r.index + r.size + e, k);
        }
    };
    for (Bitboard b = own; b;) {
        const Square sq = pop_lsb(b);
        const int f = sq & 7, r = sq >> 3;
        const bool open = ((own | opp) & M.fwd[sq]) == 0;  // no pawn of either colour in front (Fruit)
        const int op_before = op, eg_before = eg;
        bool backward = false;
        if (M.fwd[sq] & own) {  // Rybka looks ahead: one per extra pawn
            eg -= w.doubled_eg, op -= w.doubled_op;
            note(WI::doubled, -1);
        }
        if ((M.adjacent[sq] & own) == 0) {
            op -= open ? w.isolated_open_op : w.isolated_op;
            eg -= open ? w.isolated_open_eg : w.isolated_eg;
            note(open ? WI::isolated_open : WI::isolated, -1);
        } else if ((M.protect[sq] & own) == 0 &&
                   ((M.att1[sq] & opp) || ((M.att2[sq] & opp) && (M.pawn_att[sq] & own) == 0))) {
            // Rybka's backward rule: no supporter beside/behind, and the stop square is controlled, or
            // the square two ahead is controlled and no own pawn stands diagonally in front.
            backward = true;
            op -= open ? w.backward_open_op : w.backward_op;
            eg -= open ? w.backward_open_eg : w.backward_eg;
            note(open ? WI::backward_open : WI::backward, -1);
        }
        if (w.pawns2) {  // Quince's pawn terms beyond Rybka's (Ethereal 12's knowledge)
            // Phalanx (an own pawn beside) or supported (one diagonally behind).
            if (M.adjacent[sq] & own & ((0xFFFFULL << (8 * r)) >> 8)) {
                op += w.connected_op[r], eg += w.connected_eg[r];
                note(WI::connected, 1, r);
            }
            if (backward) {
                op -= w.backward_rank_op[r], eg -= w.backward_rank_eg[r];
                note(WI::backward_rank, -1, r);
            }
            if ((M.passed[sq] & opp) == 0 && (M.fwd[sq] & own)) {  // a passer behind another own pawn
                op += w.passed_stacked_op, eg += w.passed_stacked_eg;
                note(WI::passed_stacked, 1);
            }
        }
        if ((M.passed[sq] & opp) == 0) {
            passed_files |= std::uint8_t(1 << f);  // scored dynamically (passers)
            // 2.3.2a: the base bonus is static, frontmost pawn of the file only (§5.3).
            if (w.passer_base_in_pawn_entry && (M.fwd[sq] & own) == 0) {
                op += w.passed_op[r], eg += w.passed_eg[r];
                note(WI::passed, 1, r);
            }
        } else if (open && popcount(M.protect[sq] & own) >= popcount(M.passed[sq] & opp)) {
            op += w.candidate_op[r];
            eg += w.candidate_eg[r];
            note(WI::candidate, 1, r);
        }
        if (squares) [[unlikely]] {  // the picture: this pawn's share, White's view
            const int sign = C == WHITE ? 1 : -1;
            squares->v[T_PAWNS][relative_square(C, sq)][0] += sign * (op - op_before);
            squares->v[T_PAWNS][relative_square(C, sq)][1] += sign * (eg - eg_before);
        }
    }
}

int shelter_storm(const Profile& prof, Bitboard own, Bitboard opp, int wing) {
    return prof.shelter_table[wing_mask(own, wing)] + prof.storm_table[wing_mask(opp, wing)];
}

template <Color C>
void fill_colour(const Profile& prof, const Position& pos, PawnEntry& e, CoefTrace* coef, SquareTrace* squares) {
    const Bitboard own = rel<C>(pos.pieces(C, PAWN)), opp = rel<C>(pos.pieces(~C, PAWN));
    int op, eg;
    pawn_structure(prof, own, opp, op, eg, e.passed_files[C], coef, squares, C);
    e.op[C] = op;
    e.eg[C] = eg;
    int po = 0, pe = 0;
    for (Bitboard b = own; b;) {
        Square s = pop_lsb(b);
        po += prof.pst_op[PAWN][s];
        pe += prof.pst_eg[PAWN][s];
        if (coef) [[unlikely]]
            pst_terms(prof.w, PAWN, s, [&](int index, int k) { coef->add(C, index, k); });
        if (squares) [[unlikely]] {
            const int sign = C == WHITE ? 1 : -1;
            squares->v[T_PST_PAWN][relative_square(C, s)][0] += sign * prof.pst_op[PAWN][s];
            squares->v[T_PST_PAWN][relative_square(C, s)][1] += sign * prof.pst_eg[PAWN][s];
        }
    }
    e.pst_op[C] = po;
    e.pst_eg[C] = pe;
    // File byte: OR of the rank bytes 2..7 (§13.2).
    std::uint8_t files = 0;
    for (int r = 1; r <= 6; ++r) files |= std::uint8_t(own >> (8 * r));
    e.drawish[C] = prof.drawish[files];
    if (coef) coef->drawish[C] = e.drawish[C];
    for (int wing = 0; wing < 3; ++wing) e.shelter[C][wing] = std::uint16_t(shelter_storm(prof, own, opp, wing));
}

}  // namespace

const PawnMasks PAWN_MASKS = make_masks();

int wing_mask(Bitboard pawns, int wing) {
    static constexpr int FIRST_FILE[3] = {0, 3, 5};  // rectangles a-c, d-f, f-h (§7.2, §15 item 7)
    int m = 0;
    for (int k = 0; k < 4; ++k)
        for (int j = 0; j < 3; ++j)
            if (pawns & (1ULL << ((k + 1) * 8 + FIRST_FILE[wing] + j))) m |= 1 << (3 * k + j);
    return m;
}

void build_shelter_storm(const Weights& w, std::vector<std::uint16_t>& shelter, std::vector<std::uint16_t>& storm) {
    shelter.assign(4096, 0);
    storm.assign(4096, 0);
    const auto none = [](int, int) {};
    for (int m = 0; m < 4096; ++m) {
        shelter[std::size_t(m)] = std::uint16_t(shelter_terms(w, m, none));
        storm[std::size_t(m)] = std::uint16_t(storm_terms(w, m, none));
    }
}

void compute_pawn_entry(const Profile& prof, const Position& pos, PawnEntry& e, CoefTrace* coef, SquareTrace* squares) {
    e.key = pos.pawn_key();
    fill_colour<WHITE>(prof, pos, e, coef, squares);
    fill_colour<BLACK>(prof, pos, e, coef, squares);
    const Bitboard wp = pos.pieces(WHITE, PAWN), bp = pos.pieces(BLACK, PAWN);
    e.closedness = std::uint8_t(closedness_bucket(wp, bp));
    const Bitboard rammed[2] = {wp & (bp >> 8), bp & (wp << 8)};
    for (Color c : {WHITE, BLACK}) {
        e.rammed[c][0] = std::uint8_t(popcount(rammed[c] & DARK_SQUARES));
        e.rammed[c][1] = std::uint8_t(popcount(rammed[c] & LIGHT_SQUARES));
    }
}

}  // namespace quince::eval
