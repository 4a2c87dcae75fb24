#!/usr/bin/env bash
# Rebuilds the `quince` profile from the repository alone: the training set in data/training and the
# starting weights tools/tune/quince-start.txt, in three fits at falling learning rates (the recipe of the
# shipped profile), on two threads. The same data, seed and thread count give the same weights.
# usage: scripts/refit.sh [OUT]     (default: src/eval/profiles/quince.txt; then rebuild, bench, and match it)
# QUINCE_REFIT_THREADS (2) and QUINCE_REFIT_DATA (data/training) change the threads and the data.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-src/eval/profiles/quince.txt}
threads=${QUINCE_REFIT_THREADS:-2}
data=${QUINCE_REFIT_DATA:-data/training}
scripts/deps.sh build
[ -d build ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DQUINCE_BUILD_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" --target quince >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The shards as they are now, for all three fits (a data generation may be adding shards meanwhile).
find "$(cd "$data" && pwd)" -name 'shard-*.qtd.xz' | sort > "$work/set.list"
[ -s "$work/set.list" ] || { echo "refit: no shards under $data" >&2; exit 1; }
common=(--data "$work/set.list" --teacher --lambda 0 --reg 0.0001 --K 2.8494 --threads "$threads" --seed 1 --name quince)
build/quince tune "${common[@]}" --weights tools/tune/quince-start.txt --epochs 40 --patience 5 --out "$work/s1.txt"
build/quince tune "${common[@]}" --weights "$work/s1.txt" --lr 2 --epochs 30 --patience 4 --out "$work/s2.txt"
build/quince tune "${common[@]}" --weights "$work/s2.txt" --lr 0.5 --epochs 30 --patience 4 --out "$out"
echo "wrote $out: rebuild (cmake --build build), note the new bench, and play it against the old profile"
