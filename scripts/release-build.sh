# shellcheck shell=bash
# Sourced by scripts/build-linux.sh and scripts/build-windows.sh, not run on its own: what the two release
# builds parse alike. `release_build_args DIR [VARIANT]` checks the CPU variant (default x86-64: runs on any
# 64-bit CPU; popcnt and bmi2 as CMake's QUINCE_CPU) and sets $variant, and creates DIR and sets $out to its
# absolute path. An unknown variant ends the calling script with exit code 2 and a message naming it.
# A new CPU variant goes here (and in CMakeLists.txt's QUINCE_CPU check).
# shellcheck disable=SC2034  # variant and out are the caller's
release_build_args() {
  variant=${2:-x86-64}
  case $variant in
    x86-64|popcnt|bmi2) ;;
    *) echo "unknown CPU variant '$variant' (x86-64, popcnt, bmi2)" >&2; exit 2 ;;
  esac
  mkdir -p "$1"
  out=$(cd "$1" && pwd)
}
