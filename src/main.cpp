// Command line: no argument = UCI; subcommands for tools and tests.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include "board/movegen.h"
#include "board/notation.h"
#include "board/position.h"
#include "datagen_cli.h"
#include "eval/evaluate.h"
#include "eval/params.h"
#include "eval/profile.h"
#include "uci/uci.h"
#include "tuner.h"

using namespace quince;

namespace {

int run_perft(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: quince perft DEPTH [FEN]\n";
        return 2;
    }
    int depth = std::atoi(argv[2]);
    std::string fen = Position::START_FEN;
    bool chess960 = false;
    if (argc >= 4) {
        fen.clear();
        for (int i = 3; i < argc; ++i) fen += std::string(i > 3 ? " " : "") + argv[i];
        // Shredder-FEN castling letters mean Chess960.
        chess960 = fen.find_first_of("ABCDEFGHabcdefgh", fen.find(' ', fen.find(' ') + 1)) < fen.find(' ', fen.find(' ', fen.find(' ') + 1) + 1);
    }
    Position pos;
    std::string error;
    if (!pos.set_fen(fen, chess960, &error)) {
        std::cerr << "error: " << error << "\n";
        return 2;
    }
    auto start = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    for (const ScoredMove& sm : MoveList<LEGAL>(pos)) {
        pos.do_move(sm.move);
        std::uint64_t n = depth > 1 ? perft(pos, depth - 1) : 1;
        pos.undo_move(sm.move);
        total += n;
        std::cout << move_to_uci(sm.move, pos.is_chess960()) << ": " << n << "\n";
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "\nNodes searched: " << total << "\n";
    std::cerr << "Time: " << secs << " s, nps: " << std::uint64_t(total / std::max(secs, 1e-9)) << "\n";
    return 0;
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
            std::cerr << "error: '" << argv[2] << "' is no built-in profile, and as a file: " << error << "\n";
            return 2;
        }
    }
    std::cout << eval::format_weights(p->w);
    return 0;
}

// OpenBench and other tools start engines as `quince "UCI line" "UCI line" ...` (e.g. `quince "genfens 8 seed 5
// book None" "quit"`): an argument that is no subcommand and no option is the first of such lines. Standard
// input follows unless one of them was `quit`.
int run_uci_arguments(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    uci::Uci uci(std::cout);
    for (int i = 1; i < argc; ++i)
        if (!uci.execute(argv[i])) return 0;
    uci.loop(std::cin);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && std::string(argv[1]) == "perft") return run_perft(argc, argv);
    if (argc >= 2 && std::string(argv[1]) == "eval") return eval::run_eval_cli(argc, argv);
    if (argc >= 2 && std::string(argv[1]) == "weights") return run_weights(argc, argv);
    if (argc >= 2 && std::string(argv[1]) == "tune") return tune::run_tune_cli(argc, argv);
    if (argc >= 2 && std::string(argv[1]) == "bench") {
        std::shared_ptr<const eval::Profile> profile;
        int depth = 13;
        for (int i = 2; i < argc; ++i) {
            const std::string a = argv[i];
            if (a == "--weights" && i + 1 < argc) {
                std::string error;
                profile = eval::load_profile_file(argv[++i], &error);
                if (!profile) {
                    std::cerr << "error: " << error << "\n";
                    return 2;
                }
            } else {
                depth = std::atoi(a.c_str());
                if (depth < 1 || depth > 64) {
                    std::cerr << "usage: quince bench [DEPTH 1..64] [--weights FILE]\n";
                    return 2;
                }
            }
        }
        uci::run_bench(depth, [](const std::string& line) { std::cout << line << std::endl; }, nullptr, profile);
        return 0;
    }
    if (argc >= 2 && std::string(argv[1]) == "datagen") return datagen::run_datagen_cli(argc, argv);
    if (argc >= 2 && argv[1][0] != '-') return run_uci_arguments(argc, argv);
    if (argc >= 2) {
        std::cerr << "usage: quince [perft DEPTH [FEN] | bench [DEPTH] | eval [--json] [--profile NAME] FEN | datagen ... | \"UCI LINE\" ...]   (no argument: UCI)\n";
        return 2;
    }
    std::ios::sync_with_stdio(false);
    // Reading cin must not flush cout behind the output mutex (the search thread writes too).
    std::cin.tie(nullptr);
    uci::Uci uci(std::cout);
    uci.loop(std::cin);
    return 0;
}
