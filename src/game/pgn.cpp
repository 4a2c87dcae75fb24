#include "game/pgn.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>

#include "board/movegen.h"
#include "board/notation.h"
#include "core/text.h"

namespace quince::game {

namespace {

constexpr const char* SUFFIX_NAGS[] = {"", "!", "?", "!!", "??", "!?", "?!"};
// Variations nest by recursion (reader, writer, destructor): a cap far above any real annotation keeps a
// crafted file from exhausting the stack.
constexpr int MAX_VARIATION_DEPTH = 64;

bool is_result(std::string_view t) { return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*"; }

// A draw as some databases and word processors write it.
bool is_draw_spelling(std::string_view t) { return t == "\xC2\xBD-\xC2\xBD" || t == "1/2"; }

// Long algebraic notation as people type it and some programs export it: `e2-e4`, `Ng1-f3`, `e4xd5`,
// `Bf1xc4`, `e7-e8=Q`, `e1-g1` (castling as the king's move), `e4:d5`. Move::none() if it is not that
// form or names no legal move.
Move long_algebraic_move(const Position& pos, std::string t) {
    while (!t.empty() && (t.back() == '+' || t.back() == '#')) t.pop_back();
    std::size_t k = 0;
    PieceType piece = NO_PIECE_TYPE;
    if (k < t.size() && t[k] != '\0' && std::strchr("NBRQK", t[k])) piece = PieceType(std::strchr(" PNBRQK", t[k++]) - " PNBRQK");
    auto square_at = [&](std::size_t at) {
        return at + 1 < t.size() && t[at] >= 'a' && t[at] <= 'h' && t[at + 1] >= '1' && t[at + 1] <= '8';
    };
    if (!square_at(k)) return Move::none();
    const std::string from = t.substr(k, 2);
    k += 2;
    if (k < t.size() && (t[k] == '-' || t[k] == 'x' || t[k] == ':')) ++k;
    if (!square_at(k)) return Move::none();
    const std::string to = t.substr(k, 2);
    k += 2;
    char promotion = 0;
    if (k < t.size() && t[k] == '=') ++k;
    if (k < t.size() && t[k] != '\0' && std::strchr("NBRQnbrq", t[k])) promotion = char(std::tolower(static_cast<unsigned char>(t[k++])));
    if (k != t.size()) return Move::none();
    const std::string uci = from + to + (promotion ? std::string(1, promotion) : "");
    for (const ScoredMove& sm : MoveList<LEGAL>(pos)) {
        if (move_to_uci(sm.move, false) != uci && move_to_uci(sm.move, true) != uci) continue;
        // Without a piece letter it is the UCI form with a dash (`g1-f3`): any piece.
        if (piece != NO_PIECE_TYPE && type_of(pos.piece_on(sm.move.from())) != piece) continue;
        return sm.move;
    }
    return Move::none();
}

// Standard chess, Chess960, or a variant Quince does not play ("" then, with *ok false).
bool variant_is_chess960(const std::string& variant, bool* ok) {
    const std::string v = ascii_lower(variant);
    *ok = true;
    if (v.find("960") != std::string::npos || v.find("fischer") != std::string::npos) return true;
    if (v.empty() || v == "standard" || v == "chess" || v == "normal" || v == "from position" || v == "fromposition")
        return false;
    *ok = false;
    return false;
}

// "12. Nf6" / "12... Nf6": a move as the reader names it in errors.
std::string numbered(const Position& pos, const std::string& move) {
    const int number = pos.game_ply() / 2 + 1;
    return std::to_string(number) + (pos.side_to_move() == WHITE ? ". " : "... ") + move;
}

class Reader {
public:
    // `errors` null: stop at the first error (in *error); else every bad game is skipped and listed.
    Reader(std::string_view text, std::vector<Game>* games, PgnError* error, std::vector<PgnError>* errors,
           const ReadOptions& options)
        : s_(text), games_(games), error_(error), errors_(errors), options_(options) {}

    bool run() {
        if (s_.substr(0, 3) == "\xEF\xBB\xBF") i_ = 3;  // UTF-8 byte order mark
        for (;;) {
            skip_space(true);
            if (i_ >= s_.size()) return true;
            ++game_no_;
            const std::size_t begin = i_;
            Game g;
            g.first_line = line_;
            g.number = game_no_;
            tag_line_.clear();
            if (read_game(&g)) {
                games_->push_back(std::move(g));
                continue;
            }
            if (!errors_) return false;
            skip_to_next_game();
            last_error_.begin = begin;
            last_error_.end = std::max(begin, std::min(i_, s_.size()));
            errors_->push_back(last_error_);
        }
    }

private:
    bool read_game(Game* g) {
        if (!read_tags(g)) return false;
        Position start;
        if (!start_position(*g, &start)) return false;
        bool ended = false;
        std::vector<std::string> final_comments;
        if (!read_line(start, &g->moves, 0, g, &ended, &final_comments)) return false;
        g->final_comments = std::move(final_comments);
        return true;
    }

    bool fail(const std::string& message, const std::string& move = "", int line = 0) {
        last_error_ = PgnError{game_no_, line ? line : line_, move, message};
        if (error_) *error_ = last_error_;
        return false;
    }

    // Whether the line starting at `at` is a tag pair (`[Name "`), or at least starts with '['.
    bool tag_line_at(std::size_t at, bool bracket_is_enough) const {
        while (at < s_.size() && (s_[at] == ' ' || s_[at] == '\t')) ++at;
        if (at >= s_.size() || s_[at] != '[') return false;
        if (bracket_is_enough) return true;
        std::size_t k = at + 1;
        while (k < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[k])) || s_[k] == '_')) ++k;
        if (k == at + 1) return false;
        while (k < s_.size() && (s_[k] == ' ' || s_[k] == '\t')) ++k;
        return k < s_.size() && s_[k] == '"';
    }

