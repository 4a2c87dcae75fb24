#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, when they are missing (`web`: also those of
# the WebAssembly page; `clients`: also xboard, Xvfb, ImageMagick and the npm packages of tests/clients).
set -euo pipefail
need=()
command -v cmake >/dev/null || need+=(cmake)
command -v g++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)
[ -f /usr/include/gtest/gtest.h ] || need+=(libgtest-dev)
command -v xz >/dev/null || need+=(xz-utils)  # quince-match reads .xz opening books (tested)
command -v python3 >/dev/null || need+=(python3)  # independent evaluation references run as tests
[ -f /usr/include/tbprobe.h ] || need+=(libfathom-dev)  # Syzygy tablebase prober (Fathom)
command -v fathom >/dev/null || [ -x /usr/games/fathom ] || need+=(fathom)  # tablebase tests' oracle
command -v polyglot >/dev/null || [ -x /usr/games/polyglot ] || need+=(polyglot)  # builds the opening-book test's book
command -v rsvg-convert >/dev/null || need+=(librsvg2-bin)  # renders the evaluation pictures (SVG) in a test
# Fuzzing (scripts/fuzz.sh, and the short fuzz runs of scripts/test.sh): clang with libFuzzer and the
# sanitizer runtimes, llvm-symbolizer for readable reports.
command -v clang++ >/dev/null || need+=(clang)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1 || need+=(libclang-rt-dev)
command -v llvm-symbolizer >/dev/null || need+=(llvm)
# The web page (scripts/web.sh, and its browser test in scripts/test.sh): `scripts/deps.sh web` adds
# emscripten (the WebAssembly build) and chromium (the headless browser of the test).
if [ "${1:-}" = web ]; then
  command -v emcmake >/dev/null || need+=(emscripten)
  command -v chromium >/dev/null || need+=(chromium)
  command -v npm >/dev/null || need+=(npm)  # the page's board and rules, the test's browser driver (web/package.json)
fi
# The real clients (tests/clients): xboard under a virtual X server with a screenshot, and node-uci (npm).
if [ "${1:-}" = clients ]; then
  command -v xboard >/dev/null || [ -x /usr/games/xboard ] || need+=(xboard)
  command -v Xvfb >/dev/null || need+=(xvfb)
  [ -x /usr/bin/import ] || need+=(imagemagick)
  command -v npm >/dev/null || need+=(npm)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "Installing: ${need[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi
web_dir="$(cd "$(dirname "$0")/.." && pwd)/web"
if [ "${1:-}" = web ] && ! (cd "$web_dir" && npm ls --depth=0 >/dev/null 2>&1); then
  (cd "$web_dir" && npm ci --no-audit --no-fund --loglevel=error)
fi
clients_dir="$(cd "$(dirname "$0")/.." && pwd)/tests/clients"
if [ "${1:-}" = clients ] && [ ! -d "$clients_dir/node_modules/node-uci" ]; then
  (cd "$clients_dir" && npm ci --no-audit --no-fund --loglevel=error)
fi
