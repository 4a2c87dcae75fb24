#!/usr/bin/env bash
# Builds the analysis board page in web/: the WebAssembly module web/quince.js with Debian's emscripten,
# and web/vendor/ (the board and rules packages, copied from web/node_modules, which `npm ci` fills from
# web/package-lock.json). `scripts/deps.sh web`, which this script runs, installs both toolchains.
# Then serve web/ over http (the page uses modules and workers): `python3 -m http.server -d web 8000`.
# Environment: QUINCE_WEB_BUILD (build folder, default build-web).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${QUINCE_WEB_BUILD:-$ROOT/build-web}"
"$ROOT/scripts/deps.sh" web >&2
# Debian's emscripten runs its JavaScript optimizer with the Node.js modules Debian packages; a Node.js
# installed from elsewhere does not look there by itself.
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
emcmake cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j2 --target quince_web
cp "$BUILD/tools/web/quince.js" "$ROOT/web/quince.js"
mkdir -p "$ROOT/web/vendor"
cp "$ROOT/web/node_modules/chessground/dist/chessground.min.js" \
   "$ROOT/web/node_modules/chessground/assets/chessground.base.css" \
   "$ROOT/web/node_modules/chessground/assets/chessground.brown.css" \
   "$ROOT/web/node_modules/chessground/assets/chessground.cburnett.css" \
   "$ROOT/web/node_modules/chess.js/dist/esm/chess.js" "$ROOT/web/vendor/"
echo "web/quince.js: $(stat -c %s "$ROOT/web/quince.js") bytes; serve web/ over http: python3 -m http.server -d web 8000"
