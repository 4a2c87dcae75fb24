// EPD lines (test suites, opening files): the position part, shared by every reader of EPD files.
#pragma once

#include <cstddef>
#include <functional>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace quince {

class Position;

// The FEN of an EPD line: its four position fields, then the half-move and full-move counters when the
// line carries them as numbers ("0 1" otherwise; a lone half-move count gets full move 1). Fields end at
// blanks or ';'. Returns "" for a blank or comment (#) line and for one with fewer than four fields.
// *operations_start, when given, receives where the text after the position (the EPD operations) begins.
std::string epd_fen(std::string_view line, std::size_t* operations_start = nullptr);

// The positions of an opening file: EPD lines or one FEN per line (blank and # lines skipped), appended to
// *fens as epd_fen gives them. Every position must be legal (Chess960 castling when `chess960`); on the
// first that is not, false + *error "SOURCE:LINE: bad FEN: why" (`source` names the text, e.g. its file),
// and *fens holds the positions before it.
bool read_epd_positions(std::istream& in, const std::string& source, bool chess960, std::vector<std::string>* fens,
                        std::string* error);

// Every position of an EPD file (a test suite, the positions `quince compare --epd` or quince-similarity
// read), in order, to `visit(pos, fen, why)`: blank and # lines skipped, a position standard or else
// Chess960. A line without the four FEN fields, an illegal position or a position `visit` refuses (false,
// with *why) ends the reading with false + *error "SOURCE:LINE: what" (`source` names the text, e.g. its
// file); so does a text with no position at all ("SOURCE: no positions").
bool for_each_epd_position(std::istream& in, const std::string& source,
                           const std::function<bool(const Position& pos, const std::string& fen, std::string* why)>& visit,
                           std::string* error);

}  // namespace quince
