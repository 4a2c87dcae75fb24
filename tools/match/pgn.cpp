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

bool is_result_token(const std::string& t) { return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*"; }

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

std::string PgnGame::tag(const std::string& name) const {
    for (const auto& [n, v] : tags)
        if (n == name) return v;
    return "";
}

bool read_pgn(std::istream& in, std::vector<PgnGame>* games, std::string* error) {
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t i = 0, n = all.size();
    PgnGame current;
    bool in_game = false;
    int line_no = 1;
    auto fail = [&](const std::string& what) {
        if (error) *error = "PGN line " + std::to_string(line_no) + ": " + what;
        return false;
    };
    auto finish = [&]() {
        if (in_game) games->push_back(std::move(current));
        current = PgnGame{};
        in_game = false;
    };
    while (i < n) {
        char c = all[i];
        if (c == '\n') { ++line_no, ++i; continue; }
        if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
        if (c == '%' || c == ';') {  // escape line / rest-of-line comment
            while (i < n && all[i] != '\n') ++i;
            continue;
        }
        if (c == '[') {
            // A tag after movetext starts a new game (tolerates a missing result marker).
            if (in_game && (!current.moves.empty() || !current.result.empty())) finish();
            std::size_t close = all.find(']', i);
            std::size_t quote1 = all.find('"', i);
            if (close == std::string::npos || quote1 == std::string::npos) return fail("unterminated tag");
            std::string name = all.substr(i + 1, quote1 - i - 1);
            while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
            std::string value;
            std::size_t j = quote1 + 1;
            for (; j < n && all[j] != '"'; ++j) {
                if (all[j] == '\\' && j + 1 < n) ++j;
                value += all[j];
            }
            if (j >= n) return fail("unterminated tag value");
            close = all.find(']', j);
            if (close == std::string::npos) return fail("unterminated tag");
            current.tags.emplace_back(name, value);
            in_game = true;
            i = close + 1;
            continue;
        }
        if (c == '{') {
            std::size_t close = all.find('}', i);
            if (close == std::string::npos) return fail("unterminated comment");
            std::string comment = all.substr(i + 1, close - i - 1);
            for (char ch : comment) line_no += ch == '\n';
            for (char& ch : comment) if (ch == '\n') ch = ' ';
            current.comments.push_back(comment);
            if (!current.move_comments.empty())
                current.move_comments.back() += (current.move_comments.back().empty() ? "" : " ") + comment;
            in_game = true;
            i = close + 1;
            continue;
        }
        if (c == '(') {  // skip a variation, nested ones included
            int depth = 0;
            for (; i < n; ++i) {
                if (all[i] == '\n') ++line_no;
                if (all[i] == '(') ++depth;
                else if (all[i] == ')' && --depth == 0) break;
                else if (all[i] == '{') {
                    std::size_t close = all.find('}', i);
                    if (close == std::string::npos) return fail("unterminated comment");
                    i = close;
                }
            }
            if (i >= n) return fail("unterminated variation");
            ++i;
            continue;
        }
        std::size_t start = i;
        while (i < n && !std::isspace(static_cast<unsigned char>(all[i])) && all[i] != '{' && all[i] != '(' &&
               all[i] != '[' && all[i] != ')')
            ++i;
        if (i == start) return fail("unexpected character " + describe_character(all, i));
        std::string token = all.substr(start, i - start);
        in_game = true;
        if (is_result_token(token)) {
            current.result = token;
            finish();
            continue;
        }
        if (token[0] == '$') continue;  // NAG
        // Strip a move number prefix such as "12." or "12..." (possibly glued to the move).
        std::size_t k = 0;
        while (k < token.size() && std::isdigit(static_cast<unsigned char>(token[k]))) ++k;
        if (k > 0 && k < token.size() && token[k] == '.') {
            while (k < token.size() && token[k] == '.') ++k;
            token = token.substr(k);
        } else if (k == token.size()) {
            continue;  // a bare number
        }
        if (token.empty()) continue;
        current.moves.push_back(token);
        current.move_comments.emplace_back();
    }
    finish();
    return true;
}

}  // namespace quince::match
