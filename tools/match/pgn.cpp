#include "pgn.h"

#include <cctype>
#include <cstdio>
#include <sstream>
#include "core/text.h"

namespace quince::match {

namespace {

std::string escape_tag(const std::string& value) {
    std::string out;
    for (char c : value) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

std::string move_comment(const MoveRecord& m) {
    if (m.book) return "book";
    char time_text[32];
    std::snprintf(time_text, sizeof time_text, "%.3fs", double(m.elapsed_ms) / 1000.0);
    if (!m.score) return time_text;
    return m.score->text() + "/" + std::to_string(m.depth) + " " + time_text;
}

}  // namespace

std::string format_pgn(const GameRecord& game, const std::string& event, int round_number) {
    std::ostringstream out;
    auto tag = [&out](const std::string& name, const std::string& value) {
        out << '[' << name << " \"" << escape_tag(value) << "\"]\n";
    };
    const std::string result = result_text(game.outcome.result);
    tag("Event", event);
    tag("Site", "quince-match");
    tag("Date", game.date);
    tag("Round", std::to_string(round_number));
    tag("White", game.white);
    tag("Black", game.black);
    tag("Result", result);
    if (game.chess960) tag("Variant", "fischerandom");
    if (!game.start_fen.empty()) {
        tag("FEN", game.start_fen);
        tag("SetUp", "1");
    }
    if (game.white_tc == game.black_tc) tag("TimeControl", game.white_tc);
    else tag("WhiteTimeControl", game.white_tc), tag("BlackTimeControl", game.black_tc);
    tag("Termination", game.outcome.termination.empty() ? "unterminated" : game.outcome.termination);
    tag("PlyCount", std::to_string(game.moves.size()));
    out << '\n';

    // Move numbers follow the start position's side to move and full move counter.
    int move_number = 1;
    bool white_to_move = true;
    if (!game.start_fen.empty()) {
        std::istringstream f(game.start_fen);
        std::string board, side, castling, ep;
        int half = 0, full = 1;
        f >> board >> side >> castling >> ep;
        if (f >> half >> full) move_number = std::max(full, 1);
        white_to_move = side != "b";
    }
    std::string text;
    auto append = [&text](const std::string& token) { text += (text.empty() ? "" : " ") + token; };
    bool first = true;
    for (const MoveRecord& m : game.moves) {
        if (white_to_move || first) {
            std::string number = std::to_string(move_number);
            number += white_to_move ? "." : "...";
            append(number);
        }
        append(m.san);
        std::string comment = "{";
        comment += move_comment(m);
        comment += '}';
        append(comment);
        if (!white_to_move) ++move_number;
        white_to_move = !white_to_move;
        first = false;
    }
    if (!game.outcome.reason.empty()) append(std::string("{") + game.outcome.reason + "}");
    append(result);

    // Wrap at 79 columns on token boundaries; comments may be broken at spaces, which PGN allows.
    std::istringstream words(text);
    std::string word, line;
    while (words >> word) {
        if (!line.empty() && line.size() + 1 + word.size() > 79) out << line << '\n', line.clear();
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty()) out << line << '\n';
    out << '\n';
    return out.str();
}

}  // namespace quince::match
