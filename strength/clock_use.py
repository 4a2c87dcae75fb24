#!/usr/bin/env python3
"""How an engine spends its clock, from the PGN of a timed match (quince-match writes each move's time).

    strength/clock_use.py GAMES.pgn [ENGINE ...]

For each engine (default: every player of the file): moves played, the mean time per move in four phases
of the game (the book's last move + 1 to +10, +11 to +30, +31 to +60, beyond), and the clock left when the
game ended, as a share of the base time: mean, median, and the share of games that ended with more than half
of the base time unused. A clock that ends full in long games is time left on the table. Needs the
TimeControl tag as BASE+INC in seconds (10+0.1); games with another tag are skipped.
"""
import re
import statistics
import sys

TIME = re.compile(r"\{[^}]*?(\d+(?:\.\d+)?)s\}")


def games(path):
    text = open(path, encoding="utf-8").read()
    for block in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
        moves = block.split("\n\n", 1)[1] if "\n\n" in block else ""
        yield tags, [float(t) for t in TIME.findall(moves)]


def main():
    path, wanted = sys.argv[1], set(sys.argv[2:])
    phases = [(1, 10), (11, 30), (31, 60), (61, 10**6)]
    stats = {}
    for tags, times in games(path):
        tc = re.fullmatch(r"(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)", tags.get("TimeControl", ""))
        if not tc or not times:
            continue
        base, inc = float(tc.group(1)), float(tc.group(2))
        for side, name in ((0, tags["White"]), (1, tags["Black"])):
            if wanted and name not in wanted:
                continue
            # The side that moves first in the game (White unless the FEN says black to move).
            first = 1 if " b " in tags.get("FEN", " w ") else 0
            mine = times[(side - first) % 2::2]
            s = stats.setdefault(name, {"moves": 0, "phase": [[] for _ in phases], "left": []})
            s["moves"] += len(mine)
            for i, t in enumerate(mine, 1):
                for k, (lo, hi) in enumerate(phases):
                    if lo <= i <= hi:
                        s["phase"][k].append(t)
            s["left"].append((base + inc * len(mine) - sum(mine)) / base)
    if not stats:
        sys.exit("clock_use: no timed game with a BASE+INC TimeControl tag")
    print("engine | games | moves | s/move 1-10 | 11-30 | 31-60 | 61+ | clock left at the end (share of base): mean | median | >50%")
    for name, s in sorted(stats.items()):
        means = ["%.3f" % statistics.mean(p) if p else "-" for p in s["phase"]]
        left = s["left"]
        print(f"{name} | {len(left)} | {s['moves']} | " + " | ".join(means) +
              f" | {statistics.mean(left):.2f} | {statistics.median(left):.2f} | {sum(x > 0.5 for x in left) / len(left):.0%}")


if __name__ == "__main__":
    main()
