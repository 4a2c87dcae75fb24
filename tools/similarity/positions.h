// The positions of a similarity test: read from an EPD file, the set shipped with Quince (compiled in),
// or made afresh. A good position for the test is quiet and has several reasonable moves: a position with
// one obvious move says nothing about an engine's style, since every engine finds it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <vector>

namespace quince::similarity {

// EPD lines (blank and # lines skipped) → FENs; false + *error "SOURCE:LINE: …" for a line that is no
// legal position, or "SOURCE: no positions" for a file without one.
bool read_positions(std::istream& in, const std::string& source, std::vector<std::string>* fens, std::string* error);

// The shipped set (tools/similarity/data/positions.epd, compiled into the program).
const std::string& default_positions_text();
constexpr const char* DEFAULT_POSITIONS_NAME = "the shipped position set";

// How the shipped set is made (`quince similarity --make-positions N --out FILE`): self-play games of
// Quince at a fixed node budget from seeded random openings (datagen's games, its quiet filter), a few
// positions of each game past the opening, kept when the best move is at most margin_cp better than the
// best of the other moves (two searches at check_nodes: the best move, then every other move) and the
// score is within ±max_score_cp. Deterministic for a given seed and build, whatever the thread count.
struct PositionSetConfig {
    int count = 3000;
    std::uint64_t seed = 1;
    std::uint64_t play_nodes = 3000;    // self-play, per move
    std::uint64_t check_nodes = 20000;  // each of the two searches of the check
    int margin_cp = 20;
    int max_score_cp = 200;
    int per_game = 4;       // positions kept at most per game (variety)
    int min_fullmove = 8;   // past the random opening
    int threads = 1;
};

// Progress: positions kept so far, games played.
using PositionSetProgress = std::function<void(int kept, int games)>;

bool make_position_set(const PositionSetConfig& config, std::vector<std::string>* fens, std::string* error,
                       const std::atomic<bool>* interrupt = nullptr, const PositionSetProgress& progress = {});

}  // namespace quince::similarity
