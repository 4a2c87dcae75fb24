#include "eval/wdl.h"

#include <algorithm>
#include <cmath>

namespace quince::eval {

namespace {

// Fitted by `quince wdlfit shard-000{00..16}.txt` (degree 3, |score| <= 3000) on Quince's self-play with
// the previous `quince` profile (a refit on today's: docs/results.md, not adopted):
// `quince datagen --book 8moves_v3.epd --positions 200000 --threads 2 --seed 2027`
// (5000 nodes per move, no teacher; Quince 0.2 with bench 2995360): 210,060 positions of 3,400 games
// (73,214 White wins, 76,018 draws, 60,828 Black wins); `cat shard-*.txt | sha256sum` =
// 6475cb3dabe4024f7255d662954c2a8ff551e2687a697abdb856790c9da5c330. Mean log-loss 0.6409 per position
// (0.6980 with a and b independent of material). a(x) runs from 219 cp at 20 units of material to 93-106
// in middlegames; b from 76 to 117. (The model before, fitted on the `rybka1` profile's games at bench
// 4412337, had a from 206 to about 85 and b from 102 to 118.)
const WdlModel FITTED = {{-847.232, 2340.24, -2079.95, 692.645}, {-370.953, 1021.37, -830.652, 284.307}};

// Fitted by `quince wdlfit --test VALIDATION.list TRAINING.list` (degree 3, |score| <= 3000) on the labelled
// positions of data/training/sf3000-nnue-n1000-s2, shards 00000-00219: the games of profile `nnue` with the
// default net (checksum 3dbbcf567a94f5d0) at 1,000 nodes a move, its own search scores. Fitted on the 209
// training shards (1,204,787 positions: 466,045 White wins, 380,875 draws, 357,867 Black wins), tested on the
// 11 validation shards (19 modulo 20; 63,395 positions): mean log-loss 0.729794 against 0.734369 for FITTED.
// a(x) runs from 233 cp at 20 units of material to 76-89 in middlegames; b from 71 to 126.
const WdlModel NETWORK = {{-948.015, 2678, -2434.75, 792.834}, {-587.785, 1553.31, -1218.42, 367.471}};

// Fitted by `quince wdlfit fit` (degree 3, |score| <= 3000) on games people played: 861 games of club players
// on lichess.org (data/games/lichess-club-fit.pgn: the ratings' median 1391, blitz, bullet and rapid, ended
// by a mate or a resignation, not by the clock), scored after every move by `quince analyse --nodes 10000` with
// the default net (bench 3019111) and read back with `quince datagen --from-pgn`: 26,005 quiet positions
// (12,544 White wins, 2,018 draws, 11,443 Black wins). Mean log-loss 0.70667 (NETWORK: 0.976123). a(x) runs
// from 187 cp at 20 units of material to 30 in middlegames, b from 245 to 291 (195 with every piece on the
// board): a +100 cp edge is worth 0.17-0.19 in W - L up to 70 units (0.25 at 78; NETWORK's: 0.36 in
// middlegames), much as lichess's formula says of Stockfish's centipawns (0.18). docs/results.md,
// "Verdicts fitted to games people play".
const WdlModel HUMAN = {{-400.637, 1262.18, -1350.45, 518.578}, {-526.162, 1065.93, -593.609, 345.014}};

double poly(const std::array<double, 4>& c, double x) { return ((c[0] * x + c[1]) * x + c[2]) * x + c[3]; }

double scaled_material(int material) {
    return double(std::clamp(material, WDL_MATERIAL_MIN, WDL_MATERIAL_MAX)) / WDL_MATERIAL_SCALE;
}

}  // namespace

const WdlModel& fitted_wdl_model() { return FITTED; }
const WdlModel& network_wdl_model() { return NETWORK; }
const WdlModel& human_wdl_model() { return HUMAN; }

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

}  // namespace quince::eval
