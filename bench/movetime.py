#!/usr/bin/env python3
"""How exactly an engine keeps `go movetime N`: the time from sending `go` to reading `bestmove`.

For every N and every position the engine gets `ucinewgame`, `position`, `isready`, then `go movetime N`, and
the wall time until its `bestmove` is taken. The UCI protocol (and every engine users compare with) searches
N ms; the table shows min / median / max over the runs and how many fell outside [N - LOW, N + HIGH]. The
positions include one with a single legal move, where an engine that stops early shows it at once. Load the
machine (e.g. a build on every core) to see the figures under the conditions users meet.

Usage: bench/movetime.py ENGINE [--times 200,500,1000,2500] [--repeat 3] [--low 20] [--high 150]
Exit status 1 when any run fell outside the window.
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
from uci_engine import Engine, EngineError  # noqa: E402  (tools/uci_engine/)

POSITIONS = [
    "startpos",
    "startpos moves e2e4 e7e5 g1f3 b8c6",
    "startpos moves e2e4 f7f5 d1h5",  # Black's only legal move is g7g6
    "fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 3 9",
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("engine")
    ap.add_argument("--times", default="200,500,1000,2500")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--low", type=int, default=20)
    ap.add_argument("--high", type=int, default=150)
    a = ap.parse_args()
    outside = 0
    try:
        with Engine(a.engine) as e:
            e.handshake()
            print(f"{'N ms':>6} {'runs':>5} {'min':>6} {'median':>7} {'max':>6}  outside [N-{a.low}, N+{a.high}]")
            for n in (int(t) for t in a.times.split(",")):
                times = []
                for _ in range(a.repeat):
                    for pos in POSITIONS:
                        e.new_game()
                        e.position(pos)
                        e.isready()
                        start = time.monotonic()
                        e.go(movetime=n)
                        times.append(round((time.monotonic() - start) * 1000))
                bad = sum(1 for t in times if t < n - a.low or t > n + a.high)
                outside += bad
                print(f"{n:>6} {len(times):>5} {min(times):>6} {statistics.median(times):>7.0f} {max(times):>6}  {bad}")
            e.quit(timeout=10)
    except EngineError as err:
        sys.exit(f"{a.engine}: {err}")
    return 1 if outside else 0


if __name__ == "__main__":
    sys.exit(main())
