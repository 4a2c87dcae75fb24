#!/usr/bin/env bash
# Writes release archives into dist/: for Linux (.tar.xz) and Windows (.zip), one per CPU variant
# (x86-64: any 64-bit x86 CPU; x86-64-popcnt; x86-64-bmi2), each holding the engine, README.md, LICENSE,
# the manual page (quince.6) and the polyglot ini, in a folder of the archive's name:
#     quince-VERSION-PLATFORM-VARIANT-benchSIGNATURE.tar.xz / .zip
# e.g. quince-0.2-linux-x86-64-bmi2-bench2997302.tar.xz. Version, variant and signature come from the
# binary's own `--version` (the Windows binary's through wine); every archive must carry the same
# bench signature (the variants and platforms search identically), or the script fails. An engine
# without tablebases is refused, and so is a Linux engine needing a shared library other than the C
# library's (libfathom, libstdc++, ...): the Linux builds come from scripts/build-linux.sh (Fathom, libstdc++
# and libgcc linked in statically), the Windows builds from scripts/build-windows.sh (static).
#
# usage: scripts/package.sh [--out DIR] [--platforms "linux windows"] [--variants "x86-64 popcnt bmi2"]
#        scripts/package.sh [--out DIR] --binary PATH [--binary PATH ...]   (package builds made already)
# The builds go to build-package/linux-VARIANT (scripts/build-linux.sh) and build-package/windows-VARIANT
# (scripts/build-windows.sh), which install their tool chains (`scripts/deps.sh release`, `windows`); this
# script installs `release` (readelf, xz) itself. A variant this machine's CPU lacks cannot run its
# build-time bench: build the packages on a CPU with BMI2.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh release >&2
out=dist
platforms="linux windows"
variants="x86-64 popcnt bmi2"
binaries=()
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --platforms) platforms=$2; shift 2 ;;
    --variants) variants=$2; shift 2 ;;
    --binary) binaries+=("$2"); shift 2 ;;
    *) echo "package.sh: unknown argument '$1' (see the usage at the top of the script)" >&2; exit 2 ;;
  esac
done
for f in README.md LICENSE docs/quince.6 docs/polyglot.ini; do
  [ -f "$f" ] || { echo "package.sh: $f is missing" >&2; exit 1; }
done

if [ ${#binaries[@]} -eq 0 ]; then
  for platform in $platforms; do
    for variant in $variants; do
      case $platform in
        linux)   QUINCE_LINUX_BUILD=build-package/linux-$variant scripts/build-linux.sh "$variant" >/dev/null
                 binaries+=("build-package/linux-$variant/quince") ;;
        windows) QUINCE_WINDOWS_BUILD=build-package/windows-$variant scripts/build-windows.sh "$variant" >/dev/null
                 binaries+=("build-package/windows-$variant/quince.exe") ;;
        *) echo "package.sh: unknown platform '$platform' (linux, windows)" >&2; exit 2 ;;
      esac
    done
  done
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
signature=""
stage=""
trap '[ -z "$stage" ] || rm -rf "$stage"' EXIT  # an error mid-way leaves no staging folder behind
for bin in "${binaries[@]}"; do
  [ -x "$bin" ] || [ -f "$bin" ] || { echo "package.sh: no binary at $bin" >&2; exit 1; }
  case $bin in
    *.exe) platform=windows; name=quince.exe  # run through wine, in scripts/build-windows.sh's prefix
           run=(env WINEDEBUG=-all WINEPREFIX="${WINEPREFIX:-$(cd "$(dirname "$bin")" && pwd)/wine}" wine "$bin") ;;
    *)     platform=linux; name=quince; run=("$bin") ;;
  esac
  if [ $platform = linux ]; then
    command -v readelf >/dev/null || { echo "package.sh: readelf is missing (scripts/deps.sh release installs binutils)" >&2; exit 1; }
    # Self-contained: the C library is the one shared library a Linux release engine may need.
    foreign=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
              grep -v -x -E 'libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|ld-linux-x86-64\.so\.2' || true)
    if [ -n "$foreign" ]; then
      echo "package.sh: $bin needs $(echo $foreign | sed 's/ /, /g'): not self-contained (build it with scripts/build-linux.sh)" >&2
      exit 1
    fi
  fi
  info=$("${run[@]}" --version | tr -d '\r')
  version=$(sed -n 's/^Quince \([0-9][0-9.]*\)$/\1/p' <<<"$info")
  bench=$(sed -n 's/^bench signature: \([0-9][0-9]*\) .*/\1/p' <<<"$info")
  variant=$(sed -n 's/^build: \(x86-64[a-z0-9-]*\)[ ,].*/\1/p' <<<"$info")
  if [ -z "$version" ] || [ -z "$bench" ] || [ -z "$variant" ]; then
    echo "package.sh: $bin --version lacks the version, bench signature or CPU variant:" >&2
    echo "$info" >&2
    exit 1
  fi
  if ! grep -q '^build: .*, Syzygy tablebases (Fathom)' <<<"$info"; then
    echo "package.sh: $bin was built without Syzygy tablebases: a release engine has them" >&2
    echo "(scripts/build-linux.sh and scripts/build-windows.sh build Fathom from Debian's source; see their messages)" >&2
    exit 1
  fi
  if [ -n "$signature" ] && [ "$bench" != "$signature" ]; then
    echo "package.sh: $bin has bench signature $bench, another binary $signature: not one release" >&2
    exit 1
  fi
  signature=$bench
  base=quince-$version-$platform-$variant-bench$bench
  stage=$(mktemp -d)
  mkdir "$stage/$base"
  cp "$bin" "$stage/$base/$name"
  cp README.md LICENSE docs/quince.6 docs/polyglot.ini "$stage/$base/"
  if [ $platform = windows ]; then
    rm -f "$out/$base.zip"
    (cd "$stage" && python3 -m zipfile -c "$out/$base.zip" "$base")
    echo "$out/$base.zip"
  else
    rm -f "$out/$base.tar.xz"
    tar -C "$stage" --owner=0 --group=0 --numeric-owner -cJf "$out/$base.tar.xz" "$base"
    echo "$out/$base.tar.xz"
  fi
  rm -rf "$stage"
done
