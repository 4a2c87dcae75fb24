// Evaluation speed: full evaluations per second over a fixed position set (WAC positions plus
// positions from seeded random play), warm pawn hash, lazy evaluation off (no window), the evaluation
// cache off (every call evaluates; a repeated position would otherwise be a cache hit).
//   build/eval_speed [iterations] [epd] [profile or weights file]   (profile: default quince)
// For instructions per evaluation: valgrind --tool=callgrind build/eval_speed 20
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "board/movegen.h"
#include "eval/evaluate.h"
#include "eval/profile.h"

using namespace quince;

int main(int argc, char** argv) {
    const int iterations = argc > 1 ? std::atoi(argv[1]) : 2000;
    // WAC from the data folder (docs/data.md): $QUINCE_DATA_DIR, else the folder set at configure time.
    const char* data_dir = std::getenv("QUINCE_DATA_DIR");
    const std::string epd = argc > 2 ? argv[2] : std::string(data_dir ? data_dir : QUINCE_DATA_DIR) + "/wac.epd";
    std::vector<Position> positions;
    std::ifstream in(epd);
    for (std::string line; std::getline(in, line);) {
        // EPD: the first four fields are the position.
        std::size_t p = 0;
        for (int f = 0; f < 4 && p != std::string::npos; ++f) p = line.find(' ', p + 1);
        Position pos;
        if (pos.set_fen(line.substr(0, p))) positions.push_back(pos);
    }
    std::mt19937_64 rng(20261122);
    for (int game = 0; game < 50; ++game) {
        Position pos;
        for (int ply = 0; ply < 80; ++ply) {
            MoveList<LEGAL> moves(pos);
            if (moves.size() == 0) break;
            pos.do_move(moves.begin()[rng() % moves.size()].move);
            if (ply % 8 == 7) positions.push_back(pos);
        }
    }
    eval::Evaluator ev;
    ev.set_cache(false);
    // A built-in profile's name, or a weights file (EvalFile format) for a profile under test.
    if (argc > 3 && !ev.set_profile(argv[3])) {
        std::string error;
        const auto prof = eval::load_profile_file(argv[3], &error);
        if (!prof) {
            std::fprintf(stderr, "eval_speed: '%s' is neither a profile nor a weights file: %s\n", argv[3], error.c_str());
            return 1;
        }
        ev.set_profile(prof);
    }
    long long sink = 0;
    for (const Position& p : positions) sink += ev.evaluate(p);  // warm the pawn hash
    auto cpu = [] {
        timespec ts;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);  // CPU time: robust against other jobs on the machine
        return ts.tv_sec * 1e9 + ts.tv_nsec;
    };
    const double c0 = cpu();
    auto t0 = std::chrono::steady_clock::now();
    for (int it = 0; it < iterations; ++it)
        for (const Position& p : positions) sink += ev.evaluate(p);
    auto t1 = std::chrono::steady_clock::now();
    const double cpu_ns = cpu() - c0;
    const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
    const double n = double(iterations) * positions.size();
    std::printf("positions %zu, evaluations %.0f: %.1f ns/eval CPU time (%.1f ns wall), %.2f M eval/s CPU (checksum %lld)\n",
                positions.size(), n, cpu_ns / n, ns / n, n / cpu_ns * 1e3, sink);
    return 0;
}
