#!/usr/bin/env bash
# Runs the large perft suites (docs/data.md; folder $QUINCE_DATA_DIR, default data/ in the checkout) with build/perft_suite: every depth whose expected node
# count is at most MAX_NODES (default 50 million). Prints mismatches and a summary line per file.
# Usage: bench/perft_suites.sh [max_nodes] [files...]
set -uo pipefail
cd "$(dirname "$0")/.."
max=${1:-50000000}; shift || true
data=${QUINCE_DATA_DIR:-$PWD/data}  # after the cd above: data/ of the checkout
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$data/perft.epd" "$data/perft-chess960.epd" "$data/perft-ferdy-doublecheck.epd"
                                 "$data/perft-ferdy-enpassant.epd" "$data/perft-marcel.epd")
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build -j2 --target perft_suite >/dev/null
status=0
for f in "${files[@]}"; do build/perft_suite "$f" "$max" || status=1; done
exit $status
