// The `quince` program. No argument: the UCI engine on stdin/stdout. A first argument that names a
// subcommand runs it; `--help` / `--version` print and exit; any other first word that is not an
// option makes every argument a UCI command line, run in order (`quince "position startpos"
// "go depth 12"`; OpenBench runs `quince "genfens 8 seed 5 book None" "quit"`). Usage errors: one
// line on stderr, exit status 2. What the subcommands share is src/cli/program.h.
#include <iostream>
#include <string>

#include "bench_signature.h"
#include "cli/analyse.h"
#include "cli/cli.h"
#include "cli/program.h"
#include "core/text.h"
#include "datagen/data_cli.h"
#include "datagen/datagen_cli.h"
#include "nnue/trainer.h"
#include "similarity/similarity_cli.h"
#include "tune/tuner.h"
#include "wdlfit/wdlfit.h"

using namespace quince;

namespace {

// One line per subcommand: adding one is adding a line here.
const cli::Subcommand SUBCOMMANDS[] = {
    {"analyse", "[FEN|startpos] [moves ...] [--depth N|--movetime MS|--nodes N|--infinite] [--multipv K] "
                "[--profile P] [--threads N] [--hash MB] [--json] [--wdl]",
     "search a position; lines in SAN, scores in pawns (White's view); default --depth 20",
     cli::run_analyse_command, &cli::ANALYSE_DETAILS},
    {"analyse", "GAMES.pgn [--out FILE] [--json] [--nodes N|--movetime MS|--depth D] [--model human|wdl|lichess] "
                "[--game N|A-B] [--side white|black] [--from-move N] [--wdl]",
     "annotate whole games: [%eval] per move, ?! ? ?? with the better line, accuracy tags", cli::run_analyse_command,
     &cli::ANALYSE_DETAILS},
    {"analyze", "...", "the same as analyse", cli::run_analyse_command, &cli::ANALYSE_DETAILS},
    {"eval", "[--json|--svg] [--profile P] [--weights FILE] [FEN|startpos] [moves ...] | [--json] ... --epd FILE",
     "every evaluation term of a position (text table with a legend, JSON, or an SVG picture of the board); "
     "a network's score beside the terms of --profile (default quince); --epd: of every position of FILE",
     cli::run_eval},
    {"compare", "[--json|--svg] [--weights FILE ...] FEN|startpos [PROFILE ...] | --epd FILE [--top N] [--json] [PROFILE ...]",
     "every evaluation term under several profiles side by side (default rybka1 rybka232 fruit21), or over an EPD file",
     cli::run_compare, &cli::COMPARE_DETAILS},
    {"perft", "DEPTH [FEN|startpos] [moves ...]", "count the leaf nodes DEPTH plies deep (1..20), divided by first move",
     cli::run_perft},
    {"bench", "[DEPTH] [--weights FILE]",
     "search 50 fixed positions to DEPTH (1..64, default 13): 'Nodes searched' is the build's signature", cli::run_bench},
    {"weights", "PROFILE|FILE", "print a profile's weights in the weight-file format (a FILE is loaded and checked)",
     cli::run_weights},
    {"tune", "--data FILE --out FILE [options]", "fit a profile's weights to training positions ('quince tune --help' lists the options)",
     tune::run_tune_cli, nullptr, true},
    {"datagen", "--out DIR (--games N | --positions N) [options] | --from-pgn FILE... --out DIR | --relabel SRC --out DIR "
                "--teacher CMD --teacher-nodes N",
     "training data: self-play at a fixed node budget, or PGNs with score comments ('quince datagen --help')",
     datagen::run_datagen_cli, nullptr, true},
    {"data", "info|dump [--json] [--limit N] [DIR|FILE...]",
     "the training set (default data/training): 'info' counts games, positions and bytes and checks every shard; "
     "'dump' prints 'FEN | teacher score | result' a line",
     datagen::run_data_cli, nullptr, true},
    {"wdlfit", "[--degree N] [--max-score CP] [--test DATA] DATA...",
     "fit the UCI_ShowWDL model (win/draw/loss from score and material) to Quince's games (a training file, datagen folder or .list each); --test: log-loss on other games",
     wdlfit::run_wdlfit_cli},
    {"train-nnue", "--out NET.nnue [options] DATA...",
     "train profile nnue's network on labelled positions ('quince train-nnue --help' lists the options)",
     nnue_train::run_train_nnue_cli, nullptr, true},
    {"similarity", similarity::SIMILARITY_ARGUMENTS, similarity::SIMILARITY_SUMMARY, similarity::run_similarity_command,
     &similarity::SIMILARITY_DETAILS},
    {"spsa", "", "tuning build: OpenBench's SPSA input, one line per UCI tuning option (name, int, value, min, max, c_end, r_end)",
     cli::run_spsa},
};

}  // namespace

int main(int argc, char** argv) {
    datagen::set_bench_signature(QUINCE_BENCH_SIGNATURE);  // named in every self-play shard's header
    const cli::Args args(argv + 1, argv + argc);
    if (args.empty()) return cli::run_uci_session();
    const std::string& first = args[0];
    if (first == "--help" || first == "-h" || (first == "help" && args.size() == 1)) {
        cli::print_help(SUBCOMMANDS, std::cout);
        return cli::EXIT_OK;
    }
    if (first == "--version") {
        cli::print_version(std::cout, QUINCE_BENCH_SIGNATURE, QUINCE_BENCH_SIGNATURE_REASON);
        return cli::EXIT_OK;
    }
    if (first[0] == '-') return cli::usage_error(std::cerr, "", "unknown option '" + printable(first) + "'");
    for (const cli::Subcommand& s : SUBCOMMANDS)
        if (first == s.name) return cli::run_subcommand(s, {args.begin() + 1, args.end()}, std::cout, std::cerr);
    // UCI command lines; a first word that is no UCI command was meant as a subcommand.
    std::string unknown;
    const int status = cli::run_uci_lines(args, std::cout, &unknown);
    return unknown.empty() ? status : cli::unknown_subcommand(unknown, SUBCOMMANDS, std::cerr);
}