    // After a bad game: on to the next game's first tag, a tag line after a line that is no tag (so the
    // rest of a broken tag section is passed over), or the tag line the error stopped at.
    void skip_to_next_game() {
        std::size_t at = std::min(i_, s_.size());
        if (resume_here_) {
            resume_here_ = false;
            return;
        }
        std::size_t line_start = at;
        while (line_start > 0 && s_[line_start - 1] != '\n') --line_start;
        bool previous_is_tag = tag_line_at(line_start, true);
        for (;;) {
            const std::size_t nl = s_.find('\n', at);
            if (nl == std::string_view::npos) {
                i_ = s_.size();
                return;
            }
            ++line_;
            at = nl + 1;
            if (!previous_is_tag && tag_line_at(at, false)) {
                i_ = at;
                at_line_start_ = true;
                return;
            }
            previous_is_tag = tag_line_at(at, true);
        }
    }

    // The game ends without a termination marker (a pasted move list, a truncated file): the Result tag
    // says how it ended, or it is "*".
    void end_without_result(Game* g) {
        const std::string tag = g->tag("Result");
        g->result = is_result(tag) ? tag : "*";
    }

    // Blanks, line ends (CR too), `%` escape lines; `;` comments too when `comments_too` (outside movetext).
    void skip_space(bool comments_too) {
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == '\n') {
                ++line_, ++i_;
                at_line_start_ = true;
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                ++i_;
                continue;
            }
            if ((c == '%' && at_line_start_) || (c == ';' && comments_too)) {
                while (i_ < s_.size() && s_[i_] != '\n') ++i_;
                continue;
            }
            at_line_start_ = false;
            return;
        }
    }

    bool read_tags(Game* g) {
        while (i_ < s_.size() && s_[i_] == '[') {
            ++i_;
            skip_inline();
            std::string name;
            while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) name += s_[i_++];
            if (name.empty()) return fail("malformed tag: expected a tag name after '[', found " + here());
            skip_inline();
            if (i_ >= s_.size() || s_[i_] != '"')
                return fail("malformed tag [" + printable(name) + "]: expected a quoted value, found " + here());
            ++i_;
            std::string value;
            for (;;) {
                if (i_ >= s_.size() || s_[i_] == '\n' || s_[i_] == '\r')
                    return fail("malformed tag [" + printable(name) + "]: the value's closing quote is missing");
                const char c = s_[i_++];
                if (c == '"') break;
                if (c == '\\' && i_ < s_.size() && (s_[i_] == '"' || s_[i_] == '\\')) {
                    value += s_[i_++];
                    continue;
                }
                value += c;
            }
            skip_inline();
            if (i_ >= s_.size() || s_[i_] != ']')
                return fail("malformed tag [" + printable(name) + "]: expected ']', found " + here());
            ++i_;
            g->tags.emplace_back(name, value);
            tag_line_[name] = line_;
            skip_space(true);
        }
        return true;
    }

    // Errors of the tags name the tag's line.
    bool fail_at_tag(const std::string& tag, const std::string& message) {
        const auto it = tag_line_.find(tag);
        return fail(message, "", it != tag_line_.end() ? it->second : 0);
    }

    bool start_position(const Game& g, Position* pos) {
        bool known = true;
        const bool chess960 = variant_is_chess960(g.tag("Variant"), &known);
        if (!known) return fail_at_tag("Variant", "variant '" + printable(g.tag("Variant")) + "' is not supported (standard chess and Chess960 are)");
        const std::string fen = g.tag("FEN");
        if (fen.empty()) {
            if (chess960) return fail_at_tag("Variant", "a Chess960 game needs a FEN tag (its start position)");
            return true;
        }
        std::string why;
        if (!pos->set_fen(fen, chess960, &why) && (chess960 || !pos->set_fen(fen, true, nullptr)))
            return fail_at_tag("FEN", "bad FEN tag: " + why);
        return true;
    }

    void skip_inline() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
    }

    std::string here() const {
        if (i_ >= s_.size()) return "the end of the file";
        return describe_character(s_, i_);
    }

    // One line of moves from `pos`, up to the result (depth 0) or the ')' closing the variation.
    bool read_line(Position pos, Line* line, int depth, Game* g, bool* ended, std::vector<std::string>* final_comments) {
        Position before = pos;  // before the last move of the line: where its variations start
        std::vector<std::string> pending;
        bool after_move = false;  // the last thing read was a move (or its NAG or comment)
        auto add_comment = [&](std::string text) {
            for (char& c : text)
                if (c == '\n' || c == '\r' || c == '\t') c = ' ';
            const std::size_t a = text.find_first_not_of(' '), b = text.find_last_not_of(' ');
            text = a == std::string::npos ? "" : text.substr(a, b - a + 1);
            if (after_move) line->back().comments.push_back(text);
            else pending.push_back(text);
        };
        for (;;) {
            skip_space(false);
            if (i_ >= s_.size()) {
                if (depth > 0) return fail("the file ends inside a variation (a ')' is missing)");
                end_without_result(g);
                *ended = true;
                *final_comments = std::move(pending);
                return true;
            }
            const char c = s_[i_];
            if (c == '{') {
                const int start_line = line_;
                const std::size_t close = s_.find('}', i_ + 1);
                if (close == std::string_view::npos) {
                    line_ = start_line;
                    return fail("a comment '{' is never closed");
                }
                const std::string_view body = s_.substr(i_ + 1, close - i_ - 1);
                line_ += int(std::count(body.begin(), body.end(), '\n'));
                add_comment(std::string(body));
                i_ = close + 1;
                continue;
            }
            if (c == ';') {
                std::size_t end = s_.find('\n', i_);
                if (end == std::string_view::npos) end = s_.size();
                add_comment(std::string(s_.substr(i_ + 1, end - i_ - 1)));
                i_ = end;
                continue;
            }
            if (c == '(') {
                if (line->empty()) return fail("a variation '(' before any move");
                if (depth + 1 > MAX_VARIATION_DEPTH)
                    return fail("variations nested deeper than " + std::to_string(MAX_VARIATION_DEPTH) + " levels");
                ++i_;
                Line variation;
                std::vector<std::string> trailing;
                if (!read_line(before, &variation, depth + 1, g, ended, &trailing)) return false;
                if (variation.empty()) return fail("an empty variation '()'");
                for (std::string& t : trailing) variation.back().comments.push_back(std::move(t));
                line->back().variations.push_back(std::move(variation));
                after_move = false;
                continue;
            }
            if (c == ')') {
                if (depth == 0) return fail("')' without a variation to close");
                ++i_;
                *final_comments = std::move(pending);
                return true;
            }
            if (c == '[') {
                if (depth > 0) {
                    resume_here_ = true;  // the next game starts here
                    return fail("the game's next tags come inside a variation (a ')' is missing)");
                }
                end_without_result(g);  // the next game's tags
                *ended = true;
                *final_comments = std::move(pending);
                return true;
            }
            if (c == '$') {
                const std::size_t start = ++i_;
                while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
                long long nag = 0;
                if (!parse_integer(s_.substr(start, i_ - start), 0, 255, &nag))
                    return fail("a NAG must be $0..$255, found '$" + printable(s_.substr(start, i_ - start)) + "'");
                if (line->empty()) return fail("a NAG $" + std::to_string(nag) + " before any move");
                line->back().nags.push_back(int(nag));
                continue;
            }
            // A symbol: a move, a move number, a result, or a suffix annotation.
            const std::size_t start = i_;
            while (i_ < s_.size() && !std::isspace(static_cast<unsigned char>(s_[i_])) &&
                   !std::strchr("{}()[];$", s_[i_]))
                ++i_;
            if (i_ == start) return fail("unexpected character " + here());
            std::string token(s_.substr(start, i_ - start));
            if (!is_valid_utf8(token) ||
                std::any_of(token.begin(), token.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x20; })) {
                i_ = start;
                std::size_t k = 0;
                while (k < token.size() && utf8_sequence_length(token, k) == 1 &&
                       static_cast<unsigned char>(token[k]) >= 0x20)
                    ++k;
                i_ = start + k;
                return fail("unexpected character " + here() + " (binary data?)");
            }
            if (is_draw_spelling(token)) token = "1/2-1/2";
            if (is_result(token)) {
                if (depth > 0) return fail("a result '" + token + "' inside a variation (a ')' is missing)");
                g->result = token;
                *ended = true;
                *final_comments = std::move(pending);
                return true;
            }
            // Move numbers: "12.", "12...", glued to the move ("12.e4", "12...Nf6") or alone; "..." alone.
            std::size_t k = 0;
            while (k < token.size() && std::isdigit(static_cast<unsigned char>(token[k]))) ++k;
            if (k > 0 && k < token.size() && token[k] == '.') {
                while (k < token.size() && token[k] == '.') ++k;
                token = token.substr(k);
            } else if (k == token.size() && token != "0000") {  // "0000": a null move as UCI writes it
                return fail("unexpected number '" + printable(token) + "' (a move number needs a '.')");
            }
            while (!token.empty() && token[0] == '.') token.erase(0, 1);
            if (token.empty()) continue;
            // Suffix annotations, glued ("Qxb7??") or alone ("Qxb7 ??").
            std::size_t suffix = token.size();
            while (suffix > 0 && (token[suffix - 1] == '!' || token[suffix - 1] == '?')) --suffix;
            int nag = 0;
            if (suffix < token.size()) {
                const std::string mark = token.substr(suffix);
                for (int n = 1; n <= 6; ++n)
                    if (mark == SUFFIX_NAGS[n]) nag = n;
                if (!nag) return fail("unknown annotation '" + printable(mark) + "'", numbered(pos, printable(token)));
                token.erase(suffix);
            }
            if (token.empty()) {
                if (line->empty()) return fail("an annotation '" + std::string(SUFFIX_NAGS[nag]) + "' before any move");
                line->back().nags.push_back(nag);
                continue;
            }
            if ((token == "e.p." || token == "ep") && !line->empty()) continue;  // "exd6 e.p."
            if (token == "--" || token == "Z0" || token == "0000") {
                // A null move: the side to move passes, as annotators write to show a threat.
                if (depth == 0 && !options_.null_moves_in_main_line)
                    return fail("null move in the main line (only a variation may hold one)", numbered(pos, token));
                if (pos.in_check()) return fail("null move while in check", numbered(pos, token));
                PgnMove pm;
                pm.move = Move::null();
                pm.san = "--";
                if (nag) pm.nags.push_back(nag);
                pm.comments_before = std::move(pending);
                pending.clear();
                before = pos;
                pos.do_null_move();
                line->push_back(std::move(pm));
                after_move = true;
                continue;
            }
            Move m = san_to_move(pos, token);
            if (!m) m = long_algebraic_move(pos, token);
            if (!m) return fail(why_not_a_move(pos, token), numbered(pos, printable(token)));
            PgnMove pm;
            pm.move = m;
            pm.san = move_to_san(pos, m);
            if (nag) pm.nags.push_back(nag);
            pm.comments_before = std::move(pending);
            pending.clear();
            before = pos;
            pos.do_move(m);
            line->push_back(std::move(pm));
            after_move = true;
        }
    }

    // Why a token names no legal move: ambiguous (several pieces fit) or illegal.
    static std::string why_not_a_move(const Position& pos, std::string token) {
        while (!token.empty() && (token.back() == '+' || token.back() == '#')) token.pop_back();
        if (token.size() >= 3 && std::strchr("NBRQK", token[0])) {
            std::string dest = token.substr(token.size() - 2);
            const PieceType pt = PieceType(std::strchr(" PNBRQK", token[0]) - " PNBRQK");
            int fits = 0;
            std::string from;
            for (const ScoredMove& sm : MoveList<LEGAL>(pos)) {
                if (type_of(pos.piece_on(sm.move.from())) != pt || sm.move.type() == CASTLING ||
                    square_to_string(sm.move.to()) != dest)
                    continue;
                ++fits;
                from += (from.empty() ? "" : " and ") + square_to_string(sm.move.from());
            }
            if (fits > 1) return "ambiguous move (pieces on " + from + " can go to " + dest + ") in " + pos.fen();
        }
        return "illegal move in " + pos.fen();
    }

    std::string_view s_;
    std::size_t i_ = 0;
    int line_ = 1;
    bool at_line_start_ = true;
    bool resume_here_ = false;  // the error stopped at the next game's first tag
    int game_no_ = 0;
    std::map<std::string, int> tag_line_;  // of the game being read
    std::vector<Game>* games_;
    PgnError* error_;
    std::vector<PgnError>* errors_;
    ReadOptions options_;
    PgnError last_error_;
};

