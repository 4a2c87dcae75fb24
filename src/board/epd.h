// EPD lines (test suites, opening files): the position part, shared by every reader of EPD files.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace quince {

// The FEN of an EPD line: its four position fields, then the half-move and full-move counters when the
// line carries them as numbers ("0 1" otherwise; a lone half-move count gets full move 1). Fields end at
// blanks or ';'. Returns "" for a blank or comment (#) line and for one with fewer than four fields.
// *operations_start, when given, receives where the text after the position (the EPD operations) begins.
std::string epd_fen(std::string_view line, std::size_t* operations_start = nullptr);

}  // namespace quince
