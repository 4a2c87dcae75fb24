#!/usr/bin/env bash
# Builds the engine (Release, CPU features of this machine) and starts it: it speaks UCI on stdin/stdout.
# Installs only what the build needs (scripts/deps.sh build: cmake, g++, make, libfathom-dev if it can).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build >&2
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DQUINCE_BUILD_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" --target quince >&2
exec build/quince "$@"
