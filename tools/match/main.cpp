// quince-match: plays UCI engines against each other; see tools/match/README.md.
#include <csignal>
#include <iostream>

#include "rescore.h"
#include "tournament.h"

namespace {
// First Ctrl-C: finish the running games and print the report; a second one ends the runner at once.
void on_interrupt(int) {
    quince::match::request_stop();
    std::signal(SIGINT, SIG_DFL);
}
}  // namespace

int main(int argc, char** argv) {
    using namespace quince::match;
    std::vector<std::string> args(argv + 1, argv + argc);
    for (const std::string& a : args)
        if (a == "-help" || a == "--help" || a == "-h") {
            std::cout << usage_text();
            return 0;
        }
    std::string error;
    if (!args.empty() && args[0] == "-rescore") {  // quince-match -rescore FILE.pgn [FILE.pgn ...] [-sprt ...]
        std::string report;
        std::vector<std::string> files;
        SprtConfig sprt;
        if (parse_rescore_arguments({args.begin() + 1, args.end()}, &files, &sprt, &error) &&
            rescore_pgn_files(files, &report, &error, sprt)) {
            std::cout << report;
            return 0;
        }
        std::cerr << "Error: " << error << "\n";
        return 2;
    }
    TournamentConfig config;
    if (!parse_command_line(args, &config, &error)) {
        std::cerr << error << (error.back() == '\n' ? "" : "\n");
        return 2;
    }
    std::signal(SIGINT, on_interrupt);
    TournamentSummary summary = run_tournament(config, std::cout);
    if (!summary.error.empty()) {
        std::cerr << "Error: " << summary.error << "\n";
        return 1;
    }
    return 0;
}
