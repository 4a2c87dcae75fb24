// Polyglot opening books (.bin): the format's position key, and a book read into memory that answers
// the book moves of a position (binary search on the sorted keys).
//
// Format (Polyglot by Fabien Letouzey, described on H. G. Muller's "PolyGlot opening book format"
// page): 16-byte big-endian entries sorted by key: key (64 bits), move (16), weight (16), learn (32).
// Move bits: 0-2 to file, 3-5 to rank, 6-8 from file, 9-11 from rank, 12-14 promotion (1 knight ...
// 4 queen). Castling is written king-takes-rook (e1h1), as Quince encodes it internally.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "board/position.h"

namespace quince::book {

extern const Key POLYGLOT_RANDOM[781];

// The Polyglot key of a position (not Quince's Zobrist key): the en-passant file counts only when a
// pawn of the side to move stands beside the pawn that has just advanced two squares.
Key polyglot_key(const Position& pos);

struct BookMove {
    Move move;
    int weight = 0;
};

class Book {
public:
    // Reads the whole file. On failure (missing, unreadable, empty, size not a multiple of 16, keys
    // not sorted) returns false with *error and keeps the book it had.
    bool open(const std::string& path, std::string* error);
    // The same from the file's bytes already in memory; `path` names the book in errors and path().
    bool load(const std::string& bytes, const std::string& path, std::string* error);
    void close();
    bool loaded() const { return !entries_.empty(); }
    const std::string& path() const { return path_; }
    std::size_t size() const { return entries_.size(); }

    // The legal book moves of the position with their weights (moves the book has but that are not
    // legal here, a sign of a key collision or a broken book, are left out).
    std::vector<BookMove> moves(const Position& pos) const;
    // best: the highest weight (the first such in the book); otherwise a move drawn with probability
    // proportional to its weight. Move::none() when the book has no move of positive weight.
    Move pick(const Position& pos, bool best, std::mt19937_64& rng) const;

private:
    struct Entry {
        Key key;
        std::uint16_t move;
        std::uint16_t weight;
    };
    std::vector<Entry> entries_;
    std::string path_;
};

// A move as its Polyglot code (castling stays king-takes-rook; promotion 1 knight ... 4 queen).
std::uint16_t encode_move(Move m);
// A Polyglot move code as the matching legal move of pos, or Move::none().
Move decode_move(const Position& pos, std::uint16_t code);

}  // namespace quince::book
