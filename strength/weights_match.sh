#!/usr/bin/env bash
# Strength of a weights file against a built-in profile, the same binary on both sides (EvalFile against
# EvalProfile): at a fixed node budget (timing-free, so it may share the cores with other work) or at a clock.
# Usage: strength/weights_match.sh WEIGHTS [games, default 200] [limit: nodes=N or tc=10+0.1, default nodes=20000]
# Environment: BASE_PROFILE (default rybka1) or BASE_FILE (a second weights file: EvalFile against EvalFile,
#              e.g. a term's fit against the refit without it), QUINCE_BIN, OPENINGS (EPD file; use more than one set),
#              SEED (opening order, default 1), CONCURRENCY (default 2, at most 2), PGN_OUT.
# The tuning results in docs/results.md were measured this way (nodes=20000, 200 games per opening set).
set -euo pipefail

WEIGHTS="${1:?usage: strength/weights_match.sh WEIGHTS [games] [nodes=N|tc=T]}"
GAMES="${2:-200}"
LIMIT="${3:-nodes=20000}"
source "$(dirname "${BASH_SOURCE[0]}")/match_common.sh"
BASE_PROFILE="${BASE_PROFILE:-rybka1}"
PGN_OUT="${PGN_OUT:-$BUILD/weights_match.pgn}"
ensure_built
[[ -f "$WEIGHTS" ]] || { echo "weights file $WEIGHTS not found" >&2; exit 1; }
if [[ -n "${BASE_FILE:-}" ]]; then
    [[ -f "$BASE_FILE" ]] || { echo "weights file $BASE_FILE not found" >&2; exit 1; }
    base_engine=(name=base "option.EvalFile=$(realpath "$BASE_FILE")")
else
    base_engine=(name="$BASE_PROFILE" "option.EvalProfile=$BASE_PROFILE")
fi
case "$LIMIT" in
    nodes=*) limit_args=(tc=inf "$LIMIT") ;;
    tc=*) limit_args=("$LIMIT" timemargin=50) ;;
    *) echo "limit must be nodes=N or tc=T, got '$LIMIT'" >&2; exit 2 ;;
esac

exec "$BUILD/quince-match" -games "$GAMES" -concurrency "$CONCURRENCY" \
    -openings file="$OPENINGS" format=epd order=random seed="${SEED:-1}" \
    -engine cmd="$QUINCE_BIN" name=weights "option.EvalFile=$(realpath "$WEIGHTS")" \
    -engine cmd="$QUINCE_BIN" "${base_engine[@]}" \
    -each "${limit_args[@]}" option.Hash=16 option.Threads=1 option.Ponder=false \
    "${ADJUDICATION[@]}" -ratinginterval 50 -pgnout "$PGN_OUT"
