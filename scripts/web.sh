#!/usr/bin/env bash
# Builds the WebAssembly module of the workbench page, web/quince.js, with Debian's emscripten
# (installed by `scripts/deps.sh web`, which this script runs). Then open web/index.html from disk, or serve web/ from any static host.
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
echo "web/quince.js: $(stat -c %s "$ROOT/web/quince.js") bytes; open web/index.html"
