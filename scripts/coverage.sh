#!/usr/bin/env bash
# Line coverage of the library and the tools (src/, tools/) under the test suite, with clang's source-based
# coverage and llvm-cov, for one build configuration or for several together (what test.sh's steps cover
# between them: a line counts when any configuration ran it).
#   scripts/coverage.sh run NAME [CMAKE_ARGS...]   builds build-coverage-NAME/ (clang, -fprofile-instr-generate
#       -fcoverage-mapping, and the arguments), runs its suite (every process's profile merged into a small
#       pool per program), writes build-coverage-NAME/coverage.lcov and prints its line coverage
#   scripts/coverage.sh union NAME|FILE...         the union of earlier runs (a NAME, or an lcov file): lines run
#       in any of them, of the lines instrumented in any
#   scripts/coverage.sh export NAME                the lcov file and figures of an earlier run again
# Environment for the suite: CTEST_ENV (e.g. "QUINCE_SANITIZED=1"), CTEST_ARGS (e.g. "-R Uci").
set -euo pipefail
cd "$(dirname "$0")/.."

report() {  # lcov files...: per-file union, then the total
  python3 - "$@" <<'EOF'
import sys
instrumented, covered = {}, {}
for path in sys.argv[1:]:
    name = None
    with open(path) as f:
        for line in f:
            if line.startswith('SF:'):
                name = line[3:].strip()
            elif line.startswith('DA:'):
                number, count = line[3:].split(',')[:2]
                instrumented.setdefault(name, set()).add(int(number))
                if int(count) > 0:
                    covered.setdefault(name, set()).add(int(number))
total_i = sum(len(v) for v in instrumented.values())
total_c = sum(len(covered.get(k, ())) for k in instrumented)
by_dir = {}
for name, lines in instrumented.items():
    parts = name.split('/')
    key = next(('/'.join(parts[i:i + 2]) for i in range(len(parts)) if parts[i] in ('src', 'tools')), name)
    i, c = by_dir.get(key, (0, 0))
    by_dir[key] = (i + len(lines), c + len(covered.get(name, ())))
for key in sorted(by_dir):
    i, c = by_dir[key]
    print(f'{key:32} {c:6} / {i:6} lines  {100.0 * c / i:5.1f} %')
print(f'{"all (" + str(len(instrumented)) + " files)":32} {total_c:6} / {total_i:6} lines  {100.0 * total_c / max(total_i, 1):5.1f} %')
EOF
}

export_lcov() {  # build dir: merges its profiles, writes its coverage.lcov from every instrumented program
  local dir=$1 exe
  llvm-profdata merge -sparse -o "$dir/coverage.profdata" "$dir"/profiles/*.profraw
  # One export per program, concatenated (the report takes the union of a file's sections): every program
  # has its own `main` and file-local functions of the same names, which one export over all of them would
  # drop as mismatched.
  : >"$dir/coverage.lcov"
  while IFS= read -r exe; do
    readelf -S "$exe" 2>/dev/null | grep -q llvm_covmap || continue
    llvm-cov export -format=lcov -instr-profile="$dir/coverage.profdata" "$exe" \
        -ignore-filename-regex='(^|/)(tests|fuzz|bench|build[^/]*|usr)/' >>"$dir/coverage.lcov"
  done < <(find "$dir" -path "$dir/CMakeFiles" -prune -o -type f -perm -u+x -print)
  [ -s "$dir/coverage.lcov" ] || { echo "coverage: no instrumented program in $dir" >&2; exit 1; }
}

case ${1:-} in
  run)
    [ $# -ge 2 ] || { echo "usage: $0 run NAME [CMAKE_ARGS...]" >&2; exit 2; }
    name=$2; shift 2
    scripts/deps.sh test
    dir="build-coverage-$name"
    flags="-fprofile-instr-generate -fcoverage-mapping"
    # The configure step's try_run checks and the programs the build runs (the tiny net's trainer) write their
    # profiles into the build folder, not into the sources.
    export LLVM_PROFILE_FILE="$PWD/$dir/build-%p.profraw"
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
        "-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_EXE_LINKER_FLAGS=-fprofile-instr-generate" \
        "$@" >/dev/null
    cmake --build "$dir" -j"$(nproc)"
    rm -rf "$dir/profiles"
    mkdir -p "$dir/profiles" "$dir/Testing/Temporary"
    [ -f "$dir/Testing/Temporary/CTestCostData.txt" ] || cp tests/test_costs.txt "$dir/Testing/Temporary/CTestCostData.txt"
    # %4m: one pool of four files per instrumented program, merged as the processes end (the suite starts
    # thousands of engine processes).
    # shellcheck disable=SC2086  # CTEST_ENV and CTEST_ARGS are lists
    (cd "$dir" && env LLVM_PROFILE_FILE="$PWD/profiles/%4m.profraw" ${CTEST_ENV:-} \
        ctest -j"$(nproc)" --timeout 1500 ${CTEST_ARGS:-}) || echo "coverage: some tests failed (coverage counted anyway)"
    export_lcov "$dir"
    report "$dir/coverage.lcov" ;;
  export)  # NAME: the lcov file of an earlier run again, from its profiles
    [ $# -eq 2 ] && [ -d "build-coverage-$2/profiles" ] || { echo "usage: $0 export NAME (a run's build-coverage-NAME/)" >&2; exit 2; }
    export_lcov "build-coverage-$2"
    report "build-coverage-$2/coverage.lcov" ;;
  union)
    [ $# -ge 2 ] || { echo "usage: $0 union NAME|FILE..." >&2; exit 2; }
    shift
    files=()
    for n in "$@"; do
      if [ -f "$n" ]; then files+=("$n")
      elif [ -f "build-coverage-$n/coverage.lcov" ]; then files+=("build-coverage-$n/coverage.lcov")
      else echo "coverage: no lcov file $n and no run named $n (build-coverage-$n/coverage.lcov)" >&2; exit 1
      fi
    done
    report "${files[@]}" ;;
  *) echo "usage: $0 run NAME [CMAKE_ARGS...] | $0 export NAME | $0 union NAME|FILE..." >&2; exit 2 ;;
esac
