#!/usr/bin/env bash
# Cross-compiles the engine for 64-bit ARM Linux (AArch64), build-arm64/quince, with Debian's aarch64 cross
# tool chain, and runs what the build runs (the bench signature of `quince --version`) under qemu-user
# (`qemu-aarch64 -L /usr/aarch64-linux-gnu`, the cross tool chain's C library). The network's SIMD code is
# NEON's (every AArch64 CPU has it: no CPU variant to choose). Built without tablebases (no Fathom for ARM)
# and without the training shards' codecs (QUINCE_DATA_CODECS=OFF: no aarch64 liblzma, libzstd or nettle is
# installed here; the build is for the engine and its network code).
# usage: scripts/build-arm64.sh [--tests]
#   --tests  also builds the network's tests (tests/eval/nnue_test.cpp: NEON = the scalar code, incremental =
#            refresh, the net file) and runs them under qemu, and checks that the ARM engine's bench equals
#            QUINCE_ARM64_BENCH (default: the bench of build/quince, which must exist)
# QUINCE_ARM64_BUILD=DIR builds elsewhere (default build-arm64). Installs `scripts/deps.sh arm64` first.
set -euo pipefail
cd "$(dirname "$0")/.."
tests=0
case ${1:-} in
  "") ;;
  --tests) tests=1 ;;
  *) echo "usage: scripts/build-arm64.sh [--tests]" >&2; exit 2 ;;
esac
scripts/deps.sh arm64 >&2
out=${QUINCE_ARM64_BUILD:-build-arm64}
mkdir -p "$out"
out=$(cd "$out" && pwd)
jobs=$(nproc)
sysroot=/usr/aarch64-linux-gnu
qemu=(qemu-aarch64 -L "$sysroot")

with_tests=OFF
[ $tests = 0 ] || with_tests=ON
# No toolchain file: the compilers, the target and the emulator on the command line. The emulator runs the
# build-time bench (CMakeLists.txt, QUINCE_BENCH_SIGNATURE) and any test program.
# shellcheck disable=SC2086  # QUINCE_ARM64_CMAKE_ARGS is a list of arguments
cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=Release -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 \
      -DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc -DCMAKE_CXX_COMPILER=aarch64-linux-gnu-g++ \
      -DCMAKE_FIND_ROOT_PATH="$sysroot" -DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=NEVER \
      -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY \
      "-DCMAKE_CROSSCOMPILING_EMULATOR=$(IFS=';'; echo "${qemu[*]}")" \
      -DQUINCE_SYZYGY=OFF -DQUINCE_DATA_CODECS=OFF -DQUINCE_BUILD_TESTS=$with_tests \
      -DQUINCE_GTEST_SOURCE_DIR=/usr/src/googletest ${QUINCE_ARM64_CMAKE_ARGS:-} >/dev/null
targets=(quince)
[ $tests = 0 ] || targets+=(quince_nnue_tests)
cmake --build "$out" -j"$jobs" --target "${targets[@]}" >&2
if [ $tests = 1 ]; then
  echo "=== arm64: the network's tests under qemu ===" >&2
  "${qemu[@]}" "$out/tests/quince_nnue_tests" >&2
  expected=${QUINCE_ARM64_BENCH:-}
  if [ -z "$expected" ]; then
    [ -x build/quince ] || { echo "build-arm64.sh --tests: no build/quince to compare the bench with" >&2; exit 1; }
    expected=$(build/quince bench 2>&1 | sed -n 's/^Nodes searched *: *//p')
  fi
  got=$("${qemu[@]}" "$out/quince" bench 2>&1 | sed -n 's/^Nodes searched *: *//p')
  echo "=== arm64: bench $got under qemu, $expected expected ===" >&2
  if [ -z "$got" ] || [ "$got" != "$expected" ]; then
    echo "build-arm64.sh: the ARM engine's bench differs" >&2
    exit 1
  fi
fi
echo "$out/quince"
