#!/usr/bin/env bash
# Perft speed of build/quince against Debian's stockfish (`go perft`), measured in one run so that
# machine noise hits both alike. Prints nodes/s of each and the ratio quince/stockfish (goal >= 1.0).
# Usage: bench/perft_vs_stockfish.sh [repeats]
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-3}
[ -x build/quince ] || { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build -j2 >/dev/null; }
SF=$(command -v stockfish || echo /usr/games/stockfish)
if [ ! -x "$SF" ]; then
  echo "installing stockfish (Debian package)"; apt-get install -y stockfish >/dev/null; SF=/usr/games/stockfish
fi

now() { date +%s.%N; }

quince_time() {  # depth fen -> seconds (best of repeats)
  local best=999999
  for _ in $(seq "$repeats"); do
    local t0 t1; t0=$(now); build/quince perft "$1" "$2" >/dev/null 2>&1; t1=$(now)
    best=$(echo "$t1 - $t0" | bc -l | awk -v b="$best" '{print ($1<b)?$1:b}')
  done
  echo "$best"
}
stockfish_time() {
  local best=999999
  for _ in $(seq "$repeats"); do
    local t0 t1; t0=$(now)
    printf 'setoption name Threads value 1\nposition fen %s\ngo perft %s\nquit\n' "$2" "$1" | "$SF" >/dev/null 2>&1
    t1=$(now)
    best=$(echo "$t1 - $t0" | bc -l | awk -v b="$best" '{print ($1<b)?$1:b}')
  done
  echo "$best"
}

printf '%-10s %6s %14s %14s %14s %7s\n' position depth nodes quince_nps stockfish_nps ratio
total_ratio=0; count=0
while IFS='|' read -r name depth nodes fen; do
  tq=$(quince_time "$depth" "$fen")
  ts=$(stockfish_time "$depth" "$fen")
  nq=$(echo "$nodes / $tq" | bc); ns=$(echo "$nodes / $ts" | bc)
  ratio=$(echo "scale=3; $ts / $tq" | bc)
  printf '%-10s %6s %14s %14s %14s %7s\n' "$name" "$depth" "$nodes" "$nq" "$ns" "$ratio"
done <<'POS'
startpos|6|119060324|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
kiwipete|5|193690690|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1
POS
