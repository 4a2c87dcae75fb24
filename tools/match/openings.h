// Opening suites: EPD/FEN lines or PGN games (first N plies), served sequentially or shuffled.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace quince::match {

struct Opening {
    std::string fen;                 // empty = standard start position
    std::vector<std::string> moves;  // book moves in UCI notation, played from fen
    bool chess960 = false;           // Fischer random: castling rights by rook file, king-takes-rook moves
};

struct OpeningConfig {
    std::string file;  // empty = every game from the start position
    std::string format = "epd";  // epd | pgn
    std::string order = "sequential";  // sequential | random
    int plies = 0;     // PGN: play at most this many plies of each game (0 = all)
    int start = 1;     // 1-based index of the first opening used
    std::uint64_t seed = 0;
    bool chess960 = false;  // -variant fischerandom
};

class OpeningBook {
public:
    // Loads and validates every opening (legal FEN, legal moves). False + *error on failure.
    bool load(const OpeningConfig& config, std::string* error);
    std::size_t size() const { return openings_.size(); }
    // The opening for the k-th opening pair of the match (k = 0, 1, …), following order/start, wrapping around.
    const Opening& at(std::size_t k) const;
    std::size_t index_of(std::size_t k) const { return order_[(k + start_) % order_.size()]; }

private:
    std::vector<Opening> openings_;
    std::vector<std::size_t> order_;
    std::size_t start_ = 0;
};

}  // namespace quince::match
