// Win / draw / loss expectation of a search score (UCI_ShowWDL: `wdl W D L` in `info`), from a model fitted
// on the games of one evaluation (each Evaluation holds its own, eval/evaluation.h): the win rate is logistic in the score, 1 / (1 + exp((a - v) / b)), with a and b
// cubic polynomials in the material count m (pawn 1, knight and bishop 3, rook 5, queen 9, both sides,
// clamped to 17..78) of x = m / 58, the form of Stockfish's model. The loss rate is the win rate of -v and
// the draw rate what is left. The coefficients (wdl.cpp) come from `quince wdlfit` (tools/wdlfit).
#pragma once

#include <array>

#include "board/position.h"
#include "core/types.h"

namespace quince::eval {

struct WdlModel {
    std::array<double, 4> a, b;  // a(x) = a[0] x^3 + a[1] x^2 + a[2] x + a[3]; b likewise; x = m / 58
};

struct Wdl {
    int win = 0, draw = 0, loss = 0;  // per mille, side to move's view; they add up to 1000
};

inline constexpr int WDL_MATERIAL_MIN = 17, WDL_MATERIAL_MAX = 78, WDL_MATERIAL_SCALE = 58;

// The model fitted on a hand-crafted profile's games (wdl.cpp), which every profile's evaluation reports with.
const WdlModel& fitted_wdl_model();
// The model fitted on the default net's games (wdl.cpp), which a network's evaluation reports with: a net
// trained on the set's targets scores on its own scale, and its games draw more often near 0.
const WdlModel& network_wdl_model();
// The model fitted on games people played (club players on lichess.org, scored by the default net's search):
// the winning chances `quince analyse` judges moves by, so that a mistake is rated as a player's game
// is, not as a game between engines whose every edge is converted.
const WdlModel& human_wdl_model();
// Material count of the model (both sides; not clamped).
int wdl_material(const Position& pos);
// The model's a (score of an even win chance) and b (spread) at a material count (clamped).
double wdl_a(const WdlModel& model, int material);
double wdl_b(const WdlModel& model, int material);
// Win rate (0..1) of score v (centipawns, side to move) at a material count.
double wdl_win_rate(const WdlModel& model, double v, int material);
// The per-mille triple of a search score: a mate or tablebase win is 1000 0 0, a loss 0 0 1000.
Wdl score_to_wdl(Value v, int material, const WdlModel& model = fitted_wdl_model());

}  // namespace quince::eval
