#!/usr/bin/env bash
# Cross-compiles a static Windows engine, build-windows/quince.exe, with Debian's mingw-w64 (POSIX threads
# variant; cmake/mingw-w64.cmake). Tablebase support: Fathom's source is fetched with `apt-get source
# fathom` (Debian's source package, through a private apt list of the system's Debian sources as deb-src,
# kept under the build folder) and compiled with the same compiler as Debian builds it; when that fails,
# the engine is built without tablebases and the script says so. Nothing is copied into the repository.
# usage: scripts/build-windows.sh [x86-64|popcnt|bmi2]   (CPU variant, default x86-64: runs on any 64-bit CPU)
# QUINCE_WINDOWS_BUILD=DIR builds elsewhere (default build-windows); QUINCE_WINDOWS_SYZYGY=OFF skips Fathom.
# Needs `scripts/deps.sh windows` (mingw-w64, wine for the build-time bench signature, dpkg-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:-x86-64}
case $variant in x86-64|popcnt|bmi2) ;; *) echo "unknown CPU variant '$variant' (x86-64, popcnt, bmi2)" >&2; exit 2 ;; esac
out=${QUINCE_WINDOWS_BUILD:-build-windows}
mkdir -p "$out"
out=$(cd "$out" && pwd)
jobs=$(nproc)
export WINEDEBUG=${WINEDEBUG:--all} WINEPREFIX=${WINEPREFIX:-$out/wine}

# Fathom for Windows: Debian's source package, built as debian/rules builds libfathom (same defines).
fathom_dir=$out/fathom
fetch_fathom() {
  local apt=$out/apt
  mkdir -p "$apt/parts" "$apt/lists/partial" "$apt/cache" "$apt/src"
  : > "$apt/parts/debian-src.list"
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && sed -n 's/^deb \(.*debian.*\)$/deb-src \1/p' "$f" >> "$apt/parts/debian-src.list"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && grep -q debian "$f" && sed 's/^Types: deb$/Types: deb-src/' "$f" > "$apt/parts/$(basename "$f")"
  done
  local opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$apt/parts" -o "Dir::State::Lists=$apt/lists"
              -o "Dir::Cache=$apt/cache" -o APT::Sandbox::User=root)
  apt-get "${opts[@]}" update -qq && (cd "$apt/src" && rm -rf fathom-* && apt-get "${opts[@]}" -qq source fathom) || return 1
  local src
  src=$(ls -d "$apt"/src/fathom-*/ | head -1)/src
  mkdir -p "$fathom_dir/include"
  x86_64-w64-mingw32-gcc-posix -std=gnu99 -O2 -Wall -DTB_NO_THREADS -DTB_NO_HW_POP_COUNT -I"$src" \
      -c "$src/tbprobe.c" -o "$fathom_dir/tbprobe.o" &&
    x86_64-w64-mingw32-ar rcs "$fathom_dir/libfathom.a" "$fathom_dir/tbprobe.o" &&
    cp "$src/tbprobe.h" "$src/tbconfig.h" "$fathom_dir/include/"
}
syzygy_args=(-DQUINCE_SYZYGY=OFF)
if [ "${QUINCE_WINDOWS_SYZYGY:-ON}" != OFF ]; then
  if [ -f "$fathom_dir/libfathom.a" ] || fetch_fathom; then
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
