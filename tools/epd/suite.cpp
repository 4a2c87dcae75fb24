#include "suite.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <iomanip>
#include <map>
#include <sstream>

#include "board/epd.h"
#include "board/notation.h"
#include "core/text.h"

namespace quince::epd {

namespace {

bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::vector<std::string> words(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// SAN as the suites write it; UCI notation as a fallback for files that use it.
Move parse_move(const Position& pos, const std::string& text) {
    Move m = san_to_move(pos, text);
    return m ? m : uci_to_move(pos, text);
}

bool parse_moves(const Position& pos, const std::string& opcode, const std::string& operand,
                 std::vector<Move>* out, std::string* error) {
    for (const std::string& w : words(operand)) {
        Move m = parse_move(pos, w);
        if (!m) {
            *error = opcode + ": '" + printable(w) + "' is not a legal move here";
            return false;
        }
        out->push_back(m);
    }
    return true;
}

// STS points: c0 "f5=10, Be5+=2, Bf2=3". Other c0 texts (game references) are not points: *out stays
// empty. A points list with a value too large for a score is an error (false).
bool parse_points(const Position& pos, const std::string& text, std::vector<std::pair<Move, int>>* out,
                  std::string* error) {
    constexpr std::size_t MAX_POINT_DIGITS = 6;  // STS gives 0..10; anything longer is a broken record
    std::vector<std::pair<Move, int>> points;
    std::istringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        item = trim(item);
        const std::size_t eq = item.rfind('=');
        if (eq == std::string::npos) return true;
        const std::string move_text = item.substr(0, eq), value = item.substr(eq + 1);
        if (!all_digits(value)) return true;
        Move m = parse_move(pos, move_text);
        if (!m) return true;
        if (value.size() > MAX_POINT_DIGITS) {
            *error = "c0: the points of '" + printable(move_text) + "' (a number of " +
                     std::to_string(value.size()) + " digits) are out of range 0.." +
                     std::string(MAX_POINT_DIGITS, '9');
            return false;
        }
        points.emplace_back(m, std::stoi(value));
    }
    *out = std::move(points);
    return true;
}

bool contains(const std::vector<Move>& moves, Move m) { return std::find(moves.begin(), moves.end(), m) != moves.end(); }

}  // namespace

const std::string* Record::find(const std::string& opcode) const {
    for (const auto& op : operations)
        if (op.first == opcode) return &op.second;
    return nullptr;
}

bool parse_record(const std::string& line, Record* out, std::string* error) {
    error->clear();
    const std::string text = trim(line);
    if (text.empty() || text[0] == '#') return false;

    std::size_t pos = 0;
    out->fen = epd_fen(text, &pos);
    if (out->fen.empty()) {
        *error = "an EPD line needs 4 FEN fields";
        return false;
    }

    // Operations: "opcode operand...;" with ';' inside quotes belonging to the operand.
    out->operations.clear();
    std::string current;
    bool quoted = false;
    auto finish = [&]() {
        std::string op = trim(current);
        current.clear();
        if (op.empty()) return true;
        std::size_t sp = op.find_first_of(" \t");
        std::string opcode = op.substr(0, sp), operand = sp == std::string::npos ? "" : trim(op.substr(sp));
        if (opcode.front() == '"') {
            *error = "operation without an opcode: " + printable(op);
            return false;
        }
        if (operand.size() >= 2 && operand.front() == '"' && operand.back() == '"')
            operand = operand.substr(1, operand.size() - 2);
        out->operations.emplace_back(opcode, operand);
        return true;
    };
    for (std::size_t i = pos; i < text.size(); ++i) {
        char c = text[i];
        if (c == '"') quoted = !quoted;
        if (c == ';' && !quoted) {
            if (!finish()) return false;
        } else {
            current += c;
        }
    }
    if (quoted) {
        *error = "unterminated quote";
        return false;
    }
    return finish();
}

bool Problem::solved_by(Move m) const { return (best.empty() || contains(best, m)) && !contains(avoid, m); }

int Problem::points_for(Move m) const {
    for (const auto& p : points)
        if (p.first == m) return p.second;
    return 0;
}

int Problem::max_points() const {
    int best_points = 0;
    for (const auto& p : points) best_points = std::max(best_points, p.second);
    return best_points;
}

bool make_problem(const Record& record, Problem* out, std::string* error) {
    Problem p;
    std::string fen_error;
    // Shredder-FEN castling letters (Chess960 suites) need the Chess960 reading.
    if (!p.pos.set_fen(record.fen, false, &fen_error) && !p.pos.set_fen(record.fen, true, nullptr)) {
        *error = "invalid FEN: " + fen_error;
        return false;
    }
    if (const std::string* id = record.find("id")) p.id = *id;
    if (const std::string* bm = record.find("bm"); bm && !parse_moves(p.pos, "bm", *bm, &p.best, error)) return false;
    if (const std::string* am = record.find("am"); am && !parse_moves(p.pos, "am", *am, &p.avoid, error)) return false;
    if (const std::string* c0 = record.find("c0"); c0 && !parse_points(p.pos, *c0, &p.points, error)) return false;
    if (p.best.empty() && p.avoid.empty() && p.points.empty()) {
        *error = "nothing to check (no bm, am or c0 points)";
        return false;
    }
    *out = std::move(p);
    return true;
}

Outcome solve(search::Engine& engine, const Problem& problem, const search::Limits& limits,
              const search::SearchOptions& options) {
    struct Report {
        std::int64_t ms;
        int depth;
        Move move;
    };
    std::vector<Report> reports;  // written by the search thread, read after it has ended
    search::Listener listener;
    listener.info = [&](const search::Info& info) {
        // A failed-high or failed-low line is not a finished main line.
        if (info.multipv != 1 || info.bound != search::Info::Bound::EXACT || info.pv.empty()) return;
        reports.push_back({info.time_ms, info.depth, info.pv[0]});
    };
    engine.set_listener(std::move(listener));
    engine.new_game();
    search::SearchOptions o = options;
    o.silent = false;
    const auto start = std::chrono::steady_clock::now();
    search::SearchResult result = engine.search(problem.pos, limits, o);
    engine.set_listener({});

    Outcome out;
    out.played = result.best;
    out.solved = problem.solved_by(result.best);
    out.points = problem.points_for(result.best);
    out.depth = result.depth;
    out.nodes = result.nodes;
    out.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    if (out.solved) {
        std::size_t first = reports.size();
        while (first > 0 && problem.solved_by(reports[first - 1].move)) --first;
        if (first < reports.size()) {
            out.found_ms = reports[first].ms;
            out.found_depth = reports[first].depth;
        } else {  // the answer came from another thread's vote, after the last report
            out.found_ms = out.time_ms;
            out.found_depth = out.depth;
        }
    }
    return out;
}

std::string group_of(const std::string& id) {
    const std::size_t dot = id.rfind('.');
    return dot == std::string::npos ? std::string() : id.substr(0, dot);
}

namespace {

struct Tally {
    int positions = 0, solved = 0, points = 0, max_points = 0;
    void add(const Problem& p, const Outcome& o) {
        ++positions;
        solved += o.solved;
        points += o.points;
        max_points += p.max_points();
    }
    std::string text() const {
        std::ostringstream out;
        out << solved << "/" << positions << " solved (" << std::fixed << std::setprecision(1)
            << (positions ? 100.0 * solved / positions : 0.0) << "%)";
        if (max_points) out << ", " << points << "/" << max_points << " points";
        return out.str();
    }
};

}  // namespace

std::string summary(const std::vector<Problem>& problems, const std::vector<Outcome>& outcomes,
                    double wall_seconds) {
    Tally total;
    std::map<std::string, Tally> groups;
    std::vector<std::string> group_order;
    std::size_t group_width = 0;
    std::uint64_t nodes = 0;
    std::int64_t found_ms_sum = 0;
    for (std::size_t i = 0; i < problems.size() && i < outcomes.size(); ++i) {
        total.add(problems[i], outcomes[i]);
        const std::string group = group_of(problems[i].id);
        if (!groups.contains(group)) {
            group_order.push_back(group);
            group_width = std::max(group_width, group.size());
        }
        groups[group].add(problems[i], outcomes[i]);
        nodes += outcomes[i].nodes;
        if (outcomes[i].solved) found_ms_sum += outcomes[i].found_ms;
    }
    std::ostringstream out;
    if (groups.size() > 1)
        for (const std::string& name : group_order)
            out << std::left << std::setw(static_cast<int>(group_width + 2)) << name << groups[name].text() << "\n";
    out << "Total: " << total.text() << "; mean time to the solution " << std::fixed << std::setprecision(2)
        << (total.solved ? found_ms_sum / 1000.0 / total.solved : 0.0) << " s; " << nodes << " nodes in "
        << std::setprecision(1) << wall_seconds << " s\n";
    return out.str();
}

}  // namespace quince::epd
