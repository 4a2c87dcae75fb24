#!/usr/bin/env bash
# Strength benchmark: build/quince against toga2, glaurung, ethereal-chess and stockfish (one gauntlet run of
# quince-match), each opponent with Hash 16, one thread, no own book, no ponder; openings from 8moves_v3.epd;
# resign/draw adjudication as in every project match (strength/match_common.sh).
# Usage: strength/strength.sh [games per opponent, default 100] [tc, default 10+0.1]
# Environment: QUINCE_BIN (engine under test, default build/quince), OPENINGS (EPD file),
#              CONCURRENCY (default 2, at most 2), PGN_OUT (default build/strength.pgn), OPPONENTS (subset, e.g. "toga2 stockfish"),
#              SEED (opening order, default 1: continue an interrupted run with another SEED into another PGN_OUT
#              and pool the parts with `build/quince-match -rescore a.pgn b.pgn`),
#              START (first opening of the shuffled order, default 1: a run against one opponent in parts of G
#              games keeps SEED and sets START=1, 1+G/2, 1+G, ..., so that no opening is played twice).
set -euo pipefail

GAMES="${1:-100}"
TC="${2:-10+0.1}"
source "$(dirname "${BASH_SOURCE[0]}")/match_common.sh"
PGN_OUT="${PGN_OUT:-$BUILD/strength.pgn}"
OPPONENTS="${OPPONENTS:-toga2 glaurung ethereal-chess stockfish}"
SEED="${SEED:-1}"
START="${START:-1}"
ensure_built always

ensure_peers $OPPONENTS

args=(-tournament gauntlet -games "$GAMES" -concurrency "$CONCURRENCY" -ratinginterval 0
      -openings file="$OPENINGS" format=epd order=random seed="$SEED" start="$START"
      -engine cmd="$QUINCE_BIN" name=quince option.Threads=1)
for engine in $OPPONENTS; do
    if [[ $engine == ethereal-chess ]]; then add_peer "$engine" ethereal; else add_peer "$engine"; fi
done
args+=(-each tc="$TC" option.Hash=16 option.Ponder=false timemargin=50 "${ADJUDICATION[@]}" -pgnout "$PGN_OUT")

LOG="$BUILD/strength.log"
echo "quince-match ${args[*]}" >"$LOG"
set +e
"$BUILD/quince-match" "${args[@]}" | tee -a "$LOG" | grep --line-buffered -E '^\[|^Warning|^Error' >&2
status=${PIPESTATUS[0]}
set -e
if (( status != 0 )); then
    echo "quince-match failed (exit $status), see $LOG" >&2
    exit "$status"
fi

echo
printf '%-12s %6s %15s %22s\n' opponent games "W/D/L" "Elo (quince) 95%"
# "Summary: quince vs OPPONENT games=N W=w D=d L=l elo=e error=x"
awk '/^Summary: / {
        for (i = 5; i <= NF; ++i) { split($i, kv, "="); v[kv[1]] = kv[2] }
        printf "%-12s %6s %15s %22s\n", $4, v["games"], v["W"] "/" v["D"] "/" v["L"], v["elo"] " +/- " v["error"]
     }' "$LOG"
grep '^Incidents' "$LOG" || true
