#include "eval/pst.h"

#include <string>
#include <vector>

#include "core/types.h"
#include "eval/weights.h"

namespace quince::eval {

namespace {
// Fruit's shape constants, index = file a..h or rank 1..8 (§4.1; identical in Fruit and Rybka).
constexpr int PawnFile[8] = {-3, -1, +0, +1, +1, +0, -1, -3};
constexpr int KnightLine[8] = {-4, -2, +0, +1, +1, +0, -2, -4};
constexpr int KnightRank[8] = {-2, -1, +0, +1, +2, +3, +2, +1};
constexpr int BishopLine[8] = {-3, -1, +0, +1, +1, +0, -1, -3};
constexpr int RookFile[8] = {-2, -1, +0, +1, +1, +0, -1, -2};
constexpr int QueenLine[8] = {-3, -1, +0, +1, +1, +0, -1, -3};
constexpr int KingLine[8] = {-3, -1, +0, +1, +1, +0, -1, -3};
constexpr int KingFile[8] = {+3, +4, +2, +0, +0, +2, +4, +3};
constexpr int KingRank[8] = {+1, +0, -2, -3, -4, -5, -6, -7};
}  // namespace

void build_pst(const Weights& w, int op[7][64], int eg[7][64]) {
    for (int pt = 0; pt < 7; ++pt)
        for (int sq = 0; sq < 64; ++sq) op[pt][sq] = eg[pt][sq] = 0;

    for (int sq = 0; sq < 64; ++sq) {
        const int f = sq & 7, r = sq >> 3;
        // Formula applied to all 64 squares, back ranks of the pawn table included (harmless, §4.1).
        op[PAWN][sq] = PawnFile[f] * w.pawn_file_opening;
        eg[PAWN][sq] = PawnFile[f] * w.pawn_file_endgame;
        if (sq == SQ_D5 || sq == SQ_E5) op[PAWN][sq] += w.pawn_centre_d5e5_opening;  // Rybka keeps only D5/E5
        if (sq == SQ_D4 || sq == SQ_E4) op[PAWN][sq] += w.pawn_centre_d4e4_opening;  // Fruit's other centre
        if (sq == SQ_D3 || sq == SQ_E3) op[PAWN][sq] += w.pawn_centre_d3e3_opening;  // squares (0 in Rybka)

        op[KNIGHT][sq] = (KnightLine[f] + KnightLine[r]) * w.knight_centre_opening + KnightRank[r] * w.knight_rank_opening;
        eg[KNIGHT][sq] = (KnightLine[f] + KnightLine[r]) * w.knight_centre_endgame;
        if (r == 0) op[KNIGHT][sq] -= w.knight_back_rank_opening;
        if (sq == SQ_A8 || sq == SQ_H8) op[KNIGHT][sq] -= w.knight_trapped;

        op[BISHOP][sq] = (BishopLine[f] + BishopLine[r]) * w.bishop_centre_opening;
        eg[BISHOP][sq] = (BishopLine[f] + BishopLine[r]) * w.bishop_centre_endgame;
        if (r == 0) op[BISHOP][sq] -= w.bishop_back_rank_opening;
        if (f == r || f + r == 7) op[BISHOP][sq] += w.bishop_diagonal_opening;  // a1-h8 and a8-h1, never both

        op[ROOK][sq] = RookFile[f] * w.rook_file_opening;

        op[QUEEN][sq] = (QueenLine[f] + QueenLine[r]) * w.queen_centre_opening;
        eg[QUEEN][sq] = (QueenLine[f] + QueenLine[r]) * w.queen_centre_endgame;
        if (r == 0) op[QUEEN][sq] -= w.queen_back_rank_opening;

        op[KING][sq] = KingFile[f] * w.king_file_opening + KingRank[r] * w.king_rank_opening;
        eg[KING][sq] = (KingLine[f] + KingLine[r]) * w.king_centre_endgame;
    }
}

namespace {

// The generator's tables for each of its weights alone at 1 (the basis of the linear map).
struct PstBasis {
    struct Entry {
        int index;  // flat index of the generator weight
        int op[7][64], eg[7][64];
    };
    std::vector<Entry> entries;
    PstBasis() {
        for (const WeightDesc& d : weight_descs()) {
            if (std::string(d.group) != "pst" || d.kind != Kind::Int || d.count != 1) continue;
            Weights unit{};
            *d.ints(unit) = 1;
            Entry e{};
            e.index = weight_index(d);
            build_pst(unit, e.op, e.eg);
            entries.push_back(e);
        }
    }
};

// The explicit tables' rows by piece type.
constexpr int TABLE_INDEX[7] = {0, WI::pst_pawn.index, WI::pst_knight.index, WI::pst_bishop.index,
                                WI::pst_rook.index, WI::pst_queen.index, WI::pst_king.index};

}  // namespace

void pst_terms(const Weights& w, int pt, int sq, const std::function<void(int, int)>& f) {
    if (w.pst_source == PstSource::Table) {
        f(TABLE_INDEX[pt] + sq, 1);       // op square
        f(TABLE_INDEX[pt] + 64 + sq, 1);  // eg square
        return;
    }
    static const PstBasis basis;
    for (const PstBasis::Entry& e : basis.entries) {
        // Each generator weight is an opening or an endgame weight (tested): one of the two is 0.
        const int k = e.op[pt][sq] + e.eg[pt][sq];
        if (k) f(e.index, k);
    }
}

}  // namespace quince::eval
