#!/usr/bin/env bash
# SPRT of one build against another (strength/README.md, "Measuring a change"): NEW against BASE,
# each opening with both colours, Hash 16, one thread, project adjudication, stopped by the SPRT or after
# MAX_GAMES games. Copy the two binaries out of their build folders first, so that a rebuild during the
# match does not change them, and keep the cores quiet: this is a timed match.
# Usage: strength/sprt.sh NEW BASE [max games, default 2000] [tc, default 2+0.02]
# Environment: OPENINGS (EPD, default $QUINCE_DATA_DIR/uho_8mvs_+90_+99.epd, see docs/data.md),
#              SEED (opening order, default 1), SPRT (default "elo0=0 elo1=10 alpha=0.05 beta=0.05";
#              "off" plays all MAX_GAMES games, a match of fixed length),
#              PGN_OUT (default build/sprt.pgn), CONCURRENCY (default 2), NEW_OPTIONS / BASE_OPTIONS
#              (extra engine settings, e.g. "option.EvalFile=w.txt").
# An interrupted run is continued with another SEED into another PGN_OUT; `quince-match -rescore a.pgn
# b.pgn -sprt elo0=0 elo1=10` pools the parts and decides the SPRT on all their games (each part's own run
# only sees its games).
set -euo pipefail

if (( $# < 2 )); then
    awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" >&2  # the header above
    exit 2
fi
NEW="$1"
BASE="$2"
MAX_GAMES="${3:-2000}"
TC="${4:-2+0.02}"
USER_OPENINGS="${OPENINGS:-}"
source "$(dirname "${BASH_SOURCE[0]}")/match_common.sh"
OPENINGS="${USER_OPENINGS:-$QUINCE_DATA_DIR/uho_8mvs_+90_+99.epd}"
SPRT="${SPRT:-elo0=0 elo1=10 alpha=0.05 beta=0.05}"
SPRT_ARGS=()
[[ "$SPRT" == off ]] || read -r -a SPRT_ARGS <<<"-sprt $SPRT"  # its words are quince-match arguments
SEED="${SEED:-1}"
PGN_OUT="${PGN_OUT:-$BUILD/sprt.pgn}"
for bin in "$NEW" "$BASE"; do
    [[ -x "$bin" ]] || { echo "sprt.sh: $bin is not an executable" >&2; exit 2; }
done
ensure_built

echo "new $("$NEW" bench 2>&1 | grep -m1 'Nodes searched') | base $("$BASE" bench 2>&1 | grep -m1 'Nodes searched')" >&2
# shellcheck disable=SC2086
exec "$BUILD/quince-match" -games "$MAX_GAMES" -concurrency "$CONCURRENCY" -ratinginterval 20 \
    -openings file="$OPENINGS" format=epd order=random seed="$SEED" \
    -engine cmd="$NEW" name=new ${NEW_OPTIONS:-} \
    -engine cmd="$BASE" name=base ${BASE_OPTIONS:-} \
    -each tc="$TC" option.Hash=16 option.Threads=1 timemargin=50 \
    "${ADJUDICATION[@]}" -pgnout "$PGN_OUT" "${SPRT_ARGS[@]}"
