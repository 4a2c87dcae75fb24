# Shared by the match scripts in strength/ (sourced, not run): paths, defaults and the adjudication rules
# every project measurement uses, so that figures from different scripts are comparable.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$ROOT/build"
QUINCE_BIN="${QUINCE_BIN:-$BUILD/quince}"
# Data files (openings, suites) are not in git: docs/data.md lists them and where to get them.
# QUINCE_DATA_DIR is their folder (default: data/ in the checkout, which git ignores).
QUINCE_DATA_DIR="${QUINCE_DATA_DIR:-$ROOT/data}"
OPENINGS="${OPENINGS:-$QUINCE_DATA_DIR/8moves_v3.epd}"
CONCURRENCY="${CONCURRENCY:-2}"
(( CONCURRENCY > 2 )) && CONCURRENCY=2  # two cores shared by everyone
# Resign when both engines agree on ≥ 10 pawns for 3 moves; draw after move 40 when both stay within
# 0.10 for 8 moves.
ADJUDICATION=(-resign movecount=3 score=1000 twosided=true -draw movenumber=40 movecount=8 score=10)

# Builds quince and quince-match when missing (or always, with "always").
ensure_built() {
    if [[ "${1:-}" == always || ! -x "$BUILD/quince-match" || ! -x "$QUINCE_BIN" ]]; then
        cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
        cmake --build "$BUILD" -j2 --target quince quince-match >/dev/null
    fi
    [[ -f "$OPENINGS" ]] || { echo "opening file $OPENINGS not found (set QUINCE_DATA_DIR or OPENINGS; docs/data.md says where to get it)" >&2; exit 1; }
}

# Debian's peer engines (package name = binary name in /usr/games), installed with apt when missing.
ensure_peers() {
    local engine
    for engine in "$@"; do
        [[ -x "/usr/games/$engine" ]] && continue
        echo "installing $engine ..." >&2
        if [[ $(id -u) -eq 0 ]]; then apt-get install -y "$engine" >/dev/null; else sudo apt-get install -y "$engine" >/dev/null; fi
    done
}

# Appends to the caller's array `args` the quince-match engine for peer ENGINE named NAME (default ENGINE),
# with one thread and no own book: their defaults differ (toga2: Hash 128 + own book; glaurung: 2 threads,
# book, ponder).
add_peer() {
    local engine=$1 name=${2:-$1}
    case "$engine" in
        toga2)    args+=(-engine cmd=/usr/games/toga2 name="$name" "option.Number of Threads=1" option.OwnBook=false) ;;
        glaurung) args+=(-engine cmd=/usr/games/glaurung name="$name" option.Threads=1 option.OwnBook=false) ;;
        ethereal-chess | stockfish) args+=(-engine cmd="/usr/games/$engine" name="$name" option.Threads=1) ;;
        *)        args+=(-engine cmd="/usr/games/$engine" name="$name") ;;
    esac
}