// ---- writing

std::string escape_tag(const std::string& value) {
    std::string out;
    for (char c : value) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n' || c == '\r') c = ' ';
        out += c;
    }
    return out;
}

class Words {
public:
    // cutechess: comments as `{text}`, always breakable at their blanks (WriteOptions::cutechess).
    Words(int max_line, bool cutechess) : short_comment_(max_line / 2), cutechess_(cutechess) {}
    void add(const std::string& w) {
        if (glue_ && !words_.empty()) words_.back() += w;
        else words_.push_back(w);
        glue_ = false;
    }
    void glue_next() { glue_ = true; }
    void comment(const std::string& text) {
        // Broken at its blanks where a line ends (PGN allows that inside a comment).
        std::string clean;
        for (char c : text) clean += c == '}' ? ')' : (c == '\n' || c == '\r') ? ' ' : c;
        std::vector<std::string> parts;
        std::size_t a = 0;
        while ((a = clean.find_first_not_of(' ', a)) != std::string::npos) {
            const std::size_t b = clean.find(' ', a);
            parts.push_back(clean.substr(a, b == std::string::npos ? std::string::npos : b - a));
            a = b;
        }
        if (cutechess_) {  // "{" and "}" glued to the first and last word
            if (parts.empty()) parts.push_back("");
            parts.front().insert(0, "{");
            parts.back() += "}";
            for (const std::string& p : parts) add(p);
            return;
        }
        std::string whole = "{";
        for (const std::string& p : parts) whole += " " + p;
        whole += " }";
        // A short comment ("{ [%eval 0.17] }") stays whole on one line; a long one breaks at its blanks.
        if (int(whole.size()) <= short_comment_) {
            add(whole);
            return;
        }
        add("{");
        for (const std::string& p : parts) add(p);
        add("}");
    }
    void close_paren() {  // ")" glued to the word before it
        if (!words_.empty()) words_.back() += ")";
        else words_.push_back(")");
    }
    std::string wrap(int max_line) const {
        std::string out, line;
        for (const std::string& w : words_) {
            if (!line.empty() && int(line.size() + 1 + w.size()) > max_line) out += line + "\n", line.clear();
            line += (line.empty() ? "" : " ") + w;
        }
        if (!line.empty()) out += line + "\n";
        return out;
    }

private:
    std::vector<std::string> words_;
    bool glue_ = false;
    int short_comment_;
    bool cutechess_;
};

