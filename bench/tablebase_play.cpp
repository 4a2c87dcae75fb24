// Measured goal of the tablebase support: random 3-4-piece positions played by the engine against
// itself (fixed nodes per move, SyzygyPath set) must all end in their tablebase result under the
// fifty-move rule (a win is mated, a draw is held, a cursed win or blessed loss is drawn).
//
//   build/tablebase_play DIR [games] [nodes per move] [seed]
//
// DIR holds the 3-4-piece Syzygy tables (.rtbw and .rtbz). One line per game that misses its result,
// then the totals.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>
#include <algorithm>
#include <string>
#include <vector>

#include "board/movegen.h"
#include "board/notation.h"
#include "search/search.h"
#include "search/syzygy.h"

using namespace quince;

namespace {

// Materials of the WDL tables in dir ("KQvKR" ...), at most four pieces.
std::vector<std::string> materials(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        const std::string stem = e.path().stem().string();
        if (e.path().extension() == ".rtbw" && syzygy::is_material_name(stem) && stem.size() <= 5) out.push_back(stem);
    }
    std::sort(out.begin(), out.end());
    return out;
}

bool random_position(const std::string& material, std::mt19937& rng, Position* pos) {
    char board[64];
    std::fill(board, board + 64, '.');
    const std::size_t v = material.find('v');
    for (std::size_t i = 0; i < material.size(); ++i) {
        if (i == v) continue;
        const char c = i < v ? material[i] : char(std::tolower(material[i]));
        int sq;
        do sq = int(rng() % 64);
        while (board[sq] != '.' || ((c == 'P' || c == 'p') && (sq < 8 || sq >= 56)));
        board[sq] = c;
    }
    std::string fen;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            const char c = board[r * 8 + f];
            if (c == '.') ++empty;
            else {
                if (empty) fen += char('0' + empty), empty = 0;
                fen += c;
            }
        }
        if (empty) fen += char('0' + empty);
        if (r) fen += '/';
    }
    fen += rng() % 2 ? " w - - 0 1" : " b - - 0 1";
    return pos->set_fen(fen) && MoveList<LEGAL>(*pos).size() > 0;
}

// "1-0", "0-1" or "1/2-1/2" expected from the tables (50-move rule: cursed wins are draws).
std::string expected(const Position& pos, syzygy::Wdl wdl) {
    if (wdl == syzygy::Wdl::WIN) return pos.side_to_move() == WHITE ? "1-0" : "0-1";
    if (wdl == syzygy::Wdl::LOSS) return pos.side_to_move() == WHITE ? "0-1" : "1-0";
    return "1/2-1/2";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: tablebase_play DIR [games] [nodes per move] [seed]\n";
        return 2;
    }
    const std::string dir = argv[1];
    const int games = argc > 2 ? std::atoi(argv[2]) : 100;
    const std::uint64_t nodes = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 5000;
    const unsigned seed = argc > 4 ? unsigned(std::atoi(argv[4])) : 1;
    const std::string line = syzygy::init(dir);
    std::cout << line << "\n";
    if (syzygy::max_pieces() == 0) return 1;
    const std::vector<std::string> mats = materials(dir);
    std::mt19937 rng(seed);
    search::Engine engine;
    search::SearchOptions options;
    options.silent = true;
    search::Limits limits;
    limits.nodes = nodes;

    int matched = 0, decisive = 0, total_plies = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int g = 0; g < games; ++g) {
        Position pos;
        const std::string& material = mats[rng() % mats.size()];
        while (!random_position(material, rng, &pos)) {}
        const std::string fen = pos.fen();
        syzygy::Wdl wdl;
        int dtz;
        if (!syzygy::probe_dtz(pos, &wdl, &dtz)) {
            std::cout << "cannot probe " << fen << "\n";
            return 1;
        }
        const std::string want = expected(pos, wdl);
        engine.new_game();
        std::string result, reason, moves;
        for (int ply = 0;; ++ply) {
            if (MoveList<LEGAL>(pos).size() == 0) {
                result = !pos.in_check() ? "1/2-1/2" : pos.side_to_move() == WHITE ? "0-1" : "1-0";
                reason = pos.in_check() ? "mate" : "stalemate";
            } else if (pos.rule50() >= 100) {
                result = "1/2-1/2", reason = "fifty moves";
            } else if (pos.is_repetition(0)) {
                result = "1/2-1/2", reason = "threefold repetition";
            } else if (pos.has_insufficient_material()) {
                result = "1/2-1/2", reason = "insufficient material";
            } else if (ply >= 600) {
                result = "*", reason = "600 plies";
            }
            if (!result.empty()) {
                total_plies += ply;
                break;
            }
            const search::SearchResult r = engine.search(pos, limits, options);
            moves += move_to_uci(r.best, false) + " ";
            pos.do_move(r.best);
        }
        decisive += want != "1/2-1/2";
        if (result == want) ++matched;
        else std::cout << "MISS " << fen << " (" << material << "): tables " << want << ", game " << result << " by "
                       << reason << ": " << moves << "\n";
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%d of %d games ended in their tablebase result (%d decisive, %d drawn by the tables); "
                "%d plies, %d nodes per move, %.1f s\n",
                matched, games, decisive, games - decisive, total_plies, int(nodes), secs);
    return matched == games ? 0 : 1;
}
