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
import uci_engine  # noqa: E402  (tools/uci_engine/)

ENGINE = uci_engine.quince_binary()


def timed_search(engine, fen, limit):
    """Searches `fen` from a fresh game with `go LIMIT` on a uci_engine.Engine; (seconds, SearchResult)."""
    engine.new_game()
    engine.position(fen)
    engine.isready()
    start = time.monotonic()
    result = engine.go(limit)
    return time.monotonic() - start, result


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
    with uci_engine.Engine(ENGINE).setup(a) as ea, uci_engine.Engine(ENGINE).setup(b) as eb:
        ta = tb = 0.0
        na = nb = 0
        for fen in fens:
            t, r = timed_search(ea, fen, f"depth {depth}")
            ta, na = ta + t, na + (r.nodes or 0)
            t, r = timed_search(eb, fen, f"depth {depth}")
            tb, nb = tb + t, nb + (r.nodes or 0)
    print(f"positions {len(fens)}, depth {depth}")
    print(f"A {sys.argv[2]:<28} time {ta:8.2f} s  nodes {na:>12}")
    print(f"B {sys.argv[3]:<28} time {tb:8.2f} s  nodes {nb:>12}")
    print(f"time B/A {tb / ta:.3f}   nodes B/A {nb / max(na, 1):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