void write_line(Position pos, const Line& line, const WriteOptions& options, Words* words) {
    bool need_number = true;
    // After a comment or a variation a Black move is numbered again ("1... e5"), except in cutechess's form.
    const bool renumber = !options.cutechess;
    for (const PgnMove& pm : line) {
        for (const std::string& c : pm.comments_before) words->comment(c), need_number = need_number || renumber;
        const int number = pos.game_ply() / 2 + 1;
        const std::string number_text = pos.side_to_move() == WHITE ? std::to_string(number) + "."
                                        : need_number                ? std::to_string(number) + "..."
                                                                     : "";
        std::string san = pm.is_null() ? "--" : pm.san.empty() ? move_to_san(pos, pm.move) : pm.san;
        bool suffixed = false;
        std::vector<int> rest;
        for (int n : pm.nags) {
            if (options.symbolic_nags && !suffixed && n >= 1 && n <= 6) san += SUFFIX_NAGS[n], suffixed = true;
            else rest.push_back(n);
        }
        // The number and its move stay on one line ("5. O-O", never "5." at a line's end); cutechess breaks there.
        if (options.cutechess && !number_text.empty()) words->add(number_text);
        words->add(options.cutechess || number_text.empty() ? san : number_text + " " + san);
        for (int n : rest) words->add(std::string(1, '$').append(std::to_string(n)));
        need_number = false;
        for (const std::string& c : pm.comments) words->comment(c), need_number = renumber;
        for (const Line& v : pm.variations) {
            words->add("(");
            words->glue_next();
            write_line(pos, v, options, words);
            words->close_paren();
            need_number = renumber;
        }
        if (pm.is_null()) pos.do_null_move();
        else pos.do_move(pm.move);
    }
}

}  // namespace

