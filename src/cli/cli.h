// The `quince` command line for people: subcommands (perft, bench, eval, analyse) and UCI command
// lines given as arguments. Each runner takes the words after its name and writes to `out` (results)
// and `err` (errors, progress); it returns the exit status: 0 done, 1 failed, 2 usage error.
// app/main.cpp dispatches to them from one table; they live in the library so that tests run them too.
// Every subcommand, the tools' too, reads its words with parse_args and reports a usage error with
// usage_error; quince-match and quince-epd, programs of their own, with program_usage_error.
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

// Prints `quince COMMAND: message (see 'quince COMMAND --help')` on err (one line) and returns EXIT_USAGE.
int usage_error(std::ostream& err, const std::string& command, const std::string& message);
// The same for a program of its own: `PROGRAM: message (see 'PROGRAM --help')`.
int program_usage_error(std::ostream& err, const std::string& program, const std::string& message);

// Options of a subcommand: words starting with "--". `--name=value` and `--name value` both work
// for options that take a value; the other words are positional (a FEN's fields, a depth).
struct OptionSpec {
    std::string name;  // without the dashes
    bool takes_value = false;
    bool repeatable = false;  // may be given again (each value kept); otherwise twice is an error
    // Its values are the words after it up to the next one starting with '-' (at least one), as in
    // `--from-pgn A.pgn B.pgn`.
    bool takes_list = false;
};
struct ParsedArgs {
    std::map<std::string, std::string> options;  // flags map to ""; an option given several times: its first value
    std::map<std::string, std::vector<std::string>> values;  // every value of each option, in order
    std::vector<std::string> positional;
    bool has(const std::string& name) const { return options.count(name) != 0; }
};
bool parse_args(const Args& args, const std::vector<OptionSpec>& specs, ParsedArgs* out, std::string* error);

// Whether a word is `--help` or `-h`: the tools that answer --help themselves do so wherever it stands.
bool asks_for_help(const Args& args);

// A whole number in [lo, hi] written in decimal; *error names `what` and the range.
bool parse_number(const std::string& text, long long lo, long long hi, const std::string& what, long long* out,
                  std::string* error);
// A number in [lo, hi] as strtod reads it ("0.5", "1e3"); *error names `what` and the range.
bool parse_real(const std::string& text, double lo, double hi, const std::string& what, double* out,
                std::string* error);

// The words of `text` between blanks: a command and its arguments given as one argument (`datagen --teacher
// "CMD ARGS"`, quince-match's `args="A B"`).
std::vector<std::string> split_words(const std::string& text);

// printf's formatting into a string: the tools' reports print their figures as printf formats them.
std::string formatted(const char* format, ...) __attribute__((format(printf, 1, 2)));

// A position from command-line words: nothing or `startpos` = the start position, otherwise a FEN
// (one quoted argument or its fields as separate words), optionally followed by `moves` and moves in
// UCI or SAN notation. Shredder-FEN castling letters (or a FEN only valid as Chess960) mean Chess960.
bool read_position(const std::vector<std::string>& words, Position* pos, std::string* error);

int run_perft(const Args& args, std::ostream& out, std::ostream& err);
// `quince weights NAME|FILE`: a built-in profile, or a weights file after loading (checked and completed
// from its base), in the weight-file format.
int run_weights(const Args& args, std::ostream& out, std::ostream& err);
// `quince spsa`: OpenBench's SPSA input lines of the tuning build's options.
int run_spsa(const Args& args, std::ostream& out, std::ostream& err);
int run_bench(const Args& args, std::ostream& out, std::ostream& err);
int run_eval(const Args& args, std::ostream& out, std::ostream& err);
// `quince compare`: one position (or an --epd file's positions) under several profiles, term by term
// (src/workbench/); --svg draws the boards side by side.
int run_compare(const Args& args, std::ostream& out, std::ostream& err);
extern const char* const COMPARE_DETAILS;  // `quince compare --help`
// Each argument is one UCI command line, run in order; a search started by one (`go depth 10`)
// finishes before the next line runs. The first line answered with an error ends the run, exit status 1.
// With `unknown_first_word`: a first line whose first word is no UCI command runs nothing; the word is
// stored there and EXIT_USAGE returned (the caller says what was meant).
int run_uci_lines(const Args& lines, std::ostream& out, std::string* unknown_first_word = nullptr);

}  // namespace quince::cli
