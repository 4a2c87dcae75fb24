// PGN output of finished games and a small PGN reader (for opening files and for checking our own output).
#pragma once

#include <istream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "game.h"

namespace quince::match {

// Event/Site/Round describe the match; the game supplies the rest.
std::string format_pgn(const GameRecord& game, const std::string& event, int round_number);

struct PgnGame {
    std::vector<std::pair<std::string, std::string>> tags;  // in file order
    std::vector<std::string> moves;                         // SAN, as written (move numbers and comments removed)
    std::vector<std::string> comments;                      // every {…} comment, in order
    std::vector<std::string> move_comments;                 // per move: the comments after it ("" if none)
    std::string result;                                     // game termination marker, "" if missing
    std::string tag(const std::string& name) const;         // "" if absent
};

// Reads every game of the stream. Variations (…) and NAGs are skipped. False + *error on malformed input.
bool read_pgn(std::istream& in, std::vector<PgnGame>* games, std::string* error);

}  // namespace quince::match
