#!/usr/bin/env bash
# Long self-play stress: Quince against itself at a fast time control with several threads, in
# resumable chunks, counting what must never happen: crashes, illegal moves, losses on time, missing
# bestmoves (quince-match's incident counters; a game the engine lost by crashing is counted there too).
# Each chunk k plays CHUNK games with opening seed k into OUT_DIR/chunk-k.pgn (log chunk-k.log); a chunk
# whose log ends with its incident lines is complete and is skipped, so rerunning the same command after
# an interruption continues where it stopped. The summary adds the incidents of every complete chunk.
# Usage: strength/stress.sh [total games, default 10000] [tc, default 1+0.01]
# Environment: THREADS (default 2), CHUNK (games per chunk, default 200), OUT_DIR (default
#              build/stress-t$THREADS), QUINCE_BIN, OPENINGS (default 8moves_v3), CONCURRENCY (default 1: two
#              threads per engine already fill two cores), REPORT_ONLY=1 (only the summary), FIRST_CHUNK
#              (default 1: where a run whose earlier chunks were played elsewhere, their logs gone, goes on;
#              the summary then counts only the chunks in OUT_DIR, to be added to the earlier counts).
set -euo pipefail

TOTAL="${1:-10000}"
TC="${2:-1+0.01}"
THREADS="${THREADS:-2}"
CONCURRENCY="${CONCURRENCY:-1}"
source "$(dirname "${BASH_SOURCE[0]}")/match_common.sh"
CHUNK="${CHUNK:-200}"
OUT_DIR="${OUT_DIR:-$BUILD/stress-t$THREADS}"
mkdir -p "$OUT_DIR"
[[ "${REPORT_ONLY:-}" == 1 ]] || ensure_built always

complete() { [[ -f "$1" ]] && tail -n 2 "$1" | grep -q '^Incidents'; }

chunks=$(( (TOTAL + CHUNK - 1) / CHUNK ))
FIRST_CHUNK="${FIRST_CHUNK:-1}"
[[ $FIRST_CHUNK =~ ^[1-9][0-9]*$ ]] && (( FIRST_CHUNK <= chunks )) ||
    { echo "stress.sh: FIRST_CHUNK must be 1..$chunks" >&2; exit 2; }
if [[ "${REPORT_ONLY:-}" != 1 ]]; then
    for (( k = FIRST_CHUNK; k <= chunks; ++k )); do
        log="$OUT_DIR/chunk-$k.log"
        if complete "$log"; then continue; fi
        games=$(( k < chunks ? CHUNK : TOTAL - (chunks - 1) * CHUNK ))
        echo "chunk $k/$chunks: $games games, Threads=$THREADS, $TC" >&2
        rm -f "$OUT_DIR/chunk-$k.pgn"
        # -games counts games per pairing; one pairing, so games = the chunk.
        "$BUILD/quince-match" -games "$games" -concurrency "$CONCURRENCY" -ratinginterval 0 \
            -openings file="$OPENINGS" format=epd order=random seed="$k" \
            -engine cmd="$QUINCE_BIN" name=a -engine cmd="$QUINCE_BIN" name=b \
            -each tc="$TC" option.Hash=16 option.Threads="$THREADS" timemargin=50 "${ADJUDICATION[@]}" \
            -pgnout "$OUT_DIR/chunk-$k.pgn" >"$log.tmp" 2>&1 || true
        mv "$log.tmp" "$log"
        complete "$log" || { echo "chunk $k did not finish, see $log" >&2; exit 1; }
    done
fi

# Each complete log has "Summary: a vs b games=N …" and per engine "Incidents a: time forfeits 0, crashes 0, …".
logs=()
for (( k = 1; k <= chunks; ++k )); do
    if complete "$OUT_DIR/chunk-$k.log"; then logs+=("$OUT_DIR/chunk-$k.log"); fi
done
# The sum of the numbers that follow KEY on the lines of the complete logs that match LINE.
total() {
    cat "${logs[@]}" /dev/null | awk -v line="$1" -v key="$2" '$0 ~ line {
        s = $0; while ((i = index(s, key)) > 0) { s = substr(s, i + length(key)); n += s + 0 } } END { print n + 0 }'
}
echo "Threads=$THREADS tc=$TC: ${#logs[@]} of $chunks chunks complete, $(total '^Summary: ' 'games=') games ($OUT_DIR)"
summary=()
for kind in "time forfeits" "crashes" "illegal moves" "missing bestmove" "late moves inside the margin"; do
    summary+=("$kind $(total '^Incidents ' "$kind")")
done
(IFS=,; echo "incidents (both engines): ${summary[*]}" | sed 's/,/, /g')
