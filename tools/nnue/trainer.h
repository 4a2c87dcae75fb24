// quince train-nnue: trains the network of profile `nnue` (src/eval/nnue/network.h), of any architecture of
// src/eval/nnue/architecture.h (Options::arch), on labelled positions.
// Float training on the CPU (Adam, minibatches split over threads), the positions held in memory and
// reshuffled every epoch, a sigmoid loss against (1 - lambda) * sigmoid(teacher / scale) + lambda * result,
// validation on whole games held out, checkpoints that resume, and a quantiser that writes the engine's net
// format after checking the quantised net against the float one on the validation positions.
// Deterministic: the same data, options and seed give the same net whatever the thread count (a batch is
// cut into a fixed number of slices whose gradients are summed in order).
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "board/position.h"
#include "eval/nnue/architecture.h"
#include "eval/nnue/network.h"
#include "training/game_format.h"

namespace quince::nnue_train {

// What the trainer needs of one position: the position, the teacher's score (centipawns, White's view),
// the game's result (White's view: 1, 0.5, 0) and an identifier of its game (validation is held out by game).
class Dataset;

// from_teacher: the target is another engine's label (a net's lineage counts them).
using PositionSink =
    std::function<void(const Position& pos, int target_cp, double result, std::uint64_t game, bool from_teacher)>;

// The text training format (tools/training/sample.h), through the training reader (training/reader.h): one
// sink call per line. The target is the line's teacher field, or its search score when it has none or
// `own_scores` is set; the game ids are the reader's (they depend on the file's content, not its path).
// False + *error ("FILE:LINE: what").
bool read_text_positions(const std::string& path, const PositionSink& sink, std::string* error,
                         bool own_scores = false);

// How the QTD set is read: which plies, whose scores, which of them left out.
struct QtdRead {
    // The labelled positions only, or every quiet scored ply (its target Quince's own search score where
    // no teacher scored it).
    training::Plies plies = training::Plies::Labelled;
    // Multiplies the teacher's scores (not Quince's): Stockfish's centipawns are larger than Quince's, and
    // a set that mixes both is put on one scale by it.
    double teacher_scale = 1.0;
    // Every target Quince's own search score, no teacher's label at all: a net of the engine's own.
    bool own_scores = false;
    // Left out: the first `skip_plies` scored plies of a game (just after its random opening), and
    // positions with fewer than `min_pieces` pieces (kings included; 0 = none left out).
    int skip_plies = 0;
    int min_pieces = 0;
};

// The QTD training set (tools/training/game_format.h: data/training/, or shard files), through the training
// reader: every position `how` takes into `data`, its game number as the game id, the set's validation shards
// held out. False + *error.
bool read_qtd_positions(const std::vector<std::string>& paths, Dataset& data, std::string* error,
                        const QtdRead& how = {});

// Positions in memory, compact: the pieces as White-perspective input indices of
// eval::nnue::PieceSquareInputs and the kings' squares (an architecture's inputs for either perspective
// follow from them).
struct Sample {
    std::uint16_t features[eval::nnue::PieceSquareInputs::MAX_ACTIVE];
    std::uint8_t count;
    std::uint8_t king[COLOR_NB];  // squares, by colour
    std::uint8_t black_to_move;
    std::uint8_t held_out;  // of the data's own validation part (QTD: its validation shards)
    float teacher;  // centipawns, White's view
    float result;   // White's view
    std::uint64_t game;
};

class Dataset {
public:
    // False (position skipped, counted) for more than 32 pieces, which the net's bounds do not cover.
    // held_out: the position is only ever validated on.
    // from_teacher: the target is another engine's label (counted: a net's lineage names how many).
    bool add(const Position& pos, int teacher_cp, double result, std::uint64_t game, bool held_out = false,
             bool from_teacher = false);
    // Appends every position mirrored left to right (files a<->h; the same game, score and result): the net
    // sees no castling rights, so a mirrored position is as good a sample as its original, twice the data.
    void add_mirrored();
    const std::vector<Sample>& samples() const { return samples_; }
    std::size_t skipped() const { return skipped_; }
    // Positions added whose target is another engine's label (mirror images not counted).
    std::size_t teacher_targets() const { return teacher_targets_; }

private:
    std::vector<Sample> samples_;
    std::size_t skipped_ = 0;
    std::size_t teacher_targets_ = 0;
};

// How Adam's step size changes over a run (learning_rate()).
enum class LrSchedule { Exp, Step, Cosine };

struct Options {
    int epochs = 10;
    int batch = 16384;
    double lr = 0.001;        // Adam's step size
    double lr_decay = 0.75;   // Exp: the step size is multiplied by this after every epoch; Step: every lr_step
    LrSchedule lr_schedule = LrSchedule::Exp;
    int lr_step = 1;          // Step: epochs between two decays
    double lr_min = 0.0;      // Cosine: the step size at the end of the run
    double lambda = 0.0;      // weight of the game result in the target (0: the teacher alone)
    double scale = 400.0;     // centipawns per unit of the sigmoid (teacher and net alike)
    double validation = 0.05; // fraction of games held out
    std::uint64_t seed = 1;
    int threads = 2;
    std::string checkpoint;   // written after every epoch (empty: none)
    std::string resume;       // continue from this checkpoint (its epoch count and state)
    std::string description;  // written into the net's header (what it was trained on, and how)
    int arch = eval::nnue::architecture_index<eval::nnue::DefaultArchitecture>();  // eval/nnue/architecture.h
};

// Where each block of a float net's parameters starts in its one array (Adam runs over it): input weights
// [input][hidden], the factoriser's shared input weights [shared input][hidden] (empty, factor == ft_b,
// for inputs without; eval/nnue/architecture.h, FACTORS), input biases, output weights [bucket][side][hidden]
// (the side to move's hidden units first), output biases [bucket]; `size` in all.
struct FloatLayout {
    std::size_t ft_w = 0, factor = 0, ft_b = 0, out_w = 0, out_b = 0, size = 0;
    static FloatLayout of(int arch);
};

// The float network of architecture `arch` (eval/nnue/architecture.h). Weights are kept within ±CLIP so that
// the quantised net meets the loader's int16 bounds (a factorised net's input weights, its own and the
// shared ones, within ±CLIP / 2: the quantiser adds them).
struct FloatNet {
    static constexpr float CLIP = 1.98f;
    int arch = eval::nnue::architecture_index<eval::nnue::DefaultArchitecture>();
    FloatLayout at = FloatLayout::of(arch);
    std::vector<float> p;
    void init(std::uint64_t seed, int architecture = eval::nnue::architecture_index<eval::nnue::DefaultArchitecture>());
    // Output in centipawns, the side to move's view.
    double evaluate(const Sample& s) const;
};

// Forward and backward pass of one sample: its gradient is added to `grad` (net.at.size entries); returns
// its loss, (sigmoid(out / scale) - target)^2.
double backprop(const FloatNet& net, const Sample& s, const Options& o, std::vector<float>& grad);

struct EpochReport {
    int epoch;
    double train_loss, validation_loss;
    double seconds, positions_per_second;
};

struct Result {
    FloatNet net;
    std::vector<EpochReport> epochs;
    std::size_t train_positions = 0, validation_positions = 0;
};

// The step size of batch `batch` (0-based, of `batches` an epoch) of epoch `epoch` (0-based, counting the
// epochs of a resumed run's checkpoint): Exp, lr * lr_decay^epoch; Step, lr * lr_decay^(epoch / lr_step),
// rounded down; Cosine, from lr at the run's first batch down to lr_min after its last (options.epochs
// epochs), half a cosine wave, batch by batch. A function of these alone, so a resumed run repeats it.
double learning_rate(const Options& options, int epoch, std::size_t batch, std::size_t batches);

// Trains a net of architecture options.arch on `data`; progress lines go to `log` (may be null). False +
// *error (a checkpoint that does not read or does not match the options' architecture, no training
// positions).
bool train(const Dataset& data, const Options& options, Result& result, std::ostream* log, std::string* error);

// Indices of the validation positions of `data` (whole games, the same split train() uses).
std::vector<std::size_t> validation_indices(const Dataset& data, const Options& options);

struct QuantiseCheck {
    double mean_abs_diff_cp = 0, max_abs_diff_cp = 0;
    std::size_t positions = 0;
};
// At most `most` training positions (never validation ones), evenly spaced: the quantiser's calibration.
std::vector<std::size_t> calibration_indices(const Dataset& data, const Options& options, std::size_t most = 100000);
// The net file of `net` (eval/nnue/network.h's format, its architecture): inputs rounded to the nearest, the
// output layer refitted and weights rounded adaptively on the `calibration` positions (trainer.cpp), each
// output bucket on its own positions, then checked: it parses (the loader's int16
// bounds), and over the positions `check` the engine's integer output differs from the float net's by at
// most `max_mean_cp` on average. False + *error when not.
bool quantise(const FloatNet& net, const Dataset& data, const std::vector<std::size_t>& calibration,
              const std::vector<std::size_t>& check, const std::string& description, std::string& bytes,
              QuantiseCheck& report, std::string* error, double max_mean_cp = 2.0);

// The data files as the net's default description names them: runs of consecutive shards of one folder
// (`DIR/shard-00000.qtd.xz DIR/shard-00001.qtd.xz …`) as `DIR/shard-00000 .. shard-00393.qtd.xz`, so that a
// description of a thousand shards still fits the header; other names as given, in their order.
std::string describe_files(const std::vector<std::string>& files);

// `quince train-nnue ARGS`.
int run_train_nnue_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace quince::nnue_train
