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
import subprocess
import sys
import time

ENGINE = os.environ.get("QUINCE_BIN", "build/quince")


class Engine:
    def __init__(self, options, binary=None):
        self.last_lines = []  # the output of the last search, for callers that read more than the node count
        self.p = subprocess.Popen([binary or ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def search(self, fen, depth, limit=None):
        """Searches `fen` from a fresh game with `go depth DEPTH` (or `go LIMIT`); returns (seconds, nodes)."""
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send("isready")
        self.wait("readyok")
        start = time.monotonic()
        self.send(f"go {limit or f'depth {depth}'}")
        lines = self.wait("bestmove")
        elapsed = time.monotonic() - start
        self.last_lines = lines
        nodes = 0
        for l in lines:
            if l.startswith("info") and " nodes " in l:
                nodes = int(l.split(" nodes ")[1].split()[0])
        return elapsed, nodes

    def close(self):
        self.send("quit")
        self.p.wait()


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
