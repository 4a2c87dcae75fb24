#!/usr/bin/env bash
# Cross-compiles a static Windows engine, build-windows/quince.exe, with Debian's mingw-w64 (POSIX threads
# variant; cmake/mingw-w64.cmake). Tablebase support: Fathom from Debian's source package, fetched with
# `apt-get source fathom` and compiled with the cross compiler by scripts/fathom.sh (shared with the Linux
# release build, scripts/build-linux.sh); when that fails, the engine is built without tablebases and the
# script says so. Nothing is copied into the repository.
# usage: scripts/build-windows.sh [x86-64|popcnt|bmi2]   (CPU variant, default x86-64: runs on any 64-bit CPU)
# QUINCE_WINDOWS_BUILD=DIR builds elsewhere (default build-windows); QUINCE_WINDOWS_SYZYGY=OFF skips Fathom.
# Installs what it needs first: `scripts/deps.sh windows` (mingw-w64, wine for the build-time bench
# signature, dpkg-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh windows >&2
# shellcheck source=scripts/release-build.sh
source scripts/release-build.sh
release_build_args "${QUINCE_WINDOWS_BUILD:-build-windows}" "${1:-}"  # sets $variant and $out
jobs=$(nproc)
export WINEDEBUG=${WINEDEBUG:--all} WINEPREFIX=${WINEPREFIX:-$out/wine}

# Fathom for Windows: Debian's source package compiled with the cross compiler (scripts/fathom.sh).
fathom_dir=$out/fathom
syzygy_args=(-DQUINCE_SYZYGY=OFF)
if [ "${QUINCE_WINDOWS_SYZYGY:-ON}" != OFF ]; then
  if CC=x86_64-w64-mingw32-gcc-posix AR=x86_64-w64-mingw32-ar scripts/fathom.sh "$fathom_dir"; then
    syzygy_args=(-DQUINCE_SYZYGY=ON -DFATHOM_INCLUDE_DIR="$fathom_dir/include" -DFATHOM_LIBRARY="$fathom_dir/libfathom.a")
    echo "Windows build: Syzygy tablebases from Debian's fathom source package" >&2
  else
    echo "Windows build: WITHOUT Syzygy tablebases (could not fetch or build Debian's fathom source)" >&2
  fi
fi

cmake -S . -B "$out" -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake -DCMAKE_BUILD_TYPE=Release \
      -DQUINCE_CPU="$variant" -DQUINCE_BUILD_TESTS=OFF "${syzygy_args[@]}" ${QUINCE_WINDOWS_CMAKE_ARGS:-} >/dev/null
cmake --build "$out" -j"$jobs" --target quince >&2
echo "$out/quince.exe"
