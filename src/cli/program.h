// The frame of the `quince` program around its subcommands: the row of app/main.cpp's table, `--help`,
// `--version`, "did you mean" for a mistyped subcommand, the UCI session on stdin/stdout, and what a
// runner needs from the process (Ctrl-C, whether a stream is a terminal, the program's own path).
#pragma once

#include <atomic>
#include <cstddef>
#include <iosfwd>
#include <span>
#include <string>

#include "cli/cli.h"

namespace quince::cli {

// Every subcommand runs as this: the words after its name, results on out, errors and progress on err;
// it returns the exit status (EXIT_OK, EXIT_FAILED, EXIT_USAGE).
using Runner = int (*)(const Args& args, std::ostream& out, std::ostream& err);

struct Subcommand {
    const char* name;
    const char* arguments;
    const char* summary;
    Runner run;
    const char* const* details = nullptr;  // more text for `quince NAME --help`
    bool own_help = false;                 // the tool answers `--help` itself (its options, in full)
};

// `quince NAME ARGS…`: `quince NAME --help` from the row unless the tool answers it, else the runner.
int run_subcommand(const Subcommand& subcommand, const Args& args, std::ostream& out, std::ostream& err);
// `quince --help`: the usage and one entry per subcommand (`spsa` only in the tuning build).
void print_help(std::span<const Subcommand> subcommands, std::ostream& out);
// `quince --version`: the version, the bench signature (`reason` says why there is none), the build.
void print_version(std::ostream& out, const std::string& bench_signature, const std::string& reason);
// A first word that is neither a subcommand nor a UCI command: a usage error naming the nearest
// subcommand (at most two edits away), instead of running it as a UCI line.
int unknown_subcommand(const std::string& word, std::span<const Subcommand> subcommands, std::ostream& err);
// Edits (insertions, deletions, substitutions, swaps of neighbours) from a to b.
std::size_t edit_distance(const std::string& a, const std::string& b);
// The compiler and standard library the build used, as a bug report needs them ("GCC 12.2.0, libstdc++").
std::string compiler_name();

// No argument: the UCI engine on stdin/stdout until `quit` or the end of input.
int run_uci_session();

// Ctrl-C from now on sets the flag returned (a runner stops and keeps what it has); a second one kills.
const std::atomic<bool>* stop_on_interrupt();
// Whether `stream` is std::cout or std::cerr and that goes to a terminal (a status line is redrawn there).
bool is_terminal(const std::ostream& stream);
// This program's own file (engines `profile:NAME` of `quince similarity` are this program).
std::string program_path();

// `quince analyse`: run_analyse (analyse.h) with this process's terminals and Ctrl-C.
int run_analyse_command(const Args& args, std::ostream& out, std::ostream& err);

}  // namespace quince::cli
