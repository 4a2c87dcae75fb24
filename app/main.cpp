// The `quince` program. No argument: the UCI engine on stdin/stdout. A first argument that names a
// subcommand runs it; `--help` / `--version` print and exit; any other first word that is not an
// option makes every argument a UCI command line, run in order (`quince "position startpos"
// "go depth 12"`; OpenBench runs `quince "genfens 8 seed 5 book None" "quit"`). Usage errors: one
// line on stderr, exit status 2.
#if defined(_WIN32)
#include <io.h>
#define isatty _isatty
#define STDOUT_FILENO 1
#else
#include <unistd.h>
#endif

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "bench_signature.h"
#include "cli/analyse.h"
#include "cli/cli.h"
#include "core/text.h"
#include "datagen/data_cli.h"
#include "datagen/datagen_cli.h"
#include "eval/weights.h"
#include "eval/profile.h"
#include "nnue/trainer.h"
#include "quince_version.h"
#include "search/params.h"
#include "similarity/similarity_cli.h"
#include "tune/tuner.h"
#include "uci/uci.h"
#include "wdlfit/wdlfit.h"

using namespace quince;

namespace {

std::atomic<bool> interrupted{false};

int analyse(const cli::Args& args) {
    cli::AnalyseSettings settings;
    settings.live = isatty(STDOUT_FILENO);
    settings.progress = isatty(STDERR_FILENO);
    settings.interrupt = &interrupted;
    // Ctrl-C stops the search, and the lines found so far are still printed; a second one kills.
    std::signal(SIGINT, [](int) {
        interrupted.store(true);
        std::signal(SIGINT, SIG_DFL);
    });
    return cli::run_analyse(args, std::cout, std::cerr, settings);
}

// `quince similarity`: engines are child processes; this program plays the profile:NAME engines, and
// Ctrl-C stops after the searches under way (the results so far stay in the --state file).
int similarity(const cli::Args& args) {
    similarity::CliContext context;
#if defined(_WIN32)
    context.quince_path = "quince";  // this build starts no child engines (see scripts/build-windows.sh)
    context.progress = isatty(2);
#else
    // The profile:NAME engines are this very program; /proc names it exactly, argv[0] may not.
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    context.quince_path = n > 0 && n < ssize_t(sizeof path - 1) ? std::string(path, std::size_t(n)) : "quince";
    context.progress = isatty(STDERR_FILENO);
#endif
    context.interrupt = &interrupted;
    std::signal(SIGINT, [](int) {
        interrupted.store(true);
        std::signal(SIGINT, SIG_DFL);
    });
    return similarity::run_similarity_cli(args, std::cout, std::cerr, context);
}

// `quince weights NAME|FILE`: a built-in profile, or a weights file after loading (checked and
// completed from its base), in the weight-file format.
int run_weights(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: quince weights PROFILE|FILE   (profiles:";
        for (const auto& n : eval::profile_names()) std::cerr << " " << n;
        std::cerr << ")\n";
        return 2;
    }
    std::shared_ptr<const eval::Profile> p = eval::find_profile_shared(argv[2]);
    if (p && p->simple) {
        std::cerr << "error: profile 'simple' is the baseline evaluation and has no weights\n";
        return 2;
    }
    if (!p) {
        std::string error;
        p = eval::load_profile_file(argv[2], &error);
        if (!p) {
            std::cerr << "error: '" << printable(argv[2]) << "' is no built-in profile, and as a file: " << error << "\n";
            return 2;
        }
    }
    std::cout << eval::format_weights(p->w);
    return 0;
}

// The tools' command lines take argc/argv: quince NAME ARGS...
int with_argv(const char* name, const cli::Args& a, int (*run)(int, char**)) {
    std::vector<std::string> words = {"quince", name};
    words.insert(words.end(), a.begin(), a.end());
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    return run(int(words.size()), argv.data());
}

// `quince spsa`: OpenBench's SPSA input lines of the tuning build's options.
int run_spsa(const cli::Args& args) {
    if (!args.empty()) return cli::usage_error(std::cerr, "spsa", "takes no argument");
    if (!search::param::TUNABLE) {
        std::cerr << "quince spsa: this build has no tuning options; build with -DQUINCE_TUNING=ON (CMake) or "
                     "'make TUNING=1' (openbench/Makefile)\n";
        return cli::EXIT_USAGE;
    }
    for (const std::string& line : search::param::spsa_input()) std::cout << line << "\n";
    return cli::EXIT_OK;
}

struct Subcommand {
    const char* name;
    const char* arguments;
    const char* summary;
    int (*run)(const cli::Args& args);
    const char* const* details = nullptr;  // more text for `quince NAME --help`
    bool own_help = false;                 // the tool answers `--help` itself (its options, in full)
};

// One line per subcommand: adding one is adding a line here.
const Subcommand SUBCOMMANDS[] = {
    {"analyse", "[FEN|startpos] [moves ...] [--depth N|--movetime MS|--nodes N|--infinite] [--multipv K] "
                "[--profile P] [--threads N] [--hash MB] [--json] [--wdl]",
     "search a position; lines in SAN, scores in pawns (White's view); default --depth 20",
     analyse, &cli::ANALYSE_DETAILS},
    {"analyse", "GAMES.pgn [--out FILE] [--json] [--nodes N|--movetime MS|--depth D] [--model wdl|lichess] "
                "[--game N|A-B] [--side white|black] [--from-move N] [--wdl]",
     "annotate whole games: [%eval] per move, ?! ? ?? with the better line, accuracy tags", analyse,
     &cli::ANALYSE_DETAILS},
    {"analyze", "...", "the same as analyse", analyse, &cli::ANALYSE_DETAILS},
    {"eval", "[--json|--svg] [--profile P] [--weights FILE] [FEN|startpos] [moves ...] | [--json] ... --epd FILE",
     "every evaluation term of a position (text table with a legend, JSON, or an SVG picture of the board); "
     "a network's score beside the terms of --profile (default quince); --epd: of every position of FILE",
     [](const cli::Args& a) { return cli::run_eval(a, std::cout, std::cerr); }},
    {"compare", "[--json|--svg] [--weights FILE ...] FEN|startpos [PROFILE ...] | --epd FILE [--top N] [--json] [PROFILE ...]",
     "every evaluation term under several profiles side by side (default rybka1 rybka232 fruit21), or over an EPD file",
     [](const cli::Args& a) { return cli::run_compare(a, std::cout, std::cerr); }, &cli::COMPARE_DETAILS},
    {"perft", "DEPTH [FEN|startpos] [moves ...]",
     "count the leaf nodes DEPTH plies deep (1..20), divided by first move",
     [](const cli::Args& a) { return cli::run_perft(a, std::cout, std::cerr); }},
    {"bench", "[DEPTH] [--weights FILE]",
     "search 50 fixed positions to DEPTH (1..64, default 13): 'Nodes searched' is the build's signature",
     [](const cli::Args& a) { return cli::run_bench(a, std::cout, std::cerr); }},
    {"weights", "PROFILE|FILE", "print a profile's weights in the weight-file format (a FILE is loaded and checked)",
     [](const cli::Args& a) { return with_argv("weights", a, run_weights); }},
    {"tune", "--data FILE --out FILE [options]", "fit a profile's weights to training positions ('quince tune --help' lists the options)",
     [](const cli::Args& a) { return with_argv("tune", a, tune::run_tune_cli); }, nullptr, true},
    {"datagen", "--out DIR (--games N | --positions N) [options] | --from-pgn FILE... --out DIR | --relabel SRC --out DIR "
                "--teacher CMD --teacher-nodes N",
     "training data: self-play at a fixed node budget, or PGNs with score comments ('quince datagen --help')",
     [](const cli::Args& a) {
         datagen::set_bench_signature(QUINCE_BENCH_SIGNATURE);
         return with_argv("datagen", a, datagen::run_datagen_cli);
     }, nullptr, true},
    {"data", "info|dump [--json] [--limit N] [DIR|FILE...]",
     "the training set (default data/training): 'info' counts games, positions and bytes and checks every shard; "
     "'dump' prints 'FEN | teacher score | result' a line",
     [](const cli::Args& a) { return with_argv("data", a, datagen::run_data_cli); }, nullptr, true},
    {"wdlfit", "[--degree N] [--max-score CP] [--test DATA] DATA...",
     "fit the UCI_ShowWDL model (win/draw/loss from score and material) to Quince's games (a training file, datagen folder or .list each); --test: log-loss on other games",
     [](const cli::Args& a) { return wdlfit::run_wdlfit_cli(a, std::cout, std::cerr); }},
    {"train-nnue", "--out NET.nnue [options] DATA...",
     "train profile nnue's network on labelled positions ('quince train-nnue --help' lists the options)",
     [](const cli::Args& a) { return nnue_train::run_train_nnue_cli(a, std::cout, std::cerr); }, nullptr, true},
    {"similarity", similarity::SIMILARITY_ARGUMENTS, similarity::SIMILARITY_SUMMARY, similarity, &similarity::SIMILARITY_DETAILS},
    {"spsa", "", "tuning build: OpenBench's SPSA input, one line per UCI tuning option (name, int, value, min, max, c_end, r_end)",
     run_spsa},
};

// The compiler and standard library the build used, as a bug report needs them.
std::string compiler_name() {
#if defined(__clang__)
    std::string name = "clang " __clang_version__;
#elif defined(__GNUC__)
    std::string name = "GCC " __VERSION__;
#else
    std::string name = "unknown compiler";
#endif
    while (!name.empty() && name.back() == ' ') name.pop_back();  // __clang_version__ ends in a space
#if defined(_LIBCPP_VERSION)
    name += ", libc++";
#elif defined(__GLIBCXX__)
    name += ", libstdc++";
#endif
    return name;
}

void print_version() {
    std::cout << "Quince " << QUINCE_VERSION << "\n";
    if (QUINCE_BENCH_SIGNATURE[0]) std::cout << "bench signature: " << QUINCE_BENCH_SIGNATURE << " (quince bench)\n";
    else std::cout << "bench signature: not computed (" << QUINCE_BENCH_SIGNATURE_REASON << ")\n";
    std::cout << "build: " << QUINCE_VARIANT
#if defined(_WIN32)
              << " windows"
#endif
              << ", " << compiler_name() << ", "
#if defined(QUINCE_NO_SYZYGY)
              << "without Syzygy tablebases"
#else
              << "Syzygy tablebases (Fathom)"
#endif
              << "\n";
}

// Edits (insertions, deletions, substitutions, swaps of neighbours) from a to b: for "did you mean".
std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

// A first word that is neither a subcommand nor a UCI command: a usage error naming the nearest
// subcommand, instead of running it as a UCI line.
int unknown_subcommand(const std::string& word) {
    std::string nearest;
    std::size_t best = 3;  // at most two edits away
    for (const Subcommand& s : SUBCOMMANDS)
        if (const std::size_t d = edit_distance(ascii_lower(word), s.name); d < best) best = d, nearest = s.name;
    std::string message = "unknown subcommand '" + printable(word) + "'";
    if (!nearest.empty()) message += "; did you mean '" + nearest + "'?";
    return cli::usage_error(std::cerr, "", message);
}

void print_help() {
    std::cout << "Quince " << QUINCE_VERSION << ", a UCI chess engine.\n\n"
              << "usage: quince                     speak UCI on stdin/stdout (for chess GUIs)\n"
              << "       quince SUBCOMMAND [ARGS]   one of the subcommands below\n"
              << "       quince \"UCI LINE\" ...      run UCI command lines in order, then exit\n"
              << "       quince --help | --version\n\nsubcommands:\n";
    for (const Subcommand& s : SUBCOMMANDS) {
        if (std::string(s.name) == "spsa" && !search::param::TUNABLE) continue;  // the tuning build's only
        std::cout << "  " << s.name << " " << s.arguments << "\n      " << s.summary << "\n";
    }
    std::cout << "\nA FEN is one quoted argument or its fields as separate words; options take --name=value or\n"
                 "--name value. 'quince SUBCOMMAND --help' shows one subcommand's help.\n"
                 "Exit status: 0 done, 1 failed (a UCI line answered with an error), 2 usage error.\n"
                 "Manual: man 6 quince.\n";
}

}  // namespace

