// quince-match: plays UCI engines against each other; see tools/match/README.md.
#include <iostream>

#include "options.h"

int main(int argc, char** argv) { return quince::match::run_match_cli({argv + 1, argv + argc}, std::cout, std::cerr); }
