#include "search/wdl.h"

#include <algorithm>
#include <cmath>

namespace quince::search {

namespace {

// Fitted by `quince wdlfit shard-000{00..18}.txt` (degree 3, |score| <= 3000) on Quince's self-play: 19
// shards of `quince datagen --book 8moves_v3.epd --positions 750000 --threads 2 --seed 2026 --teacher
// stockfish --teacher-nodes 3000` (5000 nodes per move, Quince 0.2 with bench 4412337): 225,197
// positions (83,762 White wins, 75,361 draws, 66,074 Black wins); `cat shard-*.txt | sha256sum` =
// f7bffe350c79bc72136a091c7911d2a95becdc165af68d3b132699289dcb39b5. Mean log-loss 0.6384 per position
// (0.6968 with a and b independent of material). a(x) runs from 206 cp at 20 units of material to about
// 85 in middlegames; b from 102 to 118.
const WdlModel FITTED = {{-800.82, 2232.46, -2002.1, 663.401}, {-233.985, 690.765, -590.753, 232.733}};

double poly(const std::array<double, 4>& c, double x) { return ((c[0] * x + c[1]) * x + c[2]) * x + c[3]; }

double scaled_material(int material) {
    return double(std::clamp(material, WDL_MATERIAL_MIN, WDL_MATERIAL_MAX)) / WDL_MATERIAL_SCALE;
}

}  // namespace

const WdlModel& wdl_model() { return FITTED; }

int wdl_material(const Position& pos) {
    return popcount(pos.pieces(PAWN)) + 3 * popcount(pos.pieces(KNIGHT, BISHOP)) + 5 * popcount(pos.pieces(ROOK)) +
           9 * popcount(pos.pieces(QUEEN));
}

double wdl_a(const WdlModel& model, int material) { return poly(model.a, scaled_material(material)); }
double wdl_b(const WdlModel& model, int material) { return poly(model.b, scaled_material(material)); }

double wdl_win_rate(const WdlModel& model, double v, int material) {
    return 1.0 / (1.0 + std::exp((wdl_a(model, material) - v) / wdl_b(model, material)));
}

Wdl score_to_wdl(Value v, int material, const WdlModel& model) {
    if (v >= VALUE_TB_WIN_IN_MAX_PLY) return {1000, 0, 0};
    if (v <= VALUE_TB_LOSS_IN_MAX_PLY) return {0, 0, 1000};
    // Rounded separately: with a > 0 the two rates add up to less than 1, so W + L stays at most 1000.
    const int win = int(std::lround(1000.0 * wdl_win_rate(model, v, material)));
    const int loss = int(std::lround(1000.0 * wdl_win_rate(model, -double(v), material)));
    return {win, 1000 - win - loss, loss};
}

}  // namespace quince::search
