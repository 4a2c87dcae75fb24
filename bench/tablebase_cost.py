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
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
from uci_engine import Engine  # noqa: E402  (tools/uci_engine.py)

ENGINE = os.environ.get("QUINCE_BIN", "build/quince")


def bench(path, depth):
    e = Engine(ENGINE)
    if path:
        e.set_option("SyzygyPath", path)
    e.send(f"bench {depth}")
    nodes = nps = None
    while nps is None:
        line = e.read_line()
        if line.startswith("info string error"):
            e.kill()
            sys.exit(line.strip())
        if line.startswith("Nodes searched:"):
            nodes = int(line.split()[-1])
        if line.startswith("Nodes/second:"):
            nps = int(line.split()[-1])
    e.quit()
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
