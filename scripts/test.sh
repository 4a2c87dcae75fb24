#!/usr/bin/env bash
# Builds and runs every test: the Release build (host CPU features; linked as the Linux release engine is,
# so its suite checks the whole archive), the clang AddressSanitizer+UndefinedBehaviorSanitizer build with
# LLVM's libc++ and without popcnt/BMI2 (what a macOS build on Apple silicon is: code only GCC/libstdc++
# accepts fails here, and the portable bit-scan and slider code runs the whole suite, the stateful UCI fuzzer
# for 45 s among its tests) with the libFuzzer targets linked in (then every libFuzzer target for 10 s, in two
# lanes), ThreadSanitizer (GCC, host CPU features: the library and the test files that start threads),
# the WebAssembly page (scripts/web.sh) driven in headless chromium (playwright-core) and checked against
# the Release build, the real clients (tests/clients: a game through Debian's polyglot and one in xboard
# under Xvfb with a screenshot, and npm's node-uci driving the engine), the Windows build
# (scripts/build-windows.sh) under wine against the Release build, packaged with it, and the ARM build
# (scripts/build-arm64.sh) under qemu: the network's tests, and its bench equal to the Release build's. Any
# failure fails the script.
# QUINCE_TEST_BUILDS="release portable asan tsan fuzz web clients libcxx package windows arm64" selects builds
# (default: all but `fuzz`, the libFuzzer targets in a build of their own, which `asan` runs; `package`,
# scripts/build-linux.sh's engine in its archive, which the Release suite and `windows` check; `portable`,
# the GCC build without popcnt/BMI2, and `libcxx`, clang + libc++ without Fathom and without the tools'
# tests, both of which `asan` covers).
set -euo pipefail
cd "$(dirname "$0")/.."
builds=${QUINCE_TEST_BUILDS:-"release asan tsan clients web windows arm64"}
has_build() { [[ " $builds " == *" $1 "* ]]; }
scripts/deps.sh test release
jobs=$(nproc)
# The cores this run may use: fewer than the machine has (a CPU affinity inherited from the shell) makes
# every step slower by as much, and the log should say so.
echo "=== $jobs of $(nproc --all) CPUs available ==="

