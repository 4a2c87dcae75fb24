// `quince similarity`: the command line (options, errors, output) over positions.h, runner.h and report.h.
#pragma once

#include <atomic>
#include <iosfwd>
#include <string>
#include <vector>

namespace quince::similarity {

struct CliContext {
    std::string quince_path;                     // the program that plays profile:NAME engines
    const std::atomic<bool>* interrupt = nullptr;  // Ctrl-C: stop after the searches under way
    bool progress = false;                       // a progress line on err
};

// Exit status: 0 done, 1 failed or interrupted (an engine failed, a file could not be written), 2 usage error.
int run_similarity_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                       const CliContext& context);
// `quince similarity` as the program runs it: the profile:NAME engines are this program, Ctrl-C stops after
// the searches under way (the results so far stay in the --state file), progress when err is a terminal.
int run_similarity_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

extern const char* const SIMILARITY_ARGUMENTS;  // for `quince --help`
extern const char* const SIMILARITY_SUMMARY;
extern const char* const SIMILARITY_DETAILS;    // `quince similarity --help`

}  // namespace quince::similarity
