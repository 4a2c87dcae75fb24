// Seeded random openings: a book position (or the start position) followed by random legal plies, kept only
// when a short search finds it balanced. Shared by the UCI `genfens` command (OpenBench's DATAGEN
// workloads) and `quince datagen`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "board/position.h"
#include "core/random.h"
#include "search/search.h"

namespace quince::search {

// A seed for stream `index` of a run seeded with `seed` (game g of a datagen run): both fully mixed.
std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t index);

struct RandomOpeningConfig {
    int random_plies = 8;              // random legal plies played after the book position ...
    int random_plies_max = 0;          // ... or, when above it, a number drawn in [random_plies, this]:
                                       // an odd count gives Black the first searched move
    int max_score = 200;               // a verification score beyond ±max_score centipawns = lopsided: rejected
    std::uint64_t verify_nodes = 2000; // node budget of the verification search (one thread)
    int max_attempts = 1000;           // failures in a row before giving up
};

// Plays cfg.random_plies uniformly random legal moves from a book FEN chosen by `rng` (the start position
// when `book` is empty); an opening that ends the game, or whose verification search (engine, silent,
// nodes-limited) scores beyond ±cfg.max_score, is rejected and another one tried. On success *out holds
// the opening as a fresh position (no game history) and true is returned; false + *error after
// cfg.max_attempts rejections in a row. Deterministic for a given rng state and engine state (the caller
// clears the engine with new_game() when it needs results independent of earlier searches).
// When given, *book_fen receives the book position chosen ("" for the start position) and *moves the random
// plies played from it, so that a caller can store the opening as a start position plus moves.
bool random_opening(Engine& engine, const std::vector<std::string>& book, const RandomOpeningConfig& cfg,
                    SplitMix64& rng, Position* out, std::string* error, std::string* book_fen = nullptr,
                    std::vector<Move>* moves = nullptr);

// Reads an opening file for genfens: EPD lines or one FEN per line (blank and # lines skipped). Every
// position must be legal; false + *error names the file and line otherwise, or when there is none.
bool read_fen_book(const std::string& path, std::vector<std::string>* fens, std::string* error);

}  // namespace quince::search
