// The evaluation tuner (Ethereal-style): every training position is evaluated once by the
// evaluation's own code in its coefficient-trace mode (eval/terms.h CoefTrace); each epoch then
// rebuilds the score from the sparse coefficients and the current weights, and Adam moves the
// weights along the gradient of the sigmoid error. See tools/tune/README.md.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "board/position.h"
#include "eval/weights.h"
#include "eval/profile.h"
#include "eval/terms.h"

namespace quince::tune {

// A weight's coefficient in one position: White's count minus Black's, kept in halves (the king
// shelter's coefficients are multiples of 1/2, every other one is an integer), so 16 bits are exact.
struct Coef {
    std::uint16_t index = 0;  // flat weight index (eval/weights.h)
    std::int16_t halves = 0;  // 2 x coefficient
    double value() const { return 0.5 * halves; }
};

// Everything the model needs of a training position except its coefficients: at most 40 bytes.
struct PositionHead {
    struct KingAttack {
        std::uint8_t count : 7 = 0;  // attackers, capped at 15
        std::uint8_t on : 1 = 0;
        std::int8_t n[eval::KING_ATTACK_UNITS] = {};
    } king_attack[2];
    std::uint8_t phase = 0;        // material-table phase 0..64
    std::uint8_t drawish[2] = {};  // 2.3.2a drawishness byte per colour
    std::uint8_t white_to_move : 1 = 1;
    std::uint8_t ocb : 1 = 0;          // opposite-coloured bishops halve the score
    std::uint8_t known_draw : 1 = 0;   // scored 0 whatever the weights (2.3.2a's drawn K+P v K)
    std::uint8_t ocb_after : 1 = 0;    // ... after interpolation
    std::uint8_t has_teacher : 1 = 0;
    // Endgame scaling (eval/scaling.h): the complexity's inputs (pawns, both flanks, pawn ending; the
    // constant's input is 1) and the scale factor (/128) with White, Black as the stronger side.
    std::uint8_t cx_pawns : 5 = 0;
    std::uint8_t cx_flanks : 1 = 0;
    std::uint8_t cx_pawn_ending : 1 = 0;
    std::uint8_t cx_on : 1 = 0;
    std::uint8_t scale[2] = {128, 128};
    float result = 0.5f;       // game result, White's view (or a probability)
    std::int16_t score = 0;    // search score, cp, White's view (the format's scores are within +-30000)
    std::int16_t teacher = 0;  // teacher score, cp, White's view
};

// One training position with its own coefficient list (tracing, tests); TuneSet keeps many compactly.
struct TunePosition : PositionHead {
    std::vector<Coef> coefs;
};

// Training positions as the tuner keeps them at scale: the heads in one array and every coefficient in
// one arena of fixed-size blocks (no reallocation copies while loading; a position never spans two
// blocks), located by one 64-bit word per position (48-bit arena offset, 16-bit count).
// About 40 bytes per position plus 4 per coefficient.
class TuneSet {
public:
    std::size_t size() const { return heads_.size(); }
    void reserve(std::size_t positions);
    void push(const PositionHead& head, const Coef* begin, const Coef* end);
    void push(const TunePosition& p) { push(p, p.coefs.data(), p.coefs.data() + p.coefs.size()); }
    const PositionHead& head(std::size_t i) const { return heads_[i]; }
    PositionHead& head(std::size_t i) { return heads_[i]; }
    const Coef* coefs_begin(std::size_t i) const { return blocks_[where_[i] >> 16 >> BLOCK_BITS].get() + ((where_[i] >> 16) & (BLOCK - 1)); }
    const Coef* coefs_end(std::size_t i) const { return coefs_begin(i) + (where_[i] & 0xFFFF); }
    std::size_t coef_count() const { return coef_count_; }
    std::size_t bytes() const;  // memory held

private:
    static constexpr int BLOCK_BITS = 22;  // 4 M coefficients (16 MB) per block
    static constexpr std::size_t BLOCK = std::size_t(1) << BLOCK_BITS;
    std::vector<PositionHead> heads_;
    std::vector<std::uint64_t> where_;
    std::vector<std::unique_ptr<Coef[]>> blocks_;
    std::size_t used_ = BLOCK;  // coefficients used in the last block
    std::size_t coef_count_ = 0;
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
    double evaluate(const PositionHead& p, const Coef* begin, const Coef* end, const std::vector<double>& x) const;
    // Adds d(score)/dx * factor to grad (same size as x).
    void add_gradient(const PositionHead& p, const Coef* begin, const Coef* end, const std::vector<double>& x,
                      double factor, std::vector<double>& grad) const;
    double evaluate(const TunePosition& p, const std::vector<double>& x) const {
        return evaluate(p, p.coefs.data(), p.coefs.data() + p.coefs.size(), x);
    }
    void add_gradient(const TunePosition& p, const std::vector<double>& x, double factor, std::vector<double>& grad) const {
        add_gradient(p, p.coefs.data(), p.coefs.data() + p.coefs.size(), x, factor, grad);
    }
    double evaluate(const TuneSet& s, std::size_t i, const std::vector<double>& x) const {
        return evaluate(s.head(i), s.coefs_begin(i), s.coefs_end(i), x);
    }

private:
    struct Parts {
        double op, eg, cp, w1, scale_before, scale_after, drawish_factor;
        double ka_sum[2];
        double eg_slope;     // d(final eg) / d(linear eg): the complexity's clamp and the scale factor
        double cx_slope;     // d(final eg) / d(complexity)
        int sign;
    };
    Parts parts(const PositionHead& p, const Coef* begin, const Coef* end, const std::vector<double>& x) const;
    eval::Weights fixed_;
    std::vector<eval::Role> role_;
    int interp_eg_[65];    // W[phase][1] when the phase table is not tuned
    bool phase_tuned_;     // phase_curve == table: W1 read from x
    int phase_base_ = -1;  // index of phase_table_eg[0]
    int ka_weight_base_ = -1, ka_unit_base_ = -1;
    int cx_base_ = -1;               // the complexity weights' run (eval/scaling.h)
    std::uint8_t drawish_k_[256];  // k = byte * mul / div
};

struct Options {
    std::vector<std::string> data;  // training files, shard folders and .list files (FEN | score | result [| teacher])
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
    double validation = 0.05;      // held-out share of the shards (whole games)
    int validation_shards = 0;     // > 0: hold out exactly this many shards instead
    int shard_games = 200;         // games per shard when a file is cut into shards (datagen writes 200)
    int patience = 10;        // epochs without validation improvement before stopping
    int threads = 1;
    std::size_t max_positions = 0;  // 0 = all
    std::uint64_t seed = 1;
    std::vector<std::string> tune_groups;    // empty = every group
    std::vector<std::string> freeze_groups;  // groups (or weight names) kept fixed
    bool pst_tables = false;   // convert generator PSTs to tables first (768 free entries)
    bool phase_table = false;  // convert the phase curve to a table first (65 free entries)
    bool phase_monotone = false;  // keep a tuned phase table non-decreasing in the phase (projection)
    bool quiet = false;
    std::string command_line;  // recorded in the output file
};

// Training data as loaded: the positions, cut into shards of whole games (the unit of the validation
// split), and where they came from (the written profile's provenance).
struct TrainingData {
    struct Shard {
        std::size_t begin = 0, end = 0;  // positions [begin, end) of the set
        int games = 0;
        int file = 0;                    // index into files
        int fixed = -1;                  // QTD shards: 1 = a validation shard of the set, 0 = training; -1 = split by seed
    };
    struct Folder {
        std::string name;      // the folder's base name
        std::string command;   // manifest.txt's "command:" and "settings:" lines, paths cut to base names
        std::string settings;  // ("" without a manifest)
        std::string source_command, source_settings;  // a relabelled folder's "source command:" / "source settings:"
        std::vector<std::string> files;  // full paths, in load order (for the checksum)
        long games = 0, positions = 0;
    };
    TuneSet set;
    std::vector<Shard> shards;
    std::vector<std::string> files;
    std::vector<int> file_folder;  // files[i] belongs to folders[file_folder[i]]
    std::vector<Folder> folders;
    long games = 0;
};

// Result of a tune, for tests and the report.
struct Report {
    double K = 0;
    double train_error_start = 0, train_error_end = 0;
    double valid_error_start = 0, valid_error_end = 0;
    // the validation positions' error against the game result alone (lambda 1), same K: comparable
    // between fits with different lambda on the same held-out games
    double valid_result_error_start = 0, valid_result_error_end = 0;
    int epochs_run = 0;
    int best_epoch = 0;
    std::size_t positions = 0, train_positions = 0, valid_positions = 0;
    std::size_t train_shards = 0, valid_shards = 0;
    long games = 0;
    double positions_epochs_per_second = 0;
    double fit_seconds = 0;   // loading included
    std::vector<TrainingData::Folder> folders;
    eval::Weights weights;  // rounded, clamped
};

// Loads and traces training files (text or QTD, through tools/training/reader.h) with `threads` threads. A
// malformed line is an error naming file and line: nothing is skipped silently and nothing is returned.
// Games are the reader's (in a text file a new game starts where the ply does not increase, the piece count
// grows or the result changes); a text file is cut into shards of at most shard_games games at their
// boundaries, a QTD shard is one shard, held out when the set holds it out.
bool load_training_data(const std::vector<std::string>& files, const eval::Profile& profile, int shard_games,
                        std::size_t limit, int threads, TrainingData& out, std::string* error,
                        const std::function<void(const std::string&)>& log = nullptr);
// One file (tests): the positions are appended to out.
long load_training_file(const std::string& path, const eval::Profile& profile, TuneSet& out, std::size_t limit,
                        std::string* error);

// The held-out shards: validation_shards of them if > 0, else round(validation x shards) (at least one
// when validation > 0 and there are two or more shards), chosen by a shuffle seeded with `seed`.
// Returns one flag per shard (true = validation).
std::vector<bool> validation_shards(std::size_t shards, const Options& o);

// The weights that may move under `o` for the starting weights w (role not Fixed, group selected, used).
std::vector<bool> tunable_mask(const eval::Weights& w, const Options& o, std::string* error);

// Mean sigmoid error over the positions `idx` of `set` for weights x.
double error_of(const Model& m, const TuneSet& set, const std::vector<std::uint32_t>& idx, const std::vector<double>& x,
                double K, double lambda, bool teacher, int threads);
double fit_K(const Model& m, const TuneSet& set, const std::vector<std::uint32_t>& idx, const std::vector<double>& x,
             int threads);

// Runs the whole tune on in-memory positions (tests; each position is its own game) or the files of
// Options::data. Logs through `log`.
bool run_tune(const Options& o, const eval::Weights& start, std::vector<TunePosition> positions, Report& report,
              std::string* error, const std::function<void(const std::string&)>& log);

// `quince tune`: the words after the subcommand's name; exit status 0 done, 2 usage error or failure.
int run_tune_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The closest non-decreasing sequence to v[0..n) in the least-squares sense (pool adjacent violators),
// in place: the phase table's projection after each step with Options::phase_monotone.
void make_non_decreasing(double* v, int n);

std::vector<double> weights_vector(const eval::Weights& w);
eval::Weights weights_from_vector(const eval::Weights& base, const std::vector<double>& x);

}  // namespace quince::tune