# The later steps' packages (libc++, emscripten, chromium, xboard, wine, mingw-w64: minutes of downloading
# and unpacking on a fresh machine, little CPU) are installed in the background while the first step
# compiles: one apt at a time, libc++ first (the asan step), then the rest. A step waits for its part.
mkdir -p build-test-deps
rm -f build-test-deps/*.status
install_part() {  # part, groups...: installs the groups (none: nothing) and records the exit status
  local part=$1 s=0; shift
  [ $# -eq 0 ] || scripts/deps.sh "$@" >"build-test-deps/$part.log" 2>&1 || s=$?
  echo "$s" >"build-test-deps/$part.tmp" && mv "build-test-deps/$part.tmp" "build-test-deps/$part.status"
}
cxx_groups=() late_groups=()
if has_build asan || has_build libcxx; then cxx_groups=(libcxx); fi
for g in web clients windows arm64; do has_build "$g" && late_groups+=("$g"); done
( install_part libcxx "${cxx_groups[@]}"; install_part late "${late_groups[@]}" ) &
deps_pid=$!
trap 'kill $deps_pid 2>/dev/null || true' EXIT
wait_deps() {  # part (libcxx or late): waits for the background install of that part, fails with its log
  local part=$1 waited=$SECONDS
  while [ ! -f "build-test-deps/$part.status" ]; do
    if ! kill -0 "$deps_pid" 2>/dev/null && [ ! -f "build-test-deps/$part.status" ]; then
      echo "the background install of the $part steps' packages ended without a result"; exit 1
    fi
    sleep 1
  done
  echo "=== packages of the $part steps (installed in the background; waited $((SECONDS - waited)) s) ==="
  cat "build-test-deps/$part.log" 2>/dev/null || true
  if [ "$(cat "build-test-deps/$part.status")" != 0 ]; then
    echo "installing the packages of the $part steps failed (log above)"
    exit 1
  fi
}
asan_env="QUINCE_PERFT_BUDGET=300000 QUINCE_SANITIZED=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1"

# The Release build is linked as the release archive's engine is (Fathom from Debian's source and GCC's
# libraries linked in statically: scripts/build-linux.sh), so that its ctest runs the whole archive check
# (Package.linux_archive) and the `windows` step packages this engine instead of compiling another one.
release_args=(-DCMAKE_BUILD_TYPE=Release -DQUINCE_SYZYGY=ON -DFATHOM_INCLUDE_DIR="$PWD/build-test-release/fathom/include"
              -DFATHOM_LIBRARY="$PWD/build-test-release/fathom/libfathom.a"
              "-DCMAKE_EXE_LINKER_FLAGS=-static-libstdc++ -static-libgcc")
release_fathom() {
  scripts/deps.sh release
  CFLAGS=-fPIC scripts/fathom.sh build-test-release/fathom
}

run_build() {  # name, cmake args..., then env for ctest via CTEST_ENV (and BUILD_TARGETS: only these)
  local name=$1; shift
  echo "=== $name build ==="
  # Ninja where it is installed (scripts/deps.sh test installs it): it starts a target's compilations before
  # the targets it links against are linked, which keeps both cores busy where make waited for one link.
  # A folder keeps the generator it was made with.
  local generator=()
  if command -v ninja >/dev/null && [ ! -f "build-test-$name/CMakeCache.txt" ]; then generator=(-G Ninja); fi
  cmake -S . -B "build-test-$name" "${generator[@]}" "$@" >/dev/null
  # shellcheck disable=SC2086  # BUILD_TARGETS is a list of targets
  cmake --build "build-test-$name" -j"$jobs" ${BUILD_TARGETS:+--target $BUILD_TARGETS} 2>&1 |
    tee "build-test-$name/build.log"
  # The sources compile without a warning (-Wall -Wextra) in every build: GCC at -O3, clang, ThreadSanitizer.
  if grep -q "warning:" "build-test-$name/build.log"; then
    echo "the $name build printed compiler warnings:"; grep "warning:" "build-test-$name/build.log"; exit 1
  fi
  echo "=== $name tests ==="
  # ctest starts the tests that took longest in the folder's last run first. A fresh clone has no last
  # run, so the suite's long tests (tests/test_costs.txt, seconds under the sanitizers) stand in for one:
  # started last, a long test kept one core busy after the other had finished.
  mkdir -p "build-test-$name/Testing/Temporary"
  [ -f "build-test-$name/Testing/Temporary/CTestCostData.txt" ] ||
    cp tests/test_costs.txt "build-test-$name/Testing/Temporary/CTestCostData.txt"
  (cd "build-test-$name" && env $CTEST_ENV ctest --output-on-failure -j"$jobs" --timeout 1500)
}

run_step() {  # step: builds and tests it; any failure exits (the script, or the subshell it runs in)
  case $1 in
    release)  release_fathom
              CTEST_ENV="" run_build release "${release_args[@]}" ;;
    portable) CTEST_ENV="" run_build portable -DCMAKE_BUILD_TYPE=Release -DQUINCE_PORTABLE=ON ;;
    asan)     # clang with libc++ and the portable code (GoogleTest compiled from Debian's sources with
              # libc++), the libFuzzer targets linked in the same build: one instrumented compilation of the
              # library for the suite (its Fuzz.uci_stateful runs the stateful UCI fuzzer for 45 s, beside
              # the other tests) and the libFuzzer runs.
              wait_deps libcxx
              CTEST_ENV="$asan_env" run_build asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQUINCE_SANITIZE=address,undefined \
                  -DCMAKE_CXX_COMPILER=clang++ -DQUINCE_FUZZ=ON -DCMAKE_CXX_FLAGS=-stdlib=libc++ -DQUINCE_PORTABLE=ON \
                  -DQUINCE_GTEST_SOURCE_DIR=/usr/src/googletest -DQUINCE_STATEFUL_FUZZ_SECONDS=45
              # Every libFuzzer target (each has a seed corpus, fuzz/corpus/TARGET; the build above linked
              # them) for 10 s; one keeps about one core busy, so they run in two lanes, every other target in
              # each. Any failure fails the step once both lanes have ended; the second lane's output follows.
              lanes=("" "") i=0
              for d in fuzz/corpus/*/; do lanes[i % 2]+="$(basename "$d") "; i=$((i + 1)); done
              echo "=== asan: every libFuzzer target for 10 s, in two lanes ==="
              # shellcheck disable=SC2086  # the lanes are lists of targets
              QUINCE_FUZZ_BUILD=build-test-asan QUINCE_FUZZ_BUILT=1 QUINCE_FUZZ_NICE=0 \
                  scripts/fuzz.sh 10 ${lanes[1]} >build-test-asan/fuzz_lane2.out 2>&1 &
              lane2_pid=$!
              lane1_status=0 lane2_status=0
              # shellcheck disable=SC2086
              QUINCE_FUZZ_BUILD=build-test-asan QUINCE_FUZZ_BUILT=1 QUINCE_FUZZ_NICE=0 \
                  scripts/fuzz.sh 10 ${lanes[0]} || lane1_status=$?
              wait "$lane2_pid" || lane2_status=$?
              echo "=== asan: the second lane (exit status $lane2_status) ==="
              cat build-test-asan/fuzz_lane2.out
              if [ "$lane1_status" -ne 0 ] || [ "$lane2_status" -ne 0 ]; then
                echo "asan: fuzzing failed (first lane: exit status $lane1_status; second lane: $lane2_status)"
                exit 1
              fi ;;
    tsan)     # The library, the test files that start threads (tests/CMakeLists.txt) and the programs the
              # suite runs; not the benchmarks.
              CTEST_ENV="QUINCE_PERFT_BUDGET=100000 QUINCE_SANITIZED=1 TSAN_OPTIONS=halt_on_error=1" \
                BUILD_TARGETS="quince_tests quince quince_fake_engine quince-match quince-epd" \
                run_build tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQUINCE_SANITIZE=thread ;;
    fuzz)     if command -v clang++ >/dev/null; then
                echo "=== fuzz: every libFuzzer target for 10 s ==="
                QUINCE_FUZZ_BUILD=build-test-fuzz QUINCE_FUZZ_JOBS=$jobs QUINCE_FUZZ_NICE=0 scripts/fuzz.sh 10
              else
                echo "=== fuzz: skipped (no clang++; scripts/deps.sh installs it) ==="
              fi ;;
    web)      echo "=== web: the WebAssembly page in headless chromium ==="
              wait_deps late
              [ -x build-test-release/quince ] || { cmake -S . -B build-test-release -DCMAKE_BUILD_TYPE=Release >/dev/null
                                                   cmake --build build-test-release -j"$jobs" --target quince; }
              QUINCE_WEB_BUILD=build-test-web scripts/web.sh
              # The network's tests in WebAssembly (its SIMD128 code = the scalar code) and the tests of a build
              # without Fathom (the page's engine has none; no native step compiles them), run by Node.js.
              NODE_PATH="${NODE_PATH:-/usr/share/nodejs}" cmake --build build-test-web -j"$jobs" --target quince_wasm_tests
              node build-test-web/tests/web/quince_wasm_tests.js
              node --test tests/web/judge_test.mjs
              node tests/web/web_test.mjs build-test-release/quince build-test-web ;;
    clients)  echo "=== clients: polyglot, xboard (Xvfb) and node-uci against the Release build ==="
              wait_deps late
              [ -x build-test-release/quince ] || { cmake -S . -B build-test-release -DCMAKE_BUILD_TYPE=Release >/dev/null
                                                   cmake --build build-test-release -j"$jobs" --target quince; }
              mkdir -p build-test-clients
              # node-uci's checks and its game (one engine thinking at a time) beside polyglot's scripted
              # game (likewise); it ends before xboard's game, where both sides ponder, begins.
              node tests/clients/node_uci_test.js build-test-release/quince >build-test-clients/node_uci.out 2>&1 &
              node_pid=$!
              xboard_status=0 node_status=0
              python3 tests/clients/xboard_test.py build-test-release/quince build-test-clients || xboard_status=$?
              wait "$node_pid" || node_status=$?
              cat build-test-clients/node_uci.out
              if [ "$xboard_status" -ne 0 ] || [ "$node_status" -ne 0 ]; then
                echo "clients: failed (xboard/polyglot: exit status $xboard_status; node-uci: $node_status)"
                exit 1
              fi ;;
    libcxx)   wait_deps libcxx
              CTEST_ENV="" run_build libcxx -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
                  -DCMAKE_CXX_FLAGS=-stdlib=libc++ -DQUINCE_SYZYGY=OFF -DQUINCE_PORTABLE=ON \
                  -DQUINCE_GTEST_SOURCE_DIR=/usr/src/googletest -DQUINCE_TOOL_TESTS=OFF ;;
    package)  echo "=== package: the self-contained Linux release engine in its archive ==="
              scripts/deps.sh release
              QUINCE_LINUX_BUILD=build-test-package/linux scripts/build-linux.sh x86-64
              python3 tests/package/package_test.py build-test-package/dist build-test-package/linux/quince ;;
    windows)  echo "=== windows: build-windows/quince.exe under wine against the Linux build ==="
              wait_deps late
              # The Release build as the `release` step configures it (nothing to do after that step).
              release_fathom
              cmake -S . -B build-test-release "${release_args[@]}" >/dev/null
              cmake --build build-test-release -j"$jobs" --target quince quince-match
              scripts/build-windows.sh
              python3 tests/windows/windows_test.py build-test-release/quince build-windows/quince.exe \
                  build-test-release/quince-match build-test-windows
              python3 tests/package/package_test.py build-test-windows/package build-test-release/quince \
                  build-windows/quince.exe ;;
    arm64)    echo "=== arm64: build-arm64/quince (AArch64, NEON) under qemu against the Linux build ==="
              wait_deps late
              [ -x build-test-release/quince ] || { cmake -S . -B build-test-release -DCMAKE_BUILD_TYPE=Release >/dev/null
                                                   cmake --build build-test-release -j"$jobs" --target quince; }
              # The network's tests under qemu (NEON = the scalar code), and the same bench as x86's.
              QUINCE_ARM64_BENCH=$(build-test-release/quince bench 2>&1 | sed -n 's/^Nodes searched: *//p') \
                  scripts/build-arm64.sh --tests ;;
    *) echo "unknown build '$1'"; exit 2 ;;
  esac
}

