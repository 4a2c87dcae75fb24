#!/usr/bin/env python3
"""Time to depth of build/quince under two option sets, on the built-in bench positions, in one run.

Each position is searched to a fixed depth (fresh hash, `ucinewgame`) under configuration A and then B;
the script prints per-configuration total time, total nodes and the ratio. Timings are noisy on a shared
machine: alternate A and B per position (done here) and compare ratios, not absolute times.

Usage: [QUINCE_BIN=path] bench/time_to_depth.py DEPTH "OPT=VAL[,OPT=VAL]" "OPT=VAL[,OPT=VAL]" [limit_positions]
Example: bench/time_to_depth.py 14 "Threads=1" "Threads=2"
         bench/time_to_depth.py 14 "LazyEval=true" "LazyEval=false"
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import uci_engine  # noqa: E402  (tools/uci_engine.py)

ENGINE = os.environ.get("QUINCE_BIN", "build/quince")


class Engine(uci_engine.Engine):
    """The shared UCI driver, set up with options, plus a timed fixed-depth search."""

    def __init__(self, options, binary=None):
        super().__init__(binary or ENGINE)
        self.last_lines = []  # the output of the last search, for callers that read more than the node count
        self.handshake()
        for name, value in options:
            self.set_option(name, value)
        self.isready()

    def wait(self, prefix):
        return self.wait_for(prefix)

    def search(self, fen, depth, limit=None):
        """Searches `fen` from a fresh game with `go depth DEPTH` (or `go LIMIT`); returns (seconds, nodes)."""
        self.new_game()
        self.position(fen)
        self.isready()
        start = time.monotonic()
        lines = self.go(limit or f"depth {depth}")
        elapsed = time.monotonic() - start
        self.last_lines = lines
        return elapsed, uci_engine.last_info_nodes(lines) or 0

    def close(self):
        self.quit()


def parse(spec):
    return [tuple(kv.split("=", 1)) for kv in spec.split(",") if kv]


def bench_positions():
    # `quince bench` does not list its FENs; read them from its source.
    fens = []
    for line in open("src/uci/bench.cpp"):
        line = line.strip()
        if line.startswith('"') and line.endswith('",') and "/" in line:
            fens.append(line[1:-2])
    return fens


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    depth = int(sys.argv[1])
    a, b = parse(sys.argv[2]), parse(sys.argv[3])
    limit = int(sys.argv[4]) if len(sys.argv) > 4 else None
    fens = bench_positions()[:limit]
    ea, eb = Engine(a), Engine(b)
    ta = tb = 0.0
    na = nb = 0
    for fen in fens:
        t, n = ea.search(fen, depth)
        ta, na = ta + t, na + n
        t, n = eb.search(fen, depth)
        tb, nb = tb + t, nb + n
    ea.close()
    eb.close()
    print(f"positions {len(fens)}, depth {depth}")
    print(f"A {sys.argv[2]:<28} time {ta:8.2f} s  nodes {na:>12}")
    print(f"B {sys.argv[3]:<28} time {tb:8.2f} s  nodes {nb:>12}")
    print(f"time B/A {tb / ta:.3f}   nodes B/A {nb / max(na, 1):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
