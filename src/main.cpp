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
#include "uci/uci.h"

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
    if (argc >= 2 && std::string(argv[1]) == "bench") {
        int depth = argc >= 3 ? std::atoi(argv[2]) : 13;
        if (depth < 1 || depth > 64) {
            std::cerr << "usage: quince bench [DEPTH 1..64]\n";
            return 2;
        }
        uci::run_bench(depth, [](const std::string& line) { std::cout << line << std::endl; });
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
