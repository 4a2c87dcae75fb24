// The evaluation tuner (Ethereal-style): every training position is evaluated once by the
// evaluation's own code in its coefficient-trace mode (eval/terms.h CoefTrace); each epoch then
// rebuilds the score from the sparse coefficients and the current weights, and Adam moves the
// weights along the gradient of the sigmoid error. See tools/tune/README.md.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "board/position.h"
#include "eval/weights.h"
#include "eval/profile.h"
#include "eval/terms.h"

namespace quince::tune {

// One training position as the tuner keeps it.
struct TunePosition {
    std::vector<std::pair<std::uint16_t, float>> coefs;  // weight index, White minus Black coefficient
    struct KingAttack {
        std::uint8_t count = 0;
        std::int8_t n[eval::KING_ATTACK_UNITS] = {};
        bool on = false;
    } king_attack[2];
    struct KingDanger {
        std::int16_t n[eval::KING_DANGER_WEIGHTS] = {};
        bool on = false;
    } king_danger[2];
    std::uint8_t phase = 0;        // material-table phase 0..64
    std::uint8_t drawish[2] = {};  // 2.3.2a drawishness byte per colour
    bool white_to_move = true;
    bool ocb = false;          // opposite-coloured bishops halve the score
    bool known_draw = false;   // scored 0 whatever the weights (2.3.2a's drawn K+P v K)
    bool ocb_after = false;    // ... after interpolation
    float result = 0.5f;       // game result, White's view (or a probability)
    float score = 0.0f;        // search score, cp, White's view
    float teacher = 0.0f;      // teacher score, cp, White's view
    bool has_teacher = false;
};

// Evaluates pos with `profile` in coefficient-trace mode (no lazy evaluation); false for the
// baseline profile. `static_white_cp` receives evaluate()'s score in White's view.
bool trace_position(const eval::Profile& profile, const Position& pos, TunePosition& out, int* static_white_cp = nullptr);

// The score model over the weight vector x (flat numbering of eval/weights.h): what the evaluation
// computes, in real arithmetic. Everything in it that is not a tuned weight comes from `fixed`.
class Model {
public:
    explicit Model(const eval::Weights& fixed);
    // White's view, centipawns.
    double evaluate(const TunePosition& p, const std::vector<double>& x) const;
    // Adds d(score)/dx * factor to grad (same size as x).
    void add_gradient(const TunePosition& p, const std::vector<double>& x, double factor, std::vector<double>& grad) const;

private:
    struct Parts {
        double op, eg, cp, w1, scale_before, scale_after, drawish_factor;
        double ka_sum[2];
        double kd_count[2];  // king danger count (0 when off)
        int sign;
    };
    Parts parts(const TunePosition& p, const std::vector<double>& x) const;
    eval::Weights fixed_;
    std::vector<eval::Role> role_;
    int interp_eg_[65];    // W[phase][1] when the phase table is not tuned
    bool phase_tuned_;     // phase_curve == table: W1 read from x
    int phase_base_ = -1;  // index of phase_table_eg[0]
    int ka_weight_base_ = -1, ka_unit_base_ = -1;
    int kd_base_ = -1, kd_eg_ = -1;  // king danger: the count weights' run, king_danger_eg
    std::uint8_t drawish_k_[256];  // k = byte * mul / div
};

struct Options {
    std::vector<std::string> data;  // training files (FEN | score | result [| teacher])
    std::string profile = "rybka1";  // starting weights: a built-in profile ...
    std::string weights;             // ... or a weights file
    std::string out;                 // the profile file written
    std::string name;                // name of the written profile (default: from the output file)
    int epochs = 200;
    int batch = 16384;
    double lr = 8.0;          // Adam step, internal units (1/32 cp)
    double lambda = 1.0;      // share of the game result in the target (the rest: the score label)
    bool teacher = false;     // score label: the teacher's score instead of the search score
    double K = 0.0;           // sigmoid scale; 0 = fit it first
    double reg = 0.0;         // L2 pull toward the starting weights, per pawn^2
    double validation = 0.05;  // held-out share
    int patience = 10;        // epochs without validation improvement before stopping
    int threads = 1;
    std::size_t max_positions = 0;  // 0 = all
    std::uint64_t seed = 1;
    std::vector<std::string> tune_groups;    // empty = every group
    std::vector<std::string> freeze_groups;  // groups (or weight names) kept fixed
    bool pst_tables = false;   // convert generator PSTs to tables first (768 free entries)
    bool phase_table = false;  // convert the phase curve to a table first (65 free entries)
    bool quiet = false;
    std::string command_line;  // recorded in the output file
};

// Result of a tune, for tests and the report.
struct Report {
    double K = 0;
    double train_error_start = 0, train_error_end = 0;
    double valid_error_start = 0, valid_error_end = 0;
    int epochs_run = 0;
    std::size_t positions = 0;
    double positions_epochs_per_second = 0;
    eval::Weights weights;  // rounded, clamped
};

// Loads a training file (the format of tools/training/sample.h; a malformed line is an error naming file
// and line: nothing is skipped silently). Returns the number of positions added; -1 on error.
long load_training_file(const std::string& path, const eval::Profile& profile, std::vector<TunePosition>& out,
                        std::size_t limit, std::string* error);

// The weights that may move under `o` for the starting weights w (role not Fixed, group selected, used).
std::vector<bool> tunable_mask(const eval::Weights& w, const Options& o, std::string* error);

// Mean sigmoid error over positions for weights x.
double error_of(const Model& m, const std::vector<TunePosition>& ps, const std::vector<double>& x, double K,
                double lambda, bool teacher, int threads);
double fit_K(const Model& m, const std::vector<TunePosition>& ps, const std::vector<double>& x, int threads);

// Runs the whole tune on in-memory positions (tests) or files (Options::data). Logs through `log`.
bool run_tune(const Options& o, const eval::Weights& start, std::vector<TunePosition> positions, Report& report,
              std::string* error, const std::function<void(const std::string&)>& log);

// `quince tune …`
int run_tune_cli(int argc, char** argv);

std::vector<double> weights_vector(const eval::Weights& w);
eval::Weights weights_from_vector(const eval::Weights& base, const std::vector<double>& x);

}  // namespace quince::tune
