#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang, ASan+UBSan) and runs each for a while, one at a time.
#
# usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 300 s; targets: fen uci epd pgn weights book shard nnue)
#   QUINCE_FUZZ_BUILD=dir   build directory (default build-fuzz; one configured with QUINCE_FUZZ=ON is kept as it is)
#   QUINCE_FUZZ_JOBS=n      compile jobs (default 2)
#   QUINCE_FUZZ_NICE=n      nice level of the fuzz processes (default 10)
#   QUINCE_FUZZ_BUILT=1     the targets are built already: no build step (scripts/test.sh runs two of these
#                           at once on its ASan+UBSan build, which two builds at once in one folder would break)
#
# New coverage goes to $QUINCE_FUZZ_BUILD/corpus/TARGET (fuzz/corpus/TARGET, the seeds, is only read).
# A crash, hang, sanitizer report or broken invariant leaves its input in $QUINCE_FUZZ_BUILD/artifacts/TARGET/
# and fails the script; copy the input to fuzz/regressions/TARGET/ (replayed by the test suite) with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test >&2  # clang with libFuzzer and the sanitizer runtimes, llvm-symbolizer
seconds=${1:-300}
shift || true
targets=${*:-"fen uci epd pgn weights book shard nnue"}
build=${QUINCE_FUZZ_BUILD:-build-fuzz}
jobs=${QUINCE_FUZZ_JOBS:-2}
nice_level=${QUINCE_FUZZ_NICE:-10}

if ! command -v clang++ >/dev/null; then
  echo "fuzz.sh: clang++ not found (scripts/deps.sh installs it)" >&2
  exit 2
fi
# A build folder configured with QUINCE_FUZZ=ON already (scripts/test.sh's ASan+UBSan build, which links the
# targets too) is built as it is configured.
if ! grep -qx 'QUINCE_FUZZ:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQUINCE_FUZZ=ON \
        -DQUINCE_BUILD_TESTS=OFF >/dev/null
fi
targets_to_build=$(for t in $targets; do printf 'fuzz_%s ' "$t"; done)
if [ "${QUINCE_FUZZ_BUILT:-0}" != 1 ]; then
  # shellcheck disable=SC2086
  nice -n "$nice_level" cmake --build "$build" -j"$jobs" --target $targets_to_build
fi

status=0
for t in $targets; do
  mkdir -p "$build/corpus/$t" "$build/artifacts/$t"
  dict=()
  [ -f "fuzz/dict/$t.dict" ] && dict=(-dict="fuzz/dict/$t.dict")
  echo "=== fuzz_$t: ${seconds}s ==="
  # -timeout: one input taking this long is a hang. -rss_limit_mb: the UCI target builds an engine per input.
  if ! ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
       nice -n "$nice_level" "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2560 \
       -print_final_stats=1 -artifact_prefix="$build/artifacts/$t/" "${dict[@]}" \
       "$build/corpus/$t" "fuzz/corpus/$t" 2>"$build/fuzz_$t.log"; then
    echo "fuzz_$t FAILED: see $build/fuzz_$t.log and $build/artifacts/$t/" >&2
    grep -E "ERROR|SUMMARY|runtime error|deadly signal|Test unit written" "$build/fuzz_$t.log" | head -20 >&2 || true
    status=1
  fi
  grep -E "^stat::number_of_executed_units|^stat::new_units_added|^stat::peak_rss_mb" "$build/fuzz_$t.log" || true
  echo "corpus: $(ls "$build/corpus/$t" | wc -l) inputs found, $(ls "fuzz/corpus/$t" | wc -l) seeds"
done
exit $status