std::string PgnError::text() const {
    std::string r = "game " + std::to_string(game) + ", line " + std::to_string(line) + ": ";
    if (!move.empty()) {
        // "illegal move in FEN" -> "illegal move '12... Nf6' in FEN": the move goes after the kind of error.
        const std::size_t at = message.find(" move");
        if (at != std::string::npos && message.find(" in ", at) != std::string::npos)
            return r + message.substr(0, at + 5) + " '" + move + "'" + message.substr(at + 5);
        return r + "move '" + move + "': " + message;
    }
    return r + message;
}

std::string Game::tag(const std::string& name) const {
    for (const auto& [n, v] : tags)
        if (n == name) return v;
    return "";
}

void Game::set_tag(const std::string& name, const std::string& value) {
    for (auto& [n, v] : tags)
        if (n == name) {
            v = value;
            return;
        }
    tags.emplace_back(name, value);
}

bool Game::chess960() const { return start().is_chess960(); }

std::size_t Game::moves_before_null() const {
    return std::size_t(std::find_if(moves.begin(), moves.end(), [](const PgnMove& m) { return m.is_null(); }) - moves.begin());
}

Position Game::start() const {
    bool known = true;
    const bool c960 = variant_is_chess960(tag("Variant"), &known);
    Position pos;
    const std::string fen = tag("FEN");
    if (!fen.empty() && !pos.set_fen(fen, c960, nullptr)) (void)pos.set_fen(fen, true, nullptr);
    return pos;
}

