#!/usr/bin/env bash
# What each search feature is worth: for every named feature, a match of Quince (everything on) against
# Quince with that feature switched off (UCI SearchDisable), stopped by SPRT or after MAX_GAMES games.
# A trial rule (a rule off by default, src/search/features.h) is measured the other way round: Quince with
# it switched on (UCI SearchEnable) against Quince as it is.
# Positive Elo = the feature gains. One line per feature is appended to build/feature_sprt.md.
# Usage: strength/feature_sprt.sh [max games, default 400] [tc, default 2+0.02] [feature or trial rule ...]
#        (no names: every feature that SearchDisable knows; trial rules only when named)
# Environment: QUINCE_BIN (default build/quince), OPENINGS (EPD, default $QUINCE_DATA_DIR/8moves_v3.epd,
#              see docs/data.md),
#              CONCURRENCY (default 2), SPRT (default "elo0=0 elo1=10 alpha=0.05 beta=0.05"), SEED (default 7).
set -euo pipefail

MAX_GAMES="${1:-400}"
TC="${2:-2+0.02}"
shift $(( $# >= 2 ? 2 : $# ))
source "$(dirname "${BASH_SOURCE[0]}")/match_common.sh"
SPRT="${SPRT:-elo0=0 elo1=10 alpha=0.05 beta=0.05}"
SEED="${SEED:-7}"
RESULTS="$BUILD/feature_sprt.md"
ensure_built

features=("$@")
# The names come from the engine's own error messages, so these lists never go stale.
trials=$(printf 'setoption name SearchEnable value ?\nquit\n' | "$QUINCE_BIN" | sed -n 's/.*(known: \(.*\)).*/\1/p')
if (( ${#features[@]} == 0 )); then
    known=$(printf 'setoption name SearchDisable value ?\nquit\n' | "$QUINCE_BIN" | sed -n 's/.*(known: \(.*\)).*/\1/p')
    IFS=',' read -r -a features <<<"$known"
fi

if [[ ! -f "$RESULTS" ]]; then
    printf '%s\n' "| feature | tc | games | W-D-L (feature on) | Elo of the feature | SPRT |" "|---|---|---|---|---|---|" >"$RESULTS"
fi

for feature in "${features[@]}"; do
    log="$BUILD/feature_sprt_${feature}.log"
    if [[ ",$trials," == *",$feature,"* ]]; then
        engines=(-engine cmd="$QUINCE_BIN" name="with-$feature" option.SearchEnable="$feature"
                 -engine cmd="$QUINCE_BIN" name=base)
    else
        engines=(-engine cmd="$QUINCE_BIN" name=all-on
                 -engine cmd="$QUINCE_BIN" name="no-$feature" option.SearchDisable="$feature")
    fi
    # shellcheck disable=SC2086
    "$BUILD/quince-match" -games "$MAX_GAMES" -concurrency "$CONCURRENCY" -ratinginterval 0 \
        -openings file="$OPENINGS" format=epd order=random seed="$SEED" \
        "${engines[@]}" \
        -each tc="$TC" option.Hash=16 option.Threads=1 timemargin=50 \
        "${ADJUDICATION[@]}" \
        -sprt $SPRT >"$log"
    summary=$(grep '^Summary:' "$log" | head -1)
    sprt=$(grep '^SPRT (' "$log" | head -1 | sed 's/^SPRT[^:]*: *//')
    games=$(sed -n 's/.*games=\([0-9]*\).*/\1/p' <<<"$summary")
    w=$(sed -n 's/.* W=\([0-9]*\).*/\1/p' <<<"$summary")
    d=$(sed -n 's/.* D=\([0-9]*\).*/\1/p' <<<"$summary")
    l=$(sed -n 's/.* L=\([0-9]*\).*/\1/p' <<<"$summary")
    elo=$(sed -n 's/.* elo=\([^ ]*\).*/\1/p' <<<"$summary")
    err=$(sed -n 's/.* error=\([^ ]*\).*/\1/p' <<<"$summary")
    line="| $feature | $TC | $games | $w-$d-$l | $elo ± $err | $sprt |"
    echo "$line" | tee -a "$RESULTS"
done
