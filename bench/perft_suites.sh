#!/usr/bin/env bash
# Runs the large perft suites from ../shared/data against build/quince, every depth whose expected node
# count is at most MAX_NODES (default 50 million). Prints a line per mismatch and a summary per file.
# Usage: bench/perft_suites.sh [max_nodes] [files...]
set -uo pipefail
cd "$(dirname "$0")/.."
max=${1:-50000000}; shift || true
data=../shared/data
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$data/perft-marcel.epd" "$data/perft-ferdy-doublecheck.epd" "$data/perft-ferdy-enpassant.epd" "$data/perft.epd")
[ -x build/quince ] || { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build -j2 >/dev/null; }
status=0
for f in "${files[@]}"; do
  start=$(date +%s)
  read -r checked failed < <(python3 - "$f" "$max" <<'PY'
import subprocess, sys
path, limit = sys.argv[1], int(sys.argv[2])
checked = failed = 0
for line in open(path):
    if ';' not in line: continue
    fen, *rest = line.strip().split(';')
    fen = fen.strip()
    for item in rest:
        d, n = item.split()
        depth, nodes = int(d[1:]), int(n)
        if nodes > limit and depth > 1: continue
        out = subprocess.run(['build/quince', 'perft', str(depth), fen], capture_output=True, text=True).stdout
        got = int(out.strip().split('Nodes searched: ')[-1]) if 'Nodes searched' in out else -1
        checked += 1
        if got != nodes:
            failed += 1
            print(f"MISMATCH {fen} depth {depth}: expected {nodes}, got {got}", file=sys.stderr)
print(checked, failed)
PY
)
  echo "$(basename "$f"): $checked entries checked, $failed mismatches, $(( $(date +%s) - start )) s"
  [ "$failed" = 0 ] || status=1
done
exit $status