int main(int argc, char** argv) {
    const cli::Args args(argv + 1, argv + argc);
    if (args.empty()) {
        // A GUI that exits or crashes closes our stdout: a write then fails (Uci stops and returns)
        // instead of SIGPIPE killing the process in the middle of a search.
#if defined(SIGPIPE)
        std::signal(SIGPIPE, SIG_IGN);
#endif
        std::ios::sync_with_stdio(false);
        // Reading cin must not flush cout behind the output mutex (the search thread writes too).
        std::cin.tie(nullptr);
        uci::Uci uci(std::cout);
        uci.loop(std::cin);
        return cli::EXIT_OK;
    }
    const std::string& first = args[0];
    if (first == "--help" || first == "-h" || (first == "help" && args.size() == 1)) {
        print_help();
        return cli::EXIT_OK;
    }
    if (first == "--version") {
        print_version();
        return cli::EXIT_OK;
    }
    if (first[0] == '-') return cli::usage_error(std::cerr, "", "unknown option '" + printable(first) + "'");
    for (const Subcommand& s : SUBCOMMANDS) {
        if (first != s.name) continue;
        const cli::Args rest(args.begin() + 1, args.end());
        if (rest.size() == 1 && (rest[0] == "--help" || rest[0] == "-h") && !s.own_help) {
            std::cout << "usage: quince " << s.name << " " << s.arguments << "\n" << s.summary << "\n";
            if (s.details) std::cout << *s.details;
            return cli::EXIT_OK;
        }
        return s.run(rest);
    }
    // UCI command lines; a first word that is no UCI command was meant as a subcommand.
    std::string unknown;
    const int status = cli::run_uci_lines(args, std::cout, &unknown);
    return unknown.empty() ? status : unknown_subcommand(unknown);
}
