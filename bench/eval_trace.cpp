// Standalone `quince eval` until the lead wires the subcommand into main.cpp:
//   build/eval_trace [--json] [--profile NAME] "<FEN>"
#include "eval/evaluate.h"

int main(int argc, char** argv) { return quince::eval::run_eval_cli(argc, argv); }
