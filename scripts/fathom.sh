#!/usr/bin/env bash
# Builds Fathom, the Syzygy tablebase prober, as a static library from Debian's source package, for the
# builds that must not depend on an installed libfathom: the self-contained Linux release engine
# (scripts/build-linux.sh) and the Windows engine (scripts/build-windows.sh).
# usage: [CC=compiler] [AR=archiver] [CFLAGS=extra flags] scripts/fathom.sh OUT_DIR
#   writes OUT_DIR/libfathom.a and OUT_DIR/include/{tbprobe.h,tbconfig.h} (kept when present already);
#   exit status 1, with the reason on stderr, when the source cannot be fetched or compiled.
# The source is fetched once with `apt-get source fathom`, through a private apt list made from the
# system's Debian sources as deb-src (no root needed, the system's apt state untouched), into
# QUINCE_FATHOM_SOURCE (default build-fathom in the repository); nothing is copied into the repository. tbprobe.c is compiled
# with the defines of Debian's debian/rules (no threads in Fathom, software popcount: the library runs on
# every x86-64 CPU variant).
# Needs dpkg-dev (dpkg-source unpacks the source package): scripts/deps.sh windows or release.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: scripts/fathom.sh OUT_DIR" >&2; exit 2; }
mkdir -p "$1" ${QUINCE_FATHOM_SOURCE:+"$QUINCE_FATHOM_SOURCE"}
out=$(cd "$1" && pwd)
source_dir=$(cd "${QUINCE_FATHOM_SOURCE:-$(dirname "$0")/..}" && pwd)
[ -n "${QUINCE_FATHOM_SOURCE:-}" ] || source_dir=$source_dir/build-fathom
cc=${CC:-gcc}
ar=${AR:-ar}
if [ -f "$out/libfathom.a" ] && [ -f "$out/include/tbprobe.h" ]; then
  exit 0
fi

fetch_source() {
  local apt=$source_dir/apt
  mkdir -p "$apt/parts" "$apt/lists/partial" "$apt/cache" "$source_dir/src"
  : > "$apt/parts/debian-src.list"
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && sed -n 's/^deb \(.*debian.*\)$/deb-src \1/p' "$f" >> "$apt/parts/debian-src.list"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && grep -q debian "$f" && sed 's/^Types: deb$/Types: deb-src/' "$f" > "$apt/parts/$(basename "$f")"
  done
  local opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$apt/parts" -o "Dir::State::Lists=$apt/lists"
              -o "Dir::Cache=$apt/cache" -o APT::Sandbox::User=root)
  apt-get "${opts[@]}" update -qq &&
    (cd "$source_dir/src" && rm -rf fathom-* && apt-get "${opts[@]}" -qq source fathom >&2)
}
src=$(ls -d "$source_dir"/src/fathom-*/src 2>/dev/null | head -1 || true)
if [ -z "$src" ] || [ ! -f "$src/tbprobe.c" ]; then
  fetch_source || { echo "fathom.sh: could not fetch Debian's fathom source (apt-get source fathom)" >&2; exit 1; }
  src=$(ls -d "$source_dir"/src/fathom-*/src | head -1)
fi
mkdir -p "$out/include"
# shellcheck disable=SC2086  # CFLAGS is a list of flags
"$cc" -std=gnu99 -O2 -Wall -DTB_NO_THREADS -DTB_NO_HW_POP_COUNT ${CFLAGS:-} -I"$src" \
    -c "$src/tbprobe.c" -o "$out/tbprobe.o" &&
  rm -f "$out/libfathom.a" && "$ar" rcs "$out/libfathom.a" "$out/tbprobe.o" &&
  cp "$src/tbprobe.h" "$src/tbconfig.h" "$out/include/" ||
  { echo "fathom.sh: could not compile Debian's fathom source with $cc" >&2; rm -f "$out/libfathom.a"; exit 1; }
