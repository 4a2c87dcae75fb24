#!/usr/bin/env python3
"""Nodes per second of Quince against another UCI engine on the same positions, one thread each.

Each built-in bench position (read from src/uci/bench.cpp) is searched for MOVETIME ms by Quince and then
by the other engine (fresh game, Hash 16, Threads 1), alternating so that machine noise hits both alike.
Prints per-position and total nodes per second and the ratio Quince / other. Node counts are each
engine's own (they count nodes differently), so the ratio says how fast each walks its own tree, not how
deep it gets.

Usage: [QUINCE_BIN=path] bench/nps_vs.py OTHER_ENGINE [movetime_ms=1000] [limit_positions]
Example: bench/nps_vs.py /usr/games/ethereal-chess 2000
"""
import os
import sys

from time_to_depth import ENGINE, bench_positions, timed_search, uci_engine


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    other = sys.argv[1]
    movetime = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else None
    opts = [("Hash", "16"), ("Threads", "1")]
    fens = bench_positions()[:limit]
    engines = {"quince": uci_engine.Engine(ENGINE).setup(opts), "other": uci_engine.Engine(other).setup(opts)}
    totals = {k: [0.0, 0] for k in engines}
    for i, fen in enumerate(fens):
        row = []
        for name, e in engines.items():
            t, r = timed_search(e, fen, f"movetime {movetime}")
            totals[name][0] += t
            totals[name][1] += r.nodes or 0
            row.append((r.nodes or 0) / t)
        print(f"{i + 1:3} quince {row[0]:>10.0f} nps  other {row[1]:>10.0f} nps  ratio {row[0] / row[1]:.2f}")
    for e in engines.values():
        e.close()
    q = totals["quince"][1] / totals["quince"][0]
    o = totals["other"][1] / totals["other"][0]
    print(f"positions {len(fens)}, {movetime} ms each: quince {q:.0f} nps, {os.path.basename(other)} {o:.0f} nps, "
          f"ratio {q / o:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
