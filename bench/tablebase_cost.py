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
from uci_engine import Engine, EngineError, quince_binary  # noqa: E402  (tools/uci_engine/)

ENGINE = quince_binary()


def bench(path, depth):
    """(nodes, nodes per second) of `bench DEPTH`, with SyzygyPath set to path unless it is empty."""
    try:
        with Engine(ENGINE) as e:
            if path:
                e.set_option("SyzygyPath", path)
            e.send(f"bench {depth}")
            lines = e.wait_for(("Nodes/second:", "info string error"), timeout=e.search_timeout)
            if lines[-1].startswith("info string error"):
                e.kill()  # (it would finish the bench before reading quit)
                sys.exit(lines[-1].strip())
    except EngineError as err:
        sys.exit(f"tablebase_cost: {err}")
    nodes = next((int(l.split()[-1]) for l in lines if l.startswith("Nodes searched:")), None)
    return nodes, int(lines[-1].split()[-1])


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
