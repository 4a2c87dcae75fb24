#!/usr/bin/env python3
"""Cost of the tablebase probes: UCI `bench` of build/quince with and without SyzygyPath, alternating.

The bench positions have many pieces, so with 3-4-piece tables this mostly measures the probe check
(piece count against the table size, at every node) plus the few probes of lines that trade down.
Prints `Nodes searched` (the node count may differ when probes cut lines) and `Nodes/second` of each
run and the median ratio. Timings are noisy on a shared machine: compare medians of several repeats.

Usage: [QUINCE_BIN=path] bench/tablebase_cost.py SYZYGY_DIR [repeats] [depth]
"""
import os
import statistics
import subprocess
import sys

ENGINE = os.environ.get("QUINCE_BIN", "build/quince")


def bench(path, depth):
    p = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    if path:
        p.stdin.write(f"setoption name SyzygyPath value {path}\n")
    p.stdin.write(f"bench {depth}\n")
    p.stdin.flush()
    nodes = nps = None
    for line in p.stdout:
        if line.startswith("info string error"):
            sys.exit(line.strip())
        if line.startswith("Nodes searched:"):
            nodes = int(line.split()[-1])
        if line.startswith("Nodes/second:"):
            nps = int(line.split()[-1])
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return nodes, nps


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    depth = int(sys.argv[3]) if len(sys.argv) > 3 else 13
    ratios = []
    for i in range(repeats):
        n0, s0 = bench("", depth)
        n1, s1 = bench(path, depth)
        ratios.append(s1 / s0)
        print(f"run {i + 1}: without: {n0} nodes {s0} nps | with SyzygyPath: {n1} nodes {s1} nps | ratio {s1 / s0:.3f}")
    print(f"median nps ratio (with / without): {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
