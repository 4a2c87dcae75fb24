#!/usr/bin/env bash
# Builds the engine (Release, CPU features of this machine) and starts it: it speaks UCI on stdin/stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh >&2
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DQUINCE_BUILD_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" --target quince >&2
exec build/quince "$@"
