// The `quince` command line for people: subcommands (perft, bench, eval, analyse) and UCI command
// lines given as arguments. Each runner takes the words after its name and writes to `out` (results)
// and `err` (errors, progress); it returns the exit status: 0 done, 1 failed, 2 usage error.
// app/main.cpp dispatches to them from one table; they live in the library so that tests run them too.
#pragma once

#include <atomic>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "board/position.h"

namespace quince::cli {

using Args = std::vector<std::string>;

// Exit statuses.
constexpr int EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2;

// Prints `quince COMMAND: message (see 'quince --help')` on err and returns EXIT_USAGE.
int usage_error(std::ostream& err, const std::string& command, const std::string& message);

// Options of a subcommand: words starting with "--". `--name=value` and `--name value` both work
// for options that take a value; the other words are positional (a FEN's fields, a depth).
struct OptionSpec {
    std::string name;  // without the dashes
    bool takes_value = false;
};
struct ParsedArgs {
    std::map<std::string, std::string> options;  // flags map to ""
    std::vector<std::string> positional;
    bool has(const std::string& name) const { return options.count(name) != 0; }
};
bool parse_args(const Args& args, const std::vector<OptionSpec>& specs, ParsedArgs* out, std::string* error);

// A whole number in [lo, hi] written in decimal; *error names `what` and the range.
bool parse_number(const std::string& text, long long lo, long long hi, const std::string& what, long long* out,
                  std::string* error);

// A position from command-line words: nothing or `startpos` = the start position, otherwise a FEN
// (one quoted argument or its fields as separate words), optionally followed by `moves` and moves in
// UCI or SAN notation. Shredder-FEN castling letters (or a FEN only valid as Chess960) mean Chess960.
bool read_position(const std::vector<std::string>& words, Position* pos, std::string* error);

int run_perft(const Args& args, std::ostream& out, std::ostream& err);
int run_bench(const Args& args, std::ostream& out, std::ostream& err);
int run_eval(const Args& args, std::ostream& out, std::ostream& err);
// `quince compare`: one position (or an --epd file's positions) under several profiles, term by term
// (src/workbench/); --svg draws the boards side by side.
int run_compare(const Args& args, std::ostream& out, std::ostream& err);
extern const char* const COMPARE_DETAILS;  // `quince compare --help`
// Each argument is one UCI command line, run in order; a search started by one (`go depth 10`)
// finishes before the next line runs. The first line answered with an error ends the run, exit status 1.
int run_uci_lines(const Args& lines, std::ostream& out);

}  // namespace quince::cli
