#include "board/epd.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "board/position.h"
#include "core/text.h"

namespace quince {

namespace {

bool all_digits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

// The word starting at or after `from` (ends at a blank or ';'), with *end just past it; "" at the end.
std::string_view next_word(std::string_view text, std::size_t from, std::size_t* end) {
    const std::size_t b = text.find_first_not_of(" \t\r\n", from);
    if (b == std::string_view::npos) return {};
    std::size_t e = text.find_first_of(" \t\r\n;", b);
    if (e == std::string_view::npos) e = text.size();
    *end = e;
    return text.substr(b, e - b);
}

}  // namespace

std::string epd_fen(std::string_view line, std::size_t* operations_start) {
    std::string fen;
    std::size_t pos = 0;
    for (int field = 0; field < 4; ++field) {
        std::size_t end = pos;
        const std::string_view w = next_word(line, pos, &end);
        if (w.empty() || (field == 0 && w.front() == '#')) return "";
        if (field) fen += ' ';
        fen += w;
        pos = end;
    }
    std::size_t after_half = pos, after_full = pos;
    const std::string_view half = next_word(line, pos, &after_half);
    if (all_digits(half)) {
        const std::string_view full = next_word(line, after_half, &after_full);
        fen += ' ';
        fen += half;
        if (all_digits(full)) {
            fen += ' ';
            fen += full;
            pos = after_full;
        } else {
            fen += " 1";
            pos = after_half;
        }
    } else {
        fen += " 0 1";
    }
    if (operations_start) *operations_start = pos;
    return fen;
}

bool read_epd_positions(std::istream& in, const std::string& source, bool chess960, std::vector<std::string>* fens,
                        std::string* error) {
    std::string line;
    int line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        std::string fen = epd_fen(line);
        if (fen.empty()) continue;
        Position pos;
        std::string why;
        if (!pos.set_fen(fen, chess960, &why)) {
            if (error) *error = source + ":" + std::to_string(line_no) + ": bad FEN: " + why;
            return false;
        }
        fens->push_back(std::move(fen));
    }
    return true;
}

bool for_each_epd_position(std::istream& in, const std::string& source,
                           const std::function<bool(const Position& pos, const std::string& fen, std::string* why)>& visit,
                           std::string* error) {
    auto fail = [&](int number, const std::string& what) {
        if (error) *error = source + ":" + std::to_string(number) + ": " + what;
        return false;
    };
    int positions = 0;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string fen = epd_fen(line);
        if (fen.empty()) {
            const std::size_t first = line.find_first_not_of(" \t\r");
            if (first == std::string::npos || line[first] == '#') continue;  // blank or comment
            // A line cut short (fewer than the four FEN fields) is an error, not a position left out.
            return fail(number, "expected a FEN (board, side to move, castling, en passant) at the start of the "
                                "line, got '" + printable(line, 60) + "'");
        }
        Position pos;
        std::string why;
        if (!pos.set_fen(fen, false, &why) && !pos.set_fen(fen, true, nullptr)) return fail(number, "invalid FEN: " + why);
        if (!visit(pos, fen, &why)) return fail(number, why);
        ++positions;
    }
    if (positions == 0) {
        if (error) *error = source + ": no positions";
        return false;
    }
    return true;
}

}  // namespace quince
