// quince wdlfit: fits the win/draw/loss model of eval/wdl.h to positions of Quince's own games
// (the training format `FEN | score | result [| teacher]`; the search score, not the teacher's, is used):
// maximum likelihood of the game results under P(win) = 1 / (1 + exp((a - v) / b)), P(loss) the same at -v,
// P(draw) the rest, with a and b polynomials in the material count (eval/wdl.h). Damped Newton steps
// (Levenberg-Marquardt) on the mean negative log-likelihood; the Hessian from differences of the exact
// gradient.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "eval/wdl.h"

namespace quince::wdlfit {

struct Point {
    double score;   // centipawns, White's view
    int material;   // eval::wdl_material of the position
    double result;  // 1.0 / 0.5 / 0.0, White's view
};

struct ReadStats {
    std::size_t lines = 0, used = 0, beyond_max_score = 0;
};

// Appends the positions of a training file (text or QTD, through tools/training/reader.h) with
// |score| <= max_score. False + *error ("FILE:LINE: ...") on a line that does not parse or a file that cannot
// be read (points read so far stay).
bool read_points(const std::string& path, int max_score, std::vector<Point>& out, ReadStats& stats,
                 std::string* error);

struct FitResult {
    eval::WdlModel model;
    double loss = 0;           // mean negative log-likelihood per position (natural log)
    double constant_loss = 0;  // the same for a and b independent of material (degree 0), for comparison
    int iterations = 0;
    bool converged = false;
};

// Polynomials of this degree (0..3) in x = material / 58; higher coefficients stay 0.
FitResult fit(const std::vector<Point>& points, int degree = 3);
// Mean negative log-likelihood of the points under a model (infinite when a <= 0 or b <= 0 somewhere in
// the material range).
double mean_loss(const eval::WdlModel& model, const std::vector<Point>& points);

// `quince wdlfit [--degree N] [--max-score CP] [--test DATA] DATA...` (DATA: a training file, a datagen
// folder of shards or a .list file, as `quince tune --data` takes them)
int run_wdlfit_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace quince::wdlfit
