// Test suites in EPD (WAC, STS, Arasan, ECM, BK, EET): reading the records, judging a move against
// their best-move / avoid-move / points operations, and searching each position in-process.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "board/position.h"
#include "search/search.h"

namespace quince::epd {

// One EPD line: the position (the 4 FEN fields, plus the two counters when the line carries them)
// and its operations, e.g. {"bm", "Qg6"}, {"id", "WAC.001"}, {"c0", "f5=10, Be5+=2"}.
struct Record {
    std::string fen;
    std::vector<std::pair<std::string, std::string>> operations;  // opcode, operand (quotes removed)
    const std::string* find(const std::string& opcode) const;     // the first operation with that opcode
};

// False for a blank or comment (#) line (with *error empty) and for a malformed one (with *error
// saying why: fewer than 4 FEN fields, an unterminated quote, an operation without an opcode).
bool parse_record(const std::string& line, Record* out, std::string* error);

// What a test position asks: play one of `best` (bm) and none of `avoid` (am); `points` scores moves
// the STS way (c0 "move=points, ..."; the best move usually 10).
struct Problem {
    std::string id;
    Position pos;
    std::vector<Move> best, avoid;
    std::vector<std::pair<Move, int>> points;

    bool solved_by(Move m) const;
    int points_for(Move m) const;
    int max_points() const;
};

// False with *error for an invalid FEN, a move that is not legal in the position, or a record with
// nothing to check (no bm, am or c0 points).
bool make_problem(const Record& record, Problem* out, std::string* error);

struct Outcome {
    Move played = Move::none();
    bool solved = false;
    int points = 0;
    int depth = 0;  // completed iterations
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0;
    // When the search settled on a solution: the first main-line report from which on every reported
    // best move solved the problem (-1 / 0 when the move played does not solve it).
    std::int64_t found_ms = -1;
    int found_depth = 0;
};

// Searches the problem with a cleared engine (hash and histories) within `limits`, silently.
Outcome solve(search::Engine& engine, const Problem& problem, const search::Limits& limits,
              const search::SearchOptions& options);

// "STS(v1.0) Undermine.001" -> "STS(v1.0) Undermine"; "WAC.001" -> "WAC"; "" for an id without a dot.
std::string group_of(const std::string& id);

// The closing report of a run (outcomes[i] belongs to problems[i]): when the ids form more than one
// group, a line per group in the order the suite first lists them (STS v2 before v10), names padded
// to one column; then the total with the mean time to the solution, the nodes and the wall time.
std::string summary(const std::vector<Problem>& problems, const std::vector<Outcome>& outcomes,
                    double wall_seconds);

}  // namespace quince::epd