# Each step's wall-clock seconds, printed together at the end (docs/results.md keeps the table).
step_times=()
# The windows step runs beside the web step when both are selected and windows comes later: the web step's
# module and the Windows build compile on both cores between their single-core parts (the page in chromium,
# the checks under wine), and neither measures time (the page's searches and the games under wine have node
# budgets). Its output follows once it has ended, at its place in the order.
windows_pid=""
trap 'kill $deps_pid 2>/dev/null || true; [ -z "$windows_pid" ] || kill "$windows_pid" 2>/dev/null || true' EXIT
for b in $builds; do
  step_start=$SECONDS
  if [ "$b" = windows ] && [ -n "$windows_pid" ]; then
    windows_status=0
    wait "$windows_pid" || windows_status=$?
    windows_pid=""
    cat build-test-windows.out
    [ "$windows_status" -eq 0 ] || { echo "windows: failed (exit status $windows_status, output above)"; exit 1; }
    step_times+=("windows $(cat build-test-windows.seconds) (beside web; waited $((SECONDS - step_start)) s after it)")
    continue
  fi
  after=" $builds "; after=${after#* "$b" }
  if [ "$b" = web ] && [[ " $after " == *" windows "* ]]; then
    wait_deps late
    ( windows_start=$SECONDS; run_step windows; echo $((SECONDS - windows_start)) >build-test-windows.seconds ) \
      >build-test-windows.out 2>&1 &
    windows_pid=$!
  fi
  run_step "$b"
  step_times+=("$b $((SECONDS - step_start))")
done
echo "=== seconds per step ==="
printf '%s\n' "${step_times[@]}"
echo "All test builds passed: $builds ($SECONDS s)"
