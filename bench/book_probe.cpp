// Cost of a Polyglot book probe: the position's key, a binary search over the sorted entries, and
// (on a hit) decoding the book moves against the legal moves.
//
//   build/book_probe [entries] [rounds]
//
// Builds a synthetic book of `entries` entries (default 1,000,000, a 16 MB file: the size of a large
// tournament book) holding one move for each position of random games from the start, the rest random
// keys, and probes every collected position (hits) and their mirrors (misses) `rounds` times.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <unistd.h>
#include <vector>

#include "board/book.h"
#include "board/movegen.h"

using namespace quince;

int main(int argc, char** argv) {
    const std::size_t entries = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
    const int rounds = argc > 2 ? std::atoi(argv[2]) : 20;
    std::mt19937_64 rng(7);

    // Positions of random games, 30 plies each.
    std::vector<Position> positions;
    for (int g = 0; g < 1000; ++g) {
        Position p;
        for (int ply = 0; ply < 30; ++ply) {
            MoveList<LEGAL> moves(p);
            if (moves.size() == 0) break;
            positions.push_back(p);
            p.do_move((moves.begin() + rng() % moves.size())->move);
        }
    }
    struct Raw {
        Key key;
        std::uint16_t move, weight;
    };
    std::vector<Raw> raw;
    for (const Position& p : positions) raw.push_back({book::polyglot_key(p), book::encode_move(MoveList<LEGAL>(p).begin()->move), 1});
    while (raw.size() < entries) raw.push_back({rng(), 0x031c, 1});
    std::sort(raw.begin(), raw.end(), [](const Raw& a, const Raw& b) { return a.key < b.key; });
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / ("quince_book_probe_" + std::to_string(::getpid()) + ".bin");
    {
        std::ofstream out(file, std::ios::binary);
        for (const Raw& r : raw) {
            unsigned char b[16] = {};
            for (int i = 0; i < 8; ++i) b[i] = (unsigned char)(r.key >> (56 - 8 * i));
            b[8] = (unsigned char)(r.move >> 8), b[9] = (unsigned char)r.move;
            b[10] = (unsigned char)(r.weight >> 8), b[11] = (unsigned char)r.weight;
            out.write(reinterpret_cast<const char*>(b), 16);
        }
    }
    book::Book book;
    std::string error;
    const auto load_start = std::chrono::steady_clock::now();
    if (!book.open(file.string(), &error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
    std::filesystem::remove(file);

    std::vector<Position> misses;
    for (const Position& p : positions) misses.push_back(p.flipped());

    auto time_probes = [&](const std::vector<Position>& set, std::size_t* found) {
        *found = 0;
        const auto t0 = std::chrono::steady_clock::now();
        for (int r = 0; r < rounds; ++r)
            for (const Position& p : set) *found += book.moves(p).size();
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return double(set.size()) * rounds / s;
    };
    std::size_t hits = 0, miss_hits = 0;
    const double hit_rate = time_probes(positions, &hits);
    const double miss_rate = time_probes(misses, &miss_hits);
    std::printf("book of %zu entries (%.1f MB) read in %.0f ms\n", book.size(), double(book.size()) * 16 / 1e6,
                load_s * 1000);
    std::printf("probes with a book move: %.0f per second (%zu moves found over %zu probes)\n", hit_rate, hits,
                positions.size() * rounds);
    std::printf("probes without (mirrored positions, mostly misses): %.0f per second\n", miss_rate);
    return 0;
}
