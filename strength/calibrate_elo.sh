#!/usr/bin/env bash
# Calibration of UCI_Elo: each Skill Level plays a gauntlet against fixed opponents (Debian's toga2, glaurung,
# ethereal-chess; Hash 16, one thread, no books, no ponder; 8moves_v3 openings, both colours; adjudication
# of strength/match_common.sh) and gets a rating from the opponents' ratings (ANCHORS) and its score against
# each. The resulting level -> Elo rows are SKILL_CALIBRATION in src/search/skill.h (UCI_Elo picks the level
# of nearest rating); the run behind them is in docs/results.md ("Strength limit").
# Timed games: run it only on a machine with nothing else running.
# Usage: strength/calibrate_elo.sh [games per opponent and level, default 100] [tc, default 10+0.1] [levels...]
# Environment: ANCHORS (ratings of the opponents on one list, e.g. CCRL 40/15:
#              "toga2=R1 glaurung=R2 ethereal-chess=R3"; required). `stockfish@E` is Debian's Stockfish 15.1
#              limited to UCI_Elo E (1350..2850, its own scale: calibrated by its authors at 60+0.6 against
#              CCRL 40/4), rated E unless `=R` follows; such anchors can be matched to each level's strength
#              (one run per level, APPEND=1), where the fixed peers are far too strong for the low levels.
#              QUINCE_BIN, OPENINGS, CONCURRENCY (default 2), OUT (default build/calibrate_elo.md),
#              APPEND=1 (add rows to OUT instead of starting it anew).
set -euo pipefail

GAMES="${1:-100}"
TC="${2:-10+0.1}"
shift $(( $# > 2 ? 2 : $# ))
LEVELS=("$@")
(( ${#LEVELS[@]} )) || LEVELS=(0 3 6 9 12 15 18 20)
source "$(dirname "${BASH_SOURCE[0]}")/match_common.sh"
OUT="${OUT:-$BUILD/calibrate_elo.md}"
if [[ -z "${ANCHORS:-}" ]]; then
    echo "set ANCHORS to the opponents' ratings, e.g. ANCHORS='toga2=R1 glaurung=R2 ethereal-chess=R3'" >&2
    exit 2
fi
ensure_built always

OPPONENTS=()   # names as in ANCHORS (stockfish@E included)
RATINGS=""     # "name=rating ..." for the summary below
for a in $ANCHORS; do
    name=${a%%=*}
    rating=${a#*=}
    if [[ $name == stockfish@* ]]; then
        elo=${name#stockfish@}
        [[ $elo =~ ^[0-9]+$ ]] && (( elo >= 1350 && elo <= 2850 )) ||
            { echo "calibrate_elo.sh: $name: UCI_Elo must be 1350..2850" >&2; exit 2; }
        [[ $a == *=* ]] || rating=$elo
    fi
    [[ $rating =~ ^-?[0-9]+$ ]] || { echo "calibrate_elo.sh: $a: no rating (NAME=RATING)" >&2; exit 2; }
    OPPONENTS+=("$name")
    RATINGS+="$name=$rating "
done
PEERS=()
for name in "${OPPONENTS[@]}"; do PEERS+=("${name%%@*}"); done
ensure_peers "${PEERS[@]}"

if [[ "${APPEND:-}" != 1 || ! -s "$OUT" ]]; then
    {
        echo "| Skill Level | opponent | games | W-D-L | Elo difference (95%) | rating |"
        echo "| --- | --- | --- | --- | --- | --- |"
    } >"$OUT"
fi
for level in "${LEVELS[@]}"; do
    args=(-tournament gauntlet -games "$GAMES" -concurrency "$CONCURRENCY" -ratinginterval 0
          -openings file="$OPENINGS" format=epd order=random seed=1
          -engine cmd="$QUINCE_BIN" name="quince-L$level" option.Threads=1 "option.Skill Level=$level")
    for name in "${OPPONENTS[@]}"; do
        if [[ $name == stockfish@* ]]; then
            add_peer stockfish "$name"
            args+=(option.UCI_LimitStrength=true "option.UCI_Elo=${name#stockfish@}")
        else
            add_peer "$name"
        fi
    done
    args+=(-each tc="$TC" option.Hash=16 option.Ponder=false timemargin=50 "${ADJUDICATION[@]}"
           -pgnout "$BUILD/calibrate_elo_L$level.pgn")
    LOG="$BUILD/calibrate_elo_L$level.log"
    echo "quince-match ${args[*]}" >"$LOG"
    "$BUILD/quince-match" "${args[@]}" >>"$LOG" 2>&1 || { echo "quince-match failed, see $LOG" >&2; exit 1; }
    # "Summary: quince-LN vs OPPONENT games=N W=w D=d L=l elo=e error=x": rating = anchor + e.
    awk -v level="$level" -v anchors="$RATINGS" '
        BEGIN { n = split(anchors, a, " "); for (i = 1; i <= n; ++i) { split(a[i], kv, "="); r[kv[1]] = kv[2] } }
        /^Summary: / {
            for (i = 5; i <= NF; ++i) { split($i, kv, "="); v[kv[1]] = kv[2] }
            rating = (v["elo"] ~ /^[-+]?[0-9.]+$/) ? sprintf("%d", r[$4] + v["elo"]) : "n/a"
            printf "| %s | %s | %s | %s-%s-%s | %s ± %s | %s |\n", level, $4, v["games"], v["W"], v["D"], v["L"], v["elo"], v["error"], rating
        }' "$LOG" >>"$OUT"
    echo "level $level done" >&2
done
cat "$OUT"
