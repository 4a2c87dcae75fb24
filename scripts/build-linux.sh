#!/usr/bin/env bash
# Builds the self-contained Linux release engine, build-linux/quince: Fathom (Syzygy tablebases) linked in
# statically from Debian's source package (scripts/fathom.sh), and GCC's C++ and support libraries linked
# in statically too (-static-libstdc++ -static-libgcc), so the binary needs only the C library (glibc:
# libc, libm and the dynamic loader) and runs on a machine without libfathom or this compiler's libstdc++.
# When Fathom's source cannot be fetched or compiled the script stops: a release engine has tablebases.
# usage: scripts/build-linux.sh [x86-64|popcnt|bmi2]   (CPU variant, default x86-64: runs on any 64-bit CPU)
# QUINCE_LINUX_BUILD=DIR builds elsewhere (default build-linux); QUINCE_LINUX_CMAKE_ARGS adds CMake
# arguments (e.g. -DCMAKE_CXX_COMPILER_LAUNCHER=ccache). Prints the binary's path.
# Installs what it needs first: `scripts/deps.sh release` (dpkg-dev for `apt-get source fathom`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh release >&2
# shellcheck source=scripts/release-build.sh
source scripts/release-build.sh
release_build_args "${QUINCE_LINUX_BUILD:-build-linux}" "${1:-}"  # sets $variant and $out

# -fPIC as Debian's rules compile it (the engine is a position-independent executable).
if ! CFLAGS=-fPIC scripts/fathom.sh "$out/fathom"; then
  echo "Linux release build: Fathom could not be built from Debian's source (see above); stopped" >&2
  exit 1
fi
# shellcheck disable=SC2086  # QUINCE_LINUX_CMAKE_ARGS is a list of arguments
cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=Release -DQUINCE_CPU="$variant" -DQUINCE_BUILD_TESTS=OFF \
      -DQUINCE_SYZYGY=ON -DFATHOM_INCLUDE_DIR="$out/fathom/include" -DFATHOM_LIBRARY="$out/fathom/libfathom.a" \
      "-DCMAKE_EXE_LINKER_FLAGS=-static-libstdc++ -static-libgcc" ${QUINCE_LINUX_CMAKE_ARGS:-} >/dev/null
cmake --build "$out" -j"$(nproc)" --target quince >&2
echo "$out/quince"
