// `quince eval` as a standalone binary (the Python evaluation references in tests/eval run it):
//   build/eval_trace [--json] [--profile NAME] "<FEN>"
#include <iostream>

#include "cli/cli.h"

int main(int argc, char** argv) { return quince::cli::run_eval({argv + 1, argv + argc}, std::cout, std::cerr); }
