// `quince train-nnue`: the command line over trainer.h.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli/cli.h"
#include "nnue/trainer.h"
#include "training/game_format.h"
#include "training/inputs.h"

namespace quince::nnue_train {

namespace {

const char* const USAGE =
    "usage: quince train-nnue --out NET.nnue [options] DATA...\n"
    "Trains the network of profile nnue on labelled positions and writes it in the engine's net format.\n"
    "DATA: a QTD training set (data/training, or its shard files; its validation shards are held out),\n"
    "training files (FEN | score | result [| teacher]; the teacher's score is used, the search score when\n"
    "a line has none), datagen folders or .list files.\n"
    "  --epochs N        passes over the training positions (default 10)\n"
    "  --batch N         positions per Adam step (default 16384)\n"
    "  --lr X            Adam's step size (default 0.001)\n"
    "  --lr-decay X      the step size is multiplied by X after every epoch (default 0.75)\n"
    "  --lr-schedule S   how the step size changes: exp (default: --lr-decay after every epoch), step\n"
    "                    (--lr-decay after every --lr-step N epochs) or cosine (from --lr down to --lr-min X,\n"
    "                    default 0, over the run's epochs, half a cosine wave, batch by batch)\n"
    "  --lambda X        weight of the game result in the target, 0..1 (default 0: the teacher alone)\n"
    "  --scale CP        centipawns per unit of the sigmoid (default 400)\n"
    "  --validation X    fraction of games held out for validation (default 0.05)\n"
    "  --threads N       worker threads (default 2)\n"
    "  --seed N          initial weights and shuffling (default 1): same data, options, seed = same net\n"
    "  --limit N         read at most N positions\n"
    "  --plies WHICH     of a QTD set: labelled (default) or quiet: every quiet scored ply, the teacher's\n"
    "                    score where it has one, otherwise Quince's own search score\n"
    "  --teacher-scale X of a QTD set: the teacher's scores are multiplied by X (default 1; 0.75 puts\n"
    "                    Stockfish's centipawns on Quince's scale, so a mix of both is one scale)\n"
    "  --own-scores      no other engine's label at all: every target is Quince's own search score (the\n"
    "                    net's header then says 0 teacher labels: a net of the engine's own)\n"
    "  --skip-plies N    of a QTD set: leave out each game's first N scored plies (after its random opening)\n"
    "  --min-pieces N    of a QTD set: leave out positions with fewer than N pieces, kings included\n"
    "  --mirror          train on every position and its mirror image (files a<->h): twice the data\n"
    "  --calibration N   training positions the quantiser fits the integer net to (default 100000; more\n"
    "                    when the quantised net misses the float one by more than it may)\n"
    "  --max-quantisation-error CP  the mean difference between the quantised and the float net that is\n"
    "                    still written (default 2; a net is judged by its games, so a match decides)\n"
    "  --checkpoint FILE written after every epoch; --resume FILE continues from one\n"
    "  --description TXT what the net's header says it was trained on (default: the data files and options)\n"
    "  --arch NAME       the network's architecture (src/eval/nnue/architecture.h; default ";

// The usage text ends with the architectures this build knows.
std::string usage() {
    return std::string(USAGE) + std::string(eval::nnue::architecture_name(Options{}.arch)) + "; this build knows " +
           eval::nnue::architecture_names() + ")\n";
}

bool parse_real(const std::string& text, double lo, double hi, const std::string& what, double* out,
                std::string* error) {
    std::istringstream in(text);
    double v;
    if (!(in >> v) || !in.eof() || !std::isfinite(v) || v < lo || v > hi) {
        std::ostringstream os;
        os << what << ": '" << text << "' is not a number in [" << lo << ", " << hi << "]";
        *error = os.str();
        return false;
    }
    *out = v;
    return true;
}

}  // namespace

int run_train_nnue_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
        out << usage();
        return cli::EXIT_OK;
    }
    cli::ParsedArgs a;
    std::string error;
    if (!cli::parse_args(args,
                         {{"out", true}, {"epochs", true}, {"batch", true}, {"lr", true}, {"lr-decay", true},
                          {"lambda", true}, {"scale", true}, {"validation", true}, {"threads", true},
                          {"seed", true}, {"limit", true}, {"checkpoint", true}, {"resume", true},
                          {"description", true}, {"plies", true}, {"mirror", false}, {"calibration", true},
                          {"teacher-scale", true}, {"own-scores", false}, {"skip-plies", true},
                          {"min-pieces", true}, {"arch", true}, {"max-quantisation-error", true},
                          {"lr-schedule", true}, {"lr-step", true}, {"lr-min", true}},
                         &a, &error))
        return cli::usage_error(err, "train-nnue", error);
    Options o;
    QtdRead how;
    long long skip_plies = 0, min_pieces = 0, lr_step = 1;
    long long epochs = o.epochs, batch = o.batch, threads = o.threads, seed = 1, limit = 0, calibration = 100000;
    double max_quantisation_error = 2.0;
    const bool ok =
        (!a.has("epochs") || cli::parse_number(a.options["epochs"], 1, 100000, "--epochs", &epochs, &error)) &&
        (!a.has("batch") || cli::parse_number(a.options["batch"], 1, 1 << 24, "--batch", &batch, &error)) &&
        (!a.has("threads") || cli::parse_number(a.options["threads"], 1, 256, "--threads", &threads, &error)) &&
        (!a.has("seed") || cli::parse_number(a.options["seed"], 0, (1ll << 62), "--seed", &seed, &error)) &&
        (!a.has("limit") || cli::parse_number(a.options["limit"], 1, 1ll << 40, "--limit", &limit, &error)) &&
        (!a.has("calibration") ||
         cli::parse_number(a.options["calibration"], 0, 10000000, "--calibration", &calibration, &error)) &&
        (!a.has("lr") || parse_real(a.options["lr"], 1e-9, 10, "--lr", &o.lr, &error)) &&
        (!a.has("lr-decay") || parse_real(a.options["lr-decay"], 0, 1, "--lr-decay", &o.lr_decay, &error)) &&
        (!a.has("lr-step") || cli::parse_number(a.options["lr-step"], 1, 100000, "--lr-step", &lr_step, &error)) &&
        (!a.has("lr-min") || parse_real(a.options["lr-min"], 0, 10, "--lr-min", &o.lr_min, &error)) &&
        (!a.has("lambda") || parse_real(a.options["lambda"], 0, 1, "--lambda", &o.lambda, &error)) &&
        (!a.has("max-quantisation-error") || parse_real(a.options["max-quantisation-error"], 0, 1000,
                                                        "--max-quantisation-error", &max_quantisation_error, &error)) &&
        (!a.has("scale") || parse_real(a.options["scale"], 1, 100000, "--scale", &o.scale, &error)) &&
        (!a.has("teacher-scale") ||
         parse_real(a.options["teacher-scale"], 0.01, 100, "--teacher-scale", &how.teacher_scale, &error)) &&
        (!a.has("skip-plies") || cli::parse_number(a.options["skip-plies"], 0, 1000, "--skip-plies", &skip_plies, &error)) &&
        (!a.has("min-pieces") || cli::parse_number(a.options["min-pieces"], 0, 32, "--min-pieces", &min_pieces, &error)) &&
        (!a.has("validation") || parse_real(a.options["validation"], 0, 0.9, "--validation", &o.validation, &error));
    if (!ok) return cli::usage_error(err, "train-nnue", error);
    if (a.has("lr-schedule")) {
        const std::string& name = a.options["lr-schedule"];
        if (name == "step") o.lr_schedule = LrSchedule::Step;
        else if (name == "cosine") o.lr_schedule = LrSchedule::Cosine;
        else if (name != "exp")
            return cli::usage_error(err, "train-nnue", "--lr-schedule: '" + name + "' is not exp, step or cosine");
    }
    o.lr_step = int(lr_step);
    if (a.has("lr-step") && o.lr_schedule != LrSchedule::Step)
        return cli::usage_error(err, "train-nnue", "--lr-step belongs to --lr-schedule step");
    if (a.has("lr-min") && o.lr_schedule != LrSchedule::Cosine)
        return cli::usage_error(err, "train-nnue", "--lr-min belongs to --lr-schedule cosine");
    if (a.has("lr-decay") && o.lr_schedule == LrSchedule::Cosine)
        return cli::usage_error(err, "train-nnue", "--lr-decay does not apply to --lr-schedule cosine (--lr-min does)");
    if (o.lr_min > o.lr)
        return cli::usage_error(err, "train-nnue", "--lr-min is above --lr");
    if (a.has("own-scores") && a.has("teacher-scale"))
        return cli::usage_error(err, "train-nnue", "--teacher-scale scales teacher labels, which --own-scores leaves out");
    if (a.has("arch")) {
        o.arch = eval::nnue::find_architecture(a.options["arch"]);
        if (o.arch < 0)
            return cli::usage_error(err, "train-nnue", "--arch: '" + a.options["arch"] + "' is not an architecture (" +
                                                           eval::nnue::architecture_names() + ")");
    }
    how.own_scores = a.has("own-scores");
    how.skip_plies = int(skip_plies), how.min_pieces = int(min_pieces);
    training::Plies& plies = how.plies;
    if (a.has("plies")) {
        if (a.options["plies"] == "quiet") plies = training::Plies::Quiet;
        else if (a.options["plies"] != "labelled")
            return cli::usage_error(err, "train-nnue", "--plies: '" + a.options["plies"] + "' is not labelled or quiet");
    }
    if (!a.has("out")) return cli::usage_error(err, "train-nnue", "--out NET.nnue is required");
    if (a.positional.empty()) return cli::usage_error(err, "train-nnue", "expected at least one DATA file");
    o.epochs = int(epochs), o.batch = int(batch), o.threads = int(threads), o.seed = std::uint64_t(seed);
    if (a.has("checkpoint")) o.checkpoint = a.options["checkpoint"];
    if (a.has("resume")) o.resume = a.options["resume"];

    std::vector<std::string> files;
    if (!training::expand_data_args(a.positional, files, &error)) {
        err << "quince train-nnue: " << error << "\n";
        return cli::EXIT_FAILED;
    }
    Dataset data;
    std::size_t read = 0;
    // QTD shards (data/training/): read as one set, its validation shards held out.
    std::vector<std::string> shards;
    for (const std::string& f : files)
        if (training::is_shard_file(f)) shards.push_back(f);
    if (!shards.empty() && !read_qtd_positions(shards, data, &error, how)) {
        err << "quince train-nnue: " << error << "\n";
        return cli::EXIT_FAILED;
    }
    read = data.samples().size() + data.skipped();
    for (const std::string& f : files) {
        if (training::is_shard_file(f)) continue;
        if (limit && read >= std::size_t(limit)) break;
        const bool loaded = read_text_positions(
            f,
            [&](const Position& pos, int target, double result, std::uint64_t game, bool from_teacher) {
                if (limit && read >= std::size_t(limit)) return;
                ++read;
                data.add(pos, target, result, game, false, from_teacher);
            },
            &error, how.own_scores);
        if (!loaded) {
            err << "quince train-nnue: " << error << "\n";
            return cli::EXIT_FAILED;
        }
    }
    err << "read " << data.samples().size() << " positions from " << files.size() << " file(s)";
    if (data.skipped()) err << " (" << data.skipped() << " with more than 32 pieces skipped)";
    err << "\n";
    const std::size_t read_positions = data.samples().size();
    if (a.has("mirror")) data.add_mirrored();

    if (a.has("description")) {
        o.description = a.options["description"];
    } else {
        std::ostringstream d;
        d << "quince train-nnue on";
        d << " " << describe_files(a.positional);
        d << " (" << read_positions << " positions" << (a.has("mirror") ? ", and their mirror images" : "")
          << "); epochs " << o.epochs << ", batch " << o.batch << ", lr "
          << o.lr
          << (o.lr_schedule == LrSchedule::Cosine ? ", lr-schedule cosine to " + cli::formatted("%g", o.lr_min)
                                                  : ", lr-decay " + cli::formatted("%g", o.lr_decay))
          << (o.lr_schedule == LrSchedule::Step ? " every " + std::to_string(o.lr_step) + " epochs" : "")
          << ", lambda " << o.lambda << ", scale " << o.scale
          << ", validation " << o.validation << ", seed " << o.seed
          << (plies == training::Plies::Quiet ? ", plies quiet" : "")
          << (how.teacher_scale != 1.0 ? ", teacher-scale " + std::to_string(how.teacher_scale) : std::string())
          << (how.own_scores ? ", own-scores" : "")
          << (how.skip_plies ? ", skip-plies " + std::to_string(how.skip_plies) : std::string())
          << (how.min_pieces ? ", min-pieces " + std::to_string(how.min_pieces) : std::string())
          << (a.has("arch") ? ", arch " + std::string(eval::nnue::architecture_name(o.arch)) : std::string());
        o.description = d.str();
    }
    // The lineage, whatever the description says: how many targets another engine gave.
    o.description += "; " + eval::nnue::lineage_text(std::int64_t(data.teacher_targets()), std::int64_t(read_positions));
    Result r;
    if (!train(data, o, r, &err, &error)) {
        err << "quince train-nnue: " << error << "\n";
        return cli::EXIT_FAILED;
    }
    std::vector<std::size_t> check = validation_indices(data, o);
    if (check.empty()) {  // no validation games: check the quantisation on the first training positions
        for (std::size_t i = 0; i < std::min<std::size_t>(data.samples().size(), 10000); ++i) check.push_back(i);
    }
    std::string bytes;
    QuantiseCheck qc;
    if (!quantise(r.net, data, calibration_indices(data, o, std::size_t(calibration)), check, o.description, bytes, qc, &error,
                  max_quantisation_error)) {
        err << "quince train-nnue: " << error << "\n";
        return cli::EXIT_FAILED;
    }
    const std::string path = a.options["out"], tmp = path + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f.write(bytes.data(), std::streamsize(bytes.size()));
        if (!f.flush()) {
            err << "quince train-nnue: cannot write '" << tmp << "'\n";
            return cli::EXIT_FAILED;
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        err << "quince train-nnue: cannot rename '" << tmp << "' to '" << path << "'\n";
        return cli::EXIT_FAILED;
    }
    double secs = 0;
    for (const EpochReport& e : r.epochs) secs += e.seconds;
    out << "wrote " << path << " (" << eval::nnue::architecture_name(o.arch) << ", " << bytes.size() << " bytes): " << r.train_positions << " training and "
        << r.validation_positions << " validation positions, " << r.epochs.size() << " epoch(s) in " << secs
        << " s; quantised vs float over " << qc.positions << " positions: mean " << qc.mean_abs_diff_cp
        << " cp, max " << qc.max_abs_diff_cp << " cp\n";
    return cli::EXIT_OK;
}

}  // namespace quince::nnue_train
