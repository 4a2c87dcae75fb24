#!/usr/bin/env bash
# Remakes the shipped position set of `quince similarity` (tools/similarity/data/positions.epd): 3000 quiet
# positions from Quince's self-play where at least two moves are within 20 cp (see README.md). The set
# depends on the search (a different build finds other games), so remaking it changes the file; rebuild
# afterwards, the set is compiled in.
# Usage: tools/similarity/make_positions.sh [QUINCE_BIN, default build/quince] [threads, default 2]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
quince="${1:-$here/../../build/quince}"
threads="${2:-2}"
"$quince" similarity --make-positions 3000 --seed 1 --threads "$threads" --out "$here/data/positions.epd"
