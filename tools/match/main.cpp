// quince-match: plays UCI engines against each other; see tools/match/README.md.
#include <iostream>

#include "tournament.h"

int main(int argc, char** argv) {
    using namespace quince::match;
    std::vector<std::string> args(argv + 1, argv + argc);
    TournamentConfig config;
    std::string error;
    if (!parse_command_line(args, &config, &error)) {
        std::cerr << error << (error.back() == '\n' ? "" : "\n");
        return 2;
    }
    TournamentSummary summary = run_tournament(config, std::cout);
    if (!summary.error.empty()) {
        std::cerr << "Error: " << summary.error << "\n";
        return 1;
    }
    return 0;
}