bool read_pgn(std::string_view text, std::vector<Game>* games, PgnError* error, const ReadOptions& options) {
    return Reader(text, games, error, nullptr, options).run();
}

std::vector<PgnError> read_pgn_games(std::string_view text, std::vector<Game>* games, const ReadOptions& options) {
    std::vector<PgnError> errors;
    Reader(text, games, nullptr, &errors, options).run();
    return errors;
}

std::string nag_text(int nag, bool symbolic) {
    if (symbolic && nag >= 1 && nag <= 6) return SUFFIX_NAGS[nag];
    return std::string(1, '$').append(std::to_string(nag));
}

std::string write_pgn(const Game& game, const WriteOptions& options) {
    static const std::pair<const char*, const char*> ROSTER[] = {
        {"Event", "?"}, {"Site", "?"}, {"Date", "????.??.??"}, {"Round", "?"}, {"White", "?"}, {"Black", "?"}};
    std::string out;
    auto tag = [&out](const std::string& name, const std::string& value) {
        out += "[" + name + " \"" + escape_tag(value) + "\"]\n";
    };
    for (const auto& [name, missing] : ROSTER) {
        const std::string v = game.tag(name);
        tag(name, v.empty() ? missing : v);
    }
    tag("Result", game.result);
    for (const auto& t : game.tags) {  // not a structured binding: clang before 16 cannot capture one
        const std::string& name = t.first;
        const bool roster = name == "Result" || std::any_of(std::begin(ROSTER), std::end(ROSTER),
                                                            [&](const auto& r) { return name == r.first; });
        if (!roster) tag(name, t.second);
    }
    out += "\n";
    Words words(options.max_line, options.cutechess);
    write_line(game.start(), game.moves, options, &words);
    for (const std::string& c : game.final_comments) words.comment(c);
    words.add(game.result);
    out += words.wrap(options.max_line);
    out += "\n";
    return out;
}

}  // namespace quince::game
