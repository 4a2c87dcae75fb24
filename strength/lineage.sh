#!/usr/bin/env bash
# The lineage round robin: the evaluation profiles fruit21, rybka1, rybka232 and quince (one
# binary, EvalProfile per engine) and Debian's toga2 (Toga II 3.0, Fruit's descendant), every pairing
# GAMES games, each opening with both colours, Hash 16, one thread, no books, no ponder, project
# adjudication; then strength/lineage.py turns the PGN into pairings and ratings (fruit21 = 0).
# Timed games: quiet cores only. 10 pairings × 100 games at 10+0.1 take about 3.5 hours on two cores; an
# interrupted run is continued with another SEED into another PGN_OUT and pooled:
#   strength/lineage.py --anchor fruit21 a.pgn b.pgn
# Or one pairing at a time, e.g. PROFILES="fruit21 rybka1" OTHERS="" or PROFILES=quince OTHERS=toga2, each
# run's pairing row copied into a results file, the ratings fitted from the rows when the PGNs are gone:
#   strength/lineage.py --anchor fruit21 --table results.md
# Usage: strength/lineage.sh [games per pairing, default 100] [tc, default 10+0.1]
# Environment: QUINCE_BIN, OPENINGS (default 8moves_v3), SEED (default 1), PGN_OUT (default
#              build/lineage.pgn), PROFILES (default "fruit21 rybka1 rybka232 quince"), OTHERS (default toga2;
#              empty for the profiles alone), CONCURRENCY.
set -euo pipefail

GAMES="${1:-100}"
TC="${2:-10+0.1}"
source "$(dirname "${BASH_SOURCE[0]}")/match_common.sh"
PGN_OUT="${PGN_OUT:-$BUILD/lineage.pgn}"
PROFILES="${PROFILES:-fruit21 rybka1 rybka232 quince}"
OTHERS="${OTHERS-toga2}"
SEED="${SEED:-1}"
ensure_built always

args=(-tournament round-robin -games "$GAMES" -concurrency "$CONCURRENCY" -ratinginterval 0
      -openings file="$OPENINGS" format=epd order=random seed="$SEED")
for p in $PROFILES; do
    args+=(-engine cmd="$QUINCE_BIN" name="$p" option.EvalProfile="$p" option.Threads=1)
done
ensure_peers $OTHERS
for engine in $OTHERS; do add_peer "$engine"; done
args+=(-each tc="$TC" option.Hash=16 option.Ponder=false timemargin=50 "${ADJUDICATION[@]}" -pgnout "$PGN_OUT")

LOG="$BUILD/lineage.log"
echo "quince-match ${args[*]}" >"$LOG"
"$BUILD/quince-match" "${args[@]}" | tee -a "$LOG" | grep --line-buffered -E '^\[|^Warning|^Error|^Incidents' >&2
echo
engines=($PROFILES $OTHERS)
python3 "$(dirname "${BASH_SOURCE[0]}")/lineage.py" --anchor "${engines[0]}" --match "$BUILD/quince-match" "$PGN_OUT"
