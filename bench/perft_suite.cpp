// Runs a perft EPD file (`<FEN> ;D1 n ;D2 n ...`) in-process: every depth whose expected count is at most
// max_nodes. Shredder-FEN castling letters select Chess960. Exit code 1 on any mismatch.
// Usage: perft_suite FILE [max_nodes]
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "board/movegen.h"

using namespace quince;

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: perft_suite FILE [max_nodes]\n";
        return 2;
    }
    std::uint64_t max_nodes = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 50'000'000ULL;
    std::ifstream in(argv[1]);
    if (!in) {
        std::cerr << "cannot open " << argv[1] << "\n";
        return 2;
    }
    auto start = std::chrono::steady_clock::now();
    std::uint64_t checked = 0, failed = 0, skipped = 0, nodes_total = 0;
    std::string line;
    while (std::getline(in, line)) {
        std::size_t semi = line.find(';');
        if (semi == std::string::npos) continue;
        std::string fen = line.substr(0, semi);
        std::istringstream fields(fen);
        std::string board, side, castling;
        fields >> board >> side >> castling;
        bool chess960 = castling.find_first_of("ABCDEFGHabcdefgh") != std::string::npos;
        Position pos;
        std::string error;
        if (!pos.set_fen(fen, chess960, &error) && !pos.set_fen(fen, true, &error)) {
            std::cout << "REJECTED " << fen << ": " << error << "\n";
            ++failed;
            continue;
        }
        std::istringstream rest(line.substr(semi));
        std::string tok;
        while (rest >> tok) {
            if (tok[0] == ';') tok.erase(0, 1);
            if (tok.empty() || tok[0] != 'D') continue;
            int depth = std::atoi(tok.c_str() + 1);
            std::uint64_t expected;
            rest >> expected;
            if (expected > max_nodes && depth > 1) {
                ++skipped;
                continue;
            }
            std::uint64_t got = perft(pos, depth);
            nodes_total += got;
            ++checked;
            if (got != expected) {
                ++failed;
                std::cout << "MISMATCH " << fen << " depth " << depth << ": expected " << expected << ", got " << got
                          << "\n";
            }
        }
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << argv[1] << ": " << checked << " entries checked, " << failed << " mismatches, " << skipped
              << " skipped (> " << max_nodes << " nodes), " << nodes_total << " nodes in " << secs << " s\n";
    return failed ? 1 : 0;
}
